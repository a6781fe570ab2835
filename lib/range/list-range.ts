// The app's range on the list pages (/visitors, /mentions): the URL's `from`, `to`, `tz` read as the
// lists always read them, and turned into the Data API's list filters. The header's range control and
// the list's own date fields both show this reading, so the page has one range, not two.
// - `from`/`to` dates in `tz` become `listBounds`: the dates themselves in UTC, the zone's instants
//   elsewhere. A URL without `tz` reads its dates in UTC: what `/visitors?from=…&to=…` meant before
//   ranges had a zone, so old links keep their rows.
// - A datetime `from`/`to` (e.g. an overview window's instants) is passed on as it is, as before.
// - No `from`/`to`: all time, whatever `tz` says. There is no longest range: a list may span years.
// Problems are found per field with the list routes' own schema, so the page finds what the route
// would refuse, without asking it, and says it in the UI's words.
import { calendarDayNumber, isTimeZoneName, visitorListParams } from "@/lib/data-api/params";
import { addDays, dayStart, todayIn } from "./calendar";
import { problemOf, type DateRange, type RangeProblems } from "./date-range";

/** The zone a list reads URL dates in when the URL names none. */
export const LIST_DEFAULT_TZ = "UTC";

/** The pages whose range is their list filter. */
export const LIST_PATHS = ["/visitors", "/mentions"] as const;
export const isListPath = (pathname: string) => (LIST_PATHS as readonly string[]).includes(pathname);

type RawRange = { from?: string | null; to?: string | null; tz?: string | null };

export type ListRange = {
  /** The range as calendar days in `tz`, for the controls (an instant shows as its day there). */
  range: DateRange;
  /** Whether the URL filters by date at all (valid or not); without it the list is all time. */
  explicit: boolean;
  /** The URL's ends that are instants, not dates (shown as such instead of as days). */
  instants: { from?: string; to?: string };
  problems: RangeProblems;
  /** The list routes' `from`/`to`: what the Data API is asked for (invalid values as given, for the route to name). */
  query: { from?: string; to?: string };
};

/** The list filter one end of the range stands for (see the module comment). */
function endBound(value: string, end: "from" | "to", tz: string): string {
  const day = calendarDayNumber(value);
  if (day === null || tz === "UTC") return value;
  // [start of `from`, start of the day after `to`) in `tz`; `to` is the last millisecond inside.
  return new Date(end === "from" ? dayStart(day, tz) : dayStart(day + 1, tz) - 1).toISOString();
}

/** The calendar day of a valid date or instant in `tz`. */
function dayIn(value: string, tz: string): string {
  return calendarDayNumber(value) === null ? todayIn(tz, Date.parse(value)) : value;
}

/**
 * `viewerTz` is the zone of a list without any range (where the presets would start); dates given
 * without `tz` are still UTC days.
 */
export function resolveListRange(raw: RawRange, nowMs: number, viewerTz = LIST_DEFAULT_TZ): ListRange {
  const from = raw.from || undefined;
  const to = raw.to || undefined;
  const problems: RangeProblems = {};
  const tzGiven = raw.tz || undefined;
  if (tzGiven && !isTimeZoneName(tzGiven)) problems.tz = "unknown_zone";
  const tz = tzGiven && !problems.tz ? tzGiven : from || to ? LIST_DEFAULT_TZ : viewerTz;
  // Visitors and mentions share one from/to rule; the visitors schema states it.
  const parsed = visitorListParams.safeParse({ from, to });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      if ((key === "from" || key === "to") && !problems[key]) problems[key] = problemOf(key, issue);
    }
  }
  const instants = {
    ...(from && !problems.from && calendarDayNumber(from) === null ? { from } : {}),
    ...(to && !problems.to && calendarDayNumber(to) === null ? { to } : {}),
  };
  const today = todayIn(tz, nowMs);
  const shownTo = to && !problems.to ? dayIn(to, tz) : today;
  const shownFrom = from && !problems.from ? dayIn(from, tz) : addDays(shownTo, -29);
  const query = {
    ...(from ? { from: endBound(from, "from", tz) } : {}),
    ...(to ? { to: endBound(to, "to", tz) } : {}),
  };
  return {
    range: { from: shownFrom, to: shownTo, tz },
    explicit: Boolean(from || to),
    instants,
    problems,
    query,
  };
}

export type ListValues = Record<string, string | null> & { from: string | null; to: string | null; tz: string | null };

/**
 * A list view's URL values as its route's query: the filters and paging as given (absent ones left
 * out), `from`/`to` as the range's list filters, `tz` spent on them. The server page's prefetch, the
 * list's widget and the export all ask with this one query.
 */
export function listQuery<T extends ListValues>(values: T, nowMs = Date.now()): { query: { [K in Exclude<keyof T, "tz">]?: string }; range: ListRange } {
  const range = resolveListRange(values, nowMs);
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    // `range` (a relative range) is the page's, never the Data API's: proxy.ts has made it `from`/`to`.
    if (key !== "tz" && key !== "from" && key !== "to" && key !== "range" && value) query[key] = value;
  }
  return { query: { ...query, ...range.query } as { [K in Exclude<keyof T, "tz">]?: string }, range };
}
