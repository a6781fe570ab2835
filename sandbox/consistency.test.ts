// Consistency and realism of the generated data, over real HTTP: for every period the overview,
// traffic, funnel and the visitor list agree; timelines agree with their visitors; the same seed
// gives the same data; the shape of the data is realistic.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitorTimelineSchema, type Funnel, type Traffic, type VisitorTimeline } from "@/lib/data-api/schemas";
import { AI_SOURCES, KNOWN_INTENTS, PERIODS, SOURCES } from "./contract";
import { DEMO_KEYS } from "./keys";
import { startSandbox } from "./server";
import { allVisitors, api, TEST_NOW, type ListJson, type VisitorItem } from "./test-client";
import type { Sandbox } from "./types";

type OverviewJson = {
  visitors: { total: number; change: number };
  pageviews: { total: number; change: number };
  conversions: { total: number; rate: number; change: number };
  ai_traffic: { total: number; percentage: number };
  period: string;
  from: string;
  to: string;
};

const NOW_MS = Date.parse(TEST_NOW);
const DAY = 86_400_000;
const PERIOD_MS: Record<string, number> = { "24h": DAY, "7d": 7 * DAY, "30d": 30 * DAY, "90d": 90 * DAY };
const round1 = (x: number) => Math.round(x * 10) / 10;
const pct = (part: number, whole: number) => (whole === 0 ? 0 : round1((part / whole) * 100));
const change = (cur: number, prev: number) => (prev === 0 ? (cur === 0 ? 0 : 100) : round1(((cur - prev) / prev) * 100));

let small: Sandbox; // small enough to enumerate every visitor and recompute every figure
let big: Sandbox; // the default size
let everyone: VisitorItem[];

beforeAll(async () => {
  [small, big] = await Promise.all([startSandbox({ port: 0, now: TEST_NOW, visitors: 3000 }), startSandbox({ port: 0, now: TEST_NOW })]);
  everyone = await allVisitors(small);
});
afterAll(async () => {
  await Promise.all([small.close(), big.close()]);
});

describe("every period: overview = traffic = funnel = visitor list", () => {
  it.each(PERIODS)("%s, recomputed from every visitor (3,000)", async (period) => {
    small.reset();
    const overview = (await api<OverviewJson>(small, `/analytics/overview?period=${period}`)).body;
    const traffic = (await api<Traffic>(small, `/analytics/traffic?period=${period}`)).body;
    const funnel = (await api<Funnel>(small, `/analytics/funnel?period=${period}`)).body;

    // The window is exactly [now - P, now], reported as from/to.
    expect(Date.parse(overview.to)).toBe(NOW_MS);
    expect(Date.parse(overview.from)).toBe(NOW_MS - PERIOD_MS[period]!);
    const inWindow = (v: VisitorItem, start: number, end: number, endInclusive: boolean) => {
      const t = Date.parse(v.first_seen);
      return t >= start && (endInclusive ? t <= end : t < end);
    };
    const start = NOW_MS - PERIOD_MS[period]!;
    const cur = everyone.filter((v) => inWindow(v, start, NOW_MS, true));
    const prev = everyone.filter((v) => inWindow(v, start - PERIOD_MS[period]!, start, false));
    expect(cur.length).toBeGreaterThan(0);
    expect(prev.length).toBeGreaterThan(0);

    const pages = (vs: VisitorItem[]) => vs.reduce((n, v) => n + v.pages_viewed, 0);
    const conv = (vs: VisitorItem[]) => vs.filter((v) => v.converted).length;
    const ai = (vs: VisitorItem[]) => vs.filter((v) => (AI_SOURCES as readonly string[]).includes(v.source)).length;
    expect(overview).toMatchObject({
      visitors: { total: cur.length, change: change(cur.length, prev.length) },
      pageviews: { total: pages(cur), change: change(pages(cur), pages(prev)) },
      conversions: { total: conv(cur), rate: pct(conv(cur), cur.length), change: change(conv(cur), conv(prev)) },
      ai_traffic: { total: ai(cur), percentage: pct(ai(cur), cur.length) },
    });

    expect(traffic.data.map((r) => r.source)).toEqual([...SOURCES]);
    for (const row of traffic.data) {
      const n = cur.filter((v) => v.source === row.source).length;
      const p = prev.filter((v) => v.source === row.source).length;
      expect(row, row.source).toMatchObject({ visitors: n, percentage: pct(n, cur.length), change: change(n, p) });
    }

    const counts = Object.fromEntries(funnel.data.map((s) => [s.stage, s.count]));
    expect(counts).toEqual({
      visitors: cur.length,
      engaged: cur.filter((v) => v.pages_viewed >= 2).length,
      leads: counts.leads,
      conversions: conv(cur),
    });
    expect(counts.leads!).toBeGreaterThanOrEqual(counts.conversions!);
    expect(counts.leads!).toBeLessThanOrEqual(counts.engaged!);
    expect(funnel.data.at(-1)!.rate).toBe(overview.conversions.rate);

    // The overview's window, passed to the list, selects exactly these visitors.
    const list = await api<ListJson<VisitorItem>>(small, `/visitors?from=${overview.from}&to=${overview.to}&limit=100`);
    expect(list.body.meta.total).toBe(cur.length);
    expect(list.body.data.map((v) => v.id)).toEqual(cur.slice(0, 100).map((v) => v.id));
  });

  it.each(PERIODS)("%s at the default size (20,000): totals agree across endpoints", async (period) => {
    big.reset();
    const overview = (await api<OverviewJson>(big, `/analytics/overview?period=${period}`)).body;
    const traffic = (await api<Traffic>(big, `/analytics/traffic?period=${period}`)).body;
    const funnel = (await api<Funnel>(big, `/analytics/funnel?period=${period}`)).body;
    const window = `from=${encodeURIComponent(overview.from)}&to=${encodeURIComponent(overview.to)}`;
    const total = async (q: string) => (await api<ListJson<VisitorItem>>(big, `/visitors?limit=1&${window}${q}`)).body.meta.total;

    expect(overview.visitors.total).toBeGreaterThan(0);
    expect(traffic.data.reduce((n, r) => n + r.visitors!, 0)).toBe(overview.visitors.total);
    expect(await total("")).toBe(overview.visitors.total);
    expect(await total("&converted=true")).toBe(overview.conversions.total);
    expect(funnel.data.at(-1)).toMatchObject({ stage: "conversions", count: overview.conversions.total });
    expect(funnel.data[0]!.count).toBe(overview.visitors.total);
    const aiRows = traffic.data.filter((r) => (AI_SOURCES as readonly string[]).includes(r.source));
    expect(aiRows.reduce((n, r) => n + r.visitors!, 0)).toBe(overview.ai_traffic.total);
    for (const row of traffic.data.filter((_, i) => i % 3 === 0)) {
      expect(await total(`&source=${row.source}`), row.source).toBe(row.visitors);
    }
    expect(overview.pageviews.total).toBeGreaterThanOrEqual(overview.visitors.total);
  });
});

