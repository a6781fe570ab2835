// Timeline events in the order the viewer chose, with labels for the known event types (unknown
// types are shown generically, by their own name).
import type { TimelineEvent } from "@/lib/data-api/schemas";
import { humanize } from "@/lib/format/format";

export const EVENT_LABELS: Record<string, string> = {
  page_view: "Page view",
  ai_referral: "Arrived from an AI platform",
  form_submit: "Form submitted",
  conversion: "Converted",
  return_visit: "Returned",
};

export const eventLabel = (type: string): string => EVENT_LABELS[type] ?? humanize(type);

export function orderTimeline(events: readonly TimelineEvent[], order: "newest" | "oldest"): TimelineEvent[] {
  const time = (e: TimelineEvent) => {
    const t = new Date(e.occurred_at).getTime();
    return Number.isNaN(t) ? 0 : t;
  };
  // Stable: events at the same instant keep the upstream's order (reversed for newest first).
  const indexed = events.map((e, i) => ({ e, i }));
  indexed.sort((a, b) => time(a.e) - time(b.e) || a.i - b.i);
  const sorted = indexed.map((x) => x.e);
  return order === "newest" ? sorted.reverse() : sorted;
}
