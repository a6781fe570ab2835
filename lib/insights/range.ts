// An insights query's window (docs/product.md "Insights"): calendar days `from`..`to` (inclusive) in the
// time zone `tz`, the range [start of `from`, start of the day after `to`), its buckets (days, or
// ISO weeks from Monday clipped to the range), and the comparison period (`previous`): as many days,
// either ending the day before `from` (the default), from `from`'s date a year before (29 Feb reads
// 28 Feb), or a custom window; its buckets are the current ones moved back by the same days. The
// days an insight reads are both periods' days as runs of consecutive days (one run when they touch
// or overlap), so a listing never spans the gap between a range and its year-before twin.
// Calendar arithmetic (which date, how many days apart, which weekday) runs on day numbers (days
// since 1970-01-01), where every day is one step; each date's first instant in `tz` comes from
// @date-fns/tz, which knows the zone's offsets and its clock changes (a 23- or 25-hour day, a
// midnight that does not exist).
import { INSIGHTS_DAY_BUCKETS_MAX_DAYS, INSIGHTS_DEFAULT_DAYS, type InsightBucket } from "@/lib/data-api/constants";
import { calendarDayNumber } from "@/lib/data-api/params";
import { comparisonProblem, insightsBucketProblem, insightsRangeProblem, type InsightsParams } from "@/lib/insights/schema";
import { DAY_MS, dateOf, dayStart, todayIn } from "@/lib/range/calendar";
import { invalidParameter } from "@/lib/server/http";

/** One calendar day in the query's zone: its date and its instants [startMs, endMs). */
export type Day = { date: string; startMs: number; endMs: number };

/** Whole consecutive days: a bucket, a period, the span a listing reads. */
export type DaySpan = { startMs: number; endMs: number; days: Day[] };

export type InsightRange = {
  from: string;
  to: string;
  tz: string;
  bucket: InsightBucket;
  current: DaySpan;
  /**
   * The comparison period (the previous one unless `compare` says otherwise), as many days as
   * `current`; a year before, the same calendar dates, so a day fewer or more around a 29 Feb.
   */
  previous: DaySpan;
  /** The comparison period's dates, as answered in `compare`. */
  compare: { from: string; to: string };
  /**
   * Buckets of each period, pairwise aligned (the previous ones are the current ones moved back); a
   * previous bucket may hold no days (29 Feb a year before), and then counts nothing.
   */
  buckets: { current: DaySpan[]; previous: DaySpan[] };
  /** Every day an insight of this range reads (both periods), as runs of consecutive days in order. */
  windows: DaySpan[];
};

/** `count` consecutive days from day number `first`, each with its instants in `tz`. */
function daysFrom(first: number, count: number, tz: string): Day[] {
  const days: Day[] = [];
  let start = dayStart(first, tz);
  for (let i = 0; i < count; i++) {
    // Each date's start comes from the date, never from the previous start plus 24 hours.
    const end = dayStart(first + i + 1, tz);
    days.push({ date: dateOf(first + i), startMs: start, endMs: end });
    start = end;
  }
  return days;
}

export const spanOf = (days: Day[]): DaySpan => ({ startMs: days[0]!.startMs, endMs: days[days.length - 1]!.endMs, days });

/** A bucket of no days at `ms` (the comparison of 29 Feb a year before, which has none): counts nothing. */
const emptySpanAt = (ms: number): DaySpan => ({ startMs: ms, endMs: ms, days: [] });

/** `days` (any order, repeats allowed) as runs of consecutive calendar days, each day once, in order. */
export function runsOf(days: readonly Day[]): DaySpan[] {
  const byDate = new Map(days.map((d) => [d.date, d]));
  const sorted = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const runs: Day[][] = [];
  let last = Number.NaN;
  for (const d of sorted) {
    const n = calendarDayNumberOf(d.date);
    if (n === last + 1) runs.at(-1)!.push(d);
    else runs.push([d]);
    last = n;
  }
  return runs.map(spanOf);
}

// Any date, also before 2000 (a comparison a year before 2000-01-01): day numbers from the ISO date.
const calendarDayNumberOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/** Day number of the same date a year before `day`; 29 Feb reads 28 Feb. */
function yearBefore(day: number): number {
  const d = new Date(day * DAY_MS);
  const [year, month, date] = [d.getUTCFullYear() - 1, d.getUTCMonth(), d.getUTCDate()];
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(date, last)) / DAY_MS;
}

