// The client held against its reference over real HTTP: the app's query schemas (lib/data-api/params.ts)
// and normalisers (lib/data-api/normalize.ts) against the sandbox's real answers. The sandbox has
// its own definitions of the API (contract.ts), so a change on either side that breaks the other
// shows here:
// - every endpoint, several parameter combinations: the normalised body equals the sandbox's body
//   restricted to the documented fields (the API's documentation and the settled shapes of
//   sandbox/README.md; nothing lost, nothing changed);
// - every value the sandbox emits is one the client knows, or an open value the client accepts;
// - every query the app's schemas accept, the sandbox accepts (the app never sends a request its
//   reference refuses); where the sandbox is more lenient (the API document is), that is listed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import * as client from "@/lib/data-api/constants";
import * as normalize from "@/lib/data-api/normalize";
import { mentionListParams, parseQuery, periodParams, toSearchParams, visitorListParams } from "@/lib/data-api/params";
import * as sandbox from "./contract";
import { DEMO_KEYS } from "./keys";
import { mulberry32, pick } from "./prng";
import { startSandbox } from "./server";
import { allVisitors, api, TEST_NOW, type ErrorJson, type ListJson, type VisitorItem } from "./test-client";
import type { Sandbox } from "./types";

let sb: Sandbox;
beforeAll(async () => {
  // The clock moves a second per request, so hundreds of requests never meet the rate limit.
  let t = Date.parse(TEST_NOW);
  sb = await startSandbox({ port: 0, now: TEST_NOW, visitors: 2000, clock: () => (t += 1000) });
});
afterAll(async () => {
  await sb.close();
});

// ---------------------------------------------------------------------------------------------
// The documented fields, written here from the API's documentation and the settled shapes
// (sandbox/README.md "Settled unknowns"), not from either side's code. `true`: always sent;
// "optional": may be absent.

type Shape = { readonly [field: string]: true | "optional" | Shape | ListOf };
type ListOf = { readonly listOf: Shape };
const isListOf = (s: Shape | ListOf): s is ListOf => "listOf" in s && typeof s.listOf === "object";
const has = (set: readonly string[], value: string) => set.includes(value);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const VISITOR: Shape = {
  id: true,
  first_seen: true,
  last_seen: true,
  source: true,
  intent: true,
  pages_viewed: true,
  converted: true,
  // Anonymous visitors have neither (sandbox/README.md "Settled unknowns": missing fields).
  email: "optional",
  country: true,
  city: "optional",
};
const MENTION: Shape = {
  id: true,
  query: true,
  platform: true,
  response_snippet: true,
  position: true,
  sentiment: true,
  competitors_mentioned: true,
  created_at: true,
};
const list = (item: Shape): Shape => ({ data: { listOf: item }, meta: { total: true, limit: true, offset: true } });
const OVERVIEW: Shape = {
  visitors: { total: true, change: true },
  pageviews: { total: true, change: true },
  conversions: { total: true, rate: true, change: true },
  ai_traffic: { total: true, percentage: true },
};
const SCORE: Shape = {
  score: true,
  trend: { direction: true, change: true },
  breakdown: { visibility: true, sentiment: true, authority: true, coverage: true },
  updated_at: true,
};
const TIMELINE: Shape = {
  visitor_id: true,
  data: {
    listOf: { id: true, type: true, occurred_at: true, url: "optional", title: "optional", source: "optional", duration_seconds: "optional" },
  },
};
const TRAFFIC: Shape = { period: true, data: { listOf: { source: true, visitors: true, percentage: true, change: "optional" } } };
const FUNNEL: Shape = { period: true, data: { listOf: { stage: true, label: "optional", count: true, rate: "optional" } } };
const RANKING: Shape = {
  updated_at: "optional",
  data: { listOf: { rank: true, name: true, score: true, change: "optional", is_workspace: "optional" } },
};

/** `value` with only the documented fields of `shape`, at every level. */
function restrict(value: unknown, shape: Shape): unknown {
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [field, spec] of Object.entries(shape)) {
    if (!(field in value)) continue;
    const v = value[field];
    if (spec === true || spec === "optional") out[field] = v;
    else if (isListOf(spec)) out[field] = Array.isArray(v) ? v.map((item) => restrict(item, spec.listOf)) : v;
    else out[field] = restrict(v, spec);
  }
  return out;
}

