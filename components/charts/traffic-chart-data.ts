// Maps the traffic-by-source rows onto what the chart draws: AI platforms first (set apart by group
// and colour), then the other sources, each group by visitors descending, with shares filled in when
// the upstream left them out.
import { isAiSource, LABELS } from "@/lib/data-api/constants";
import type { TrafficRow } from "@/lib/data-api/schemas";
import { humanize } from "@/lib/format/format";

export type TrafficGroup = "ai" | "other";

export type TrafficBar = {
  source: string;
  label: string;
  group: TrafficGroup;
  visitors: number;
  /** Share of all visitors in the period, percentage points. */
  percentage: number;
  change?: number;
};

export type TrafficChartData = {
  bars: TrafficBar[];
  total: number;
  aiTotal: number;
  /** AI platforms' share of all visitors, percentage points (0 when there are none). */
  aiShare: number;
};

export const sourceLabel = (source: string): string => LABELS[source] ?? humanize(source);

export function toTrafficChartData(rows: readonly TrafficRow[]): TrafficChartData {
  const total = rows.reduce((sum, r) => sum + Math.max(0, r.visitors), 0);
  const bars: TrafficBar[] = rows.map((r) => ({
    source: r.source,
    label: sourceLabel(r.source),
    group: isAiSource(r.source) ? "ai" : "other",
    visitors: r.visitors,
    percentage: r.percentage ?? (total > 0 ? (r.visitors / total) * 100 : 0),
    change: r.change,
  }));
  const order = (b: TrafficBar) => (b.group === "ai" ? 0 : 1);
  bars.sort((a, b) => order(a) - order(b) || b.visitors - a.visitors || a.label.localeCompare(b.label));
  const aiTotal = bars.filter((b) => b.group === "ai").reduce((sum, b) => sum + b.visitors, 0);
  return { bars, total, aiTotal, aiShare: total > 0 ? (aiTotal / total) * 100 : 0 };
}

/** The drawn chart's height for a number of bars (its placeholder reserves the same). */
export const trafficChartHeight = (bars: number): number => Math.max(160, bars * 36 + 40);
