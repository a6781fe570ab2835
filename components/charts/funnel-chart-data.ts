// Maps funnel stages onto the chart: each stage's count, its conversion from the previous stage and
// from the first stage (computed here, so the chart does not depend on what `rate` means upstream).
// A stage whose count is unknown draws no bar, and the rates that need it are unknown ("—").
import type { FunnelStage } from "@/lib/data-api/schemas";
import { humanize } from "@/lib/format/format";

export type FunnelBar = {
  stage: string;
  label: string;
  /** Undefined when the upstream's value could not be read. */
  count?: number;
  /** Conversion from the previous stage, percentage points; undefined for the first stage or when unknown. */
  stepRate?: number;
  /** Share of the first stage that reached this one, percentage points; undefined when unknown. */
  overallRate?: number;
};

const pct = (part: number | undefined, whole: number | undefined) =>
  part === undefined || whole === undefined ? undefined : whole > 0 ? (part / whole) * 100 : 0;

export function toFunnelChartData(stages: readonly FunnelStage[]): FunnelBar[] {
  const first = stages[0]?.count;
  return stages.map((s, i) => ({
    stage: s.stage,
    label: s.label ?? humanize(s.stage),
    count: s.count,
    stepRate: i === 0 ? undefined : pct(s.count, stages[i - 1]!.count),
    overallRate: pct(s.count, first),
  }));
}

/** Whether the visitor list can show exactly a stage's visitors: its filters, or why it cannot. */
export type FunnelStageFilter = { converted?: boolean; exact: boolean; cannotFilterBy?: string };

/**
 * The visitor list's filters for a funnel stage. The list filters by source, intent, converted and
 * first seen, not by pages viewed or form submissions: those stages open no list (every visitor of
 * the period would be more than the stage counts), and say why.
 */
export function funnelStageFilter(stage: string): FunnelStageFilter {
  if (stage === "visitors") return { exact: true };
  if (stage === "conversions") return { converted: true, exact: true };
  return { exact: false, cannotFilterBy: stage === "engaged" ? "pages viewed" : stage === "leads" ? "form submissions" : "this stage" };
}
