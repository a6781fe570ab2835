import { describe, expect, it } from "vitest";
import { eventLabel, orderTimeline } from "./timeline-data";

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
  it("does not modify its input", () => {
    orderTimeline(events, "newest");
    expect(events[0]!.id).toBe("b");
  });
});

describe("eventLabel", () => {
  it("labels known types and shows unknown types by name", () => {
    expect(eventLabel("form_submit")).toBe("Form submitted");
    expect(eventLabel("webinar_signup")).toBe("Webinar signup");
  });
});
