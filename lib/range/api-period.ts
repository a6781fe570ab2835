// The Data API's own periods (`24h`, `7d`, `30d`, `90d`: that much time up to now) next to the app's
// date range. Pageviews and the funnel exist only for these periods, so a page that shows them
// beside the range takes the period that matches it (Today and 24 hours, 7, 30 and 90 days) or,
// for a custom range, the nearest one, and says which in words. Also the other way: an old overview
// URL's `?period=7d` means the header's range "Last 7 days".
import { PERIODS, type Period } from "@/lib/data-api/constants";
import { isRangePresetId } from "@/lib/ui/page-params";
import { daysBetween } from "./calendar";
import { presetOf, presetRange, RANGE_PRESETS, resolveDateRange, type DateRange, type RangePresetId } from "./date-range";
import { formatDateRange } from "@/lib/format/format";

/** How long each period is, in words ("30 days" is 30×24 hours up to now). */
const SPANS: Record<Period, string> = { "24h": "24 hours", "7d": "7 days", "30d": "30 days", "90d": "90 days" };

/** Each period's length in days, to find the nearest to a range. */
const DAYS: Record<Period, number> = { "24h": 1, "7d": 7, "30d": 30, "90d": 90 };

/** The period each header preset stands for. */
const PERIOD_OF_PRESET: Record<RangePresetId, Period> = { today: "24h", "7d": "7d", "30d": "30d", "90d": "90d" };

/** A period's window as a figure's name says it: "last 30 days up to now". */
export const periodWindowLabel = (period: Period): string => `last ${SPANS[period]} up to now`;

/** What a period's changes compare with: "the 30 days before". */
export const periodPreviousLabel = (period: Period): string => `the ${SPANS[period]} before`;

export type RangePeriod = {
  period: Period;
  /** The range is the header's preset of this period (ending today); otherwise the period is only the nearest. */
  matches: boolean;
};

/**
 * The period for a range: its preset's when the range is one (Today is 24 hours), else the period
 * nearest in length. Nearness is by ratio, not difference: 18 days is nearer 30 days (1.7 times)
 * than 7 (2.6 times), as a reader would judge it.
 */
export function periodForRange(range: DateRange, nowMs: number): RangePeriod {
  const preset = presetOf(range, nowMs);
  if (preset) return { period: PERIOD_OF_PRESET[preset], matches: true };
  const days = daysBetween(range.from, range.to);
  const distance = (p: Period) => Math.abs(Math.log(days / DAYS[p]));
  // Ties go to the longer period (PERIODS is shortest first, and only a strictly nearer one replaces).
  const period = PERIODS.reduce((best, p) => (distance(p) <= distance(best) ? p : best), PERIODS[0]);
  return { period, matches: false };
}

/** The header's range an old overview URL's `period` stands for: its preset, ending today in `tz`. */
export function rangeOfPeriod(period: Period, tz: string, nowMs: number): DateRange {
  return presetRange(DAYS[period], tz, nowMs);
}

/**
 * Where an old overview URL (`/?period=7d`, from before the header had a range) goes: the query of
 * the same page with the range the period stands for, in the URL's `tz` when it names a real zone,
 * else in the viewer's days (no `tz` added); other parameters kept, `period` dropped, in sorted order
 * as the app writes its URLs. Null when there is nothing to send on: no period, a value that is not
 * one (the page names it), or a URL that already has a range (the range wins).
 */
export function legacyPeriodSearch(search: URLSearchParams, viewerTz: string, nowMs: number): string | null {
  const periods = search.getAll("period");
  if (periods.length !== 1 || !(PERIODS as readonly string[]).includes(periods[0]!) || search.has("from") || search.has("to")) return null;
  const tz = resolveDateRange({ tz: search.get("tz") }, viewerTz, nowMs).range.tz;
  const range = rangeOfPeriod(periods[0] as Period, tz, nowMs);
  const next = new URLSearchParams(search);
  next.delete("period");
  next.set("from", range.from);
  next.set("to", range.to);
  next.sort();
  return `?${next.toString()}`;
}

/**
 * Where a URL with a relative range goes (`range=7d`, as a saved view keeps "always the last 7
 * days"): the same page with `from`/`to`, that preset's days ending today in the URL's `tz` when it
 * names a real zone, else in the viewer's days, and `tz` naming the zone they were counted in (a
 * list reads dates without `tz` as UTC days); `range` dropped, other parameters kept, sorted. Null when there is nothing to send on: no `range`, a URL with `from` or `to` (they
 * win), or a value that is not a preset (the page's header says so on the range, as for a bad `from`).
 */
export function relativeRangeSearch(search: URLSearchParams, viewerTz: string, nowMs: number): string | null {
  const ranges = search.getAll("range");
  if (ranges.length !== 1 || !isRangePresetId(ranges[0]!) || search.has("from") || search.has("to")) return null;
  const preset = RANGE_PRESETS.find((p) => p.id === ranges[0])!;
  const tz = resolveDateRange({ tz: search.get("tz") }, viewerTz, nowMs).range.tz;
  const range = presetRange(preset.days, tz, nowMs);
  const next = new URLSearchParams(search);
  next.delete("range");
  next.set("from", range.from);
  next.set("to", range.to);
  next.set("tz", tz);
  next.sort();
  return `?${next.toString()}`;
}

/**
 * The short sentence that says which period stands in for the range, and why: "Workspace
 * Analytics gives pageviews and the funnel only for fixed windows ending now: here the last 7 days
 * up to now, the nearest to your 12 days (1 Nov – 12 Nov 2026)."
 */
export function periodNote(range: DateRange, nowMs: number): string {
  const { period, matches } = periodForRange(range, nowMs);
  const days = daysBetween(range.from, range.to);
  const why = matches
    ? period === "24h"
      ? "for Today"
      : "to match your range"
    : `the nearest to your ${days === 1 ? "day" : `${days} days`} (${formatDateRange(range)})`;
  return `Workspace Analytics gives pageviews and the funnel only for fixed windows ending now: here the ${periodWindowLabel(period)}, ${why}.`;
}
