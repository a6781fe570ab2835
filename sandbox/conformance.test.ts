// Conformance of the sandbox Data API over real HTTP: every endpoint, parameter (valid, boundary,
// invalid), error status and code, header and key kind, plus the admin endpoints and faults.
import { connect } from "node:net";
import type { z } from "zod";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SOURCES } from "@/lib/data-api/constants";
import { SOURCES as DOCUMENTED_SOURCES } from "./contract";
import {
  funnelSchema,
  listEnvelope,
  mentionSchema,
  overviewSchema,
  rankingSchema,
  scoreSchema,
  trafficSchema,
  visitorSchema,
  visitorTimelineSchema,
} from "@/lib/data-api/schemas";
import { DEMO_KEYS, REVOKED_KEY } from "./keys";
import { startSandbox } from "./server";
import { api, TEST_NOW, type ErrorJson, type ListJson, type VisitorItem } from "./test-client";
import type { Sandbox } from "./types";

/**
 * The body parsed with the app's canonical schema, which must change nothing: the lenient parse
 * would quietly turn a wrongly typed field into an absent one, so equality is what shows that the
 * sandbox sends every field in its documented type.
 */
function canonical<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.parse(body);
  expect(parsed).toStrictEqual(body);
  return parsed;
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, now: TEST_NOW, visitors: 5000 });
});
afterAll(async () => {
  await sb.close();
});
// Real clock here: keep each test well under the Pro burst (50/s) by starting from fresh counters.
beforeEach(() => sb.reset());

const V1_PATHS = ["/visitors", "/mentions", "/analytics/overview", "/analytics/traffic", "/analytics/funnel", "/intelligence/score", "/intelligence/ranking"];

function expectCommonHeaders(headers: Headers) {
  expect(headers.get("content-type")).toMatch(/^application\/json/);
  expect(headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{8,}$/);
}

function expectRateHeaders(headers: Headers, limit: number) {
  expect(headers.get("x-ratelimit-limit")).toBe(String(limit));
  const remaining = Number(headers.get("x-ratelimit-remaining"));
  expect(Number.isInteger(remaining) && remaining >= 0 && remaining <= limit).toBe(true);
  const reset = Number(headers.get("x-ratelimit-reset"));
  // Epoch seconds of the end of the current minute window.
  expect(reset % 60).toBe(0);
  expect(reset * 1000).toBeGreaterThan(Date.now() - 1000);
  expect(reset * 1000).toBeLessThanOrEqual(Date.now() + 61_000);
}

function expectError(res: { status: number; body: unknown; headers: Headers }, status: number, code: string, param?: string) {
  expect(res.status).toBe(status);
  const body = res.body as ErrorJson;
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe("string");
  expect(body.error.message.length).toBeGreaterThan(5);
  expect(body.error.request_id).toBe(res.headers.get("x-request-id"));
  if (param !== undefined) expect(body.error.param).toBe(param);
  expectCommonHeaders(res.headers);
}