/** Index ranges of the buckets over `count` days from day number `first`: every day, or ISO weeks from Monday. */
function bucketBounds(first: number, count: number, bucket: InsightBucket): Array<[number, number]> {
  const bounds: Array<[number, number]> = [];
  let start = 0;
  for (let i = 1; i <= count; i++) {
    if (i === count || bucket === "day" || new Date((first + i) * DAY_MS).getUTCDay() === 1) {
      bounds.push([start, i]);
      start = i;
    }
  }
  return bounds;
}

/**
 * The window of a validated insights query at `nowMs`. Defaults: `to` today in `tz`, `from` 29 days
 * before `to` (30 days); `bucket` by day up to 31 days, else by week. A range that ends up backwards
 * or too long once a default is filled in is a 400 naming `from`, and days asked for over more than
 * 92 days a 400 naming `bucket`, and a custom comparison of another length a 400 naming
 * `compare_to`, before any upstream call.
 */
export function resolveRange(query: InsightsParams, nowMs: number): InsightRange {
  const tz = query.tz;
  const to = query.to ?? todayIn(tz, nowMs);
  const last = calendarDayNumber(to)!;
  const first = query.from ? calendarDayNumber(query.from)! : last - (INSIGHTS_DEFAULT_DAYS - 1);
  const from = dateOf(first);
  const problem = insightsRangeProblem(first, last);
  if (problem) throw invalidParameter("from", query.to ? problem : `${problem} (to defaults to today, ${to}, in ${tz})`);

  const length = last - first + 1;
  const bucketProblem = insightsBucketProblem(first, last, query.bucket);
  if (bucketProblem) throw invalidParameter("bucket", query.to ? bucketProblem : `${bucketProblem} (to defaults to today, ${to}, in ${tz})`);
  const bucket = query.bucket ?? (length <= INSIGHTS_DAY_BUCKETS_MAX_DAYS ? "day" : "week");
  const compare = query.compare ?? "previous";
  const comparison = comparisonProblem({ compare, compare_from: query.compare_from, compare_to: query.compare_to }, length);
  if (comparison) throw invalidParameter(comparison.param, query.to ? comparison.message : `${comparison.message} (to defaults to today, ${to}, in ${tz})`);
  const currentDays = daysFrom(first, length, tz);
  const bounds = bucketBounds(first, length, bucket);
  const current = bounds.map(([a, b]) => spanOf(currentDays.slice(a, b)));
  let previousDays: Day[];
  let previous: DaySpan[];
  if (compare === "year") {
    // The same calendar dates a year before: from's and to's dates each a year back (29 Feb reads
    // 28 Feb), so the window is a day shorter when the range holds a 29 Feb it does not start on, and
    // a day longer when the year before holds one. Each bucket compares with the window's days up to
    // its last date a year back that no earlier bucket took: every day of the window is in exactly
    // one bucket (the totals are the window's), a 29 Feb's own day compares with none (28 Feb is its
    // day before's), and the day after a skipped 29 Feb takes it with its own date.
    const compareFirst = yearBefore(first);
    previousDays = daysFrom(compareFirst, yearBefore(last) - compareFirst + 1, tz);
    let next = 0;
    previous = bounds.map(([, b]) => {
      const upTo = yearBefore(first + b - 1) - compareFirst + 1;
      const days = previousDays.slice(next, Math.max(next, upTo));
      const span = days.length > 0 ? spanOf(days) : emptySpanAt(previousDays[next]?.startMs ?? previousDays.at(-1)!.endMs);
      next = Math.max(next, upTo);
      return span;
    });
  } else {
    previousDays = daysFrom(compare === "custom" ? calendarDayNumber(query.compare_from!)! : first - length, length, tz);
    previous = bounds.map(([a, b]) => spanOf(previousDays.slice(a, b)));
  }
  return {
    from,
    to,
    tz,
    bucket,
    current: spanOf(currentDays),
    previous: spanOf(previousDays),
    compare: { from: previousDays[0]!.date, to: previousDays.at(-1)!.date },
    buckets: { current, previous },
    windows: runsOf([...previousDays, ...currentDays]),
  };
}