/** Paths of documented, always-sent fields missing from `value` (so a restriction is never vacuous). */
function missingFields(value: unknown, shape: Shape, at = ""): string[] {
  if (!isObject(value)) return [at || "(body)"];
  return Object.entries(shape).flatMap(([field, spec]) => {
    const path = `${at}${field}`;
    if (!(field in value)) return spec === "optional" ? [] : [path];
    if (spec === true || spec === "optional") return [];
    const v = value[field];
    if (isListOf(spec)) return Array.isArray(v) ? v.flatMap((item, i) => missingFields(item, spec.listOf, `${path}[${i}].`)) : [path];
    return missingFields(v, spec, `${path}.`);
  });
}

type Normaliser = (body: unknown, requestId?: string) => unknown;

/**
 * Holds one answer against the client's normaliser: the body carries every documented field, the
 * normalised body keeps each of them unchanged, and the client adds nothing the sandbox did not say.
 */
function expectNormalisedAsSent(body: unknown, normalise: Normaliser, shape: Shape, what: string) {
  expect(missingFields(body, shape), what).toEqual([]);
  const normalised = normalise(body, "req_contract");
  expect(restrict(normalised, shape), what).toStrictEqual(restrict(body, shape));
  expect(body, what).toMatchObject(normalised as Record<string, unknown>);
  expect(normalised, `${what}: every item readable`).not.toHaveProperty("unreadable");
}

/** What the client sends for parsed params (as lib/data-api/client.ts serialises them). */
const sentByClient = (params: object) => toSearchParams(params as Record<string, string | number | boolean | undefined>).toString();

/** The query string the client sends for `raw`: parsed by the app's schema, then serialised. */
function clientQuery<S extends z.ZodObject>(schema: S, raw: string): string {
  const parsed = parseQuery(schema, new URLSearchParams(raw));
  if (!parsed.success) throw new Error(`the app refuses ${raw}: ${parsed.param}: ${parsed.message}`);
  return sentByClient(parsed.data);
}

async function get(path: string, key: string = DEMO_KEYS.pro): Promise<unknown> {
  const res = await api(sb, path, key);
  expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
  return res.body;
}

describe("the client's normalisers read every documented field of every endpoint as the sandbox sends it", () => {
  type ListCase = [endpoint: string, query: string, schema: z.ZodObject, normalise: Normaliser, shape: Shape];
  const listCases: ListCase[] = [
    ...[
      "",
      "limit=100",
      "limit=7&offset=33",
      "source=perplexity&limit=50",
      "intent=pricing_research&converted=true",
      "converted=false&from=2026-11-01&to=2026-11-10&limit=100",
      "source=chatgpt&intent=problem_research&from=2026-10-01T00:00:00Z&to=2026-11-19T12:00:00%2B02:00&limit=100",
      "offset=1990",
    ].map((q): ListCase => ["/visitors", q, visitorListParams, normalize.normalizeVisitorList, list(VISITOR)]),
    ...[
      "",
      "limit=100&offset=40",
      "platform=claude",
      "sentiment=negative&from=2026-09-01&to=2026-10-31&limit=100",
      "platform=gemini&sentiment=positive&limit=5&offset=5",
      "from=2026-11-19T06:00:00Z&to=2026-11-20T12:00:00Z",
    ].map((q): ListCase => ["/mentions", q, mentionListParams, normalize.normalizeMentionList, list(MENTION)]),
  ];
  it.each(listCases)("GET %s?%s", async (endpoint, raw, schema, normalise, shape) => {
    const path = `${endpoint}?${clientQuery(schema, raw)}`;
    const body = await get(path);
    expect((body as ListJson<unknown>).data.length, path).toBeGreaterThan(0);
    expectNormalisedAsSent(body, normalise, shape, path);
  });

  it("GET /visitors/{id} and /visitors/{id}/timeline: identified, anonymous, converted and AI-referred visitors", async () => {
    const visitors = [
      ...((await get("/visitors?limit=10")) as ListJson<VisitorItem>).data,
      ...((await get("/visitors?converted=true&limit=5")) as ListJson<VisitorItem>).data,
      ...((await get("/visitors?source=claude&limit=5")) as ListJson<VisitorItem>).data,
    ];
    expect(visitors.some((v) => v.email === undefined)).toBe(true);
    expect(visitors.some((v) => v.email !== undefined)).toBe(true);
    for (const v of visitors) {
      const detail = await get(`/visitors/${v.id}`);
      expectNormalisedAsSent(detail, normalize.normalizeVisitor, VISITOR, v.id);
      const timeline = await get(`/visitors/${v.id}/timeline`);
      expectNormalisedAsSent(timeline, normalize.normalizeTimeline, TIMELINE, `${v.id}/timeline`);
    }
  });

  const analytics: Array<[string, Normaliser, Shape]> = [
    ["overview", normalize.normalizeOverview, OVERVIEW],
    ["traffic", normalize.normalizeTraffic, TRAFFIC],
    ["funnel", normalize.normalizeFunnel, FUNNEL],
  ];
  it.each(analytics)("GET /analytics/%s, every period and none", async (name, normalise, shape) => {
    for (const raw of ["", ...client.PERIODS.map((p) => `period=${p}`)]) {
      const path = `/analytics/${name}?${clientQuery(periodParams, raw)}`;
      expectNormalisedAsSent(await get(path), normalise, shape, path);
    }
  });

  it("GET /intelligence/score and /intelligence/ranking", async () => {
    expectNormalisedAsSent(await get("/intelligence/score"), normalize.normalizeScore, SCORE, "score");
    expectNormalisedAsSent(await get("/intelligence/ranking"), normalize.normalizeRanking, RANKING, "ranking");
  });

  it("the empty workspace: every endpoint in the same shapes", async () => {
    const k = DEMO_KEYS.empty;
    expectNormalisedAsSent(await get("/visitors", k), normalize.normalizeVisitorList, list(VISITOR), "visitors");
    expectNormalisedAsSent(await get("/mentions", k), normalize.normalizeMentionList, list(MENTION), "mentions");
    for (const [name, normalise, shape] of analytics) expectNormalisedAsSent(await get(`/analytics/${name}`, k), normalise, shape, name);
    expectNormalisedAsSent(await get("/intelligence/score", k), normalize.normalizeScore, SCORE, "score");
    expectNormalisedAsSent(await get("/intelligence/ranking", k), normalize.normalizeRanking, RANKING, "ranking");
  });
});