describe("headers", () => {
  it("every /v1 success carries JSON content type, a unique request id and rate-limit headers", async () => {
    const ids = new Set<string>();
    for (const path of V1_PATHS) {
      const res = await api(sb, path);
      expect(res.status, path).toBe(200);
      expectCommonHeaders(res.headers);
      expectRateHeaders(res.headers, 1000);
      ids.add(res.headers.get("x-request-id")!);
    }
    expect(ids.size).toBe(V1_PATHS.length);
  });

  it("errors carry the same headers (400, 401, 403, 404, 405)", async () => {
    const cases = [
      await api(sb, "/visitors?limit=0"),
      await api(sb, "/visitors", null),
      await api(sb, "/intelligence/score", DEMO_KEYS.limited),
      await api(sb, "/nope"),
      await api(sb, "/visitors", DEMO_KEYS.pro, { method: "POST" }),
    ];
    expect(cases.map((c) => c.status)).toEqual([400, 401, 403, 404, 405]);
    for (const res of cases) {
      expectCommonHeaders(res.headers);
      expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
      expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
      expect(res.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
    }
  });

  it("Remaining counts down per key and the plan's limit is reported", async () => {
    const a = await api(sb, "/visitors", DEMO_KEYS.free);
    const b = await api(sb, "/visitors", DEMO_KEYS.free);
    expectRateHeaders(a.headers, 100);
    expect(Number(b.headers.get("x-ratelimit-remaining"))).toBe(Number(a.headers.get("x-ratelimit-remaining")) - 1);
    const pro = await api(sb, "/visitors", DEMO_KEYS.pro);
    expect(pro.headers.get("x-ratelimit-remaining")).toBe("999");
  });
});

describe("authentication and key kinds", () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ["no Authorization header", {}, /missing/i],
    ["not a Bearer token", { Authorization: `Basic ${DEMO_KEYS.pro}` }, /malformed/i],
    ["empty Bearer", { Authorization: "Bearer " }, /malformed/i],
    ["two tokens", { Authorization: `Bearer ${DEMO_KEYS.pro} x` }, /malformed/i],
    ["unknown test key", { Authorization: "Bearer svc_sk_test_not_a_real_key_000000" }, /invalid/i],
    ["live key", { Authorization: "Bearer svc_sk_live_demo_pro_4e8b2a6c9d1f" }, /live/i],
    ["revoked key", { Authorization: `Bearer ${REVOKED_KEY}` }, /revoked/i],
    ["key in wrong case", { Authorization: `Bearer ${DEMO_KEYS.pro.toUpperCase()}` }, /invalid/i],
  ];
  it.each(cases)("%s: 401 unauthorized, message says why without echoing the key", async (_name, headers, message) => {
    const res = await api(sb, "/visitors", null, { headers });
    expectError(res, 401, "unauthorized");
    const body = res.body as ErrorJson;
    expect(body.error.message).toMatch(message);
    expect(res.text).not.toContain("demo_pro");
    expect(res.text).not.toContain(REVOKED_KEY);
  });

  it("401 on every endpoint, including unknown ones (auth comes first)", async () => {
    for (const path of [...V1_PATHS, "/visitors/vis_000000000", "/nope"]) {
      expectError(await api(sb, path, null), 401, "unauthorized");
    }
  });

  it("free, pro and limited keys read the same demo workspace", async () => {
    const bodies = await Promise.all([DEMO_KEYS.free, DEMO_KEYS.pro, DEMO_KEYS.limited].map((k) => api(sb, "/visitors?limit=5", k)));
    expect(bodies.map((b) => b.status)).toEqual([200, 200, 200]);
    expect(bodies[1]!.text).toBe(bodies[0]!.text);
    expect(bodies[2]!.text).toBe(bodies[0]!.text);
    expect((bodies[0]!.body as ListJson<VisitorItem>).meta.total).toBe(5000);
  });

  it("the limited key gets 403 forbidden on intelligence and timelines only", async () => {
    const list = await api<ListJson<VisitorItem>>(sb, "/visitors?limit=1", DEMO_KEYS.limited);
    const id = list.body.data[0]!.id;
    expectError(await api(sb, "/intelligence/score", DEMO_KEYS.limited), 403, "forbidden");
    expectError(await api(sb, "/intelligence/ranking", DEMO_KEYS.limited), 403, "forbidden");
    expectError(await api(sb, `/visitors/${id}/timeline`, DEMO_KEYS.limited), 403, "forbidden");
    expect((await api(sb, `/visitors/${id}`, DEMO_KEYS.limited)).status).toBe(200);
    expect((await api(sb, "/mentions", DEMO_KEYS.limited)).status).toBe(200);
    expect((await api(sb, "/analytics/funnel", DEMO_KEYS.limited)).status).toBe(200);
    expect((await api(sb, `/visitors/${id}/timeline`, DEMO_KEYS.pro)).status).toBe(200);
  });

  it("the empty key sees a workspace with no data, in the usual shapes", async () => {
    const k = DEMO_KEYS.empty;
    expect((await api(sb, "/visitors", k)).body).toEqual({ data: [], meta: { total: 0, limit: 20, offset: 0 } });
    expect((await api(sb, "/mentions?limit=5", k)).body).toEqual({ data: [], meta: { total: 0, limit: 5, offset: 0 } });
    const overview = (await api(sb, "/analytics/overview", k)).body;
    expect(overview).toMatchObject({
      visitors: { total: 0, change: 0 },
      pageviews: { total: 0, change: 0 },
      conversions: { total: 0, rate: 0, change: 0 },
      ai_traffic: { total: 0, percentage: 0 },
    });
    const traffic = canonical(trafficSchema, (await api(sb, "/analytics/traffic", k)).body);
    expect(traffic.data.map((r) => r.source)).toEqual([...DOCUMENTED_SOURCES]);
    expect(traffic.data.every((r) => r.visitors === 0 && r.percentage === 0)).toBe(true);
    const funnel = canonical(funnelSchema, (await api(sb, "/analytics/funnel", k)).body);
    expect(funnel.data.every((s) => s.count === 0)).toBe(true);
    const score = canonical(scoreSchema, (await api(sb, "/intelligence/score", k)).body);
    expect(score).toMatchObject({ score: 0, trend: { direction: "flat", change: 0 } });
    expect((await api(sb, "/intelligence/ranking", k)).body).toMatchObject({ data: [] });
    expectError(await api(sb, "/visitors/vis_000000000", k), 404, "not_found");
  });
});

