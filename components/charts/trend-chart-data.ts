// Maps the trend insight (/api/insights/trend) onto what the overview draws: one row per bucket with
// its label in the range's time zone ("3 Nov", or "Week of 3 Nov"), the previous period's bucket
// beside it (the same position, drawn behind the current one), the series of one metric for the
// chart, and the period totals the KPI cards show (sums of the buckets, rates to one decimal as the
// insights routes round them; null where there is nothing to divide by). The bucket that holds the
// present moment is marked: its count is still growing, so the chart draws it apart (a dip on
// today is the day not being over, not traffic falling).
import type { InsightBucket } from "@/lib/data-api/constants";
import { formatBucket } from "@/lib/format/format";
import { todayIn } from "@/lib/range/calendar";
import type { TrendInsight, TrendPoint } from "@/lib/insights/trend";

export type TrendMetric = "visitors" | "ai_visitors" | "conversions";

export const TREND_METRICS: ReadonlyArray<{ key: TrendMetric; label: string }> = [
  { key: "visitors", label: "Visitors" },
  { key: "ai_visitors", label: "AI visitors" },
  { key: "conversions", label: "Conversions" },
];

export type TrendFigures = Record<TrendMetric, number>;

export type TrendRow = {
  start: string;
  /** The bucket's first day in the range's zone: "3 Nov" (days) or "Week of 3 Nov" (weeks). */
  label: string;
  /** The same bucket of the previous period, when the answer has one at this position. */
  previousLabel?: string;
  current: TrendFigures;
  previous?: TrendFigures;
  /** The bucket holds the present moment: its figures are so far, not final. */
  inProgress?: true;
  /** The bucket has not begun (a range that runs past today): nothing to draw yet. */
  notStarted?: true;
};

export type TrendTotals = TrendFigures & {
  /** Conversions per visitor, percentage points to one decimal; null without visitors. */
  conversion_rate: number | null;
  /** AI visitors' share of visitors, percentage points to one decimal; null without visitors. */
  ai_share: number | null;
};

export type TrendChartData = {
  bucket: InsightBucket;
  from: string;
  to: string;
  tz: string;
  rows: TrendRow[];
  totals: { current: TrendTotals; previous: TrendTotals };
};

/**
 * A point of one metric for the chart: the current bucket's value and the previous period's.
 * `complete` and `soFar` are what the chart draws as the solid and the dashed part of the current
 * line: `complete` on finished buckets; `soFar` on the bucket in progress and the one before it,
 * so the dashed part joins the solid one.
 */
export type TrendSeriesPoint = {
  label: string;
  previousLabel?: string;
  current: number;
  previous?: number;
  inProgress?: true;
  notStarted?: true;
  complete?: number;
  soFar?: number;
};

/** The drawn chart's height (its placeholder reserves the same). */
export const TREND_CHART_HEIGHT = 260;

/** Percentage points to one decimal, as the insights routes round them; null when `whole` is 0. */
export const rateOf = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part * 1000) / whole) / 10);

/** A count's relative change in percent, to one decimal; null without an earlier count to divide by. */
export const changeOf = (current: number, previous: number): number | null => (previous === 0 ? null : rateOf(current - previous, previous));

const figuresOf = (p: TrendPoint): TrendFigures => ({ visitors: p.visitors, ai_visitors: p.ai_visitors, conversions: p.conversions });

function totalsOf(points: readonly TrendPoint[]): TrendTotals {
  const sum = (key: TrendMetric) => points.reduce((n, p) => n + p[key], 0);
  const visitors = sum("visitors");
  const ai_visitors = sum("ai_visitors");
  const conversions = sum("conversions");
  return { visitors, ai_visitors, conversions, conversion_rate: rateOf(conversions, visitors), ai_share: rateOf(ai_visitors, visitors) };
}

/**
 * Where bucket `i` of the answer stands at `nowMs`: begun or not, and whether it holds now (it ends
 * at the next bucket's start; the last one at the end of the range's last day `to` in its zone).
 */
function bucketState(trend: Pick<TrendInsight, "to" | "tz" | "data">, i: number, nowMs: number): Pick<TrendRow, "inProgress" | "notStarted"> {
  if (Date.parse(trend.data[i]!.start) > nowMs) return { notStarted: true };
  const next = trend.data[i + 1];
  let holds: boolean;
  if (next) holds = nowMs < Date.parse(next.start);
  else {
    try {
      holds = todayIn(trend.tz, nowMs) <= trend.to;
    } catch {
      holds = false; // a zone this browser does not know: say nothing rather than guess
    }
  }
  return holds ? { inProgress: true } : {};
}

export function toTrendChartData(trend: Pick<TrendInsight, "bucket" | "from" | "tz" | "to" | "data" | "previous">, nowMs: number = Date.now()): TrendChartData {
  const rows = trend.data.map((point, i): TrendRow => {
    const before = trend.previous[i];
    return {
      start: point.start,
      // Read in the range's zone, not the browser's.
      label: formatBucket(point.start, trend.tz, trend.bucket),
      current: figuresOf(point),
      ...(before ? { previous: figuresOf(before), previousLabel: formatBucket(before.start, trend.tz, trend.bucket) } : {}),
      ...bucketState(trend, i, nowMs),
    };
  });
  return {
    bucket: trend.bucket,
    from: trend.from,
    to: trend.to,
    tz: trend.tz,
    rows,
    totals: { current: totalsOf(trend.data), previous: totalsOf(trend.previous) },
  };
}

/** One metric's series for the chart: current and previous value at each bucket. */
export function trendSeries(data: TrendChartData, metric: TrendMetric): TrendSeriesPoint[] {
  return data.rows.map((r, i) => {
    const current = r.current[metric];
    const joinsNext = data.rows[i + 1]?.inProgress === true;
    const base = { label: r.label, previousLabel: r.previousLabel, current, previous: r.previous?.[metric] };
    if (r.notStarted) return { ...base, notStarted: true as const };
    if (r.inProgress) return { ...base, inProgress: true as const, soFar: current };
    return { ...base, complete: current, ...(joinsNext ? { soFar: current } : {}) };
  });
}
