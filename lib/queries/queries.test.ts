// The React Query options derived from the route table: keys start with the resource and carry
// every parameter (so two views never share a cache entry by accident, and ["visitors"] is the
// prefix of everything about visitors), the query function calls the transport with the route and
// its input, and the browser transport builds the route's URL.
import { hashKey, QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DataApiError } from "@/lib/data-api/errors";
import { mentionListParams, parseQuery, periodParams, visitorListParams } from "@/lib/data-api/params";
import { apiQuery, apiUrl, browserApi, sendJson, type ApiTransport } from "./api";
import { shouldRetry } from "./get-query-client";

/** A transport that records which route was asked with what input (a stand-in for HTTP). */
function recordingApi() {
  const calls: Array<[string, unknown]> = [];
  const api: ApiTransport = {
    get: async (path, input) => {
      calls.push([path, input]);
      return { data: [], meta: { total: 0, limit: 20, offset: 0 } } as never;
    },
  };
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
    const key = apiQuery(api, "/visitors", { query: full }).queryKey;
    expect(key).toEqual([
      "visitors",
      { source: "chatgpt", intent: "support", converted: "true", from: "2026-11-01", to: "2026-11-20", limit: 50, offset: 100 },
    ]);
  });

  it("differ when any one parameter differs", () => {
    const base = hashKey(apiQuery(api, "/visitors", { query: full }).queryKey);
    for (const [k, v] of Object.entries({
      source: "claude",
      intent: "unknown",
      converted: "false",
      from: "2026-10-01",
      to: "2026-11-19",
      limit: 20,
      offset: 0,
    })) {
      const other = hashKey(apiQuery(api, "/visitors", { query: { ...full, [k]: v } }).queryKey);
      expect(other, k).not.toBe(base);
    }
  });

  it("carry mention filters, ids (in the path's place) and periods", () => {
    const m = parse(parseQuery(mentionListParams, { platform: "gemini", sentiment: "negative", offset: "40" }));
    expect(apiQuery(api, "/mentions", { query: m }).queryKey).toEqual(["mentions", { platform: "gemini", sentiment: "negative", limit: 20, offset: 40 }]);
    expect(apiQuery(api, "/visitors/:id", { params: { id: "vis_1" } }).queryKey).toEqual(["visitors", "vis_1"]);
    expect(apiQuery(api, "/visitors/:id/timeline", { params: { id: "vis_1" } }).queryKey).toEqual(["visitors", "vis_1", "timeline"]);
    const p = parse(parseQuery(periodParams, { period: "7d" }));
    expect(apiQuery(api, "/analytics/overview", { query: p }).queryKey).toEqual(["analytics", "overview", { period: "7d" }]);
    expect(apiQuery(api, "/analytics/traffic", { query: p }).queryKey).toEqual(["analytics", "traffic", { period: "7d" }]);
    expect(apiQuery(api, "/intelligence/score", {}).queryKey).toEqual(["intelligence", "score"]);
    expect(apiQuery(api, "/intelligence/ranking", {}).queryKey).toEqual(["intelligence", "ranking"]);
  });

  it("the same URL parsed twice (server prefetch and browser) gives the same cache entry", () => {
    const a = parse(parseQuery(visitorListParams, new URLSearchParams("source=paid&offset=20")));
    const b = parse(parseQuery(visitorListParams, { offset: "20", source: "paid" }));
    expect(hashKey(apiQuery(api, "/visitors", { query: a }).queryKey)).toBe(hashKey(apiQuery(api, "/visitors", { query: b }).queryKey));
  });
});

