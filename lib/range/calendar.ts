// Calendar days in a time zone, shared by the server (insights windows) and the browser (the header's
// date range, drill-down links). Calendar arithmetic runs on day numbers (days since 1970-01-01, one
// step per day); only a date's first instant in a zone asks @date-fns/tz, which knows the zone's
// offsets and clock changes (a 23- or 25-hour day, a midnight that does not exist).
import { TZDate } from "@date-fns/tz";
import { calendarDayNumber } from "@/lib/data-api/params";

export const DAY_MS = 86_400_000;

/** The calendar date `YYYY-MM-DD` of a day number (its UTC fields: a calendar, not a clock). */
export const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The first instant of a day number's date in `tz` (if the zone skips midnight that day, its first existing minute). */
export function dayStart(day: number, tz: string): number {
  const d = new Date(day * DAY_MS);
  return new TZDate(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), tz).getTime();
}

/** Today's date in `tz` at the instant `nowMs`. */
export function todayIn(tz: string, nowMs: number): string {
  const local = new TZDate(nowMs, tz);
  return dateOf(Date.UTC(local.getFullYear(), local.getMonth(), local.getDate()) / DAY_MS);
}

/** `date` moved by `days` calendar days (a valid `YYYY-MM-DD` in, one out). */
export function addDays(date: string, days: number): string {
  return dateOf(calendarDayNumber(date)! + days);
}

/** How many calendar days `from`..`to` spans, both inclusive. */
export function daysBetween(from: string, to: string): number {
  return calendarDayNumber(to)! - calendarDayNumber(from)! + 1;
}
