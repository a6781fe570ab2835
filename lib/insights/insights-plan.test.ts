// What a set of widgets costs against what its plan says, with the response cache on as in
// production (a listing made twice would be answered from the cache and never reach the sandbox, so
// every Data API call the insights ask of the key's client is counted too, cache hits included):
// every insights route of the table asked at once reads the window's visitors once and its
// mentions once, each page once, and nothing else; the overview's widgets first and the countries
// and questions after them cost no call at all (their days were summarised by the overview's
// listings); a comparison a year before reads two runs of days, each once. And a mention listing
// that moved while it was read is read again from the Data API itself, not from the cache (which
// would only move the same way again and answer 503 listing_changed for nothing).
// Runs on fake time (lib/fake-time's onFakeTime).
import { describe, expect, it } from "vitest";
import type { DataApi } from "@/lib/data-api/api";
import { onFakeTime } from "@/lib/fake-time";
import { DEMO_KEYS } from "@/sandbox/keys";
import { serverContext, upstreamFor, type ServerContext } from "@/lib/server/context";
import { createMemoryInsightsStore } from "@/lib/shared-state/insights";
import { callApi, insightRoutes, serverContextPerTest, sessionCookie, TEST_NOW, upstreamForFile } from "@/testing/in-process";
import { discardKey, rateBudgetForKey } from "@/lib/server/upstream";
import type { PlatformsInsight } from "./platforms";
import type { QueriesInsight } from "./queries";

const SHIFT = Date.now() - Date.parse(TEST_NOW);
const clock = () => Date.now() - SHIFT;
const RANGE = { from: "2026-10-22", to: "2026-11-20" };
const OVERVIEW = ["trend", "sources", "platforms", "competitors", "sentiment"];

const sandbox = upstreamForFile({ visitors: 20_000, clock, cacheTtlMs: 60_000 });
const overrideContext = serverContextPerTest();

/** What the insights asked of the key's client (before its response cache), as `path?query`. */
let asked: string[] = [];

function fresh(key: string, overrides: Partial<Pick<ServerContext, "fetch">> = {}): void {
  discardKey(key);
  sandbox().reset();
  overrideContext({
    ...overrides,
    now: clock,
    stores: { ...serverContext().stores, insights: createMemoryInsightsStore({ now: clock }) },
    insights: { strategy: "auto", gatherMs: 25 },
  });
  // A counting client in front of the key's own, so calls the cache would answer are seen too.
  const upstream = upstreamFor(key);
  const real = upstream.api;
  asked = [];
  upstream.api = {
    get: (path, input, options) => {
      asked.push(`${path}?${new URLSearchParams(Object.entries((input as { query?: Record<string, string> }).query ?? {}).map(([k, v]) => [k, String(v)]))}`);
      return real.get(path, input, options);
    },
  } satisfies DataApi;
}

async function load(key: string, routes: readonly string[], query: Record<string, string>): Promise<unknown[]> {
  const cookie = await sessionCookie(key);
  const results = await onFakeTime(
    () => Promise.all(routes.map((r) => callApi(`/api/insights/${r}?${new URLSearchParams(query)}`, { cookie }))),
    () => rateBudgetForKey(key).inFlight,
  );
  for (const r of results) expect(r.status, r.text.slice(0, 300)).toBe(200);
  return results.map((r) => r.body);
}

/** `meta.total` of a list over UTC dates, asked straight from the sandbox with another key of the workspace. */
async function total(path: string, from: string, to: string): Promise<number> {
  const res = await fetch(`${sandbox().baseUrl}${path}?from=${from}T00:00:00.000Z&to=${to}T23:59:59.999Z&limit=1`, {
    headers: { Authorization: `Bearer ${DEMO_KEYS.limited}` },
  });
  return ((await res.json()) as { meta: { total: number } }).meta.total;
}

const pages = (rows: number) => Math.max(1, Math.ceil(rows / 100));
const sandboxCalls = () =>
  sandbox()
    .stats()
    .log.filter((l) => l.path.startsWith("/v1/"));

describe("a widget set costs what its plan says, no more (response cache on)", () => {
  it("every insights route at once: the window's visitors listed once and its mentions once, each page once", async () => {
    fresh(DEMO_KEYS.free);
    await load(DEMO_KEYS.free, insightRoutes(), { ...RANGE, country: "US" });
    const reached = sandboxCalls();
    // The window: the 30 days and the previous 30.
    const plan = pages(await total("/visitors", "2026-09-22", "2026-11-20")) + pages(await total("/mentions", "2026-09-22", "2026-11-20"));
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked).toHaveLength(plan);
    expect(reached).toHaveLength(plan);
    expect(reached.filter((l) => l.status === 429)).toHaveLength(0);
  });

  it("the countries and questions after the overview's widgets: no call (their days were summarised by its listings)", async () => {
    fresh(DEMO_KEYS.free);
    await load(DEMO_KEYS.free, OVERVIEW, RANGE);
    const overview = asked.length;
    expect(overview).toBe(pages(await total("/visitors", "2026-09-22", "2026-11-20")) + pages(await total("/mentions", "2026-09-22", "2026-11-20")));
    sandbox().reset();
    await load(DEMO_KEYS.free, ["countries", "queries"], { ...RANGE, country: "DE" });
    expect(asked).toHaveLength(overview);
    expect(sandboxCalls()).toHaveLength(0);
  });

  it("compared with a year before: two runs of days, each listed once", async () => {
    fresh(DEMO_KEYS.pro);
    const range = { from: "2027-06-01", to: "2027-06-20", compare: "year" };
    await load(DEMO_KEYS.pro, ["trend", "sources", "countries"], range);
    const visitorPages = asked.filter((a) => a.startsWith("/visitors?"));
    expect(new Set(visitorPages).size).toBe(visitorPages.length);
    expect(visitorPages).toHaveLength(
      pages(await total("/visitors", "2026-06-01", "2026-06-20")) + pages(await total("/visitors", "2027-06-01", "2027-06-20")),
    );
    expect(new Set(visitorPages.map((a) => new URLSearchParams(a.split("?")[1]).get("from")))).toEqual(
      new Set(["2026-06-01T00:00:00.000Z", "2027-06-01T00:00:00.000Z"]),
    );
  });
});