describe("GET /visitors", () => {
  it("returns the list envelope with full visitor items, newest last_seen first, defaults limit 20 offset 0", async () => {
    const res = await api<ListJson<VisitorItem>>(sb, "/visitors");
    expect(res.status).toBe(200);
    canonical(listEnvelope(visitorSchema), res.body);
    expect(res.body.meta).toEqual({ total: 5000, limit: 20, offset: 0 });
    expect(res.body.data).toHaveLength(20);
    for (const v of res.body.data) {
      expect(v.id).toMatch(/^vis_[A-Za-z0-9_-]+$/);
      expect(SOURCES).toContain(v.source);
      expect(v.country).toMatch(/^[A-Z]{2}$/);
      expect(Number.isInteger(v.pages_viewed) && v.pages_viewed >= 1).toBe(true);
      expect(Date.parse(v.first_seen)).toBeLessThanOrEqual(Date.parse(v.last_seen));
      expect(Date.parse(v.last_seen)).toBeLessThanOrEqual(Date.parse(TEST_NOW));
      expect(new Date(v.first_seen).toISOString()).toBe(v.first_seen);
      // Anonymous visitors have neither e-mail nor city; identified ones have both.
      expect("email" in v).toBe("city" in v);
      if (v.email) expect(v.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z.]+$/);
    }
    const lastSeen = res.body.data.map((v) => Date.parse(v.last_seen));
    expect(lastSeen).toEqual([...lastSeen].sort((a, b) => b - a));
  });

  it("pages are consecutive slices of one order", async () => {
    const all = await api<ListJson<VisitorItem>>(sb, "/visitors?limit=30");
    const p1 = await api<ListJson<VisitorItem>>(sb, "/visitors?limit=10&offset=0");
    const p2 = await api<ListJson<VisitorItem>>(sb, "/visitors?limit=10&offset=10");
    const p3 = await api<ListJson<VisitorItem>>(sb, "/visitors?limit=10&offset=20");
    expect([...p1.body.data, ...p2.body.data, ...p3.body.data].map((v) => v.id)).toEqual(all.body.data.map((v) => v.id));
    expect(p2.body.meta).toEqual({ total: 5000, limit: 10, offset: 10 });
  });

  it("accepts the boundaries of limit and offset", async () => {
    expect((await api<ListJson<VisitorItem>>(sb, "/visitors?limit=1")).body.data).toHaveLength(1);
    expect((await api<ListJson<VisitorItem>>(sb, "/visitors?limit=100")).body.data).toHaveLength(100);
    const last = await api<ListJson<VisitorItem>>(sb, "/visitors?limit=100&offset=4999");
    expect(last.body.data).toHaveLength(1);
    const beyond = await api<ListJson<VisitorItem>>(sb, "/visitors?offset=5000");
    expect(beyond.body).toEqual({ data: [], meta: { total: 5000, limit: 20, offset: 5000 } });
  });

  const invalid: Array<[string, string, RegExp?]> = [
    ["limit=0", "limit"],
    ["limit=101", "limit", /100/],
    ["limit=-1", "limit"],
    ["limit=1.5", "limit"],
    ["limit=abc", "limit"],
    ["limit=", "limit"],
    ["limit=1e2", "limit"],
    ["offset=-1", "offset"],
    ["offset=x", "offset"],
    ["offset=2.5", "offset"],
    ["source=bing", "source", /chatgpt, perplexity, claude, gemini, organic, direct, paid, social, referral/],
    ["source=ChatGPT", "source"],
    ["source=", "source"],
    ["intent=Not%20An%20Intent", "intent", /problem_research/],
    ["converted=yes", "converted", /true, false/],
    ["converted=1", "converted"],
    ["converted=TRUE", "converted"],
    ["from=yesterday", "from", /ISO 8601/],
    ["from=2026-13-01", "from"],
    ["from=2026-02-30", "from"],
    ["to=2026-11-20T25:00:00Z", "to"],
    ["to=20261120", "to"],
    ["from=2026-11-10&to=2026-11-01", "to", /earlier/],
    ["from=2026-11-20T00:00:00Z&to=2026-11-19", "to", /earlier/],
    ["to=2026-11-19T12:00:00", "to", /zone/],
    ["from=2026-11-19t12:00:00z", "from"],
    ["from=2027-02-29", "from"],
    ["from=1900-02-29", "from"],
    ["to=2026-11-19T12:00:00%2B24:00", "to"],
    ["offset=99999999999999999", "offset"],
    ["source=chatgpt&source=claude", "source", /once/],
    ["limit=10&limit=10", "limit"],
  ];
  it.each(invalid)("%s: 400 invalid_parameter naming %s", async (query, param, message) => {
    const res = await api(sb, `/visitors?${query}`);
    expectError(res, 400, "invalid_parameter", param);
    if (message) expect((res.body as ErrorJson).error.message).toMatch(message);
  });

  it("ignores unknown query parameters", async () => {
    const plain = await api(sb, "/visitors?limit=3");
    const extra = await api(sb, "/visitors?limit=3&foo=bar&sort=desc&source_x=1");
    expect(extra.status).toBe(200);
    expect(extra.text).toBe(plain.text);
  });

  it("filters by source, intent and converted", async () => {
    const bySource = await api<ListJson<VisitorItem>>(sb, "/visitors?source=perplexity&limit=100");
    expect(bySource.body.meta.total).toBeGreaterThan(0);
    expect(bySource.body.meta.total).toBeLessThan(5000);
    expect(bySource.body.data.every((v) => v.source === "perplexity")).toBe(true);
    const byIntent = await api<ListJson<VisitorItem>>(sb, "/visitors?intent=pricing_research&limit=100");
    expect(byIntent.body.data.length).toBeGreaterThan(0);
    expect(byIntent.body.data.every((v) => v.intent === "pricing_research")).toBe(true);
    const conv = await api<ListJson<VisitorItem>>(sb, "/visitors?converted=true&limit=100");
    const notConv = await api<ListJson<VisitorItem>>(sb, "/visitors?converted=false&limit=100");
    expect(conv.body.data.every((v) => v.converted)).toBe(true);
    expect(notConv.body.data.every((v) => !v.converted)).toBe(true);
    expect(conv.body.meta.total + notConv.body.meta.total).toBe(5000);
    const combined = await api<ListJson<VisitorItem>>(sb, "/visitors?source=chatgpt&converted=true&limit=100");
    expect(combined.body.data.every((v) => v.source === "chatgpt" && v.converted)).toBe(true);
    expect(combined.body.meta.total).toBeLessThanOrEqual(conv.body.meta.total);
  });

  it("an intent nobody has is a valid filter with no results (intent is an open set)", async () => {
    const res = await api<ListJson<VisitorItem>>(sb, "/visitors?intent=enterprise_procurement");
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(0);
  });

  it("from/to filter first_seen inclusively; a date-only to covers the whole UTC day", async () => {
    const day = await api<ListJson<VisitorItem>>(sb, "/visitors?from=2026-11-19&to=2026-11-19&limit=100");
    expect(day.body.meta.total).toBeGreaterThan(0);
    for (const v of day.body.data) expect(v.first_seen.slice(0, 10)).toBe("2026-11-19");
    const explicit = await api<ListJson<VisitorItem>>(sb, "/visitors?from=2026-11-19T00:00:00Z&to=2026-11-19T23:59:59.999Z&limit=100");
    expect(explicit.body.meta.total).toBe(day.body.meta.total);
    // An offset in the datetime denotes the same instant as its UTC form.
    const offset = await api<ListJson<VisitorItem>>(sb, "/visitors?from=2026-11-19T01:00:00%2B01:00&to=2026-11-20T00:59:59.999%2B01:00");
    expect(offset.body.meta.total).toBe(day.body.meta.total);
    // Exactly one visitor's first_seen as both bounds selects it (inclusive on both ends).
    const one = day.body.data[0]!;
    const exact = await api<ListJson<VisitorItem>>(sb, `/visitors?from=${one.first_seen}&to=${one.first_seen}`);
    expect(exact.body.data.map((v) => v.id)).toContain(one.id);
    expect(exact.body.data.every((v) => v.first_seen === one.first_seen)).toBe(true);
  });
});

