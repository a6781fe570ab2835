// What the insights cost upstream, on the demo workspace of 20,000 visitors with the server's clock
// at the sandbox's "now" (so the range's last day is today, still open): a cold first visit of the
// overview and /platforms insights (five routes at once, 30 days) on a Free key fits in the plan's
// minute with no 429, each page of the window read once; a warm repeat costs nothing, and once
// today's figures are stale only today is read again; identical requests share one computation; a
// 429 storm delays but never changes an answer; on an upstream that never says its limits, and a key
// that something else uses too, a run meets at most one 429 (the burst halves after it); a sign-out
// leaves the key's figures to its other sessions; rows that cannot be placed make the visitor figures fall back to counting, and mentions
// that cannot be placed are reported, not dropped.
// Runs on fake time (lib/fake-time's onFakeTime): minutes of rate limit take milliseconds.
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { serverContext, type InsightsPolicy } from "@/lib/server/context";
import { createMemoryInsightsStore } from "@/lib/shared-state/insights";
import { onFakeTime } from "@/lib/fake-time";
import { call, callApi, ORIGIN, serverContextPerTest, sessionCookie, TEST_NOW, upstreamForFile } from "@/testing/in-process";
import { discardKey, rateBudgetForKey } from "@/lib/server/upstream";
import type { CompetitorsInsight } from "./competitors";
import type { CountriesInsight } from "./countries";
import type { QueriesInsight } from "./queries";
import type { PlatformsInsight } from "./platforms";
import { routeFileAt } from "@/testing/api-routes";

const { DELETE: signOut } = await routeFileAt("session");

// The sandbox's data ends at TEST_NOW; the server and the sandbox's rate limiter both read this clock.
const SHIFT = Date.now() - Date.parse(TEST_NOW);
const clock = () => Date.now() - SHIFT;
const RANGE = "from=2026-10-22&to=2026-11-20&tz=UTC";
const WEEK = "from=2026-11-14&to=2026-11-20&tz=Europe/Berlin";
// The widgets of two pages (the overview and /platforms), not every route: a set the pages ask at once.
const ROUTES = ["trend", "sources", "platforms", "competitors", "sentiment"] as const;

const sandbox = upstreamForFile({ visitors: 20_000, clock });
const overrideContext = serverContextPerTest();
let reference: unknown[];

afterEach(() => {
  sandbox().setFaults({});
});

function fresh(key: string, policy: Partial<InsightsPolicy> = {}): void {
  discardKey(key);
  sandbox().reset();
  overrideContext({
    now: clock,
    stores: { ...serverContext().stores, insights: createMemoryInsightsStore({ now: clock }) },
    insights: { strategy: "auto", gatherMs: 25, ...policy },
  });
}

/** The five insights routes of the overview and /platforms, asked at once like the widgets of a page. */
async function load(key: string, routes: readonly string[] = ROUTES, query = RANGE, session?: string): Promise<unknown[]> {
  const cookie = session ?? (await sessionCookie(key));
  const results = await Promise.all(routes.map((r) => callApi(`/api/insights/${r}?${query}`, { cookie })));
  for (const r of results) expect(r.status, r.text.slice(0, 300)).toBe(200);
  return results.map((r) => r.body);
}

