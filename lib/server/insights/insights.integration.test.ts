// Every number of the five insights routes, checked against rows listed directly from the sandbox
// over HTTP and bucketed here with this file's own simple code (each row's local date from
// Intl.DateTimeFormat, a bucket's first instant found by scanning), never with the app's planner or
// time-zone code. Several ranges and zones: UTC, a negative offset, half-hour offsets, clock
// changes inside the range; day and week buckets; and both planner strategies (counting,
// listing), which must give identical answers. The empty workspace gives zeros and nulls.
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { serverContext, type InsightsPolicy } from "../context";
import { createMemoryInsightsStore } from "../stores/insights";
import { onFakeTime } from "@/lib/fake-time";
import { callApi, serverContextPerTest, sessionCookie, upstreamForFile } from "../test-support";
import { discardKey, rateBudgetForKey } from "../upstream";
import type { CompetitorsInsight } from "./competitors";
import type { PlatformsInsight } from "./platforms";
import type { SentimentInsight } from "./sentiment";
import type { SourcesInsight } from "./sources";
import type { TrendInsight } from "./trend";

type RawVisitor = { id: string; first_seen: string; source: string; converted: boolean };
type RawMention = { id: string; platform: string; sentiment: string; position: number; competitors_mentioned: string[]; created_at: string };

const sandbox = upstreamForFile({ visitors: 2000 });
const overrideContext = serverContextPerTest();
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
// The AI platforms first, in the one order every page lists them (README.md "Words and formats").
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

type Case = { name: string; from: string; to: string; tz: string; bucket?: "day" | "week" };

const memo = new Map<Case, ReturnType<typeof computeExpected>>();
const expected = (c: Case) => memo.get(c) ?? memo.set(c, computeExpected(c)).get(c)!;

