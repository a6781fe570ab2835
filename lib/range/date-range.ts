// The app's one date range (docs/product.md "One date range for the whole app"): calendar dates `from`..`to`, both inclusive, in
// the time zone `tz`, carried across pages in the URL (`from`, `to`, `tz`). Shared by the server
// pages, the header's range control, the insights widgets and the drill-down links, so every page
// reads a range the same way. A URL without a range keeps its old meaning: the lists show all time,
// the overview its default period; the insights widgets take the default range (the last 30 days).
import { parseAsString } from "nuqs/server";
import { INSIGHTS_DEFAULT_DAYS } from "@/lib/data-api/constants";
import type { z } from "zod";
import { calendarDayNumber, rangeIssueReason } from "@/lib/data-api/params";
import { insightsParams } from "@/lib/insights/schema";
import type { RangeProblem } from "@/lib/ui/messages";
import { addDays, dayStart, daysBetween, todayIn } from "./calendar";

export type DateRange = { from: string; to: string; tz: string };

/** The range's URL parameters (nuqs parsers, for server loaders and useQueryStates alike). */
export const dateRangeSearchParams = {
  from: parseAsString,
  to: parseAsString,
  tz: parseAsString,
};

export const RANGE_PRESETS = [
  { id: "today", days: 1, label: "Today" },
  { id: "7d", days: 7, label: "7 days" },
  { id: "30d", days: 30, label: "30 days" },
  { id: "90d", days: 90, label: "90 days" },
] as const;
export type RangePresetId = (typeof RANGE_PRESETS)[number]["id"];

/** The preset's range: `days` calendar days ending today in `tz`. */
export function presetRange(days: number, tz: string, nowMs: number): DateRange {
  const to = todayIn(tz, nowMs);
  return { from: addDays(to, -(days - 1)), to, tz };
}

/** The preset a range is (ending today in its zone), or null for a custom range. */
export function presetOf(range: DateRange, nowMs: number): RangePresetId | null {
  if (range.to !== todayIn(range.tz, nowMs)) return null;
  const days = daysBetween(range.from, range.to);
  return RANGE_PRESETS.find((p) => p.days === days)?.id ?? null;
}

/**
 * What is wrong with each given range parameter, by name, as a reason the UI words
 * (lib/ui/messages.ts `rangeProblemText`); empty when all are fine.
 */
export type RangeProblems = Partial<Record<keyof DateRange, RangeProblem>>;

/** The problem a range issue of the routes' schema stands for: the cross-field reason it carries, else a bad value. */
export function problemOf(key: keyof DateRange, issue: z.core.$ZodIssue): RangeProblem {
  return rangeIssueReason(issue) ?? (key === "tz" ? "unknown_zone" : "not_a_date");
}

export type ResolvedRange = {
  /** The range to show: the URL's when valid, else the default (the last 30 days in the viewer's zone). */
  range: DateRange;
  /** Whether the URL sets a range (from or to); without one, lists mean all time. */
  explicit: boolean;
  problems: RangeProblems;
};

/**
 * Reads a range from URL values with the insights routes' own schema (lib/data-api/params.ts), so
 * the page finds the same problem the route would (and says it in the UI's words). `viewerTz` is the zone when the URL names none.
 */
export function resolveDateRange(raw: { from?: string | null; to?: string | null; tz?: string | null }, viewerTz: string, nowMs: number): ResolvedRange {
  const given = { from: raw.from || undefined, to: raw.to || undefined, tz: raw.tz || viewerTz };
  const parsed = insightsParams.safeParse(given);
  const problems: RangeProblems = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      if ((key === "from" || key === "to" || key === "tz") && !problems[key]) problems[key] = problemOf(key, issue);
    }
  }
  const tz = problems.tz ? viewerTz : given.tz;
  const explicit = Boolean(given.from || given.to);
  const fallback = presetRange(INSIGHTS_DEFAULT_DAYS, tz, nowMs);
  if (problems.from || problems.to || !explicit) return { range: fallback, explicit: explicit && !problems.from && !problems.to, problems };
  const to = given.to ?? todayIn(tz, nowMs);
  const from = given.from ?? addDays(to, -(INSIGHTS_DEFAULT_DAYS - 1));
  return { range: { from, to, tz }, explicit, problems };
}

/** The previous period: as many calendar days, ending the day before `from`. */
export function previousRange(range: DateRange): DateRange {
  const days = daysBetween(range.from, range.to);
  return { from: addDays(range.from, -days), to: addDays(range.from, -1), tz: range.tz };
}

/**
 * The range as the Data API's list filters (`/visitors`, `/mentions`): in UTC the dates themselves
 * (a date-only `to` includes that whole day); in another zone the instants [start of `from`, start
 * of the day after `to`) in that zone, `to` being the last millisecond inside.
 */
export function listBounds(range: DateRange): { from: string; to: string } {
  if (range.tz === "UTC") return { from: range.from, to: range.to };
  const first = calendarDayNumber(range.from)!;
  const last = calendarDayNumber(range.to)!;
  return { from: new Date(dayStart(first, range.tz)).toISOString(), to: new Date(dayStart(last + 1, range.tz) - 1).toISOString() };
}

/** The URL parameters that carry a range to another page (`from`, `to`, `tz`). */
export const rangeParams = (range: DateRange): Record<keyof DateRange, string> => ({ from: range.from, to: range.to, tz: range.tz });