const onFake = <T>(key: string, work: () => Promise<T>) => onFakeTime(work, () => rateBudgetForKey(key).inFlight);
const upstream = (path: string) =>
  sandbox()
    .stats()
    .log.filter((l) => l.path === `/v1${path}`)
    .map((l) => new URLSearchParams(l.query));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("insights cost on a Free key (100/min, 10/s)", () => {
  it("cold: no 429, every page of the window read once, all within the plan's minute; warm: no call; later: only today again", async () => {
    fresh(DEMO_KEYS.free);
    await onFake(DEMO_KEYS.free, async () => {
      const started = clock();
      reference = await load(DEMO_KEYS.free);
      const coldSeconds = (clock() - started) / 1000;
      const cold = sandbox().stats();
      expect(cold.rateLimited).toBe(0);
      // Listings only (no figure was counted), and no page of any listing asked twice. (Which routes
      // share a listing depends on when their requests arrive within the gathering window, so a page
      // is its window and offset: a clean-clone run once saw the mentions read as two windows,
      // 13 pages at 7 offsets. What a widget set's plan shares is insights-plan.test.ts's.)
      const page = (q: URLSearchParams) => `${q.get("from")}|${q.get("to")}|${q.get("offset")}`;
      const visitorPages = upstream("/visitors");
      expect(visitorPages.every((q) => q.get("limit") === "100")).toBe(true);
      expect(new Set(visitorPages.map(page)).size).toBe(visitorPages.length);
      const mentionPages = upstream("/mentions");
      expect(mentionPages.every((q) => q.get("limit") === "100")).toBe(true);
      expect(new Set(mentionPages.map(page)).size).toBe(mentionPages.length);
      expect(cold.requests).toBe(visitorPages.length + mentionPages.length);
      expect(cold.requests).toBeLessThan(100);
      expect(coldSeconds).toBeLessThan(30);

      sandbox().reset();
      expect(await load(DEMO_KEYS.free)).toEqual(reference);
      expect(sandbox().stats().requests).toBe(0);

      // Today's figures are kept for seconds, closed days' for hours: only today is read again.
      await sleep(31_000);
      expect(await load(DEMO_KEYS.free)).toEqual(reference);
      const later = sandbox().stats().log;
      expect(later.length).toBeGreaterThan(0);
      expect(later.length).toBeLessThanOrEqual(4);
      for (const l of later) expect(new URLSearchParams(l.query).get("from")).toBe("2026-11-20T00:00:00.000Z");
    });
  });

  it("identical concurrent requests share one computation: five trend requests cost what one does", async () => {
    fresh(DEMO_KEYS.free);
    const [one] = await onFake(DEMO_KEYS.free, () => load(DEMO_KEYS.free, ["trend"], WEEK));
    const once = sandbox().stats().requests;
    fresh(DEMO_KEYS.free);
    const five = await onFake(DEMO_KEYS.free, () => load(DEMO_KEYS.free, ["trend", "trend", "trend", "trend", "trend"], WEEK));
    expect(five).toEqual([one, one, one, one, one]);
    expect(sandbox().stats().requests).toBe(once);
    expect(
      new Set(
        sandbox()
          .stats()
          .log.map((l) => l.query),
      ).size,
    ).toBe(once);
  });

  it("a 429 storm delays the answers but does not change them", async () => {
    fresh(DEMO_KEYS.free);
    sandbox().setFaults({ rateLimitStorm: 8, keys: [DEMO_KEYS.free] });
    const answers = await onFake(DEMO_KEYS.free, () => load(DEMO_KEYS.free));
    expect(sandbox().stats().rateLimited).toBe(8);
    expect(answers).toEqual(reference);
  });

  it("a sign-out leaves the key's figures: a teammate's session of the key asks the Data API nothing", async () => {
    fresh(DEMO_KEYS.free);
    const cookie = await sessionCookie(DEMO_KEYS.free);
    const [first] = await onFake(DEMO_KEYS.free, () => load(DEMO_KEYS.free, ["sources"], RANGE, cookie));
    sandbox().reset();
    const out = await call(signOut, "/api/session", { cookie, init: { method: "DELETE", headers: { origin: ORIGIN } } });
    expect(out.status).toBe(200);
    expect((await callApi(`/api/insights/sources?${RANGE}`, { cookie })).status).toBe(401);
    expect(await onFake(DEMO_KEYS.free, () => load(DEMO_KEYS.free, ["sources"]))).toEqual([first]);
    expect(sandbox().stats().requests).toBe(0);
  });
});

/**
 * Another integration using the same key, which this app cannot see: one call every third second of
 * the clock, straight to the sandbox with the key. It calls at the start of its second, so it comes
 * before this app's requests of that second: made here when the first of those is about to leave
 * (the server's transport only orders the two; the call is the integration's own).
 */
function otherIntegrationEvery3s(key: string): { calls: () => number; stop: () => void } {
  let calls = 0;
  let lastSecond = -1;
  const transport = serverContext().fetch;
  const fetch: typeof transport = async (url, init) => {
    const second = Math.floor(clock() / 1000);
    if (second % 3 === 0 && second !== lastSecond) {
      lastSecond = second;
      calls++;
      const res = await request(`${sandbox().baseUrl}/intelligence/score`, { headers: { authorization: `Bearer ${key}` } });
      await res.body.dump();
    }
    return transport(url, init);
  };
  return { calls: () => calls, stop: overrideContext({ fetch }) };
}