describe("GET /visitors: where the API document is more lenient than the app (README: Parameters)", () => {
  it("a date-only to with a datetime from (and the reverse) is the range it says: the whole UTC day of the date", async () => {
    const total = async (q: string) => {
      const res = await api<ListJson<VisitorItem>>(sb, `/visitors?${q}&limit=100`);
      expect(res.status, q).toBe(200);
      return res.body;
    };
    const mixed = await total("from=2026-11-19T12:00:00Z&to=2026-11-19");
    const explicit = await total("from=2026-11-19T12:00:00Z&to=2026-11-19T23:59:59.999Z");
    expect(mixed.meta.total).toBeGreaterThan(0);
    expect(mixed).toEqual(explicit);
    for (const v of mixed.data) expect(v.first_seen >= "2026-11-19T12:00:00" && v.first_seen < "2026-11-20").toBe(true);
    const reverse = await total("from=2026-11-19&to=2026-11-19T11:59:59Z");
    expect(reverse).toEqual(await total("from=2026-11-19T00:00:00Z&to=2026-11-19T11:59:59Z"));
    expect(reverse.meta.total + mixed.meta.total).toBe((await total("from=2026-11-19&to=2026-11-19")).meta.total);
    // The last millisecond of the day is still inside a date-only to.
    expect((await api(sb, "/visitors?from=2026-11-19T23:59:59.999Z&to=2026-11-19")).status).toBe(200);
  });

  it("any calendar year, leading zeros and offsets beyond the app's bound are accepted", async () => {
    const all = await api<ListJson<VisitorItem>>(sb, "/visitors?limit=5");
    expect((await api<ListJson<VisitorItem>>(sb, "/visitors?from=1999-01-01&to=2999-12-31&limit=5")).body).toEqual(all.body);
    expect((await api<ListJson<VisitorItem>>(sb, "/visitors?from=2000-02-29&limit=5")).body).toEqual(all.body);
    expect((await api<ListJson<VisitorItem>>(sb, "/visitors?limit=0000000005")).body).toEqual(all.body);
    const far = await api<ListJson<VisitorItem>>(sb, "/visitors?offset=99999999999");
    expect(far.body).toEqual({ data: [], meta: { total: 5000, limit: 20, offset: 99999999999 } });
  });
});

