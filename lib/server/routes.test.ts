// The Data API's endpoints and the lists as the route files under app/api serve them, against a
// sandbox over real HTTP: every registry endpoint served at /api + its path and nothing else, happy
// path per parameter (the upstream receives exactly the validated query), pagination meta, and every
// error mapping of lib/data-api/README.md "Errors the browser gets".
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ListEnvelope, Mention, Visitor } from "@/lib/data-api/schemas";
import { DEMO_KEYS, REVOKED_KEY } from "@/sandbox/keys";
import { endpoints } from "@/lib/data-api/endpoints";
import { UNCOMPRESSED_MAX_BYTES } from "./http";
import { apiRoute, callApi, call, onServerFakeTime, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";

const sandbox = upstreamForFile();
let pro: string;

beforeAll(async () => {
  process.env.DATA_API_TIMEOUT_MS = "1000";
  pro = await sessionCookie(DEMO_KEYS.pro);
});
afterAll(() => {
  delete process.env.DATA_API_TIMEOUT_MS;
});
beforeEach(() => {
  sandbox().setFaults({});
  sandbox().reset();
});

const lastUpstream = () => sandbox().stats().log.at(-1)!;

describe("GET /api/visitors", () => {
  it("defaults to limit 20, offset 0 and reports the pagination meta", async () => {
    const res = await call<ListEnvelope<Visitor>>(apiRoute, "/api/visitors", { cookie: pro });
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ limit: 20, offset: 0 });
    expect(res.body.data).toHaveLength(20);
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
  });

  it("leaves a body over the uncompressed bound to gzip (no no-transform), never cached", async () => {
    const res = await call<ListEnvelope<Visitor>>(apiRoute, "/api/visitors?limit=100", { cookie: pro });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body).length).toBeGreaterThan(UNCOMPRESSED_MAX_BYTES);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("pages with limit and offset", async () => {
    const first = await call<ListEnvelope<Visitor>>(apiRoute, "/api/visitors?limit=4&offset=0", { cookie: pro });
    const second = await call<ListEnvelope<Visitor>>(apiRoute, "/api/visitors?limit=2&offset=2", { cookie: pro });
    expect(second.body.meta).toEqual({ total: first.body.meta.total, limit: 2, offset: 2 });
    expect(second.body.data.map((v) => v.id)).toEqual(first.body.data.slice(2, 4).map((v) => v.id));
  });

  it.each([
    ["source=perplexity", (v: Visitor) => v.source === "perplexity"],
    ["intent=pricing_research", (v: Visitor) => v.intent === "pricing_research"],
    ["converted=true", (v: Visitor) => v.converted === true],
    ["converted=false", (v: Visitor) => v.converted === false],
    ["from=2026-11-01", (v: Visitor) => v.first_seen! >= "2026-11-01"],
    ["to=2026-10-01", (v: Visitor) => v.first_seen! < "2026-10-02"],
    // Both bounds of one form: a datetime from with a date-only to is refused (bad-input.test.ts).
    ["from=2026-10-01T00:00:00Z&to=2026-10-31T12:00:00Z", (v: Visitor) => v.first_seen! >= "2026-10-01" && v.first_seen! <= "2026-10-31T12:00:00"],
  ])("filters by %s and sends exactly that upstream", async (query, holds) => {
    const res = await call<ListEnvelope<Visitor>>(apiRoute, `/api/visitors?${query}&limit=50`, { cookie: pro });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.every(holds)).toBe(true);
    const sent = new URLSearchParams(lastUpstream().query);
    for (const [k, v] of new URLSearchParams(query)) expect(sent.get(k)).toBe(v);
  });

  it("drops unknown parameters instead of forwarding them", async () => {
    await call(apiRoute, "/api/visitors?limit=3&debug=1&api_key=x&__proto__=y", { cookie: pro });
    expect(lastUpstream().query).toBe("limit=3&offset=0");
  });
});

describe("GET /api/mentions", () => {
  it.each([
    ["platform=claude", (m: Mention) => m.platform === "claude"],
    ["sentiment=negative", (m: Mention) => m.sentiment === "negative"],
    ["from=2026-11-01", (m: Mention) => m.created_at! >= "2026-11-01"],
    ["to=2026-09-30", (m: Mention) => m.created_at! < "2026-10-01"],
  ])("filters by %s", async (query, holds) => {
    const res = await call<ListEnvelope<Mention>>(apiRoute, `/api/mentions?${query}&limit=30`, { cookie: pro });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.every(holds)).toBe(true);
  });

  it("pages with limit and offset", async () => {
    const res = await call<ListEnvelope<Mention>>(apiRoute, "/api/mentions?limit=5&offset=10", { cookie: pro });
    expect(res.body.meta).toMatchObject({ limit: 5, offset: 10 });
    expect(res.body.data).toHaveLength(5);
  });
});