function computeExpected(c: Case) {
  const length = daysBetween(c.from, c.to) + 1;
  const bucket = c.bucket ?? (length <= 31 ? "day" : "week");
  const dates = Array.from({ length }, (_, i) => plusDays(c.from, i));
  // Bucket start dates: every date, or the first date and every Monday after it.
  const starts = dates.filter((d, i) => bucket === "day" || i === 0 || isMonday(d));
  const bucketOf = (date: string) => starts.filter((s) => s <= date).length - 1;
  /** [period (0 current, 1 previous), bucket index] of a local date, or null outside both periods. */
  const place = (date: string): [number, number] | null => {
    if (date >= c.from && date <= c.to) return [0, bucketOf(date)];
    const moved = plusDays(date, length);
    if (moved >= c.from && moved <= c.to) return [1, bucketOf(moved)];
    return null;
  };
  const trend = [0, 1].map((period) => starts.map((s) => ({ start: firstInstant(plusDays(s, -length * period), c.tz), visitors: 0, ai_visitors: 0, conversions: 0 })));
  const bySource = [0, 1].map(() => new Map(SOURCES.map((s) => [s, { visitors: 0, conversions: 0 }])));
  for (const v of visitors) {
    const at = place(localDate(Date.parse(v.first_seen), c.tz));
    if (!at) continue;
    const point = trend[at[0]]![at[1]]!;
    point.visitors++;
    if (AI.includes(v.source)) point.ai_visitors++;
    if (v.converted) point.conversions++;
    const s = bySource[at[0]]!.get(v.source)!;
    s.visitors++;
    if (v.converted) s.conversions++;
  }
  const figures = (period: number, source: string) => {
    const f = bySource[period]!.get(source)!;
    return { visitors: f.visitors, conversions: f.conversions, conversion_rate: pct(f.conversions, f.visitors) };
  };
  const byPlatform = [0, 1].map(() => new Map(PLATFORMS.map((p) => [p, { mentions: 0, positive: 0, neutral: 0, negative: 0, sum: 0, n: 0 }])));
  const named = new Map<string, { mentions: number; positive: number; neutral: number; negative: number }>();
  const none = () => ({ positive: 0, neutral: 0, negative: 0 });
  const sentiment = trend[0]!.map((p) => ({ start: p.start, ...none(), platforms: Object.fromEntries(PLATFORMS.map((name) => [name, none()])) }));
  let rangeMentions = 0;
  for (const m of mentions) {
    const at = place(localDate(Date.parse(m.created_at), c.tz));
    if (!at) continue;
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
  }
  const window = { from: c.from, to: c.to, tz: c.tz };
  return {
    trend: { ...window, bucket, data: trend[0]!, previous: trend[1]! },
    sentiment: { ...window, bucket, data: sentiment },
    sources: { ...window, data: SOURCES.map((source) => ({ source, ...figures(0, source), previous: figures(1, source) })) },
    platforms: {
      ...window,
      data: PLATFORMS.map((platform) => {
        const [now, before] = [byPlatform[0]!.get(platform)!, byPlatform[1]!.get(platform)!];
        return {
          platform,
          mentions: now.mentions,
          sentiment: { positive: now.positive, neutral: now.neutral, negative: now.negative },
          avg_position: avg(now.sum, now.n),
          ...figures(0, platform),
          previous: { mentions: before.mentions, sentiment: { positive: before.positive, neutral: before.neutral, negative: before.negative }, avg_position: avg(before.sum, before.n), ...figures(1, platform) },
        };
      }),
    },
    competitors: {
      ...window,
      mentions: rangeMentions,
      data: [...named.entries()]
        .sort(([a, x], [b, y]) => y.mentions - x.mentions || (a < b ? -1 : 1))
        .map(([name, t]) => ({ name, mentions: t.mentions, share: pct(t.mentions, rangeMentions), sentiment: { positive: t.positive, neutral: t.neutral, negative: t.negative } })),
    },
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

type Answers = { trend: TrendInsight; sources: SourcesInsight; platforms: PlatformsInsight; competitors: CompetitorsInsight; sentiment: SentimentInsight };

/** The five routes asked together, as the pages' widgets would, on fake time (minutes of rate limit in milliseconds). */
async function askAll(c: Case, key: string): Promise<Answers> {
  const cookie = await sessionCookie(key);
  const query = new URLSearchParams({ from: c.from, to: c.to, tz: c.tz, ...(c.bucket ? { bucket: c.bucket } : {}) });
  const routes = ["trend", "sources", "platforms", "competitors", "sentiment"] as const;
  const results = await onFakeTime(() => Promise.all(routes.map((r) => callApi(`/api/insights/${r}?${query}`, { cookie }))), () => rateBudgetForKey(key).inFlight);
  for (const r of results) expect(r.status, r.text).toBe(200);
  return Object.fromEntries(routes.map((r, i) => [r, results[i]!.body])) as unknown as Answers;
}

const CASES: Case[] = [
  { name: "UTC, 30 days ending today (day buckets by default)", from: "2026-10-22", to: "2026-11-20", tz: "UTC" },
  { name: "America/New_York (UTC-4/-5), the clocks go back on 2026-11-01", from: "2026-10-19", to: "2026-11-08", tz: "America/New_York" },
  { name: "Europe/Berlin, weeks from a Wednesday (clipped), the clocks go back on 2026-10-25", from: "2026-10-14", to: "2026-11-10", tz: "Europe/Berlin", bucket: "week" },
  { name: "Asia/Kolkata (UTC+5:30), 90 days (week buckets by default)", from: "2026-08-03", to: "2026-10-31", tz: "Asia/Kolkata" },
  { name: "Australia/Adelaide (UTC+9:30/+10:30), the clocks go forward on 2026-10-04", from: "2026-09-21", to: "2026-10-18", tz: "Australia/Adelaide", bucket: "day" },
];

describe("every insights number against the sandbox's rows, bucketed independently", () => {
  it("the oracle has data in every case (so an all-zero answer could not pass)", () => {
    expect(visitors.length).toBe(2000);
    expect(mentions.length).toBeGreaterThan(3000);
    for (const c of CASES) {
      const e = expected(c);
      expect(e.trend.data.reduce((n, p) => n + p.visitors, 0)).toBeGreaterThan(100);
      expect(e.trend.previous.reduce((n, p) => n + p.conversions, 0)).toBeGreaterThan(0);
      expect(e.competitors.mentions).toBeGreaterThan(100);
      expect(e.sentiment.data.filter((p) => p.negative > 0).length).toBeGreaterThan(0);
    }
  });

  describe.each(CASES)("$name", (c) => {
    it.each(["count", "list"] as const)("strategy %s: trend, sources, platforms, competitors and sentiment are exact", async (strategy) => {
      freshContext({ strategy }, DEMO_KEYS.pro);
      const got = await askAll(c, DEMO_KEYS.pro);
      const e = expected(c);
      expect(got.trend).toEqual(e.trend);
      expect(got.sources).toEqual(e.sources);
      expect(got.platforms).toEqual(e.platforms);
      expect(got.competitors).toEqual(e.competitors);
      expect(got.sentiment).toEqual(e.sentiment);

      // The strategy really took its path: counting asks one figure per call (limit=1), each distinct
      // figure once; listing reads the window's visitors in pages of 100, each page once.
      const asked = sandbox().stats().log.filter((l) => l.path === "/v1/visitors").map((l) => new URLSearchParams(l.query));
      if (strategy === "count") {
        expect(asked.every((q) => q.get("limit") === "1")).toBe(true);
        // trend: per bucket and period all, converted and the four AI sources; sources: per period
        // and source visitors and conversions (platforms' figures are among them).
        expect(asked).toHaveLength(e.trend.data.length * 2 * 6 + 9 * 2 * 2);
      } else {
        expect(asked.every((q) => q.get("limit") === "100")).toBe(true);
        const [start, end] = [Date.parse(e.trend.previous[0]!.start), Date.parse(asked[0]!.get("to")!)];
        const inWindow = visitors.filter((v) => Date.parse(v.first_seen) >= start && Date.parse(v.first_seen) <= end).length;
        expect(asked).toHaveLength(Math.ceil(inWindow / 100));
        expect(new Set(asked.map((q) => q.get("offset"))).size).toBe(asked.length);
      }
    });
  });

  it("the empty workspace: zeros, and null for every rate and average", async () => {
    freshContext({}, DEMO_KEYS.empty);
    const got = await askAll(CASES[0]!, DEMO_KEYS.empty);
    expect(got.trend.data).toHaveLength(30);
    expect([...got.trend.data, ...got.trend.previous].every((p) => p.visitors === 0 && p.ai_visitors === 0 && p.conversions === 0)).toBe(true);
    const none = { visitors: 0, conversions: 0, conversion_rate: null };
    expect(got.sources.data).toEqual(SOURCES.map((source) => ({ source, ...none, previous: none })));
    expect(got.platforms.data).toEqual(
      PLATFORMS.map((platform) => ({
        platform,
        mentions: 0,
        sentiment: { positive: 0, neutral: 0, negative: 0 },
        avg_position: null,
        ...none,
        previous: { mentions: 0, sentiment: { positive: 0, neutral: 0, negative: 0 }, avg_position: null, ...none },
      })),
    );
    expect(got.competitors).toEqual({ from: "2026-10-22", to: "2026-11-20", tz: "UTC", mentions: 0, data: [] });
    expect(got.sentiment.data).toHaveLength(30);
    expect(got.sentiment.data.every((p) => p.positive + p.neutral + p.negative === 0)).toBe(true);
  });
});
