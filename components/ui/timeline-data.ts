// Timeline events in the order the viewer chose (the known event types' labels are eventLabel in
// lib/columns/labels; unknown types are shown by the UI as sent, in a neutral badge).
import type { TimelineEvent } from "@/lib/data-api/schemas";

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
