// The days the store keeps, against the sandbox over HTTP, on the embedded database and on
// PostgreSQL: every insights route (read from the route table) answers exactly the same from kept
// days as from the upstream, in several zones and comparisons; after a restart (a fresh insights
// store and fresh clients, the same database) a range of closed days costs no call, nor today's
// figures so far while they are fresh (INSIGHTS_OPEN_TTL_MS), and then a range ending today reads
// today only; and the check schedule on the server's clock: a young day is
// trusted for DAY_RECHECK_MINUTES, then confirmed with counts only (one per check of each list for a
// run of days), a day a week old is final, and a kept day that no longer matches the upstream is
// found by its counts and listed again, alone, so the answer is the upstream's again. A store that
// cannot be reached leaves every answer to the Data API, the same; a day that ends while it is read
// is not kept as closed (it is read again once over).
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { serverContext } from "@/lib/server/context";
import { createMemoryInsightsStore } from "@/lib/shared-state/insights";
import { discardKey } from "@/lib/server/upstream";
import { StoreUnavailableError } from "@/lib/store/errors";
import type { Store } from "@/lib/store/store";
import { STORE_KINDS } from "@/testing/stores";
import { callApi, insightRoutes, serverContextPerTest, serverStoresForFile, sessionCookie, TEST_NOW, upstreamForFile } from "@/testing/in-process";
import type { TrendInsight } from "./trend";

const KEY = DEMO_KEYS.pro;
const MINUTE = 60_000;
/** INSIGHTS_OPEN_TTL_MS's default: how long today's figures so far are answered without a read. */
const OPEN_TTL_MS = 30_000;
const DAY = 86_400_000;
// The server's clock: the sandbox's "now" plus whatever a test moves it by, running as real time runs
// (the key's budget and the scheduler need time that passes).
const SHIFT = Date.now() - Date.parse(TEST_NOW);
let moved = 0;
const clock = () => Date.now() - SHIFT + moved;

const sandbox = upstreamForFile({ visitors: 2000 });
const overrideContext = serverContextPerTest();
const serverStore = serverStoresForFile();
let cookie: string;
let seen = 0;

beforeAll(async () => {
  cookie = await sessionCookie(KEY);
});

/** Each route's own parameters beside the range (a country's cities, one platform's questions). */
const EXTRA: Record<string, Record<string, string>> = { countries: { country: "US" }, queries: { platform: "chatgpt" } };

/**
 * A fresh process as the server sees it: no insights figures in memory, fresh clients, the clock
 * where the test moved it; the kept days on or off, the database the test's.
 */
function restart(keepDays: boolean, strategy: "auto" | "count" = "auto"): void {
  discardKey(KEY);
  // The sandbox's rate-limit windows and log start over too (the key's budget is the new process's).
  sandbox().reset();
  seen = 0;
  overrideContext({
    now: clock,
    stores: { ...serverContext().stores, insights: createMemoryInsightsStore({ now: clock }) },
    insights: { strategy, gatherMs: 25, keepDays },
  });
}

/** The sandbox's Data API calls since the last `calls()` (or restart). */
function calls(): Array<{ path: string; query: URLSearchParams }> {
  const log = sandbox().stats().log;
  const fresh = log.slice(Math.min(seen, log.length)).filter((l) => l.path.startsWith("/v1/"));
  seen = log.length;
  return fresh.map((l) => ({ path: l.path, query: new URLSearchParams(l.query) }));
}

/** Every insights route's answer to `query`, one after another. */
async function answers(query: Record<string, string>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const route of insightRoutes()) {
    const res = await callApi(`/api/insights/${route}?${new URLSearchParams({ ...query, ...EXTRA[route] })}`, { cookie });
    expect(res.status, `${route}: ${res.text.slice(0, 300)}`).toBe(200);
    out[route] = res.body;
  }
  return out;
}

