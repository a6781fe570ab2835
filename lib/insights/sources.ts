// GET /api/insights/sources: per source (all nine), visitors first seen in the range, how many
// converted and the rate, against the comparison period (docs/product.md "Insights").
import "server-only";
import { SOURCES, type Source } from "@/lib/data-api/constants";
import type { InsightsContext } from "./types";
import type { DaySpan, InsightRange } from "./range";
import { percent, windowOf } from "./figures";
import { visitorCounts } from "./visitors";

export type SourceFigures = { visitors: number; conversions: number; conversion_rate: number | null };
export type SourceRow = SourceFigures & { source: Source; previous: SourceFigures };
export type SourcesInsight = { from: string; to: string; tz: string; compare: { from: string; to: string }; data: SourceRow[] };

/** Visitors and conversions of each of `sources` over each period, as [current, previous] figures. */
export async function sourceFigures(ictx: InsightsContext, range: InsightRange, sources: readonly Source[]): Promise<Array<[SourceFigures, SourceFigures]>> {
  const periods: DaySpan[] = [range.current, range.previous];
  const cells = sources.flatMap((source) =>
    periods.flatMap((span) => [
      { span, source },
      { span, source, converted: true as const },
    ]),
  );
  const counts = await visitorCounts(ictx, range.windows, cells);
  const figures = (at: number): SourceFigures => {
    const [visitors, conversions] = [counts[at]!, counts[at + 1]!];
    return { visitors, conversions, conversion_rate: percent(conversions, visitors) };
  };
  return sources.map((_, i) => [figures(i * 4), figures(i * 4 + 2)]);
}

export async function sourcesInsight(ictx: InsightsContext, range: InsightRange): Promise<SourcesInsight> {
  const figures = await sourceFigures(ictx, range, SOURCES);
  return { ...windowOf(range), compare: range.compare, data: SOURCES.map((source, i) => ({ source, ...figures[i]![0], previous: figures[i]![1] })) };
}