describe("GET /visitors/{id} and /visitors/{id}/timeline", () => {
  it("returns the bare visitor, equal to its list item", async () => {
    const list = await api<ListJson<VisitorItem>>(sb, "/visitors?limit=5&offset=100");
    for (const item of list.body.data) {
      const res = await api(sb, `/visitors/${item.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(item);
    }
  });

  it("returns the timeline: visitor_id and events oldest first", async () => {
    const list = await api<ListJson<VisitorItem>>(sb, "/visitors?limit=3&converted=true");
    for (const item of list.body.data) {
      const res = await api(sb, `/visitors/${item.id}/timeline`);
      expect(res.status).toBe(200);
      const timeline = canonical(visitorTimelineSchema, res.body);
      expect(timeline.visitor_id).toBe(item.id);
      const times = timeline.data.map((e) => Date.parse(e.occurred_at!));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(new Set(timeline.data.map((e) => e.id)).size).toBe(timeline.data.length);
    }
  });

  const unknownIds = ["vis_000000000", "vis_zzzzzzzzz", "vis_abc", "abc", "vis_", "%ZZ", "vis_0grzyqd4l%2F..", "vis_0grzyqd4l.."];
  it.each(unknownIds)("unknown or malformed id %s: 404 not_found (detail and timeline)", async (id) => {
    expectError(await api(sb, `/visitors/${id}`), 404, "not_found");
    expectError(await api(sb, `/visitors/${id}/timeline`), 404, "not_found");
  });

  it("ids of another seed's workspace are not found here", async () => {
    const other = await startSandbox({ port: 0, now: TEST_NOW, visitors: 5000, seed: 7 });
    try {
      const theirs = await api<ListJson<VisitorItem>>(other, "/visitors?limit=20");
      const ours = await api<ListJson<VisitorItem>>(sb, "/visitors?limit=100");
      const ourIds = new Set(ours.body.data.map((v) => v.id));
      for (const v of theirs.body.data.filter((x) => !ourIds.has(x.id)).slice(0, 5)) {
        expect((await api(sb, `/visitors/${v.id}`)).status).toBe(404);
      }
    } finally {
      await other.close();
    }
  });

  it("unknown sub-paths are 404", async () => {
    const list = await api<ListJson<VisitorItem>>(sb, "/visitors?limit=1");
    const id = list.body.data[0]!.id;
    expectError(await api(sb, `/visitors/${id}/events`), 404, "not_found");
    expectError(await api(sb, `/visitors/${id}/timeline/x`), 404, "not_found");
  });
});

describe("GET /mentions", () => {
  it("returns mention items newest first with offset accepted", async () => {
    const res = await api<ListJson<{ id: string; created_at: string; response_snippet: string; competitors_mentioned: string[] }>>(sb, "/mentions?limit=50");
    canonical(listEnvelope(mentionSchema), res.body);
    expect(res.body.meta.total).toBeGreaterThan(1000);
    expect(res.body.meta).toMatchObject({ limit: 50, offset: 0 });
    const times = res.body.data.map((m) => Date.parse(m.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const m of res.body.data) {
      expect(m.id).toMatch(/^mnt_/);
      for (const c of m.competitors_mentioned) expect(m.response_snippet).toContain(c);
    }
    const page2 = await api<ListJson<{ id: string }>>(sb, "/mentions?limit=25&offset=25");
    expect(page2.body.data.map((m) => m.id)).toEqual(res.body.data.slice(25).map((m) => m.id));
    expect(page2.body.meta.offset).toBe(25);
  });

  it("filters by platform, sentiment and created_at range", async () => {
    const res = await api<ListJson<{ platform: string; sentiment: string; created_at: string }>>(
      sb,
      "/mentions?platform=claude&sentiment=negative&from=2026-09-01&to=2026-10-31&limit=100",
    );
    expect(res.body.meta.total).toBeGreaterThan(0);
    for (const m of res.body.data) {
      expect(m).toMatchObject({ platform: "claude", sentiment: "negative" });
      expect(m.created_at >= "2026-09-01" && m.created_at < "2026-11-01").toBe(true);
    }
    const totals = await Promise.all(["positive", "neutral", "negative"].map((s) => api<ListJson<unknown>>(sb, `/mentions?sentiment=${s}&limit=1`)));
    const all = await api<ListJson<unknown>>(sb, "/mentions?limit=1");
    expect(totals.reduce((n, r) => n + r.body.meta.total, 0)).toBe(all.body.meta.total);
  });

  const invalid: Array<[string, string, RegExp?]> = [
    ["platform=bing", "platform", /chatgpt, claude, perplexity, gemini/],
    ["platform=organic", "platform"],
    ["sentiment=happy", "sentiment", /positive, neutral, negative/],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["offset=-5", "offset"],
    ["from=2026-11", "from"],
    ["to=not-a-date", "to"],
    ["from=2026-11-02&to=2026-11-01", "to"],
    ["platform=claude&platform=gemini", "platform"],
  ];
  it.each(invalid)("%s: 400 invalid_parameter naming %s", async (query, param, message) => {
    const res = await api(sb, `/mentions?${query}`);
    expectError(res, 400, "invalid_parameter", param);
    if (message) expect((res.body as ErrorJson).error.message).toMatch(message);
  });
});

describe("analytics endpoints", () => {
  it.each(["overview", "traffic", "funnel"])("%s: period defaults to 30d; every period is accepted; bad ones are 400", async (name) => {
    const schema = name === "overview" ? overviewSchema : name === "traffic" ? trafficSchema : funnelSchema;
    const dflt = await api(sb, `/analytics/${name}`);
    const explicit = await api(sb, `/analytics/${name}?period=30d`);
    expect(dflt.status).toBe(200);
    canonical(schema, dflt.body);
    expect(dflt.text).toBe(explicit.text);
    for (const period of ["24h", "7d", "90d"]) {
      const res = await api<{ period: string; from: string; to: string }>(sb, `/analytics/${name}?period=${period}`);
      expect(res.status).toBe(200);
      expect(res.body.period).toBe(period);
      expect(res.body.to).toBe(new Date(TEST_NOW).toISOString());
    }
    for (const bad of ["1y", "30D", "", "7d&period=30d"]) {
      const res = await api(sb, `/analytics/${name}?period=${bad}`);
      expectError(res, 400, "invalid_parameter", "period");
      expect((res.body as ErrorJson).error.message).toMatch(bad.includes("&") ? /once/ : /24h, 7d, 30d, 90d/);
    }
  });

  it("overview has every documented metric as numbers", async () => {
    const res = await api<Record<string, Record<string, number>>>(sb, "/analytics/overview?period=7d");
    for (const [group, fields] of Object.entries({
      visitors: ["total", "change"],
      pageviews: ["total", "change"],
      conversions: ["total", "rate", "change"],
      ai_traffic: ["total", "percentage"],
    })) {
      for (const f of fields) expect(typeof res.body[group]![f], `${group}.${f}`).toBe("number");
    }
    expect(Number.isInteger(res.body.visitors!.total)).toBe(true);
  });

  it("traffic lists all nine sources with visitors, percentage and change", async () => {
    const traffic = canonical(trafficSchema, (await api(sb, "/analytics/traffic?period=90d")).body);
    expect(traffic.data.map((r) => r.source)).toEqual([...DOCUMENTED_SOURCES]);
    for (const r of traffic.data) {
      expect(Number.isInteger(r.visitors)).toBe(true);
      expect(typeof r.change).toBe("number");
    }
    const sum = traffic.data.reduce((n, r) => n + (r.percentage ?? 0), 0);
    expect(Math.abs(sum - 100)).toBeLessThan(0.6);
  });

  it("funnel lists its stages in order with counts that never grow", async () => {
    const funnel = canonical(funnelSchema, (await api(sb, "/analytics/funnel?period=90d")).body);
    expect(funnel.data.map((s) => s.stage)).toEqual(["visitors", "engaged", "leads", "conversions"]);
    for (let i = 1; i < funnel.data.length; i++) expect(funnel.data[i]!.count).toBeLessThanOrEqual(funnel.data[i - 1]!.count!);
    expect(funnel.data[0]!.rate).toBe(100);
    expect(funnel.data.every((s) => typeof s.label === "string" && s.label.length > 0)).toBe(true);
  });
});

describe("intelligence endpoints", () => {
  it("score: 0-100 with a trend and four integer components", async () => {
    const res = await api(sb, "/intelligence/score");
    const score = canonical(scoreSchema, res.body);
    expect(score.score).toBeGreaterThanOrEqual(0);
    expect(score.score).toBeLessThanOrEqual(100);
    expect(["up", "down", "flat"]).toContain(score.trend?.direction);
    expect(Number.isInteger(score.trend?.change)).toBe(true);
    for (const k of ["visibility", "sentiment", "authority", "coverage"] as const) {
      const v = score.breakdown?.[k];
      expect(Number.isInteger(v) && v! >= 0 && v! <= 100, k).toBe(true);
    }
    expect(new Date(score.updated_at!).toISOString()).toBe(score.updated_at);
    expectError(await api(sb, "/intelligence/score/x"), 404, "not_found");
    expect((await api(sb, "/intelligence/score?period=7d")).status).toBe(200);
  });

  it("ranking: 1..n by score, the workspace once, with the score endpoint's score", async () => {
    const ranking = canonical(rankingSchema, (await api(sb, "/intelligence/ranking")).body);
    const score = canonical(scoreSchema, (await api(sb, "/intelligence/score")).body);
    expect(ranking.data.length).toBeGreaterThanOrEqual(7);
    expect(ranking.data.map((r) => r.rank)).toEqual(ranking.data.map((_, i) => i + 1));
    const scores = ranking.data.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b! - a!));
    const mine = ranking.data.filter((r) => r.is_workspace);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.score).toBe(score.score);
    expect(new Set(ranking.data.map((r) => r.name)).size).toBe(ranking.data.length);
  });
});

describe("methods and unknown paths", () => {
  it.each(["POST", "PUT", "PATCH", "DELETE"])("%s on a /v1 endpoint: 405 in the error shape, Allow: GET", async (method) => {
    const res = await api(sb, "/visitors", DEMO_KEYS.pro, { method });
    expectError(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toBe("GET");
  });

  it.each(["/", "/nope", "/visitors/", "/analytics", "/analytics/overviews", "/intelligence", "/mentions/mnt_x", "/v2/visitors"])(
    "%s: 404 not_found",
    async (path) => {
      expectError(await api(sb, path), 404, "not_found");
    },
  );

  it("paths outside /v1 and /sandbox are 404 with the common headers", async () => {
    const res = await fetch(`${sb.url}/visitors`);
    expect(res.status).toBe(404);
    const lower = await api(sb, "/visitors?limit=1", null, { headers: { Authorization: `bearer ${DEMO_KEYS.free}` } });
    expect(lower.status).toBe(200);
    expectCommonHeaders(res.headers);
    expect(((await res.json()) as ErrorJson).error.code).toBe("not_found");
  });
});

/** Sends a raw HTTP/1.1 request line (fetch normalises odd targets away) and returns the status line. */
function rawStatus(target: string): Promise<string> {
  const { port } = new URL(sb.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${DEMO_KEYS.pro}\r\nConnection: close\r\n\r\n`);
    });
    let data = "";
    socket.on("data", (d) => (data += d.toString()));
    socket.on("end", () => resolve(data.split("\r\n")[0] ?? ""));
    socket.on("error", reject);
  });
}