const QUERIES: Array<Record<string, string>> = [
  { from: "2026-10-22", to: "2026-11-19" },
  { from: "2026-10-22", to: "2026-11-20" },
  { from: "2026-11-02", to: "2026-11-19", tz: "America/New_York", compare: "year" },
  { from: "2026-11-10", to: "2026-11-20", tz: "Asia/Kolkata", bucket: "day" },
];

describe.each(STORE_KINDS)("the days the store keeps (%s)", (kind) => {
  it("every route answers the same from kept days as from the upstream; after a restart closed days cost no call, today's figures none while they are fresh, and then today is read alone", async () => {
    const store = await serverStore(kind, { now: clock });
    moved = 0;
    for (const query of QUERIES) {
      restart(false);
      const upstream = await answers(query);
      restart(true);
      const cold = await answers(query);
      expect(cold).toEqual(upstream);
      calls();
      restart(true);
      const warm = await answers(query);
      expect(warm).toEqual(upstream);
      // Within the open-day cache time (INSIGHTS_OPEN_TTL_MS) today's figures so far are kept too.
      expect(calls()).toEqual([]);
      // Past it, today is read again, and only today: every call's window starts at today's start
      // in the zone, or later.
      moved += OPEN_TTL_MS + 1_000;
      restart(true);
      expect(await answers(query)).toEqual(upstream);
      const tz = query.tz ?? "UTC";
      const todayStart = todayStartIn(tz);
      const todays = calls();
      if (query.to === undefined || query.to >= new Date(clock()).toISOString().slice(0, 10)) expect(todays.length).toBeGreaterThan(0);
      for (const c of todays) expect(Date.parse(c.query.get("from")!) >= todayStart, `${c.path}?${c.query}`).toBe(true);
    }
    const kept = await store.keptDays.size((await store.workspaces.workspaceForKey(KEY)).id);
    expect(kept.days).toBeGreaterThan(100);
  });

  it("the check schedule: trusted for DAY_RECHECK_MINUTES, then counts only; a week old is final; a day that moved is found and listed again alone", async () => {
    const store = await serverStore(kind, { now: clock });
    const workspace = (await store.workspaces.workspaceForKey(KEY)).id;
    moved = 0;
    const range = { from: "2026-11-05", to: "2026-11-19" };
    const read = async () => {
      for (const route of ["trend", "countries", "queries"]) {
        const res = await callApi(`/api/insights/${route}?${new URLSearchParams(range)}`, { cookie });
        expect(res.status, res.text.slice(0, 300)).toBe(200);
      }
    };
    restart(true);
    await read();
    calls();

    // Within the hour (DAY_RECHECK_MINUTES is 60 by default): nothing is asked.
    moved = 59 * MINUTE;
    restart(true);
    await read();
    expect(calls()).toEqual([]);

    // Past it: the young days (2026-11-13 to 2026-11-19, ending less than a week before now) are
    // checked as one run with one count per check: visitors, converted visitors, mentions.
    moved = 61 * MINUTE;
    restart(true);
    await read();
    const checks = calls();
    expect(checks.map((c) => [c.path, c.query.get("limit"), c.query.get("from"), c.query.get("to"), c.query.get("converted")]).sort()).toEqual(
      [
        ["/v1/mentions", "1", "2026-11-13T00:00:00.000Z", "2026-11-19T23:59:59.999Z", null],
        ["/v1/visitors", "1", "2026-11-13T00:00:00.000Z", "2026-11-19T23:59:59.999Z", "true"],
        ["/v1/visitors", "1", "2026-11-13T00:00:00.000Z", "2026-11-19T23:59:59.999Z", null],
      ].sort(),
    );
    // Confirmed for every dimension of each list: nothing more until the next hour.
    moved = 62 * MINUTE;
    restart(true);
    await read();
    expect(calls()).toEqual([]);

    // A week and more later every day of the range is final: never asked again.
    moved = 8 * DAY;
    restart(true);
    await read();
    expect(calls()).toEqual([]);

    // A kept day that no longer matches the upstream (kept stale: one conversion fewer on 2026-11-18).
    moved = 0;
    restart(false);
    const truth = await trend(range);
    const day = { startMs: Date.parse("2026-11-18T00:00:00Z"), endMs: Date.parse("2026-11-19T00:00:00Z") };
    await stale(store, workspace, day);
    moved = 3 * 60 * MINUTE;
    restart(true);
    calls();
    const staleRead = await trend(range);
    expect(staleRead).toEqual(truth);
    const asked = calls();
    // Counts only, then one listing of that day alone (its one page).
    const listed = asked.filter((c) => c.query.get("limit") === "100");
    expect(listed.map((c) => [c.path, c.query.get("from"), c.query.get("to")])).toEqual([
      ["/v1/visitors", "2026-11-18T00:00:00.000Z", "2026-11-18T23:59:59.999Z"],
    ]);
    expect(asked.filter((c) => c.query.get("limit") === "1").every((c) => c.path === "/v1/visitors")).toBe(true);
    // Kept anew: the next restart answers it from the store without a call.
    moved += MINUTE;
    restart(true);
    expect(await trend(range)).toEqual(truth);
    expect(calls()).toEqual([]);
  });
});

