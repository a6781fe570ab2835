// Maps funnel stages onto the chart: each stage's count, its conversion from the previous stage and
// from the first stage (computed here, so the chart does not depend on what `rate` means upstream).
import type { FunnelStage } from "@/lib/data-api/schemas";
import { humanize } from "@/lib/format/format";

export type FunnelBar = {
  stage: string;
  label: string;
  count: number;
  /** Conversion from the previous stage, percentage points; undefined for the first stage. */
  stepRate?: number;
  /** Share of the first stage that reached this one, percentage points. */
  overallRate: number;
};

const pct = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);

export function toFunnelChartData(stages: readonly FunnelStage[]): FunnelBar[] {
  const first = stages[0]?.count ?? 0;
  return stages.map((s, i) => {
    const prev = i > 0 ? stages[i - 1]!.count : undefined;
    return {
      stage: s.stage,
      label: s.label ?? humanize(s.stage),
      count: s.count,
      stepRate: prev === undefined ? undefined : pct(s.count, prev),
      overallRate: pct(s.count, first),
    };
  });
}

/** The drawn chart's height for a number of stages (its placeholder reserves the same). */
export const funnelChartHeight = (stages: number): number => Math.max(160, stages * 46 + 30);