describe("an upstream that never says its limits (no X-RateLimit-* headers)", () => {
  it("a Free key shared with another integration: the run meets at most one 429, then keeps to half the burst", async () => {
    fresh(DEMO_KEYS.free);
    sandbox().setFaults({ hideRateLimitHeaders: true, keys: [DEMO_KEYS.free] });
    const other = otherIntegrationEvery3s(DEMO_KEYS.free);
    let seconds = 0;
    const answers = await onFake(DEMO_KEYS.free, async () => {
      const started = clock();
      const loaded = await load(DEMO_KEYS.free);
      seconds = (clock() - started) / 1000;
      return loaded;
    });
    const log = sandbox().stats().log;
    const ours = log.filter((l) => l.path !== "/v1/intelligence/score");
    const theirs = log.filter((l) => l.path === "/v1/intelligence/score");
    expect(theirs).toHaveLength(other.calls());
    expect(theirs.length).toBeGreaterThan(2);
    expect(theirs.filter((l) => l.status === 429)).toHaveLength(0);
    // Before the burst adapted, this run met 4 (each third second: the other's call, then ten of ours).
    expect(ours.filter((l) => l.status === 429)).toHaveLength(1);
    expect(rateBudgetForKey(DEMO_KEYS.free)).toMatchObject({ perSecond: 10, burst: 5, learned: false });
    expect(seconds).toBeLessThan(30);
    // The 429 delayed an answer, never changed one.
    other.stop();
    sandbox().setFaults({});
    fresh(DEMO_KEYS.free);
    expect(await onFake(DEMO_KEYS.free, () => load(DEMO_KEYS.free))).toEqual(answers);
    expect(sandbox().stats().rateLimited).toBe(0);
  });
});

/**
 * The upstream's answers as they would be while returning visitors move to the front of the
 * last_seen order: a later page starts `shift` rows away from where it should (-1: a row is seen
 * twice and one never; +1: a row is never seen). Real requests to the real sandbox, shifted.
 * `times`: how many pages see it; only pages after the first can.
 */
function visitorsMoveDuringListing(shift: number, times: number): void {
  const transport = serverContext().fetch;
  let left = times;
  const fetch: typeof transport = (url, init) => {
    const u = new URL(url);
    const offset = Number(u.searchParams.get("offset"));
    if (left > 0 && u.pathname.endsWith("/visitors") && u.searchParams.get("limit") === "100" && offset >= 100) {
      left--;
      u.searchParams.set("offset", String(offset + shift));
    }
    return transport(u.toString(), init);
  };
  overrideContext({ fetch });
}