describe.each(STORE_KINDS)("a day that ends while it is read (%s)", (kind) => {
  it("is not kept as closed (it was not read whole, only as today so far); the day before it, ended when the listing began, is", async () => {
    const store = await serverStore(kind, { now: clock });
    const workspace = (await store.workspaces.workspaceForKey(KEY)).id;
    const setClock = (iso: string) => {
      moved = Date.parse(iso) - (Date.now() - SHIFT);
    };
    // Two seconds before midnight (UTC) on the server's clock: 2026-11-19 is today.
    setClock("2026-11-19T23:59:58Z");
    restart(true);
    // Midnight passes as soon as the listing's first page has been asked for.
    const transport = serverContext().fetch;
    overrideContext({
      fetch: async (url, init) => {
        const res = await transport(url, init);
        if (new URL(url).pathname.endsWith("/visitors")) setClock("2026-11-20T00:00:05Z");
        return res;
      },
    });
    // The countries of the 19th against the 18th: one listing of both days.
    const res = await callApi("/api/insights/countries?from=2026-11-19&to=2026-11-19", { cookie });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const day = (date: string) => ({ startMs: Date.parse(`${date}T00:00:00Z`), endMs: Date.parse(`${date}T00:00:00Z`) + DAY });
    const kept = await store.keptDays.read(workspace, ["cd2", "vd2"], [day("2026-11-18"), day("2026-11-19")]);
    for (const figure of ["cd2", "vd2"]) {
      const rows = kept.get(figure)!;
      // The 18th read whole (after its end); the 19th, if kept, as read before its end: today so far.
      expect(rows.get(`${day("2026-11-18").startMs}-${day("2026-11-18").endMs}`)!.keptAt).toBeGreaterThanOrEqual(day("2026-11-18").endMs);
      const partial = rows.get(`${day("2026-11-19").startMs}-${day("2026-11-19").endMs}`);
      if (partial) expect(partial.keptAt).toBeLessThan(day("2026-11-19").endMs);
    }
    // So the next read, now that the 19th is over, lists the 19th again (and the 18th not).
    restart(true);
    calls();
    const again = await callApi("/api/insights/countries?from=2026-11-19&to=2026-11-19", { cookie });
    expect(again.status, again.text.slice(0, 300)).toBe(200);
    const listed = calls().filter((c) => c.path === "/v1/visitors" && c.query.get("limit") !== "1");
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((c) => c.query.get("from")!.startsWith("2026-11-19"))).toBe(true);
  });
});

