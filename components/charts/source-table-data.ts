// Rows of the overview's per-source tables, grouped: the AI platforms first and set apart (with
// their group's total), in the one order every page lists them (lib/format's PLATFORM_ORDER, so a
// platform is in the same place on the overview and on /platforms), then the other sources by
// visitors descending; a source this
// dashboard does not know is labelled as sent and counted with the other sources. Sorted by a
// column (`sort` in the URL), each group keeps its place and its rows follow the order. Also the
// table's totals and the drill-down links: a source's visitors (and its converted ones) over the
// same window.
import type { SortColumn } from "@/components/data-table/table-sort";
import { SOURCE_GROUP_LABELS } from "@/lib/columns/labels";
import { isAiSource, sourceLabelOf } from "@/lib/data-api/constants";
import { sortPlatforms } from "@/lib/format/format";
import type { SourceFigures, SourceRow } from "@/lib/insights/sources";
import { rateOf } from "./trend-chart-data";

export type SourceGroupId = "ai" | "other";
export const GROUP_LABELS: Record<SourceGroupId, string> = SOURCE_GROUP_LABELS;

export type SourceGroup<R> = { id: SourceGroupId; label: string; rows: R[] };

export const sourceLabel = (source: string): string => sourceLabelOf(source) ?? source;

/** Rows split into the AI platforms (in their order) and the other sources by `weight` descending; empty groups left out. */
export function groupBySource<R extends { source: string }>(rows: readonly R[], weight: (row: R) => number | undefined): SourceGroup<R>[] {
  // Unknown weights sort after every known one (-1 is below any count).
  const order = (a: R, b: R) => (weight(b) ?? -1) - (weight(a) ?? -1) || sourceLabel(a.source).localeCompare(sourceLabel(b.source));
  const groups: SourceGroup<R>[] = (["ai", "other"] as const).map((id) => ({
    id,
    label: GROUP_LABELS[id],
    rows:
      id === "ai"
        ? sortPlatforms(
            rows.filter((r) => isAiSource(r.source)),
            (r) => r.source,
          )
        : rows.filter((r) => !isAiSource(r.source)).sort(order),
  }));
  return groups.filter((g) => g.rows.length > 0);
}

/** Rows already in the order to show, split into the AI platforms and the other sources (the AI platforms first); empty groups left out. */
export function groupInOrder<R extends { source: string }>(rows: readonly R[]): SourceGroup<R>[] {
  const groups: SourceGroup<R>[] = (["ai", "other"] as const).map((id) => ({
    id,
    label: GROUP_LABELS[id],
    rows: rows.filter((r) => isAiSource(r.source) === (id === "ai")),
  }));
  return groups.filter((g) => g.rows.length > 0);
}

/** Conversion by source's sortable columns (`sort` on the overview); without one, the groups' own order. */
export const SOURCE_SORT: readonly SortColumn<SourceRow>[] = [
  { id: "source", kind: "text", value: (r) => sourceLabel(r.source) },
  { id: "visitors", kind: "number", value: (r) => r.visitors },
  { id: "conversions", kind: "number", value: (r) => r.conversions },
  { id: "conversion_rate", kind: "number", value: (r) => r.conversion_rate },
];

/** Visitors and conversions summed over rows, and the rate worked out from the sums (never summed or averaged). */
export function sumSources(rows: readonly SourceFigures[]): SourceFigures {
  const visitors = rows.reduce((n, r) => n + r.visitors, 0);
  const conversions = rows.reduce((n, r) => n + r.conversions, 0);
  return { visitors, conversions, conversion_rate: rateOf(conversions, visitors) };
}

/** A group's or the whole table's totals in both windows: every visitor has one source, so all sources together are the range's visitors. */
export const sourceTotals = (rows: readonly SourceRow[]): SourceFigures & { previous: SourceFigures } => ({
  ...sumSources(rows),
  previous: sumSources(rows.map((r) => r.previous)),
});

/** A window of the visitor list: a calendar range (`from`/`to` dates and `tz`) or the instants of a rolling period. */
export type ListWindow = { from: string; to: string; tz?: string };

/** `/visitors` filtered to a source (or none: every source) and optionally the converted ones, over `window`. */
export function visitorsHref(window: ListWindow, filters: { source?: string; converted?: boolean } = {}): string {
  const params = new URLSearchParams();
  if (filters.source) params.set("source", filters.source);
  params.set("from", window.from);
  params.set("to", window.to);
  if (window.tz) params.set("tz", window.tz);
  if (filters.converted) params.set("converted", "true");
  return `/visitors?${params.toString()}`;
}