describe("a mention listing that moved while it was read", () => {
  /** A later mention page starts one row early once (a mention arrived between pages): real requests to the real sandbox, shifted. */
  function mentionsMoveOnce(): { fetch: ServerContext["fetch"]; left: () => number } {
    const transport = serverContext().fetch;
    let left = 1;
    const fetch: typeof transport = (url, init) => {
      const u = new URL(url);
      const offset = Number(u.searchParams.get("offset"));
      if (left > 0 && u.pathname.endsWith("/mentions") && offset >= 100) {
        left--;
        u.searchParams.set("offset", String(offset - 1));
      }
      return transport(u.toString(), init);
    };
    return { fetch, left: () => left };
  }

  it("is read again from the Data API itself, not the response cache, and the answer is exact", async () => {
    fresh(DEMO_KEYS.pro);
    const clean = (await load(DEMO_KEYS.pro, ["platforms", "queries"], RANGE)) as [PlatformsInsight, QueriesInsight];
    const moved = mentionsMoveOnce();
    fresh(DEMO_KEYS.pro, { fetch: moved.fetch });
    const got = await load(DEMO_KEYS.pro, ["platforms", "queries"], RANGE);
    expect(moved.left()).toBe(0);
    expect(got).toEqual(clean);
    // The listing that met the move was read again from the sandbox, not the response cache: its
    // first page, cached by the first read, was asked for twice, and the second read asked for every
    // page. A listing is its window: whether the two routes share one (the 60 days with the previous
    // period) or read their own depends on when their requests arrive within the gathering window,
    // and how many of the first read's pages were on the wire when the move showed depends on the
    // machine's load, so the count of the re-read listing is a bound, not a number.
    const byWindow = new Map<string, number[]>();
    for (const l of sandboxCalls().filter((c) => c.path === "/v1/mentions")) {
      const q = new URLSearchParams(l.query);
      const window = `from=${q.get("from")}&to=${q.get("to")}`;
      byWindow.set(window, [...(byWindow.get(window) ?? []), Number(q.get("offset"))]);
    }
    const firstPages = (offsets: number[]) => offsets.filter((o) => o === 0).length;
    const reread = [...byWindow].filter(([, offsets]) => firstPages(offsets) === 2);
    expect(reread, JSON.stringify([...byWindow])).toHaveLength(1);
    for (const offsets of byWindow.values()) expect(firstPages(offsets)).toBeLessThanOrEqual(2);
    const [window, offsets] = reread[0]!;
    const res = await fetch(`${sandbox().baseUrl}/mentions?${window}&limit=1`, { headers: { Authorization: `Bearer ${DEMO_KEYS.limited}` } });
    const plan = pages(((await res.json()) as { meta: { total: number } }).meta.total);
    for (let page = 0; page < plan; page++) expect(offsets, `the page at offset ${page * 100}`).toContain(page * 100);
    expect(offsets.length).toBeGreaterThan(plan + 1);
    expect(offsets.length).toBeLessThanOrEqual(2 * plan);
  });
});

describe("a list that does not say how many rows it has", () => {
  it("the questions (nothing else gives them) are a 502 unexpected_response, not a listing said to have changed", async () => {
    const transport = serverContext().fetch;
    const withoutTotal: ServerContext["fetch"] = async (url, init) => {
      const res = await transport(url, init);
      if (!new URL(url).pathname.endsWith("/mentions") || res.status !== 200) return res;
      const body = (await res.json()) as { meta: Record<string, unknown> };
      delete body.meta.total;
      const headers = new Headers(res.headers);
      headers.delete("content-length");
      return new Response(JSON.stringify(body), { status: 200, headers });
    };
    fresh(DEMO_KEYS.pro, { fetch: withoutTotal });
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    const res = await onFakeTime(
      () => callApi<{ error: { code: string; message: string } }>(`/api/insights/queries?${new URLSearchParams(RANGE)}`, { cookie }),
      () => rateBudgetForKey(DEMO_KEYS.pro).inFlight,
    );
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ code: "unexpected_response", message: expect.stringMatching(/did not say how many mentions/) });
  });
});