describe("a store that cannot be reached", () => {
  it("every route answers from the Data API, the same as without kept days, and the log says so once without the key", async () => {
    moved = 0;
    restart(false);
    const upstream = await answers(QUERIES[1]!);
    restart(true);
    overrideContext({ store: () => Promise.reject(new StoreUnavailableError("the store could not be opened: the disk is full")) });
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (line: unknown) => void warned.push(String(line));
    try {
      expect(await answers(QUERIES[1]!)).toEqual(upstream);
    } finally {
      console.warn = warn;
    }
    expect(warned.filter((l) => l.includes("the kept days could not be reached"))).toHaveLength(1);
    expect(warned.join("\n")).not.toContain(KEY);
  });
});

describe.each(STORE_KINDS)("kept counts, where the planner counts (%s)", (kind) => {
  it("counts of closed spans and days are kept; after a restart none is asked again; once due, a run of days is checked with one count per figure and a span counted again", async () => {
    await serverStore(kind, { now: clock });
    moved = 0;
    const range = { from: "2026-11-05", to: "2026-11-19" };
    const read = async () => {
      const out = [];
      for (const route of ["trend", "sources"]) {
        const res = await callApi(`/api/insights/${route}?${new URLSearchParams({ ...range, bucket: "day" })}`, { cookie });
        expect(res.status, res.text.slice(0, 300)).toBe(200);
        out.push(res.body);
      }
      return out;
    };
    restart(false, "count");
    const upstream = await read();
    restart(true, "count");
    expect(await read()).toEqual(upstream);
    expect(calls().length).toBeGreaterThan(100);
    restart(true, "count");
    expect(await read()).toEqual(upstream);
    expect(calls()).toEqual([]);

    moved = 61 * MINUTE;
    restart(true, "count");
    expect(await read()).toEqual(upstream);
    const asked = calls();
    expect(asked.every((c) => c.path === "/v1/visitors" && c.query.get("limit") === "1")).toBe(true);
    // The trend's six figures of the young days (2026-11-13 to 19), one count each over the run; the
    // sources' 18 figures of the range (which holds young days) counted again; the previous period's are final.
    const over = (c: { query: URLSearchParams }) => `${c.query.get("from")}..${c.query.get("to")}`;
    expect(asked.filter((c) => over(c) === "2026-11-13T00:00:00.000Z..2026-11-19T23:59:59.999Z")).toHaveLength(6);
    expect(asked.filter((c) => over(c) === "2026-11-05T00:00:00.000Z..2026-11-19T23:59:59.999Z")).toHaveLength(18);
    expect(asked).toHaveLength(24);
  });
});

async function trend(range: { from: string; to: string }): Promise<TrendInsight> {
  const res = await callApi<TrendInsight>(`/api/insights/trend?${new URLSearchParams({ ...range, bucket: "day" })}`, { cookie });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res.body;
}

/** Makes the kept visitor summary of `day` stale: one conversion (of its first source that has one) fewer, and its check count with it. */
async function stale(store: Store, workspace: Parameters<Store["keptDays"]["read"]>[0], day: { startMs: number; endMs: number }): Promise<void> {
  const row = (await store.keptDays.read(workspace, ["vd2"], [day])).get("vd2")!.get(`${day.startMs}-${day.endMs}`)!;
  const entry = structuredClone(row.data) as { summary: { conversions: number; conversionsBySource: number[] } };
  const s = entry.summary.conversionsBySource.findIndex((n) => n > 0);
  expect(s).toBeGreaterThanOrEqual(0);
  entry.summary.conversions--;
  entry.summary.conversionsBySource[s]!--;
  await store.keptDays.keep(workspace, [{ figure: "vd2", ...day, data: entry, checks: { ...row.checks, converted: row.checks.converted! - 1 } }]);
}

/** The first instant of TEST_NOW's date in `tz`. */
function todayStartIn(tz: string): number {
  const f = new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" });
  const date = f.format(new Date(TEST_NOW));
  for (let t = Date.parse(`${date}T00:00:00Z`) - 15 * 3_600_000; ; t += 900_000) if (f.format(new Date(t)) === date) return t;
}