describe("listings that cannot be exact", () => {
  it("visitors: a list that moved while read is completed day by day (counts find the day short of a row), and the answers stay exact", async () => {
    fresh(DEMO_KEYS.pro);
    visitorsMoveDuringListing(-1, 1);
    const answers = await onFake(DEMO_KEYS.pro, () => load(DEMO_KEYS.pro));
    expect(answers).toEqual(reference);
    const calls = upstream("/visitors");
    const window = calls[0]!;
    const pages = calls.filter((q) => q.get("limit") === "100");
    const counts = calls.filter((q) => q.get("limit") === "1");
    // The window read once; halving 60 days to the one short of a row takes 2 counts a level (6 levels)
    // and the whole span's; that day alone is read again.
    expect(pages.filter((q) => q.get("from") === window.get("from"))).toHaveLength(74);
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.length).toBeLessThanOrEqual(1 + 2 * 6);
    const reread = pages.filter((q) => q.get("from") !== window.get("from"));
    expect(new Set(reread.map((q) => q.get("from")))).toHaveProperty("size", 1);
    expect(reread.length).toBeLessThanOrEqual(3);
  });

  it("visitors: a list that keeps moving is left for counting, and the answers stay exact", async () => {
    fresh(DEMO_KEYS.pro);
    visitorsMoveDuringListing(+1, Infinity);
    const answers = await onFake(DEMO_KEYS.pro, () => load(DEMO_KEYS.pro));
    expect(answers).toEqual(reference);
    expect(upstream("/visitors").filter((q) => q.get("limit") === "1").length).toBeGreaterThan(300);
  });

  it("visitors: a listing with unreadable rows is dropped for counting, and the answers stay exact", async () => {
    fresh(DEMO_KEYS.odd);
    const clean = await onFake(DEMO_KEYS.odd, () => load(DEMO_KEYS.odd, ["trend", "sources"], WEEK));
    fresh(DEMO_KEYS.odd, { strategy: "list" });
    sandbox().setFaults({ oddRate: 0.05, keys: [DEMO_KEYS.odd], paths: ["/visitors"] });
    const answers = await onFake(DEMO_KEYS.odd, () => load(DEMO_KEYS.odd, ["trend", "sources"], WEEK));
    expect(answers).toEqual(clean);
    const limits = upstream("/visitors").map((q) => q.get("limit"));
    expect(limits).toContain("100");
    expect(limits).toContain("1");
  });

  it("mentions: each one is in a platform's figures or in `unreadable`, never silently dropped", async () => {
    fresh(DEMO_KEYS.odd);
    sandbox().setFaults({ oddRate: 0.1, keys: [DEMO_KEYS.odd], paths: ["/mentions"] });
    const [competitors, platforms] = (await onFake(DEMO_KEYS.odd, async () => [
      ...(await load(DEMO_KEYS.odd, ["competitors"])),
      ...(await load(DEMO_KEYS.odd, ["platforms"])),
    ])) as [CompetitorsInsight, PlatformsInsight];
    const [, , cleanPlatforms, cleanCompetitors] = reference as [unknown, unknown, PlatformsInsight, CompetitorsInsight];
    const windowMentions = (p: PlatformsInsight) => p.data.reduce((n, row) => n + row.mentions + row.previous.mentions, 0);
    expect(platforms.unreadable?.count).toBeGreaterThan(0);
    expect(windowMentions(platforms) + platforms.unreadable!.count).toBe(windowMentions(cleanPlatforms));
    expect(competitors.unreadable?.count).toBeGreaterThan(0);
    expect(competitors.mentions + competitors.unreadable!.count).toBe(cleanCompetitors.mentions);
  });

  it("countries and questions on odd data: every visitor and mention is in a row or in `unreadable` (a visitor only partly read in both), odd countries are unknown", async () => {
    fresh(DEMO_KEYS.odd);
    const [cleanCountries, cleanQueries] = (await onFake(DEMO_KEYS.odd, () => load(DEMO_KEYS.odd, ["countries", "queries"]))) as [
      CountriesInsight,
      QueriesInsight,
    ];
    fresh(DEMO_KEYS.odd);
    sandbox().setFaults({ oddRate: 0.1, keys: [DEMO_KEYS.odd], paths: ["/visitors", "/mentions"] });
    const [countries, queries] = (await onFake(DEMO_KEYS.odd, () => load(DEMO_KEYS.odd, ["countries", "queries"]))) as [CountriesInsight, QueriesInsight];
    const visitors = (c: CountriesInsight) => c.data.reduce((n, r) => n + r.visitors + r.previous.visitors, 0);
    expect(countries.unreadable?.count).toBeGreaterThan(0);
    // A visitor that cannot be read at all is left out and counted; one whose source or `converted`
    // cannot be read is still its country's visitor, and counted too (its AI and conversion figures
    // leave it out): so every visitor is in a row or counted, and some counted ones are in rows.
    expect(visitors(countries)).toBeLessThan(visitors(cleanCountries));
    expect(visitors(countries) + countries.unreadable!.count).toBeGreaterThan(visitors(cleanCountries));
    expect(countries.data.find((r) => r.country === "unknown")?.visitors).toBeGreaterThan(0);
    expect(countries.data.every((r) => r.country === "unknown" || /^[A-Z]{2}$/.test(r.country))).toBe(true);
    const mentions = (q: QueriesInsight) => q.data.reduce((n, r) => n + r.mentions, 0);
    expect(queries.unreadable?.count).toBeGreaterThan(0);
    expect(mentions(queries) + queries.unreadable!.count).toBe(mentions(cleanQueries));
    expect(queries.data.every((r) => r.key === r.key.trim().toLowerCase() && r.key !== "")).toBe(true);
    for (const r of queries.data) {
      if (r.best_position !== null) expect(r.best_position).toBeGreaterThanOrEqual(1);
      expect(r.best_position === null).toBe(r.avg_position === null);
    }
  });
});
