// Timeline events in the order the viewer chose, with labels for the known event types (unknown
// types are shown by the UI as sent, in a neutral badge).
import type { TimelineEvent } from "@/lib/data-api/schemas";

export const EVENT_LABELS: Record<string, string> = {
  page_view: "Page view",
  ai_referral: "Arrived from an AI platform",
  form_submit: "Form submitted",
  conversion: "Converted",
  return_visit: "Returned",
};

/** The label of a known event type; undefined for any other value (own keys only). */
export const eventLabel = (type: string): string | undefined => (Object.hasOwn(EVENT_LABELS, type) ? EVENT_LABELS[type] : undefined);

/** An event's instant in ms, or undefined when it has none. */
const timeOf = (e: TimelineEvent): number | undefined => {
  const t = e.occurred_at === undefined ? NaN : Date.parse(e.occurred_at);
  return Number.isNaN(t) ? undefined : t;
};

export function orderTimeline(events: readonly TimelineEvent[], order: "newest" | "oldest"): TimelineEvent[] {
  // An event without a time stays right after the event the upstream listed before it (it takes
  // that event's time; before any timed event, it goes first), rather than jumping to one end.
  let carried = Number.NEGATIVE_INFINITY;
  const indexed = events.map((e, i) => {
    carried = timeOf(e) ?? carried;
    return { e, i, t: carried };
  });
  // Stable: events at the same instant keep the upstream's order (reversed for newest first).
  indexed.sort((a, b) => a.t - b.t || a.i - b.i);
  const sorted = indexed.map((x) => x.e);
  return order === "newest" ? sorted.reverse() : sorted;
}
