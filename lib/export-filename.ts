// File names for exports that say what the file holds: the resource, the filters applied, the date
// range, and the day it was exported, e.g.
// visitors_source-chatgpt_converted-true_2026-11-01_to_2026-11-20_2026-11-22.csv
// Shared by the server's exports and the browser's small-table downloads. Only [A-Za-z0-9._-]
// reach the name, so it is safe in Content-Disposition and on every file system.

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

/**
 * The name of an export file. Filters are named `key-value` in the order given (pass the parsed query
 * object, whose key order is the schema's); `from`/`to` become a date range; an unfiltered export
 * says `all`.
 */
export function exportFilename(resource: string, filters: FilenameFilters, extension: string, now: Date = new Date()): string {
  const parts = [safePart(resource) || "export"];
  let filtered = false;
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === "" || key === "from" || key === "to" || NOT_FILTERS.has(key)) continue;
    const v = safePart(String(value));
    if (!v) continue;
    parts.push(`${safePart(key)}-${v}`);
    filtered = true;
  }
  const from = filters.from === undefined || filters.from === "" ? "" : safePart(String(filters.from));
  const to = filters.to === undefined || filters.to === "" ? "" : safePart(String(filters.to));
  if (from && to) parts.push(`${from}_to_${to}`);
  else if (from) parts.push(`from_${from}`);
  else if (to) parts.push(`to_${to}`);
  if (!filtered && !from && !to) parts.push("all");
  parts.push(utcDay(now));
  return `${parts.join("_")}.${safePart(extension) || "txt"}`;
}
