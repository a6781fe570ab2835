// What an insights listing does with an upstream that claims more rows than it may read, through the
// route handler over real HTTP to the sandbox: `meta.total = 1e11` on /mentions (which once made the
// listing plan a billion offsets and killed the process) is a 422 in the shared error shape after one
// call, on every route that lists mentions; on /visitors, even with listing forced, the figures are
// counted instead; a cap (INSIGHTS_MAX_LISTED_ROWS) below a real window's rows gives the same exact
// visitor answers by counting and refuses the mentions. And a mention listing that moved is read again
// from the Data API itself, not from the short response cache, which this file leaves on.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { serverContext, type InsightsPolicy } from "@/lib/server/context";
import { createMemoryInsightsStore } from "@/lib/shared-state/insights";
import { callApi, serverContextPerTest, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import { discardKey } from "@/lib/server/upstream";

const sandbox = upstreamForFile({ visitors: 20_000 });
const overrideContext = serverContextPerTest();
const KEY = DEMO_KEYS.pro;
const RANGE = "from=2026-10-22&to=2026-11-20&tz=UTC";
let cookie: string;

beforeAll(async () => {
  cookie = await sessionCookie(KEY);
});

afterEach(() => {
  sandbox().setFaults({});
  delete process.env.INSIGHTS_MAX_LISTED_ROWS;
  process.env.DATA_API_CACHE_TTL_MS = "0";
});

/** A new client for the key (the response cache as the environment says now) and empty insights figures. */
function fresh(policy: Partial<InsightsPolicy> = {}): void {
  discardKey(KEY);
  sandbox().reset();
  overrideContext({
    stores: { ...serverContext().stores, insights: createMemoryInsightsStore() },
    insights: { strategy: "auto", gatherMs: 25, ...policy },
  });
}

const ask = <T = unknown>(route: string, query = RANGE) => callApi<T>(`/api/insights/${route}?${query}`, { cookie });
const calls = (path: string) =>
  sandbox()
    .stats()
    .log.filter((l) => l.path === `/v1${path}`)
    .map((l) => new URLSearchParams(l.query));

describe("a listing over the cap", () => {
  it("mentions claiming 1e11: a 422 saying so on competitors, platforms and sentiment, after one mention call each, never a crash", async () => {
    fresh();
    sandbox().setFaults({ metaTotal: 1e11, paths: ["/mentions"] });
    for (const route of ["competitors", "platforms", "sentiment"]) {
      const res = await ask<ErrorJson>(route);
      expect(res.status, route).toBe(422);
      expect(res.body.error.code).toBe("listing_too_large");
      expect(res.body.error.message).toMatch(
        /^The Data API has 100,000,000,000 mentions in \d+ \w{3,4} – 20 Nov 2026, more than the 100,000 the insights read for one answer\. Choose a shorter range\.$/,
      );
    }
    // No listing went past its first page.
    expect(calls("/mentions").every((q) => q.get("offset") === "0")).toBe(true);
    // The visitor routes do not list mentions: still answered.
    expect((await ask("trend")).status).toBe(200);
  });

  it("visitors claiming 1e11 with listing forced: the figures are counted, no page past the first is asked for", async () => {
    fresh({ strategy: "list" });
    sandbox().setFaults({ metaTotal: 1e11, paths: ["/visitors"] });
    const res = await ask<{ data: Array<{ visitors: number }> }>("trend", "from=2026-11-14&to=2026-11-20&tz=UTC");
    expect(res.status).toBe(200);
    // Every count is the upstream's claim.
    expect(res.body.data.map((p) => p.visitors)).toEqual(Array(7).fill(1e11));
    const visitorCalls = calls("/visitors");
    expect(visitorCalls.filter((q) => q.get("limit") === "1").length).toBeGreaterThan(0);
    // (A first page may show twice: a retried request on a busy machine.)
    expect(new Set(visitorCalls.filter((q) => q.get("limit") === "100").map((q) => q.get("offset")))).toEqual(new Set(["0"]));
  });

  it("a cap below the window's rows: the visitor answers are the same (counted, exact), the mention answers a 422", async () => {
    const week = "from=2026-11-14&to=2026-11-20&tz=UTC";
    fresh();
    const reference = await Promise.all(["trend", "sources"].map((r) => ask(r, week)));
    expect(reference.map((r) => r.status)).toEqual([200, 200]);
    expect(calls("/visitors").filter((q) => q.get("limit") === "100").length).toBeGreaterThan(1);

    process.env.INSIGHTS_MAX_LISTED_ROWS = "300";
    fresh({ strategy: "list" });
    const capped = await Promise.all(["trend", "sources"].map((r) => ask(r, week)));
    expect(capped.map((r) => r.body)).toEqual(reference.map((r) => r.body));
    const pages = calls("/visitors").filter((q) => q.get("limit") === "100");
    expect(new Set(pages.map((q) => q.get("offset")))).toEqual(new Set(["0"]));
    const competitors = await ask<ErrorJson>("competitors");
    expect(competitors.status).toBe(422);
    expect(competitors.body.error.message).toMatch(/more than the 300 the insights read/);
  });
});

describe("a mention listing that moved, with the response cache on", () => {
  it("is read again from the Data API (not the cache, which would move the same way) and answers exactly", async () => {
    fresh();
    const reference = await ask("competitors");
    expect(reference.status).toBe(200);

    process.env.DATA_API_CACHE_TTL_MS = "60000";
    fresh();
    // The first read's second page starts one mention early (one seen twice, one never), as if a
    // mention had been inserted ahead of it; every later request is answered as asked.
    const transport = serverContext().fetch;
    let shifted = false;
    overrideContext({
      fetch: (url, init) => {
        const u = new URL(url);
        if (!shifted && u.pathname.endsWith("/mentions") && u.searchParams.get("offset") === "100") {
          shifted = true;
          u.searchParams.set("offset", "99");
        }
        return transport(u.toString(), init);
      },
    });
    const res = await ask("competitors");
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    expect(res.body).toEqual(reference.body);
    expect(shifted).toBe(true);
    // Both reads reached the Data API: each page twice.
    const offsets = calls("/mentions").map((q) => q.get("offset"));
    expect(offsets.filter((o) => o === "0")).toHaveLength(2);
    expect(offsets.length).toBeGreaterThan(2);
  });
});
