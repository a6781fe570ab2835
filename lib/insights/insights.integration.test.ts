// Every number of every insights route (the route table's, each with an answer computed here: a
// route added without one fails), checked against rows listed directly from the sandbox over HTTP
// and bucketed here with this file's own simple code (each row's local date from
// Intl.DateTimeFormat, a bucket's first instant found by scanning), never with the app's planner or
// time-zone code. Several ranges and zones: UTC, a negative offset, half-hour offsets, clock
// changes inside the range; day and week buckets; comparisons with the previous period, the same
// days a year before and custom windows (apart from the range, or overlapping it); and both
// planner strategies (counting, listing), which must give identical answers, and the days the store
// kept (lib/insights/kept.ts), read after a restart. The empty workspace
// gives zeros and nulls. Every change's `significant` and `p_values` against a reference written the
// plain way here: every outcome's probability summed (log-factorials added up one by one), never
// with the app's statistics.
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { serverContext, type InsightsPolicy } from "@/lib/server/context";
import { createMemoryInsightsStore } from "@/lib/shared-state/insights";
import { onFakeTime } from "@/lib/fake-time";
import { callApi, comparedInsightRoutes, insightRoutes, serverContextPerTest, serverStoresForFile, sessionCookie, upstreamForFile } from "@/testing/in-process";
import { discardKey, rateBudgetForKey } from "@/lib/server/upstream";
import type { CompetitorsInsight } from "./competitors";
import type { CountriesInsight } from "./countries";
import type { QueriesInsight } from "./queries";
import type { PlatformsInsight } from "./platforms";
import type { SentimentInsight } from "./sentiment";
import type { SourcesInsight } from "./sources";
import type { TrendInsight } from "./trend";

type RawVisitor = { id: string; first_seen: string; source: string; converted: boolean; country: string; city?: string };
type RawMention = { id: string; query: string; platform: string; sentiment: string; position: number; competitors_mentioned: string[]; created_at: string };

const sandbox = upstreamForFile({ visitors: 2000 });
const overrideContext = serverContextPerTest();
const serverStore = serverStoresForFile();
let visitors: RawVisitor[];
let mentions: RawMention[];

