// How values read in a spreadsheet opened where the viewer is: a date-time as the wall-clock time of
// a time zone in the one form every Excel locale parses (`2026-11-21 00:30:00`), and the decimal
// mark of a locale (German, French and Dutch write 12,5), which decides how Excel splits a CSV's
// fields. Shared by the server's exports and the browser's card downloads ("CSV for Excel").

const wallClock = new Map<string, Intl.DateTimeFormat>();

function wallClockIn(timeZone: string): Intl.DateTimeFormat {
  let f = wallClock.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    wallClock.set(timeZone, f);
  }
  return f;
}

/**
 * `2026-11-20T23:30:00Z` in Europe/Berlin -> `2026-11-21 00:30:00`: the instant's date and time of
 * day in `timeZone` (seconds kept, fractions dropped), or undefined when `iso` is not a date-time.
 */
export function spreadsheetDateTime(iso: string, timeZone: string): string | undefined {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  // UTC needs no zone lookup: the common case of every plain export stays cheap.
  if (timeZone === "UTC") return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
  const parts: Record<string, string> = {};
  for (const p of wallClockIn(timeZone).formatToParts(ms)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
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