describe("analytics and intelligence", () => {
  it.each(["24h", "7d", "30d", "90d"])("overview, traffic and funnel for period=%s", async (period) => {
    const overview = await call<{ visitors: { total: number } }>(apiRoute, `/api/analytics/overview?period=${period}`, { cookie: pro });
    const traffic = await call<{ period: string; data: { visitors: number }[] }>(apiRoute, `/api/analytics/traffic?period=${period}`, { cookie: pro });
    const funnel = await call<{ data: { count: number }[] }>(apiRoute, `/api/analytics/funnel?period=${period}`, { cookie: pro });
    expect([overview.status, traffic.status, funnel.status]).toEqual([200, 200, 200]);
    expect(traffic.body.period).toBe(period);
    expect(traffic.body.data.reduce((s, r) => s + r.visitors, 0)).toBe(overview.body.visitors.total);
    expect(funnel.body.data.length).toBeGreaterThan(1);
  });

  it("defaults the period to 30d", async () => {
    await call(apiRoute, "/api/analytics/overview", { cookie: pro });
    expect(lastUpstream().query).toBe("period=30d");
  });

  it("score and ranking (unknown parameters dropped)", async () => {
    const score = await call<{ score: number }>(apiRoute, "/api/intelligence/score?x=1", { cookie: pro });
    expect(score.status).toBe(200);
    expect(score.body.score).toBeGreaterThanOrEqual(0);
    expect(lastUpstream().query).toBe("");
    const ranking = await call<{ data: { rank: number; is_workspace?: boolean }[] }>(apiRoute, "/api/intelligence/ranking", { cookie: pro });
    expect(ranking.body.data.some((r) => r.is_workspace)).toBe(true);
  });

  it("one visitor and its timeline", async () => {
    const list = await call<ListEnvelope<Visitor>>(apiRoute, "/api/visitors?limit=1", { cookie: pro });
    const id = list.body.data[0]!.id;
    const one = await call<Visitor>(apiRoute, `/api/visitors/${id}`, { cookie: pro });
    expect(one.body.id).toBe(id);
    const timeline = await call<{ data: { occurred_at: string }[] }>(apiRoute, `/api/visitors/${id}/timeline`, {
      cookie: pro,
      params: { id },
    });
    expect(timeline.status).toBe(200);
    expect(timeline.body.data.length).toBeGreaterThan(0);
  });
});