describe("query functions", () => {
  it("call the transport with the route and its input", async () => {
    const { api, calls } = recordingApi();
    const client = new QueryClient();
    const params = parse(parseQuery(visitorListParams, { source: "direct" }));
    await client.fetchQuery(apiQuery(api, "/visitors", { query: params }));
    await client.fetchQuery(apiQuery(api, "/visitors/:id", { params: { id: "vis_x" } }));
    await client.fetchQuery(apiQuery(api, "/analytics/overview", { query: { period: "90d" } }));
    expect(calls).toEqual([
      ["/visitors", { query: { source: "direct", limit: 20, offset: 0 } }],
      ["/visitors/:id", { params: { id: "vis_x" } }],
      ["/analytics/overview", { query: { period: "90d" } }],
    ]);
  });
});

describe("the browser transport", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("builds each route's URL: path parameters encoded, the query sorted, unset values left out", () => {
    expect(apiUrl("/visitors", { query: { source: "chatgpt", limit: 20, offset: 0, intent: undefined } })).toBe(
      "/api/visitors?limit=20&offset=0&source=chatgpt",
    );
    expect(apiUrl("/visitors/:id/timeline", { params: { id: "vis_a b/c" } })).toBe("/api/visitors/vis_a%20b%2Fc/timeline");
    expect(apiUrl("/intelligence/score", {})).toBe("/api/intelligence/score");
  });

  it("turns an error body into DataApiError with its request id and Retry-After", async () => {
    vi.stubGlobal("fetch", async () =>
      Response.json({ error: { code: "rate_limited", message: "busy", request_id: "req_1" } }, { status: 503, headers: { "Retry-After": "7" } }),
    );
    const error = await browserApi.get("/intelligence/score", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataApiError);
    expect(error).toMatchObject({ status: 503, code: "rate_limited", requestId: "req_1", retryAfter: 7 });
  });

  it("a GET answered without a body is an unexpected response, not an empty answer", async () => {
    vi.stubGlobal("fetch", async () => new Response(null, { status: 204 }));
    await expect(browserApi.get("/intelligence/score", {})).rejects.toMatchObject({ code: "unexpected_response" });
  });
});

describe("writes (sendJson)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends the body as JSON and answers the route's JSON; a success without a body (204, a bare 202) is null", async () => {
    const seen: Array<{ method?: string; type: string | null; body: unknown }> = [];
    const answers = [Response.json({ id: "dst_1" }, { status: 201 }), new Response(null, { status: 204 }), new Response("", { status: 202 })];
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      seen.push({ method: init.method, type: new Headers(init.headers).get("content-type"), body: init.body });
      return answers.shift()!;
    });
    expect(await sendJson("POST", "/api/alerts/destinations", { name: "a" })).toEqual({ id: "dst_1" });
    expect(await sendJson("DELETE", "/api/alerts/destinations/dst_1")).toBeNull();
    expect(await sendJson("POST", "/api/alerts/deliveries/d/retry")).toBeNull();
    expect(seen).toEqual([
      { method: "POST", type: "application/json", body: '{"name":"a"}' },
      { method: "DELETE", type: null, body: undefined },
      { method: "POST", type: null, body: undefined },
    ]);
  });

  it("a refusal is a DataApiError naming the field; no answer at all is status 0", async () => {
    vi.stubGlobal("fetch", async () =>
      Response.json({ error: { code: "invalid_parameter", message: "That address is private.", param: "url" } }, { status: 400 }),
    );
    await expect(sendJson("POST", "/api/alerts/destinations", {})).rejects.toMatchObject({ status: 400, param: "url", message: "That address is private." });
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(sendJson("PUT", "/api/alerts/digest", { destination_id: null })).rejects.toMatchObject({ status: 0, code: "network_error" });
  });

  it("what a refusal carries besides its error comes with it (a 409's note as it is now)", async () => {
    const current = { id: "ann_1", text: "Theirs" };
    vi.stubGlobal("fetch", async () =>
      Response.json({ error: { code: "conflict", message: "Changed meanwhile.", param: "updated_at" }, current }, { status: 409 }),
    );
    await expect(sendJson("PATCH", "/api/annotations/ann_1", { text: "Mine" })).rejects.toMatchObject({ status: 409, code: "conflict", extra: { current } });
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
