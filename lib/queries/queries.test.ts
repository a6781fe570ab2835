import { hashKey, QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { DataApi } from "@/lib/data-api/api";
import { DataApiError } from "@/lib/data-api/errors";
import { mentionListParams, parseQuery, periodParams, visitorListParams } from "@/lib/data-api/params";
import { funnelQuery, overviewQuery, trafficQuery } from "./analytics";
import { shouldRetry } from "./get-query-client";
import { rankingQuery, scoreQuery } from "./intelligence";
import { mentionListQuery } from "./mentions";
import { visitorListQuery, visitorQuery, visitorTimelineQuery } from "./visitors";

/** A DataApi that records which method was called with what (a stand-in for the transport). */
function recordingApi() {
  const calls: Array<[string, unknown]> = [];
  const record = (name: string) => async (arg?: unknown) => {
    calls.push([name, typeof arg === "object" && arg !== null && "signal" in arg ? undefined : arg]);
    return { data: [], meta: { total: 0, limit: 20, offset: 0 } };
  };
  const api = {
    listVisitors: record("listVisitors"),
    getVisitor: record("getVisitor"),
    getVisitorTimeline: record("getVisitorTimeline"),
    listMentions: record("listMentions"),
    getOverview: record("getOverview"),
    getTraffic: record("getTraffic"),
    getFunnel: record("getFunnel"),
    getScore: record("getScore"),
    getRanking: record("getRanking"),
  } as unknown as DataApi;
  return { api, calls };
}

const parse = <T>(r: { success: true; data: T } | { success: false }): T => {
  if (!r.success) throw new Error("bad fixture");
  return r.data;
};

describe("query keys", () => {
  const { api } = recordingApi();
  const full = parse(
    parseQuery(visitorListParams, {
      source: "chatgpt",
      intent: "support",
      converted: "true",
      from: "2026-11-01",
      to: "2026-11-20",
      limit: "50",
      offset: "100",
    }),
  );

  it("start with the resource and carry every visitor list parameter", () => {
    const key = visitorListQuery(api, full).queryKey;
    expect(key[0]).toBe("visitors");
    expect(key[2]).toEqual({ source: "chatgpt", intent: "support", converted: "true", from: "2026-11-01", to: "2026-11-20", limit: 50, offset: 100 });
  });

  it("differ when any one parameter differs", () => {
    const base = hashKey(visitorListQuery(api, full).queryKey);
    for (const [k, v] of Object.entries({ source: "claude", intent: "unknown", converted: "false", from: "2026-10-01", to: "2026-11-19", limit: 20, offset: 0 })) {
      const other = hashKey(visitorListQuery(api, { ...full, [k]: v }).queryKey);
      expect(other, k).not.toBe(base);
    }
  });

  it("carry mention filters, ids and periods", () => {
    const m = parse(parseQuery(mentionListParams, { platform: "gemini", sentiment: "negative", offset: "40" }));
    expect(mentionListQuery(api, m).queryKey).toEqual(["mentions", "list", { platform: "gemini", sentiment: "negative", limit: 20, offset: 40 }]);
    expect(visitorQuery(api, "vis_1").queryKey).toEqual(["visitors", "detail", "vis_1"]);
    expect(visitorTimelineQuery(api, "vis_1").queryKey).toEqual(["visitors", "timeline", "vis_1"]);
    const p = parse(parseQuery(periodParams, { period: "7d" }));
    expect(overviewQuery(api, p).queryKey).toEqual(["analytics", "overview", { period: "7d" }]);
    expect(trafficQuery(api, p).queryKey).toEqual(["analytics", "traffic", { period: "7d" }]);
    expect(funnelQuery(api, p).queryKey).toEqual(["analytics", "funnel", { period: "7d" }]);
    expect(scoreQuery(api).queryKey).toEqual(["intelligence", "score"]);
    expect(rankingQuery(api).queryKey).toEqual(["intelligence", "ranking"]);
  });

  it("the same URL parsed twice (server prefetch and browser) gives the same cache entry", () => {
    const a = parse(parseQuery(visitorListParams, new URLSearchParams("source=paid&offset=20")));
    const b = parse(parseQuery(visitorListParams, { offset: "20", source: "paid" }));
    expect(hashKey(visitorListQuery(api, a).queryKey)).toBe(hashKey(visitorListQuery(api, b).queryKey));
  });
});

describe("query functions", () => {
  it("call the DataApi method with the key's parameters", async () => {
    const { api, calls } = recordingApi();
    const client = new QueryClient();
    const params = parse(parseQuery(visitorListParams, { source: "direct" }));
    await client.fetchQuery(visitorListQuery(api, params));
    await client.fetchQuery(visitorQuery(api, "vis_x"));
    await client.fetchQuery(overviewQuery(api, { period: "90d" }));
    expect(calls).toEqual([
      ["listVisitors", { source: "direct", limit: 20, offset: 0 }],
      ["getVisitor", "vis_x"],
      ["getOverview", { period: "90d" }],
    ]);
  });
});

describe("retry policy", () => {
  it("never retries an HTTP error answered by the server (the BFF already retried upstream)", () => {
    expect(shouldRetry(0, new DataApiError({ status: 404, code: "not_found", message: "x" }))).toBe(false);
    expect(shouldRetry(0, new DataApiError({ status: 502, code: "upstream_error", message: "x" }))).toBe(false);
  });
  it("retries a network failure once", () => {
    const network = new DataApiError({ status: 0, code: "network_error", message: "x" });
    expect(shouldRetry(0, network)).toBe(true);
    expect(shouldRetry(1, network)).toBe(false);
  });
});