describe("every value the sandbox emits is one the client knows", () => {
  it("visitor sources and intents, over every visitor", async () => {
    const everyone = await allVisitors(sb);
    expect(everyone).toHaveLength(2000);
    const sources = new Set(everyone.map((v) => v.source));
    const intents = new Set(everyone.map((v) => v.intent));
    expect([...sources].filter((s) => !has(client.SOURCES, s))).toEqual([]);
    // Intent is an open set (sandbox/README.md "Settled unknowns"): every value must pass the client's filter and be one it offers.
    const refused = [...intents].filter((intent) => !parseQuery(visitorListParams, { intent }).success);
    expect(refused).toEqual([]);
    expect([...intents].filter((i) => !has(client.KNOWN_INTENTS, i))).toEqual([]);
    // The generated workspace uses every value of both sets, so these checks are not vacuous.
    expect(sources.size).toBe(sandbox.SOURCES.length);
    expect(intents.size).toBe(sandbox.KNOWN_INTENTS.length);
  });

  it("traffic sources, and which of them are AI platforms", async () => {
    const traffic = (await get("/analytics/traffic?period=90d")) as { data: Array<{ source: string }> };
    expect(traffic.data.map((r) => r.source).filter((s) => !has(client.SOURCES, s))).toEqual([]);
    // The dashboard sets AI platforms apart; both sides must agree which sources they are.
    expect([...client.AI_SOURCES].sort()).toEqual([...sandbox.AI_SOURCES].sort());
  });

  it("mention platforms and sentiments, over every mention", async () => {
    const platforms = new Set<string>();
    const sentiments = new Set<string>();
    for (let offset = 0; ; offset += 100) {
      const page = (await get(`/mentions?limit=100&offset=${offset}`)) as ListJson<{ platform: string; sentiment: string }>;
      for (const m of page.data) {
        platforms.add(m.platform);
        sentiments.add(m.sentiment);
      }
      if (offset + 100 >= page.meta.total) break;
    }
    expect([...platforms].filter((p) => !has(client.PLATFORMS, p))).toEqual([]);
    expect([...sentiments].filter((s) => !has(client.SENTIMENTS, s))).toEqual([]);
    expect(platforms.size).toBe(sandbox.PLATFORMS.length);
    expect(sentiments.size).toBe(sandbox.SENTIMENTS.length);
  });

  it("timeline event types, over the timelines of 150 visitors", async () => {
    const types = new Set<string>();
    // Converted and AI-referred visitors carry the rarer event types; every 7th visitor the rest.
    const sample = (await allVisitors(sb)).filter((v, i) => v.converted || has(sandbox.AI_SOURCES, v.source) || i % 7 === 0);
    for (const v of sample.slice(0, 150)) {
      const timeline = (await get(`/visitors/${v.id}/timeline`)) as { data: Array<{ type: string }> };
      for (const e of timeline.data) types.add(e.type);
    }
    expect([...types].filter((t) => !has(client.TIMELINE_EVENT_TYPES, t))).toEqual([]);
    expect(types.size).toBe(sandbox.TIMELINE_TYPES.length);
  });

  it("the periods the analytics endpoints report", async () => {
    for (const period of sandbox.PERIODS) {
      const overview = (await get(`/analytics/overview?period=${period}`)) as { period: string };
      expect(has(client.PERIODS, overview.period), period).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Queries: candidate values per parameter, valid and not, at the edges of both sides' rules.

const DATES = [
  "2026-11-19",
  "2026-11-19T00:00:00Z",
  "2026-11-19T12:00Z",
  "2026-11-19T12:00:00.123456789Z",
  "2026-11-19T01:00:00+01:00",
  "2026-11-19T23:59:59-23:59",
  "2028-02-29",
  "2000-01-01",
  "2100-12-31T23:59:59Z",
  "2027-02-29",
  "2026-13-01",
  "2026-11-19T24:00:00Z",
  "2026-11-19T12:00:00",
  "2026-11-19t12:00:00z",
  "1999-12-31",
  "2101-01-01",
  "20261119",
  "yesterday",
  "",
];
const PAGING = {
  limit: ["1", "20", "100", "007", "0", "101", "-1", "1.5", "abc", "", "1e2", "000000100", "0000000001"],
  offset: ["0", "33", "1999", "2000", "10000000", "10000001", "99999999999", "-1", "x", "2.5", ""],
};
const CANDIDATES = {
  visitors: {
    source: [...client.SOURCES, ...sandbox.SOURCES, "bing", "ChatGPT", ""],
    intent: [...client.KNOWN_INTENTS, "enterprise_procurement", "Not An Intent", "a", "a".repeat(64), "a".repeat(65), "9x", ""],
    converted: ["true", "false", "TRUE", "yes", "1", ""],
    from: DATES,
    to: DATES,
    ...PAGING,
  },
  mentions: {
    platform: [...client.PLATFORMS, ...sandbox.PLATFORMS, "bing", "organic", ""],
    sentiment: [...client.SENTIMENTS, ...sandbox.SENTIMENTS, "happy", ""],
    from: DATES,
    to: DATES,
    ...PAGING,
  },
  period: { period: [...client.PERIODS, ...sandbox.PERIODS, "1y", "30D", ""] },
} satisfies Record<string, Record<string, readonly string[]>>;

/**
 * Every candidate alone, then `combos` seeded random combinations: each parameter present half the
 * time, mostly with a value the app accepts alone (so many combinations are valid as a whole).
 */
function queries(schema: z.ZodObject, candidates: Record<string, readonly string[]>, combos: number): URLSearchParams[] {
  const out: URLSearchParams[] = [];
  const valid: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(candidates)) {
    for (const value of values) out.push(new URLSearchParams({ [name]: value }));
    valid[name] = values.filter((value) => parseQuery(schema, { [name]: value }).success);
  }
  const rng = mulberry32(20261120);
  for (let i = 0; i < combos; i++) {
    const q = new URLSearchParams();
    for (const [name, values] of Object.entries(candidates)) if (rng() < 0.5) q.set(name, pick(rng, rng() < 0.85 ? valid[name]! : values));
    // Unknown parameters ride along now and then: both sides ignore them.
    if (rng() < 0.2) q.set("utm_source", "newsletter");
    out.push(q);
  }
  return out;
}

/**
 * Where the API document (and so the sandbox) accepts what the app refuses on purpose; sandbox/README.md
 * lists the same. Anything else the sandbox accepts and the app refuses is a difference to explain.
 */
const DOCUMENTED_LENIENCY: Array<[string, (q: URLSearchParams) => boolean]> = [
  ["a date-only bound with a datetime one", (q) => q.has("from") && q.has("to") && isDateOnly(q.get("from")!) !== isDateOnly(q.get("to")!)],
  ["years before 2000 or after 2100", (q) => ["from", "to"].some((n) => /^\d{4}-/.test(q.get(n) ?? "") && !inAppYears(Number(q.get(n)!.slice(0, 4))))],
  ["an offset beyond 10,000,000", (q) => /^\d+$/.test(q.get("offset") ?? "") && Number(q.get("offset")) > client.OFFSET_MAX],
  ["limit or offset with more than 9 digits (leading zeros)", (q) => ["limit", "offset"].some((n) => /^\d{10,}$/.test(q.get(n) ?? ""))],
];
const isDateOnly = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);
const inAppYears = (year: number) => year >= 2000 && year <= 2100;

describe("every query the app's schemas accept, the sandbox accepts", () => {
  const endpoints: Array<[string, z.ZodObject, Record<string, readonly string[]>, number]> = [
    ["/visitors", visitorListParams, CANDIDATES.visitors, 300],
    ["/mentions", mentionListParams, CANDIDATES.mentions, 200],
    ["/analytics/overview", periodParams, CANDIDATES.period, 0],
    ["/analytics/traffic", periodParams, CANDIDATES.period, 0],
    ["/analytics/funnel", periodParams, CANDIDATES.period, 0],
  ];

  it.each(endpoints)(
    "%s: as the user wrote it and as the client sends it; the sandbox refuses only what the app does, or a documented leniency",
    async (path, schema, candidates, combos) => {
      let accepted = 0;
      let refused = 0;
      const rejectedByReference: string[] = [];
      const undocumented: string[] = [];
      for (const q of queries(schema, candidates, combos)) {
        const app = parseQuery(schema, q);
        const raw = await api<ErrorJson>(sb, `${path}?${q}`);
        if (app.success) {
          accepted++;
          const sent = sentByClient(app.data);
          const asSent = await api<ListJson<unknown>>(sb, `${path}?${sent}`);
          if (raw.status !== 200 || asSent.status !== 200) {
            rejectedByReference.push(`${q} -> ${raw.status} / ${sent} -> ${asSent.status} ${asSent.text.slice(0, 120)}`);
            continue;
          }
          // The client's serialisation means what the user wrote, and the page asked for is the page sent.
          expect(asSent.text, `${q} vs ${sent}`).toBe(raw.text);
          if ("limit" in app.data) expect(asSent.body.meta, sent).toMatchObject({ limit: app.data.limit, offset: app.data.offset });
        } else {
          refused++;
          if (raw.status === 200 && !DOCUMENTED_LENIENCY.some(([, applies]) => applies(q))) undocumented.push(`${q} (app: ${app.param}: ${app.message})`);
          else if (raw.status !== 200) {
            // The sandbox's own refusal is the API's: 400 invalid_parameter naming a parameter that was given.
            const { error } = raw.body;
            expect([raw.status, error.code], String(q)).toEqual([400, "invalid_parameter"]);
            expect(q.has(error.param!), `${q}: param ${error.param}`).toBe(true);
          }
        }
      }
      expect(rejectedByReference).toEqual([]);
      expect(undocumented).toEqual([]);
      // Both outcomes are well represented, so neither half of the check is vacuous.
      expect(accepted).toBeGreaterThan(combos / 10 + 4);
      expect(refused).toBeGreaterThan(combos / 10 + 2);
    },
  );

  it.each(DOCUMENTED_LENIENCY)("the documented leniency is real: %s", async (_name, applies) => {
    const examples = queries(visitorListParams, CANDIDATES.visitors, 300).filter((q) => applies(q) && !parseQuery(visitorListParams, q).success);
    const acceptedBySandbox = [];
    for (const q of examples) if ((await api(sb, `/visitors?${q}`)).status === 200) acceptedBySandbox.push(String(q));
    expect(acceptedBySandbox.length).toBeGreaterThan(0);
  });

  it("endpoints without parameters ignore whatever is given", async () => {
    const list = (await get("/visitors?limit=1")) as ListJson<VisitorItem>;
    const id = list.data[0]!.id;
    for (const path of ["/intelligence/score", "/intelligence/ranking", `/visitors/${id}`, `/visitors/${id}/timeline`]) {
      expect((await api(sb, `${path}?period=1y&limit=0&x=1&x=2`)).status, path).toBe(200);
    }
  });
});