describe("list filters, recomputed from every visitor", () => {
  const cases: Array<[string, (v: VisitorItem) => boolean]> = [
    ["source=claude", (v) => v.source === "claude"],
    ["intent=solution_comparison&converted=false", (v) => v.intent === "solution_comparison" && !v.converted],
    ["from=2026-10-01&to=2026-10-31", (v) => v.first_seen >= "2026-10-01" && v.first_seen < "2026-11-01"],
    ["from=2026-11-19T06:30:00Z", (v) => Date.parse(v.first_seen) >= Date.parse("2026-11-19T06:30:00Z")],
    ["to=2026-06-01T00:00:00Z&converted=true", (v) => Date.parse(v.first_seen) <= Date.parse("2026-06-01T00:00:00Z") && v.converted],
  ];
  it.each(cases)("%s", async (query, match) => {
    small.reset();
    const expected = everyone.filter(match);
    const res = await api<ListJson<VisitorItem>>(small, `/visitors?${query}&limit=100&offset=3`);
    expect(res.body.meta.total).toBe(expected.length);
    expect(res.body.data.map((v) => v.id)).toEqual(expected.slice(3, 103).map((v) => v.id));
  });
});

describe("timelines agree with their visitors", () => {
  it("first event at first_seen, last at last_seen, one page_view per page, conversion iff converted", async () => {
    // A varied sample: converted, AI-sourced, multi-page, anonymous and plain visitors.
    const sample = [
      ...everyone.filter((v) => v.converted).slice(0, 10),
      ...everyone.filter((v) => (AI_SOURCES as readonly string[]).includes(v.source)).slice(0, 10),
      ...everyone.filter((v) => v.pages_viewed >= 6).slice(0, 8),
      ...everyone.filter((v) => v.email === undefined).slice(0, 6),
      ...everyone.filter((_, i) => i % 500 === 0),
    ];
    small.reset();
    let returnVisits = 0;
    for (const [i, v] of sample.entries()) {
      if (i % 40 === 39) small.reset();
      const res = await api<VisitorTimeline>(small, `/visitors/${v.id}/timeline`);
      expect(res.status).toBe(200);
      const t = visitorTimelineSchema.parse(res.body);
      const events = t.data;
      const count = (type: string) => events.filter((e) => e.type === type).length;
      expect(t.visitor_id).toBe(v.id);
      expect(events[0]!.occurred_at, v.id).toBe(v.first_seen);
      expect(events.at(-1)!.occurred_at, v.id).toBe(v.last_seen);
      const times = events.map((e) => Date.parse(e.occurred_at!));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(count("page_view"), v.id).toBe(v.pages_viewed);
      expect(count("conversion"), v.id).toBe(v.converted ? 1 : 0);
      const ai = (AI_SOURCES as readonly string[]).includes(v.source);
      expect(count("ai_referral"), v.id).toBe(ai ? 1 : 0);
      if (ai) expect(events[0]).toMatchObject({ type: "ai_referral", source: v.source });
      // A conversion follows a form submission; anonymous visitors never submitted a form.
      if (v.converted) expect(events.findIndex((e) => e.type === "form_submit")).toBeLessThan(events.findIndex((e) => e.type === "conversion"));
      if (v.email === undefined) expect(count("form_submit")).toBe(0);
      returnVisits += count("return_visit");
      for (const e of events.filter((x) => x.type === "page_view")) {
        expect(e.url).toMatch(/^\//);
        expect(e.title).toBeTruthy();
        expect(Number.isInteger(e.duration_seconds) && e.duration_seconds! >= 0).toBe(true);
      }
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    }
    expect(returnVisits).toBeGreaterThan(0);
  });

  it("is the same on every request", async () => {
    const id = everyone[42]!.id;
    const a = await api(small, `/visitors/${id}/timeline`);
    const b = await api(small, `/visitors/${id}/timeline`);
    expect(a.text).toBe(b.text);
  });
});

describe("determinism", () => {
  it("same seed and now: identical data; another seed: different data", async () => {
    const [twin, other] = await Promise.all([
      startSandbox({ port: 0, now: TEST_NOW, visitors: 3000 }),
      startSandbox({ port: 0, now: TEST_NOW, visitors: 3000, seed: 4242 }),
    ]);
    try {
      small.reset();
      const id = everyone[7]!.id;
      for (const path of [
        "/visitors?limit=100&offset=1000",
        "/mentions?limit=100",
        "/analytics/overview?period=90d",
        "/intelligence/score",
        "/intelligence/ranking",
        `/visitors/${id}/timeline`,
      ]) {
        const [a, b, c] = await Promise.all([api(small, path), api(twin, path), api(other, path)]);
        expect(b.text, path).toBe(a.text);
        expect(c.text, path).not.toBe(a.text);
      }
    } finally {
      await Promise.all([twin.close(), other.close()]);
    }
  });
});

describe("realistic data (20,000 visitors)", () => {
  it("has a real AI share, a few percent conversion, several intents, anonymous visitors and real places", async () => {
    big.reset();
    const overview = (await api<OverviewJson>(big, "/analytics/overview?period=90d")).body;
    expect(overview.ai_traffic.percentage).toBeGreaterThanOrEqual(18);
    expect(overview.ai_traffic.percentage).toBeLessThanOrEqual(32);
    expect(overview.conversions.rate).toBeGreaterThanOrEqual(1);
    expect(overview.conversions.rate).toBeLessThanOrEqual(6);

    const page = (await api<ListJson<VisitorItem>>(big, "/visitors?limit=100&offset=2000")).body.data;
    const anonymous = page.filter((v) => v.email === undefined).length;
    expect(anonymous).toBeGreaterThanOrEqual(20);
    expect(anonymous).toBeLessThanOrEqual(50);
    expect(new Set(page.map((v) => v.country)).size).toBeGreaterThanOrEqual(5);
    const intents = new Set(page.map((v) => v.intent));
    expect(intents.size).toBeGreaterThanOrEqual(4);
    for (const i of intents) expect(KNOWN_INTENTS).toContain(i);

    // Visitors span at least 180 days, and every intent is used.
    const old = await api<ListJson<VisitorItem>>(big, `/visitors?to=${new Date(NOW_MS - 180 * DAY).toISOString()}&limit=1`);
    expect(old.body.meta.total).toBeGreaterThan(0);
    for (const i of KNOWN_INTENTS) expect((await api<ListJson<VisitorItem>>(big, `/visitors?intent=${i}&limit=1`)).body.meta.total, i).toBeGreaterThan(0);
  });

  it("has a few thousand mentions over ~180 days that name the brand", async () => {
    big.reset();
    const all = (await api<ListJson<{ created_at: string; response_snippet: string; query: string }>>(big, "/mentions?limit=100")).body;
    expect(all.meta.total).toBeGreaterThanOrEqual(1000);
    expect(all.meta.total).toBeLessThanOrEqual(6000);
    const oldest = (await api<ListJson<{ created_at: string }>>(big, `/mentions?limit=1&offset=${all.meta.total - 1}`)).body.data[0]!;
    expect(NOW_MS - Date.parse(oldest.created_at)).toBeGreaterThan(170 * DAY);
    expect(NOW_MS - Date.parse(oldest.created_at)).toBeLessThanOrEqual(181 * DAY);
    expect(all.data.every((m) => m.response_snippet.includes("Northwind Analytics"))).toBe(true);
    expect(new Set(all.data.map((m) => m.query)).size).toBeGreaterThan(5);
    for (const p of ["chatgpt", "claude", "perplexity", "gemini"]) {
      expect((await api<ListJson<unknown>>(big, `/mentions?platform=${p}&limit=1`)).body.meta.total, p).toBeGreaterThan(100);
    }
  });

  it("Free and Pro keys see identical numbers", async () => {
    big.reset();
    const a = await api(big, "/analytics/overview?period=7d", DEMO_KEYS.free);
    const b = await api(big, "/analytics/overview?period=7d", DEMO_KEYS.pro);
    expect(a.text).toBe(b.text);
  });
});