describe("odd request targets", () => {
  it.each(["//v1/visitors", "http://other.example/v1/visitors", "/v1/visitors/%00", "/v1/visitors/vis_%E0%A4%A"])("%s: 404, never a crash", async (target) => {
    expect(await rawStatus(target)).toMatch(/^HTTP\/1\.1 404/);
  });
});

describe("admin endpoints", () => {
  it("health and keys (the four demo keys, with plan and workspace)", async () => {
    const health = await fetch(`${sb.url}/sandbox/health`);
    expectCommonHeaders(health.headers);
    expect(await health.json()).toEqual({ ok: true });
    const keys = (await (await fetch(`${sb.url}/sandbox/keys`)).json()) as { keys: Array<Record<string, string>> };
    expect(keys.keys.map((k) => k.key).sort()).toEqual(Object.values(DEMO_KEYS).sort());
    for (const k of keys.keys) {
      expect(["Free", "Pro"]).toContain(k.plan);
      expect(k.workspace).toBeTruthy();
      expect(k.description).toBeTruthy();
    }
    expect(keys.keys.find((k) => k.key === DEMO_KEYS.free)?.plan).toBe("Free");
    expect(keys.keys.find((k) => k.key === DEMO_KEYS.pro)?.plan).toBe("Pro");
  });

  it("stats count requests by path and log them with masked keys; reset clears them", async () => {
    await api(sb, "/visitors?limit=1");
    await api(sb, "/visitors?limit=2", DEMO_KEYS.free);
    await api(sb, "/mentions");
    const stats = (await (await fetch(`${sb.url}/sandbox/stats`)).json()) as ReturnType<Sandbox["stats"]>;
    expect(stats.byPath["/visitors"]).toBe(2);
    expect(stats.byPath["/mentions"]).toBe(1);
    expect(stats.requests).toBe(4); // three API calls and this stats call
    const visitorLogs = stats.log.filter((e) => e.path === "/v1/visitors");
    expect(visitorLogs.map((e) => e.status)).toEqual([200, 200]);
    expect(visitorLogs[1]).toMatchObject({ method: "GET", query: "limit=2", status: 200 });
    expect(visitorLogs[1]!.key).toBe(`…${DEMO_KEYS.free.slice(-4)}`);
    expect(JSON.stringify(stats)).not.toContain(DEMO_KEYS.free);
    expect(JSON.stringify(stats)).not.toContain(DEMO_KEYS.pro);

    const reset = await fetch(`${sb.url}/sandbox/reset`, { method: "POST" });
    expect(reset.status).toBe(200);
    const after = sb.stats();
    expect(after.byPath).toEqual({});
    expect(after.requests).toBe(0);
    expect(after.rateLimited).toBe(0);
  });

  it("rejects invalid fault bodies and unknown admin routes", async () => {
    const bad = await fetch(`${sb.url}/sandbox/faults`, { method: "POST", body: JSON.stringify({ errorRate: 2 }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorJson).error.param).toBe("errorRate");
    const notJson = await fetch(`${sb.url}/sandbox/faults`, { method: "POST", body: "{nope" });
    expect(notJson.status).toBe(400);
    const unknownField = await fetch(`${sb.url}/sandbox/faults`, { method: "POST", body: JSON.stringify({ latency: 5 }) });
    expect(unknownField.status).toBe(400);
    expect((await fetch(`${sb.url}/sandbox/nope`)).status).toBe(404);
    expect((await fetch(`${sb.url}/sandbox/stats`, { method: "DELETE" })).status).toBe(405);
    expect((await fetch(`${sb.url}/sandbox/faults`)).status).toBe(200);
  });
});
