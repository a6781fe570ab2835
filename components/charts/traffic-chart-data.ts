// Maps the traffic-by-source rows onto what the table draws: AI platforms first (set apart by group
// and colour, in their one order), then the other sources by visitors descending, with shares filled in when
// the upstream left them out. A row whose visitor count is unknown keeps its place in the list with
// "—" and draws no bar (it counts in no total); a source this dashboard does not know is labelled
// as sent.
import { isAiSource } from "@/lib/data-api/constants";
import type { TrafficRow } from "@/lib/data-api/schemas";
import { groupBySource, sourceLabel, type SourceGroup } from "./source-table-data";

export type TrafficGroup = "ai" | "other";

export type TrafficBar = {
  source: string;
  label: string;
  group: TrafficGroup;
  /** Undefined when the upstream's value could not be read. */
  visitors?: number;
  /** Share of all visitors in the period, percentage points. */
  percentage?: number;
  change?: number;
};

export type TrafficChartData = {
  /** Every bar, AI platforms first (the groups' rows in order). */
  bars: TrafficBar[];
  groups: SourceGroup<TrafficBar>[];
  total: number;
  aiTotal: number;
  /** AI platforms' share of all visitors, percentage points (0 when there are none). */
  aiShare: number;
};

const known = (n: number | undefined) => (n === undefined ? 0 : Math.max(0, n));

export function toTrafficChartData(rows: readonly TrafficRow[]): TrafficChartData {
  const total = rows.reduce((sum, r) => sum + known(r.visitors), 0);
  const bars: TrafficBar[] = rows.map((r) => ({
    source: r.source,
    label: sourceLabel(r.source),
    group: isAiSource(r.source) ? "ai" : "other",
    visitors: r.visitors,
    percentage: r.percentage ?? (r.visitors === undefined ? undefined : total > 0 ? (known(r.visitors) / total) * 100 : 0),
    change: r.change,
  }));
  const groups = groupBySource(bars, (b) => b.visitors);
  const sorted = groups.flatMap((g) => g.rows);
  const aiTotal = sorted.filter((b) => b.group === "ai").reduce((sum, b) => sum + known(b.visitors), 0);
  return { bars: sorted, groups, total, aiTotal, aiShare: total > 0 ? (aiTotal / total) * 100 : 0 };
}

