import { describe, expect, it } from "vitest";
import { DataApiError } from "./errors";
import {
  normalizeFunnel,
  normalizeOverview,
  normalizeRanking,
  normalizeScore,
  normalizeTimeline,
  normalizeTraffic,
  normalizeVisitor,
  normalizeVisitorList,
} from "./normalize";

const event = { id: "evt_1", type: "page_view", occurred_at: "2026-11-01T10:00:00Z", url: "/pricing" };

function expectUnexpected(fn: () => unknown, requestId = "req_x") {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DataApiError);
    expect(e).toMatchObject({ status: 502, code: "unexpected_response", requestId });
    return;
  }
  throw new Error("expected an unexpected_response error");
}

describe("normalizers accept every variant of DESIGN.md's settled unknowns", () => {
  it("visitor: bare or wrapped in data, unknown fields kept", () => {
    const v = { id: "vis_a", source: "chatgpt", extra: 1 };
    expect(normalizeVisitor(v)).toEqual(v);
    expect(normalizeVisitor({ data: v })).toEqual(v);
  });

  it("timeline: data, events or a bare array; timestamp/created_at for occurred_at; unknown types kept", () => {
    const canonical = { visitor_id: "vis_a", data: [event] };
    expect(normalizeTimeline(canonical)).toEqual(canonical);
    expect(normalizeTimeline({ visitor_id: "vis_a", events: [event] })).toEqual(canonical);
    expect(normalizeTimeline([event])).toEqual({ data: [event] });
    const { occurred_at, ...rest } = event;
    expect(normalizeTimeline([{ ...rest, timestamp: occurred_at }]).data[0]).toEqual(event);
    expect(normalizeTimeline([{ ...rest, created_at: occurred_at }]).data[0]).toEqual(event);
    expect(normalizeTimeline([{ ...event, type: "webinar_signup" }]).data[0]?.type).toBe("webinar_signup");
  });

  it("traffic: wrapped or bare, count for visitors", () => {
    const row = { source: "chatgpt", visitors: 12, percentage: 40 };
    expect(normalizeTraffic({ period: "30d", data: [row] })).toEqual({ period: "30d", data: [row] });
    expect(normalizeTraffic([{ source: "chatgpt", count: 12, percentage: 40 }])).toEqual({ data: [row] });
  });

  it("funnel: wrapped or bare, name for stage", () => {
    const stage = { stage: "visit", label: "Visited", count: 100, rate: 100 };
    expect(normalizeFunnel({ period: "7d", data: [stage] })).toEqual({ period: "7d", data: [stage] });
    expect(normalizeFunnel([{ name: "visit", label: "Visited", count: 100, rate: 100 }])).toEqual({ data: [stage] });
  });

  it("ranking: data, competitors or a bare array", () => {
    const row = { rank: 1, name: "Acme", score: 80, is_workspace: true };
    expect(normalizeRanking({ updated_at: "2026-11-20T00:00:00Z", data: [row] }).data).toEqual([row]);
    expect(normalizeRanking({ competitors: [row] })).toEqual({ data: [row] });
    expect(normalizeRanking([row])).toEqual({ data: [row] });
  });

  it("overview and score: bare or wrapped", () => {
    const o = { visitors: { total: 10, change: 2.5 }, ai_traffic: { total: 3, percentage: 30 } };
    expect(normalizeOverview(o)).toEqual(o);
    expect(normalizeOverview({ data: o })).toEqual(o);
    const s = { score: 72, trend: { direction: "sideways", change: 0 } };
    expect(normalizeScore(s)).toEqual(s);
    expect(normalizeScore({ data: s })).toEqual(s);
  });
});

describe("a body that matches no known shape is unexpected_response with the request id", () => {
  it.each([
    ["visitor list without meta", () => normalizeVisitorList({ data: [] }, "req_x")],
    ["visitor list item without id", () => normalizeVisitorList({ data: [{}], meta: { total: 1, limit: 20, offset: 0 } }, "req_x")],
    ["visitor that is a string", () => normalizeVisitor("vis_a", "req_x")],
    ["timeline without an array", () => normalizeTimeline({ visitor_id: "vis_a" }, "req_x")],
    ["timeline event without a time", () => normalizeTimeline([{ type: "page_view" }], "req_x")],
    ["traffic row with a text count", () => normalizeTraffic([{ source: "x", visitors: "12" }], "req_x")],
    ["funnel that is null", () => normalizeFunnel(null, "req_x")],
    ["ranking that is an object without rows", () => normalizeRanking({ rows: [] }, "req_x")],
    ["overview that is empty", () => normalizeOverview({}, "req_x")],
    ["overview that is an array", () => normalizeOverview([], "req_x")],
    ["score without score", () => normalizeScore({ trend: {} }, "req_x")],
  ])("%s", (_name, fn) => expectUnexpected(fn));
});