/** Every row of a sandbox list, page by page, straight over HTTP with `key`. */
async function listDirect<T>(path: string, key: string): Promise<T[]> {
  const rows: T[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await fetch(`${sandbox().baseUrl}${path}?limit=100&offset=${offset}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: T[]; meta: { total: number } };
    rows.push(...body.data);
    if (rows.length >= body.meta.total) return rows;
  }
}

beforeAll(async () => {
  // Two other keys of the same workspace, so this file's own listing leaves the app's key alone.
  visitors = await listDirect<RawVisitor>("/visitors", DEMO_KEYS.limited);
  mentions = await listDirect<RawMention>("/mentions", DEMO_KEYS.odd);
});

// ---------------------------------------------------------------------------------------------
// The expected answers, computed here.

const AI = ["chatgpt", "perplexity", "claude", "gemini"];
// The AI platforms first, in the one order every page lists them (docs/product.md "Words and formats").
const SOURCES = ["chatgpt", "claude", "perplexity", "gemini", "organic", "direct", "paid", "social", "referral"];
const PLATFORMS = ["chatgpt", "claude", "perplexity", "gemini"];

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The calendar date (YYYY-MM-DD) of an instant in `tz`. */
function localDate(ms: number, tz: string): string {
  let f = formatters.get(tz);
  if (!f) formatters.set(tz, (f = new Intl.DateTimeFormat("en-US", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" })));
  const part = (type: string) => f.formatToParts(ms).find((p) => p.type === type)!.value;
  return `${part("year")}-${part("month")}-${part("day")}`;
}

const plusDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const daysBetween = (a: string, b: string) => (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;
const isMonday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() === 1;

/** The first instant whose date in `tz` is `date`: every zone's offsets are whole quarter hours. */
function firstInstant(date: string, tz: string): string {
  for (let t = Date.parse(`${date}T00:00:00Z`) - 15 * 3_600_000; ; t += 900_000) {
    if (localDate(t, tz) === date) return new Date(t).toISOString();
  }
}

/** Rounded half up to one decimal with integers only; null for a zero base. */
const pct = (part: number, whole: number) => (whole === 0 ? null : Math.floor((2000 * part + whole) / (2 * whole)) / 10);
const avg = (sum: number, n: number) => (n === 0 ? null : Math.floor((20 * sum + n) / (2 * n)) / 10);

// ---------------------------------------------------------------------------------------------
// The reference significance, the plain way: every outcome's probability summed.

const LOG_FACTORIAL = [0];
const logFactorial = (n: number) => {
  while (LOG_FACTORIAL.length <= n) LOG_FACTORIAL.push(LOG_FACTORIAL[LOG_FACTORIAL.length - 1]! + Math.log(LOG_FACTORIAL.length));
  return LOG_FACTORIAL[n]!;
};
/** Two-sided: the sum of the probabilities of every outcome no likelier than the one seen (R's tolerance). */
const twoSided = (pmf: (x: number) => number, lo: number, hi: number, seen: number) => {
  const limit = pmf(seen) * (1 + 1e-7);
  let p = 0;
  for (let x = lo; x <= hi; x++) if (pmf(x) <= limit) p += pmf(x);
  return Math.min(1, p);
};
/** Counts a and b of equal windows: a ~ Binomial(a + b, 1/2). */
const refPoisson = (a: number, b: number) => {
  const n = a + b;
  return n === 0 ? null : twoSided((k) => Math.exp(logFactorial(n) - logFactorial(k) - logFactorial(n - k) - n * Math.LN2), 0, n, a);
};
/** Fisher's exact test on [[c1, v1 - c1], [c2, v2 - c2]]. */
const refFisher = (c1: number, v1: number, c2: number, v2: number) => {
  if (v1 === 0 || v2 === 0) return null;
  const [k, n] = [c1 + c2, v1 + v2];
  const lc = (m: number, r: number) => logFactorial(m) - logFactorial(r) - logFactorial(m - r);
  return twoSided((x) => Math.exp(lc(v1, x) + lc(v2, k - x) - lc(n, k)), Math.max(0, k - v2), Math.min(k, v1), c1);
};
const COUNTED = new Set(["visitors", "ai_visitors", "conversions", "mentions", "positive", "neutral", "negative"]);

/** The contract: beside every `previous` of figures, `significant` and `p_values` with its keys. */
function judged(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(judged);
  if (typeof value !== "object" || value === null) return value;
  const o = value as Record<string, unknown>;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k === "previous" ? v : judged(v)]));
  const before = o.previous;
  if (typeof before !== "object" || before === null || Array.isArray(before) || !Object.values(before).some((v) => typeof v === "number")) return out;
  const compare = (now: Record<string, unknown>, then: Record<string, unknown>) => {
    const significant: Record<string, unknown> = {};
    const pValues: Record<string, unknown> = {};
    for (const [k, b] of Object.entries(then)) {
      const a = now[k];
      if (typeof b === "object" && b !== null && typeof a === "object" && a !== null) {
        [significant[k], pValues[k]] = compare(a as Record<string, unknown>, b as Record<string, unknown>);
        continue;
      }
      const [p, test] =
        COUNTED.has(k) && typeof a === "number" && typeof b === "number"
          ? [refPoisson(a, b), "poisson"]
          : k === "conversion_rate"
            ? [refFisher(now.conversions as number, now.visitors as number, then.conversions as number, then.visitors as number), "fisher"]
            : [null, null];
      significant[k] = p === null ? null : p < 0.05;
      pValues[k] = p === null ? null : { p: expect.closeTo(p, 9), test };
    }
    return [significant, pValues];
  };
  const [significant, pValues] = compare(o, before as Record<string, unknown>);
  return { ...out, significant, p_values: pValues };
}

type Comparison = { compare: "year" } | { compare: "custom"; compare_from: string; compare_to: string };
type Case = { name: string; from: string; to: string; tz: string; bucket?: "day" | "week"; comparison?: Comparison };

const memo = new Map<Case, ReturnType<typeof computeExpected>>();
const expected = (c: Case) => memo.get(c) ?? memo.set(c, computeExpected(c)).get(c)!;

/** The same date a year before; 29 Feb reads 28 Feb. */
const yearBefore = (date: string) => (date.slice(5) === "02-29" ? `${Number(date.slice(0, 4)) - 1}-02-28` : `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`);

function computeExpected(c: Case) {
  const length = daysBetween(c.from, c.to) + 1;
  const bucket = c.bucket ?? (length <= 31 ? "day" : "week");
  const compareFrom = !c.comparison ? plusDays(c.from, -length) : c.comparison.compare === "year" ? yearBefore(c.from) : c.comparison.compare_from;
  const shift = daysBetween(c.from, compareFrom);
  const dates = Array.from({ length }, (_, i) => plusDays(c.from, i));
  // Bucket start dates: every date, or the first date and every Monday after it.
  const starts = dates.filter((d, i) => bucket === "day" || i === 0 || isMonday(d));
  const bucketOf = (date: string) => starts.filter((s) => s <= date).length - 1;
  /** [period (0 current, 1 comparison), bucket index] of a local date: none, one, or both when a custom comparison overlaps the range. */
  const place = (date: string): Array<[number, number]> => {
    const at: Array<[number, number]> = [];
    if (date >= c.from && date <= c.to) at.push([0, bucketOf(date)]);
    const moved = plusDays(date, -shift);
    if (moved >= c.from && moved <= c.to) at.push([1, bucketOf(moved)]);
    return at;
  };
  const trend = [0, 1].map((period) =>
    starts.map((s) => ({ start: firstInstant(plusDays(s, shift * period), c.tz), visitors: 0, ai_visitors: 0, conversions: 0 })),
  );
  const bySource = [0, 1].map(() => new Map(SOURCES.map((s) => [s, { visitors: 0, conversions: 0 }])));
  const byCountry = [0, 1].map(() => new Map<string, { visitors: number; ai_visitors: number; conversions: number }>());
  const usCities = new Map<string, { city: string; visitors: number; conversions: number }>();
  for (const v of visitors) {
    for (const at of place(localDate(Date.parse(v.first_seen), c.tz))) {
      const point = trend[at[0]]![at[1]]!;
      point.visitors++;
      if (AI.includes(v.source)) point.ai_visitors++;
      if (v.converted) point.conversions++;
      const s = bySource[at[0]]!.get(v.source)!;
      s.visitors++;
      if (v.converted) s.conversions++;
      const country = /^[A-Z]{2}$/.test(v.country) ? v.country : "unknown";
      const t = byCountry[at[0]]!.get(country) ?? { visitors: 0, ai_visitors: 0, conversions: 0 };
      byCountry[at[0]]!.set(country, {
        visitors: t.visitors + 1,
        ai_visitors: t.ai_visitors + (AI.includes(v.source) ? 1 : 0),
        conversions: t.conversions + (v.converted ? 1 : 0),
      });
      if (at[0] === 0 && country === "US") {
        const city = v.city ?? "unknown";
        const u = usCities.get(city) ?? { city, visitors: 0, conversions: 0 };
        usCities.set(city, { city, visitors: u.visitors + 1, conversions: u.conversions + (v.converted ? 1 : 0) });
      }
    }
  }
  const figures = (period: number, source: string) => {
    const f = bySource[period]!.get(source)!;
    return { visitors: f.visitors, conversions: f.conversions, conversion_rate: pct(f.conversions, f.visitors) };
  };
  const countryFigures = (period: number, country: string) => {
    const f = byCountry[period]!.get(country) ?? { visitors: 0, ai_visitors: 0, conversions: 0 };
    return { ...f, conversion_rate: pct(f.conversions, f.visitors) };
  };
  const byPlatform = [0, 1].map(() => new Map(PLATFORMS.map((p) => [p, { mentions: 0, positive: 0, neutral: 0, negative: 0, sum: 0, n: 0 }])));
  const named = new Map<string, { mentions: number; positive: number; neutral: number; negative: number }>();
  const none = () => ({ positive: 0, neutral: 0, negative: 0 });
  const sentiment = trend[0]!.map((p) => ({ start: p.start, ...none(), platforms: Object.fromEntries(PLATFORMS.map((name) => [name, none()])) }));
  const queries = new Map<string, { forms: Map<string, number>; rows: RawMention[] }>();
  let rangeMentions = 0;
  for (const m of mentions) {
    for (const at of place(localDate(Date.parse(m.created_at), c.tz))) {
      const p = byPlatform[at[0]]!.get(m.platform)!;
      p.mentions++;
      p[m.sentiment as "positive"]++;
      p.sum += m.position;
      p.n++;
      if (at[0] !== 0) continue;
      const bucket = sentiment[at[1]]!;
      bucket[m.sentiment as "positive"]++;
      bucket.platforms[m.platform]![m.sentiment as "positive"]++;
      rangeMentions++;
      for (const name of m.competitors_mentioned) {
        const t = named.get(name) ?? { mentions: 0, positive: 0, neutral: 0, negative: 0 };
        t.mentions++;
        t[m.sentiment as "positive"]++;
        named.set(name, t);
      }
      const key = m.query.trim().toLowerCase();
      const q = queries.get(key) ?? { forms: new Map<string, number>(), rows: [] as RawMention[] };
      q.forms.set(m.query.trim(), (q.forms.get(m.query.trim()) ?? 0) + 1);
      q.rows.push(m);
      queries.set(key, q);
    }
  }
  const window = { from: c.from, to: c.to, tz: c.tz };
  const compare = { from: compareFrom, to: plusDays(compareFrom, length - 1) };
  const queryRow = (key: string, rows: RawMention[], forms: Map<string, number>) => ({
    key,
    query: [...forms].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0]![0],
    mentions: rows.length,
    platforms: Object.fromEntries(PLATFORMS.map((p) => [p, rows.filter((m) => m.platform === p).length])),
    avg_position: avg(
      rows.reduce((n, m) => n + m.position, 0),
      rows.length,
    ),
    best_position: Math.min(...rows.map((m) => m.position)),
    worst_position: Math.max(...rows.map((m) => m.position)),
    first_share: pct(rows.filter((m) => m.position === 1).length, rows.length),
    sentiment: {
      positive: rows.filter((m) => m.sentiment === "positive").length,
      neutral: rows.filter((m) => m.sentiment === "neutral").length,
      negative: rows.filter((m) => m.sentiment === "negative").length,
    },
  });
  return {
    trend: { ...window, compare, bucket, data: trend[0]!, previous: trend[1]! },
    sentiment: { ...window, bucket, data: sentiment },
    sources: { ...window, compare, data: SOURCES.map((source) => ({ source, ...figures(0, source), previous: figures(1, source) })) },
    platforms: {
      ...window,
      compare,
      data: PLATFORMS.map((platform) => {
        const [now, before] = [byPlatform[0]!.get(platform)!, byPlatform[1]!.get(platform)!];
        return {
          platform,
          mentions: now.mentions,
          sentiment: { positive: now.positive, neutral: now.neutral, negative: now.negative },
          avg_position: avg(now.sum, now.n),
          ...figures(0, platform),
          previous: {
            mentions: before.mentions,
            sentiment: { positive: before.positive, neutral: before.neutral, negative: before.negative },
            avg_position: avg(before.sum, before.n),
            ...figures(1, platform),
          },
        };
      }),
    },
    competitors: {
      ...window,
      mentions: rangeMentions,
      data: [...named.entries()]
        .sort(([a, x], [b, y]) => y.mentions - x.mentions || (a < b ? -1 : 1))
        .map(([name, t]) => ({
          name,
          mentions: t.mentions,
          share: pct(t.mentions, rangeMentions),
          sentiment: { positive: t.positive, neutral: t.neutral, negative: t.negative },
        })),
    },
    countries: {
      ...window,
      compare,
      data: [...new Set([...byCountry[0]!.keys(), ...byCountry[1]!.keys()])]
        .map((country) => ({ country, ...countryFigures(0, country), previous: countryFigures(1, country) }))
        .sort((a, b) => b.visitors - a.visitors || b.previous.visitors - a.previous.visitors || (a.country < b.country ? -1 : 1)),
      cities: [...usCities.values()].sort((a, b) => b.visitors - a.visitors || (a.city < b.city ? -1 : 1)).slice(0, 25),
    },
    queries: {
      ...window,
      data: [...queries].map(([key, q]) => queryRow(key, q.rows, q.forms)).sort((a, b) => b.mentions - a.mentions || (a.key < b.key ? -1 : 1)),
    },
    /** Queries of one platform's mentions only (the `platform` filter), computed from the rows again. */
    queriesOf: (platform: string) =>
      [...queries]
        .flatMap(([key, q]) => {
          const rows = q.rows.filter((m) => m.platform === platform);
          const forms = new Map<string, number>();
          for (const m of rows) forms.set(m.query.trim(), (forms.get(m.query.trim()) ?? 0) + 1);
          return rows.length > 0 ? [queryRow(key, rows, forms)] : [];
        })
        .sort((a, b) => b.mentions - a.mentions || (a.key < b.key ? -1 : 1)),
  };
}

// ---------------------------------------------------------------------------------------------
// The app's answers.

/** A fresh insights store and planner policy, and a fresh budget for the key (fake time moved it on). */
function freshContext(policy: Partial<InsightsPolicy>, key: string): void {
  discardKey(key);
  sandbox().reset();
  overrideContext({
    stores: { ...serverContext().stores, insights: createMemoryInsightsStore() },
    insights: { strategy: "auto", gatherMs: 25, ...policy },
  });
}

type Answers = {
  trend: TrendInsight;
  sources: SourcesInsight;
  platforms: PlatformsInsight;
  competitors: CompetitorsInsight;
  sentiment: SentimentInsight;
  countries: CountriesInsight;
  queries: QueriesInsight;
};

/** Each route's own parameters besides the range (countries: one country's cities). */
const EXTRA: Record<string, Record<string, string>> = { countries: { country: "us" } };

/** Every insights route asked together, as the pages' widgets would, on fake time (minutes of rate limit in milliseconds). */
async function askAll(c: Case, key: string): Promise<Answers> {
  const cookie = await sessionCookie(key);
  const compared = comparedInsightRoutes();
  const routes = insightRoutes();
  const queryOf = (route: string) =>
    new URLSearchParams({
      from: c.from,
      to: c.to,
      tz: c.tz,
      ...(c.bucket ? { bucket: c.bucket } : {}),
      ...(compared.includes(route) ? c.comparison : {}),
      ...EXTRA[route],
    });
  const results = await onFakeTime(
    () => Promise.all(routes.map((r) => callApi(`/api/insights/${r}?${queryOf(r)}`, { cookie }))),
    () => rateBudgetForKey(key).inFlight,
  );
  for (const r of results) expect(r.status, r.text).toBe(200);
  return Object.fromEntries(routes.map((r, i) => [r, results[i]!.body])) as unknown as Answers;
}

const CASES: Case[] = [
  { name: "UTC, 30 days ending today (day buckets by default)", from: "2026-10-22", to: "2026-11-20", tz: "UTC" },
  { name: "America/New_York (UTC-4/-5), the clocks go back on 2026-11-01", from: "2026-10-19", to: "2026-11-08", tz: "America/New_York" },
  {
    name: "Europe/Berlin, weeks from a Wednesday (clipped), the clocks go back on 2026-10-25",
    from: "2026-10-14",
    to: "2026-11-10",
    tz: "Europe/Berlin",
    bucket: "week",
  },
  { name: "Asia/Kolkata (UTC+5:30), 90 days (week buckets by default)", from: "2026-08-03", to: "2026-10-31", tz: "Asia/Kolkata" },
  {
    name: "Australia/Adelaide (UTC+9:30/+10:30), the clocks go forward on 2026-10-04",
    from: "2026-09-21",
    to: "2026-10-18",
    tz: "Australia/Adelaide",
    bucket: "day",
  },
  // The sandbox's data covers the 200 days before its "now": a range a year later compares with it.
  { name: "UTC, 20 days of next June against the same days a year before", from: "2027-06-01", to: "2027-06-20", tz: "UTC", comparison: { compare: "year" } },
  {
    name: "Europe/Berlin, 30 days against a custom window months before (two runs of days to read)",
    from: "2026-10-22",
    to: "2026-11-20",
    tz: "Europe/Berlin",
    comparison: { compare: "custom", compare_from: "2026-07-01", compare_to: "2026-07-30" },
  },
  {
    name: "UTC, weeks, against a custom window overlapping the range",
    from: "2026-11-01",
    to: "2026-11-20",
    tz: "UTC",
    bucket: "week",
    comparison: { compare: "custom", compare_from: "2026-10-20", compare_to: "2026-11-08" },
  },
];

/** The answers an oracle case checks: every route of the table, none left out. */
const ROUTE_NAMES = ["trend", "sources", "platforms", "competitors", "sentiment", "countries", "queries"];

/** Visitors first seen in the local dates [from, to] of `tz`. */
const visitorsIn = (from: string, to: string, tz: string) =>
  visitors.filter((v) => {
    const d = localDate(Date.parse(v.first_seen), tz);
    return d >= from && d <= to;
  }).length;

describe("every insights number against the sandbox's rows, bucketed independently", () => {
  it("every route of the table has an answer computed here", () => {
    expect(insightRoutes().sort()).toEqual([...ROUTE_NAMES].sort());
    const e = expected(CASES[0]!);
    expect(
      Object.keys(e)
        .filter((k) => k !== "queriesOf")
        .sort(),
    ).toEqual([...ROUTE_NAMES].sort());
  });

  it("the oracle has data in every case (so an all-zero answer could not pass)", () => {
    expect(visitors.length).toBe(2000);
    expect(mentions.length).toBeGreaterThan(3000);
    const verdicts: string[] = [];
    for (const c of CASES) {
      const e = expected(c);
      expect(e.trend.previous.reduce((n, p) => n + p.conversions, 0)).toBeGreaterThan(0);
      expect(e.countries.data.filter((r) => r.previous.visitors > 0).length).toBeGreaterThan(3);
      verdicts.push(JSON.stringify(judged({ sources: e.sources, platforms: e.platforms, countries: e.countries })));
      if (c.from > "2027") continue;
      expect(e.trend.data.reduce((n, p) => n + p.visitors, 0)).toBeGreaterThan(100);
      expect(e.competitors.mentions).toBeGreaterThan(100);
      expect(e.sentiment.data.filter((p) => p.negative > 0).length).toBeGreaterThan(0);
      expect(e.countries.cities.length).toBeGreaterThan(3);
      expect(e.queries.data.length).toBeGreaterThan(10);
      // Several questions asked of more than one platform; some never answered with us first.
      expect(e.queries.data.filter((q) => Object.values(q.platforms).filter((n) => n > 0).length > 1).length).toBeGreaterThan(5);
      expect(e.queries.data.filter((q) => q.first_share === 0 && q.mentions > 3).length).toBeGreaterThan(0);
    }
    // Changes both beyond and within chance, so a constant verdict could not pass.
    expect(verdicts.join("")).toMatch(/"significant":\{[^}]*:true/);
    expect(verdicts.join("")).toMatch(/"significant":\{[^}]*:false/);
  });

  describe.each(CASES)("$name", (c) => {
    it("kept days: after a restart every route answers exactly from the days the store kept", async () => {
      await serverStore("embedded");
      freshContext({ keepDays: true }, DEMO_KEYS.pro);
      await askAll(c, DEMO_KEYS.pro);
      // A restart: the insights' memory and the key's clients gone, the store kept.
      freshContext({ keepDays: true }, DEMO_KEYS.pro);
      const got = await askAll(c, DEMO_KEYS.pro);
      const { queriesOf: _, ...answers } = expected(c);
      expect(got).toEqual(judged(answers));
      // Days closed on the server's clock (the real one: the sandbox's rows end before it) came from the store.
      const closed = c.to < new Date().toISOString().slice(0, 10);
      if (closed)
        expect(
          sandbox()
            .stats()
            .log.filter((l) => l.path.startsWith("/v1/")),
        ).toEqual([]);
    });

    it.each(["count", "list"] as const)("strategy %s: every route is exact", async (strategy) => {
      freshContext({ strategy }, DEMO_KEYS.pro);
      const got = await askAll(c, DEMO_KEYS.pro);
      const e = expected(c);
      const { queriesOf: _, ...answers } = e;
      expect(got).toEqual(judged(answers));

      // The strategy really took its path: counting asks one figure per call (limit=1), each distinct
      // figure once (and the countries, which only a listing gives, list the window once);
      // listing reads the window's visitors in pages of 100, each page once, one listing per run
      // of consecutive days.
      const asked = sandbox()
        .stats()
        .log.filter((l) => l.path === "/v1/visitors")
        .map((l) => new URLSearchParams(l.query));
      const pages = asked.filter((q) => q.get("limit") === "100");
      const counted = asked.filter((q) => q.get("limit") === "1");
      const [cf, ct] = [e.trend.compare.from, e.trend.compare.to];
      const touching = cf <= plusDays(c.to, 1) && plusDays(ct, 1) >= c.from;
      const runs = touching
        ? [[cf < c.from ? cf : c.from, ct > c.to ? ct : c.to]]
        : [
            [cf, ct],
            [c.from, c.to],
          ];
      expect(pages).toHaveLength(runs.reduce((n, [from, to]) => n + Math.max(1, Math.ceil(visitorsIn(from!, to!, c.tz) / 100)), 0));
      expect(new Set(pages.map((q) => `${q.get("from")} ${q.get("offset")}`)).size).toBe(pages.length);
      // trend: per bucket and period all, converted and the four AI sources; sources: per period
      // and source visitors and conversions (platforms' figures are among them).
      expect(counted).toHaveLength(strategy === "count" ? e.trend.data.length * 2 * 6 + 9 * 2 * 2 : 0);
    });
  });

  it("queries: one platform's mentions, and the queries never named first", async () => {
    freshContext({}, DEMO_KEYS.pro);
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    const c = CASES[0]!;
    const range = `from=${c.from}&to=${c.to}&tz=${c.tz}`;
    const [claude, never] = await onFakeTime(
      () =>
        Promise.all([
          callApi<QueriesInsight>(`/api/insights/queries?${range}&platform=claude`, { cookie }),
          callApi<QueriesInsight>(`/api/insights/queries?${range}&never_first=true`, { cookie }),
        ]),
      () => rateBudgetForKey(DEMO_KEYS.pro).inFlight,
    );
    expect(claude.body.data).toEqual(expected(c).queriesOf("claude"));
    expect(claude.body.data.every((q) => q.platforms.chatgpt + q.platforms.perplexity + q.platforms.gemini === 0)).toBe(true);
    const neverFirst = expected(c).queries.data.filter((q) => q.first_share === 0);
    expect(neverFirst.length).toBeGreaterThan(0);
    expect(never.body.data).toEqual(neverFirst);
  });

  it("the empty workspace: zeros, and null for every rate and average", async () => {
    freshContext({}, DEMO_KEYS.empty);
    const got = await askAll(CASES[0]!, DEMO_KEYS.empty);
    expect(got.trend.data).toHaveLength(30);
    expect([...got.trend.data, ...got.trend.previous].every((p) => p.visitors === 0 && p.ai_visitors === 0 && p.conversions === 0)).toBe(true);
    const none = { visitors: 0, conversions: 0, conversion_rate: null };
    // Nothing to judge: every change's significance is null.
    const nulls = { visitors: null, conversions: null, conversion_rate: null };
    expect(got.sources.data).toEqual(SOURCES.map((source) => ({ source, ...none, previous: none, significant: nulls, p_values: nulls })));
    expect(got.platforms.data).toEqual(
      PLATFORMS.map((platform) => ({
        platform,
        mentions: 0,
        sentiment: { positive: 0, neutral: 0, negative: 0 },
        avg_position: null,
        ...none,
        previous: { mentions: 0, sentiment: { positive: 0, neutral: 0, negative: 0 }, avg_position: null, ...none },
        significant: { mentions: null, sentiment: { positive: null, neutral: null, negative: null }, avg_position: null, ...nulls },
        p_values: { mentions: null, sentiment: { positive: null, neutral: null, negative: null }, avg_position: null, ...nulls },
      })),
    );
    expect(got.competitors).toEqual({ from: "2026-10-22", to: "2026-11-20", tz: "UTC", mentions: 0, data: [] });
    expect(got.sentiment.data).toHaveLength(30);
    expect(got.sentiment.data.every((p) => p.positive + p.neutral + p.negative === 0)).toBe(true);
    expect(got.countries).toEqual({ from: "2026-10-22", to: "2026-11-20", tz: "UTC", compare: { from: "2026-09-22", to: "2026-10-21" }, data: [], cities: [] });
    expect(got.queries).toEqual({ from: "2026-10-22", to: "2026-11-20", tz: "UTC", data: [] });
  });
});
