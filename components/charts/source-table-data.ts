// Rows of the overview's per-source tables, grouped: the AI platforms first and set apart (with
// their group's total), in the one order every page lists them (lib/format's PLATFORM_ORDER, so a
// platform is in the same place on the overview and on /platforms), then the other sources by
// visitors descending; a source this
// dashboard does not know is labelled as sent and counted with the other sources. Also the
// drill-down links: a source's visitors (and its converted ones) over the same window.
import { SOURCE_GROUP_LABELS } from "@/lib/columns/labels";
import { isAiSource, sourceLabelOf } from "@/lib/data-api/constants";
import { sortPlatforms } from "@/lib/format/format";

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
    rows: id === "ai" ? sortPlatforms(rows.filter((r) => isAiSource(r.source)), (r) => r.source) : rows.filter((r) => !isAiSource(r.source)).sort(order),
  }));
  return groups.filter((g) => g.rows.length > 0);
}

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
