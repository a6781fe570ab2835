// File names for exports that say what the file holds: the resource, the filters applied, the date
// range, and the day it was exported, e.g.
// visitors_source-chatgpt_converted-true_2026-11-01_to_2026-11-20_2026-11-22.csv
// Shared by the server's exports and the browser's small-table downloads. Only [A-Za-z0-9._-]
// reach the name, so it is safe in Content-Disposition and on every file system. Given the viewer's
// zone, a range sent as that zone's instants (Berlin's 28 Oct - 26 Nov is 2026-10-27T23:00:00.000Z
// to 2026-11-26T22:59:59.999Z) is named by its calendar days, as the page showed it, and the export's
// day is the viewer's today.
import { calendarDayNumber } from "@/lib/data-api/params";
import { dayStart, todayIn } from "@/lib/range/calendar";

export type FilenameFilters = Record<string, string | number | boolean | undefined>;

/** Query parameters that change how rows are delivered, not which rows: never part of a name. */
const NOT_FILTERS = new Set(["limit", "offset", "format"]);

const MAX_PART = 40;

/** Keeps letters, digits, `_`, `.`, `-`; anything else (`:` of a time, spaces) becomes `-`. */
function safePart(value: string): string {
  return value
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, MAX_PART);
}

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The day `date` falls on in `tz` (UTC without one). */
export function dayIn(date: Date, tz?: string): string {
  return tz ? todayIn(tz, date.getTime()) : utcDay(date);
}

/**
 * A `from`/`to` bound as the name shows it: a date as it is; an instant that is exactly the first
 * (`from`) or last (`to`) millisecond of a day in `tz`, as that day; any other instant as its text,
 * since naming its day would claim hours the file does not hold.
 */
function boundPart(value: string, end: "from" | "to", tz: string | undefined): string {
  const ms = Date.parse(value);
  if (!tz || calendarDayNumber(value) !== null || Number.isNaN(ms)) return safePart(value);
  const day = todayIn(tz, ms);
  const n = calendarDayNumber(day)!;
  const edge = end === "from" ? dayStart(n, tz) : dayStart(n + 1, tz) - 1;
  return edge === ms ? day : safePart(value);
}

/**
 * The name of an export file. Filters are named `key-value` in the order given (pass the parsed query
 * object, whose key order is the schema's); `from`/`to` become a date range (days in `tz`, see
 * boundPart); an unfiltered export says `all`; last, the day of the export in `tz` (UTC without one).
 */
export function exportFilename(resource: string, filters: FilenameFilters, extension: string, now: Date = new Date(), tz?: string, variant?: string): string {
  const parts = [safePart(resource) || "export"];
  let filtered = false;
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === "" || key === "from" || key === "to" || NOT_FILTERS.has(key)) continue;
    const v = safePart(String(value));
    if (!v) continue;
    parts.push(`${safePart(key)}-${v}`);
    filtered = true;
  }
  const from = filters.from === undefined || filters.from === "" ? "" : boundPart(String(filters.from), "from", tz);
  const to = filters.to === undefined || filters.to === "" ? "" : boundPart(String(filters.to), "to", tz);
  if (from && to) parts.push(`${from}_to_${to}`);
  else if (from) parts.push(`from_${from}`);
  else if (to) parts.push(`to_${to}`);
  if (!filtered && !from && !to) parts.push("all");
  parts.push(dayIn(now, tz));
  // Two files of one view in two forms (CSV and CSV for Excel) must not take each other's name.
  if (variant) parts.push(safePart(variant));
  return `${parts.join("_")}.${safePart(extension) || "txt"}`;
}
