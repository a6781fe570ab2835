import { describe, expect, it } from "vitest";
import { eventLabel } from "@/lib/columns/labels";
import { orderTimeline } from "./timeline-data";

const events = [
  { id: "b", type: "page_view", occurred_at: "2026-11-20T10:05:00Z" },
  { id: "a", type: "ai_referral", occurred_at: "2026-11-20T10:00:00Z" },
  { id: "c", type: "conversion", occurred_at: "2026-11-20T10:05:00Z" },
  { id: "d", type: "webinar_signup", occurred_at: "2026-11-21T09:00:00Z" },
];

describe("orderTimeline", () => {
  it("orders oldest first, keeping the upstream order for equal times", () => {
    expect(orderTimeline(events, "oldest").map((e) => e.id)).toEqual(["a", "b", "c", "d"]);
  });
  it("orders newest first", () => {
    expect(orderTimeline(events, "newest").map((e) => e.id)).toEqual(["d", "c", "b", "a"]);
  });
  it("keeps an event without a time right after the event listed before it, in both orders", () => {
    const odd = [
      { id: "untimed-first", type: "page_view" },
      { id: "a", type: "ai_referral", occurred_at: "2026-11-20T10:00:00Z" },
      { id: "untimed", type: "form_submit" },
      { id: "b", type: "page_view", occurred_at: "2026-11-20T10:05:00Z" },
    ];
    expect(orderTimeline(odd, "oldest").map((e) => e.id)).toEqual(["untimed-first", "a", "untimed", "b"]);
    expect(orderTimeline(odd, "newest").map((e) => e.id)).toEqual(["b", "untimed", "a", "untimed-first"]);
  });
  it("does not modify its input", () => {
    orderTimeline(events, "newest");
    expect(events[0]!.id).toBe("b");
  });
});

describe("eventLabel", () => {
  it("labels known types only: unknown ones (even Object.prototype's names) are left to the UI to show as sent", () => {
    expect(eventLabel("form_submit")).toBe("Form submitted");
    expect(eventLabel("webinar_signup")).toBeUndefined();
    expect(eventLabel("constructor")).toBeUndefined();
  });
});
