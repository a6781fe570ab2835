// How values read in a spreadsheet opened where the viewer is: a date-time as the wall-clock time of
// a time zone in the one form every Excel locale parses (`2026-11-21 00:30:00`), and the decimal
// mark of a locale (German, French and Dutch write 12,5), which decides how Excel splits a CSV's
// fields. Shared by the server's exports and the browser's card downloads ("CSV for Excel").
import { fieldsIn } from "./format";

/**
 * `2026-11-20T23:30:00Z` in Europe/Berlin -> `2026-11-21 00:30:00`: the instant's date and time of
 * day in `timeZone` (seconds kept, fractions dropped), or undefined when `iso` is not a date-time.
 */
export function spreadsheetDateTime(iso: string, timeZone: string): string | undefined {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  // UTC needs no zone lookup: the common case of every plain export stays cheap.
  if (timeZone === "UTC") return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
  const f = fieldsIn(ms, timeZone);
  if (!f) return undefined;
  const two = (n: number) => String(n).padStart(2, "0");
  return `${String(f.year).padStart(4, "0")}-${two(f.month)}-${two(f.day)} ${two(f.hour)}:${two(f.minute)}:${two(f.second)}`;
}

/** Whether `locale` is a language tag Intl accepts (`de`, `de-DE`, `pt-BR`, `zh-Hant-TW`). */
export function isLocaleTag(locale: string): boolean {
  if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,4}$/.test(locale)) return false;
  try {
    return Intl.getCanonicalLocales(locale).length === 1;
  } catch {
    return false;
  }
}

/** The decimal mark numbers are written with in `locale`: "," for de, fr, nl; "." for en. */
export function decimalMark(locale: string): "." | "," {
  const mark = new Intl.NumberFormat(isLocaleTag(locale) ? locale : "en-US").formatToParts(1.5).find((p) => p.type === "decimal")?.value;
  return mark === "," ? "," : ".";
}
