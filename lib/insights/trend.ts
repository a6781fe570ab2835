// GET /api/insights/trend: visitors, AI visitors and conversions per bucket (days, or ISO weeks
// clipped to the range), with the comparison period's buckets beside them (docs/product.md "Insights").
import "server-only";
import { AI_SOURCES, type InsightBucket } from "@/lib/data-api/constants";
import type { InsightsContext } from "./types";
import type { DaySpan, InsightRange } from "./range";
import { isoStart, windowOf } from "./figures";
import { visitorCounts, type VisitorCell } from "./visitors";

export type TrendPoint = { start: string; visitors: number; ai_visitors: number; conversions: number };
export type TrendInsight = {
  from: string;
  to: string;
  tz: string;
  compare: { from: string; to: string };
  bucket: InsightBucket;
  data: TrendPoint[];
  previous: TrendPoint[];
};

/** A bucket's figures: all visitors, converted ones, then one per AI source (summed into ai_visitors). */
const cellsOf = (span: DaySpan): VisitorCell[] => [{ span }, { span, converted: true }, ...AI_SOURCES.map((source) => ({ span, source }))];
const PER_BUCKET = 2 + AI_SOURCES.length;

export async function trendInsight(ictx: InsightsContext, range: InsightRange): Promise<TrendInsight> {
  const buckets = [...range.buckets.current, ...range.buckets.previous];
  // A bucket of no days (29 Feb a year before) counts nothing and asks for nothing.
  const counted = buckets.filter((b) => b.days.length > 0);
  const counts = await visitorCounts(ictx, range.windows, counted.flatMap(cellsOf));
  const points = buckets.map((bucket): TrendPoint => {
    const i = counted.indexOf(bucket);
    if (i < 0) return { start: isoStart(bucket), visitors: 0, ai_visitors: 0, conversions: 0 };
    const [visitors, conversions, ...ai] = counts.slice(i * PER_BUCKET, (i + 1) * PER_BUCKET) as [number, number, ...number[]];
    return { start: isoStart(bucket), visitors, ai_visitors: ai.reduce((a, b) => a + b, 0), conversions };
  });
  const n = range.buckets.current.length;
  return { ...windowOf(range), compare: range.compare, bucket: range.bucket, data: points.slice(0, n), previous: points.slice(n) };
}
