// The suite's one clock. The browser, the dashboard's server and the sandbox all read the machine's
// real time (playwright.config.ts starts the sandbox without SANDBOX_NOW, so its rows end now), and
// every date a test types or expects is counted from it: nothing in e2e/ names a calendar date of
// its own, so the tests mean the same thing on any day they run. clock.setup.ts checks before any
// test that the sandbox really is on this clock, and stops the run at once if not.

const DAY_MS = 86_400_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The calendar date `days` from today, in UTC (`YYYY-MM-DD`); negative is the past. */
export const utcDate = (days = 0): string => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

/** `date` moved by `days` calendar days. */
export function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The same calendar date a year before (29 Feb reads 28 Feb), as the comparison "a year before" counts. */
export function yearBefore(date: string): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y - 1, m, 0)).getUTCDate();
  return `${String(y - 1).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

/** A day as the dashboard writes it: "3 Nov", or "3 Nov 2026" with the year. */
export function dayText(date: string, withYear = true): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return withYear ? `${d} ${MONTHS[m - 1]} ${y}` : `${d} ${MONTHS[m - 1]}`;
}

/** A range as the dashboard writes it: "1 Nov – 5 Nov 2026", "20 Dec 2025 – 5 Jan 2026", one day "3 Nov 2026". */
export function rangeText(from: string, to: string): string {
  if (from === to) return dayText(to);
  return `${dayText(from, from.slice(0, 4) !== to.slice(0, 4))} – ${dayText(to)}`;
}

/** The instant (ISO, UTC) at which `date` starts in `timeZone`. */
export function zoneMidnight(date: string, timeZone: string): string {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  // The zone's offset at that instant, then once more at the corrected instant (a clock change that day).
  const offsetAt = (ms: number) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      })
        .formatToParts(new Date(ms))
        .map((p) => [p.type, p.value]),
    );
    return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second)) - ms;
  };
  let guess = utcMidnight - offsetAt(utcMidnight);
  guess = utcMidnight - offsetAt(guess);
  return new Date(guess).toISOString();
}

/** The instant (ISO, UTC) at which the day after `date` starts in `timeZone`, less 1 ms: the day's last instant. */
export const zoneDayEnd = (date: string, timeZone: string): string => new Date(Date.parse(zoneMidnight(shiftDate(date, 1), timeZone)) - 1).toISOString();

/** How far the sandbox's clock may be from this machine's before the run stops (its start takes a moment). */
export const CLOCK_TOLERANCE_MS = 10 * 60_000;