describe("error mapping", () => {
  it("no session, or a tampered one: 401 unauthorized, no upstream call, cookie cleared", async () => {
    const none = await call<ErrorJson>(apiRoute, "/api/visitors");
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe("unauthorized");
    const tampered = await call<ErrorJson>(apiRoute, "/api/intelligence/score", { cookie: `${pro.slice(0, -6)}AAAAAA` });
    expect(tampered.status).toBe(401);
    expect(tampered.headers.get("set-cookie")).toMatch(/^wa_session=;.*Max-Age=0/);
    const foreign = await call<ErrorJson>(apiRoute, "/api/intelligence/score", { cookie: "wa_session=Fe26.2**abc*def" });
    expect(foreign.status).toBe(401);
    expect(sandbox().stats().requests).toBe(0);
  });

  it("empty workspace: empty lists, not errors", async () => {
    const res = await call<ListEnvelope<Visitor>>(apiRoute, "/api/visitors", { cookie: await sessionCookie(DEMO_KEYS.empty) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it("limited key: 403 forbidden naming what it has no access to, with the request id", async () => {
    const limited = await sessionCookie(DEMO_KEYS.limited);
    const res = await call<ErrorJson>(apiRoute, "/api/intelligence/ranking", { cookie: limited });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "forbidden", message: "This API key has no access to the competitor ranking." });
    expect(res.body.error.request_id).toMatch(/\S/);
    const id = (await call<ListEnvelope<Visitor>>(apiRoute, "/api/visitors?limit=1", { cookie: limited })).body.data[0]!.id;
    const timeline = await call<ErrorJson>(apiRoute, `/api/visitors/${id}/timeline`, { cookie: limited });
    expect(timeline.status).toBe(403);
  });

  it("revoked key: 401 session_expired and the session cookie is cleared", async () => {
    const res = await call<ErrorJson>(apiRoute, "/api/analytics/overview", { cookie: await sessionCookie(REVOKED_KEY) });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("session_expired");
    expect(res.body.error.message).toBe("Your API key is no longer valid (revoked?). Sign in again.");
    expect(res.headers.get("set-cookie")).toMatch(/^wa_session=;/);
  });

  it("unknown visitor: the upstream 404 passes through with its request id", async () => {
    const res = await call<ErrorJson>(apiRoute, "/api/visitors/vis_nobody", { cookie: pro, params: { id: "vis_nobody" } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    expect(res.body.error.request_id).toMatch(/\S/);
  });

  // The retry and timeout tests run on fake time: the default policy's backoff, Retry-After and the
  // timeout are waited out on the fake clock, over real HTTP.
  it("5xx after the retries: 502 upstream_error with the request id", async () => {
    sandbox().setFaults({ errorCount: 100, paths: ["/analytics/traffic"] });
    const res = await onServerFakeTime(() => call<ErrorJson>(apiRoute, "/api/analytics/traffic?period=7d", { cookie: pro }));
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("upstream_error");
    expect(res.body.error.request_id).toMatch(/\S/);
    expect(sandbox().stats().byPath["/analytics/traffic"]).toBe(5);
  });

  it("429 after the retries: 503 rate_limited with Retry-After", async () => {
    sandbox().setFaults({ rateLimitStorm: 100, paths: ["/analytics/funnel"] });
    const res = await onServerFakeTime(() => call<ErrorJson>(apiRoute, "/api/analytics/funnel?period=7d", { cookie: pro }));
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("rate_limited");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("a malformed upstream body: 502 unexpected_response with the request id", async () => {
    sandbox().setFaults({ malformedCount: 1, paths: ["/mentions"] });
    const res = await call<ErrorJson>(apiRoute, "/api/mentions?limit=7", { cookie: pro });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("unexpected_response");
    expect(res.body.error.request_id).toMatch(/\S/);
  });

  it("a slow upstream beyond the timeout: 504 upstream_timeout", async () => {
    sandbox().setFaults({ latencyMs: 1500, paths: ["/intelligence/score"] });
    const res = await onServerFakeTime(() => call<ErrorJson>(apiRoute, "/api/intelligence/score", { cookie: pro }), { sandbox: sandbox() });
    expect(res.status).toBe(504);
    expect(res.body.error.code).toBe("upstream_timeout");
  });
});

describe("the routes", () => {
  it("serve every Data API endpoint of the registry at /api + its path, and nothing else", async () => {
    for (const path of Object.keys(endpoints)) {
      const concrete = path.replace(":id", "vis_doesnotexist");
      const res = await callApi<ErrorJson>(`/api${concrete}`, { cookie: pro });
      // An unknown visitor is the upstream's 404 passed on; every other endpoint answers.
      expect([200, 404], path).toContain(res.status);
      if (res.status === 404) expect(res.body.error.code).toBe("not_found");
      expect(lastUpstream().path, path).toBe(`/v1${concrete}`);
    }
    const before = sandbox().stats().requests;
    for (const path of ["/api/visitors/vis_a/events", "/api/v1/visitors", "/api/Visitors", "/api/intelligence", "/api/sandbox/keys"]) {
      const res = await callApi<ErrorJson>(path, { cookie: pro });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect(sandbox().stats().requests).toBe(before);
  });

  it("refuse HEAD on a read with 405 and Allow (Next would run GET for it, spending upstream calls on a body nobody reads); an unknown path is the JSON 404 whatever the method", async () => {
    // Another method on a read is refused by the production entry in the shared shape (front-server.test.ts).
    const before = sandbox().stats().requests;
    for (const path of ["/visitors", "/insights/trend", "/visitors/vis_a/timeline"]) {
      const head = await callApi<ErrorJson>(`/api${path}`, { cookie: pro, init: { method: "HEAD" } });
      expect(head.status, path).toBe(405);
      expect(head.headers.get("allow")).toBe("GET");
    }
    expect(sandbox().stats().requests).toBe(before);
    const unknown = await callApi<ErrorJson>("/api/nothing", { init: { method: "DELETE" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
  });

  it("take a path parameter after decoding it once more (the router may leave escapes), and refuse one that does not decode", async () => {
    const id = (await callApi<ListEnvelope<Visitor>>("/api/visitors?limit=1", { cookie: pro })).body.data[0]!.id;
    const escaped = await callApi<Visitor>("/api/visitors/x", {
      cookie: pro,
      segments: ["visitors", `${id.slice(0, 4)}%${id.charCodeAt(4).toString(16)}${id.slice(5)}`],
    });
    expect(escaped.status).toBe(200);
    expect(escaped.body.id).toBe(id);
    const bad = await callApi<ErrorJson>("/api/visitors/x/timeline", { cookie: pro, segments: ["visitors", "vis_%", "timeline"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_parameter", param: "id" });
  });
});
