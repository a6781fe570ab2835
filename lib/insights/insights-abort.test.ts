// Work that outlives its caller: an insights computation stops asking the Data API once nobody waits
// for it. Through the route handler over real HTTP to the sandbox, on fake time: a client that aborts
// a 365-day request leaves at most the calls already in flight behind it; the first failure stops
// the queued calls; requests sharing work (one answer asked twice, a listing serving two routes)
// keep it going while one of them still waits and end it when the LAST one leaves, leaving nothing
// registered behind.
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { onFakeTime } from "@/lib/fake-time";
import { serverContext, type InsightsPolicy } from "@/lib/server/context";
import { createMemoryInsightsStore } from "@/lib/shared-state/insights";
import { callApi, serverContextPerTest, sessionCookie, TEST_NOW, upstreamForFile, type Called, type ErrorJson } from "@/testing/in-process";
import { discardKey, rateBudgetForKey } from "@/lib/server/upstream";
import { insightsContext } from "./context";
import { UPSTREAM_CONCURRENCY } from "./listing";

const SHIFT = Date.now() - Date.parse(TEST_NOW);
const clock = () => Date.now() - SHIFT;
const KEY = DEMO_KEYS.pro;
const YEAR = "from=2025-11-21&to=2026-11-20&tz=UTC";
const MONTH_BY_DAY = "from=2026-10-22&to=2026-11-20&tz=UTC&bucket=day";

const sandbox = upstreamForFile({ visitors: 20_000, clock });
const overrideContext = serverContextPerTest();

afterEach(() => {
  sandbox().setFaults({});
});

function fresh(policy: Partial<InsightsPolicy>): void {
  discardKey(KEY);
  sandbox().reset();
  overrideContext({
    now: clock,
    stores: { ...serverContext().stores, insights: createMemoryInsightsStore({ now: clock }) },
    insights: { strategy: "auto", gatherMs: 25, ...policy },
  });
}

const onFake = <T>(work: () => Promise<T>) => onFakeTime(work, () => rateBudgetForKey(KEY).inFlight);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const upstreamCalls = () => sandbox().stats().requests;

/** Until the sandbox has had `n` requests (fake time runs meanwhile). */
async function untilCalls(n: number): Promise<void> {
  while (upstreamCalls() < n) await sleep(5);
}

/** GET an insights route that the returned `abort` cancels, as a closed tab would. */
async function start(route: string, query: string): Promise<{ answer: Promise<Called>; abort: () => void }> {
  const cookie = await sessionCookie(KEY);
  const controller = new AbortController();
  return { answer: callApi(`/api/insights/${route}?${query}`, { cookie, init: { signal: controller.signal } }), abort: () => controller.abort() };
}

/** Nothing of the key's insights is still running or registered. */
function nothingLeft(): void {
  const state = insightsContext(KEY).state;
  expect({ flights: state.flights.inFlight, plans: state.plans.size, listings: state.listings.size }).toEqual({ flights: 0, plans: 0, listings: 0 });
}

describe("an insights request whose client went away", () => {
  it(`a 365-day trend aborted mid-way: at most ${UPSTREAM_CONCURRENCY} more upstream calls (those in flight), then none`, async () => {
    for (const strategy of ["count", "list"] as const) {
      fresh({ strategy });
      await onFake(async () => {
        const request = await start("trend", YEAR);
        await untilCalls(40);
        request.abort();
        const atAbort = upstreamCalls();
        expect((await request.answer).status).toBe(499);
        await sleep(10 * 60_000);
        expect(upstreamCalls() - atAbort, strategy).toBeLessThanOrEqual(UPSTREAM_CONCURRENCY);
      });
      nothingLeft();
    }
  });

  it("the first failure stops the calls still queued (the others are not sent)", async () => {
    fresh({ strategy: "count" });
    await onFake(async () => {
      const request = await start("trend", MONTH_BY_DAY);
      await untilCalls(50);
      sandbox().setFaults({ malformedCount: 1, paths: ["/visitors"] });
      const res = (await request.answer) as Called<ErrorJson>;
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe("unexpected_response");
      const atFailure = upstreamCalls();
      await sleep(10 * 60_000);
      expect(upstreamCalls() - atFailure).toBeLessThanOrEqual(UPSTREAM_CONCURRENCY);
      // 60 buckets of 6 figures were planned; the failure came after about 50 of them.
      expect(upstreamCalls()).toBeLessThan(50 + 2 * UPSTREAM_CONCURRENCY);
    });
    nothingLeft();
  });
});

describe("work shared by several requests", () => {
  const TWO_WEEKS_BY_DAY = "from=2026-11-07&to=2026-11-20&tz=UTC&bucket=day";
  const QUARTER = "from=2026-08-23&to=2026-11-20&tz=UTC";

  it("one answer asked twice: the first leaving changes nothing for the second, and each figure is counted once", async () => {
    fresh({ strategy: "list" });
    const reference = await onFake(async () => (await (await start("trend", TWO_WEEKS_BY_DAY)).answer).body);
    fresh({ strategy: "count" });
    await onFake(async () => {
      const [a, b] = [await start("trend", TWO_WEEKS_BY_DAY), await start("trend", TWO_WEEKS_BY_DAY)];
      await untilCalls(30);
      a.abort();
      expect((await a.answer).status).toBe(499);
      const res = await b.answer;
      expect(res.status).toBe(200);
      expect(res.body).toEqual(reference);
    });
    // 28 buckets × 6 figures, each counted once: the computation went on, it did not start again.
    expect(upstreamCalls()).toBe(28 * 6);
    nothingLeft();
  });

  it("one answer asked twice: the last leaving ends it", async () => {
    fresh({ strategy: "count" });
    await onFake(async () => {
      const [a, b] = [await start("trend", TWO_WEEKS_BY_DAY), await start("trend", TWO_WEEKS_BY_DAY)];
      await untilCalls(30);
      a.abort();
      await untilCalls(60);
      b.abort();
      const atLast = upstreamCalls();
      expect((await Promise.all([a.answer, b.answer])).map((r) => r.status)).toEqual([499, 499]);
      await sleep(10 * 60_000);
      expect(upstreamCalls() - atLast).toBeLessThanOrEqual(UPSTREAM_CONCURRENCY);
      expect(upstreamCalls()).toBeLessThan(28 * 6);
    });
    nothingLeft();
  });

  it("one listing serving trend and sources: trend leaving keeps it for sources, every page read once", async () => {
    fresh({ strategy: "list" });
    const reference = await onFake(async () => (await (await start("sources", QUARTER)).answer).body);
    fresh({ strategy: "list" });
    await onFake(async () => {
      const [trend, sources] = [await start("trend", QUARTER), await start("sources", QUARTER)];
      await untilCalls(20);
      trend.abort();
      expect((await trend.answer).status).toBe(499);
      const res = await sources.answer;
      expect(res.status).toBe(200);
      expect(res.body).toEqual(reference);
    });
    const pages = sandbox()
      .stats()
      .log.filter((l) => l.path === "/v1/visitors")
      .map((l) => l.query);
    expect(pages.length).toBeGreaterThan(40);
    expect(new Set(pages).size).toBe(pages.length);
    nothingLeft();
  });

  it("one listing serving trend and sources: both leaving ends it", async () => {
    fresh({ strategy: "list" });
    await onFake(async () => {
      const [trend, sources] = [await start("trend", QUARTER), await start("sources", QUARTER)];
      await untilCalls(20);
      trend.abort();
      await untilCalls(30);
      sources.abort();
      const atLast = upstreamCalls();
      expect((await Promise.all([trend.answer, sources.answer])).map((r) => r.status)).toEqual([499, 499]);
      await sleep(10 * 60_000);
      expect(upstreamCalls() - atLast).toBeLessThanOrEqual(UPSTREAM_CONCURRENCY);
    });
    nothingLeft();
  });
});
