// The history half over real HTTP on both databases: a read of the score or the ranking through the
// BFF records a snapshot for the session's workspace (once per upstream `updated_at`, again on a new
// sandbox day), /api/history/score|ranking|overview answer the session's workspace only by the
// insights' range rules (400 naming the parameter), gaps stay gaps, and 90 sandbox days read a day
// at a time on fake time give 90 snapshots in which our rank changes.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { setRuntimeFlags } from "@/lib/server/runtime-flags";
import { callApi, onServerFakeTime, serverContextPerTest, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import type { Store } from "@/lib/store/store";
import { onHistory } from "./events";
import { forgetRecorded, recordingsSettled } from "./on-read";

const DAY = 86_400_000;
const sandbox = upstreamForFile({ visitors: 300 });
const stores = storesForFile();
const overrideContext = serverContextPerTest();

type ScoreHistory = {
  from: string;
  to: string;
  tz: string;
  since: string | null;
  data: Array<{ at: string; score: number | null; breakdown: Record<string, number | null> }>;
};
type RankingHistory = {
  since: string | null;
  data: Array<{ at: string; entries: Array<{ rank: number | null; name: string; score: number | null; is_workspace: boolean | null }> }>;
};

let pro: string;
let free: string;
beforeAll(async () => {
  pro = await sessionCookie(DEMO_KEYS.pro);
  free = await sessionCookie(DEMO_KEYS.free);
});
beforeEach(() => {
  // Demo history has its own test (demo-history.test.ts): here every snapshot comes from a read.
  setRuntimeFlags({ embeddedSandboxOrigin: null });
  forgetRecorded();
  sandbox().reset();
});
afterEach(async () => {
  await recordingsSettled();
  await fetch(`${sandbox().url}/sandbox/clock`, { method: "POST", body: JSON.stringify({ reset: true }) });
});

const moveSandbox = (body: object) => fetch(`${sandbox().url}/sandbox/clock`, { method: "POST", body: JSON.stringify(body) });

/** A store of `kind` as the server's, with its score writes counted. */
async function useStore(kind: (typeof STORE_KINDS)[number]): Promise<{ store: Store; writes: () => number }> {
  const store = await stores.open(kind);
  let writes = 0;
  const counted: Store = {
    ...store,
    snapshots: {
      ...store.snapshots,
      recordScore: (...args) => {
        writes++;
        return store.snapshots.recordScore(...args);
      },
    },
  };
  overrideContext({ store: async () => counted });
  return { store, writes: () => writes };
}

/** Reads through the BFF as a page does, then waits for the recording it started. */
async function view(cookie: string, path: "/api/intelligence/score" | "/api/intelligence/ranking") {
  const res = await callApi(path, { cookie });
  expect(res.status).toBe(200);
  await recordingsSettled();
  return res.body;
}

describe.each(STORE_KINDS)("history (%s)", (kind) => {
  it("records a page view's score once per updated_at, and again on a new sandbox day", async () => {
    const { writes } = await useStore(kind);
    const first = await view(pro, "/api/intelligence/score");
    await view(pro, "/api/intelligence/score");
    expect(writes()).toBe(1);
    let history = await callApi<ScoreHistory>("/api/history/score?from=2026-11-01&to=2026-11-30", { cookie: pro });
    expect(history.status).toBe(200);
    expect(history.body.data.map((s) => [s.at, s.score])).toEqual([[first.updated_at, first.score]]);
    expect(history.body.since).toBe(first.updated_at);

    await moveSandbox({ advance_ms: DAY });
    const next = await view(pro, "/api/intelligence/score");
    await view(pro, "/api/intelligence/score");
    expect(writes()).toBe(2);
    history = await callApi<ScoreHistory>("/api/history/score?from=2026-11-01&to=2026-11-30", { cookie: pro });
    expect(history.body.data.map((s) => s.at)).toEqual([first.updated_at, next.updated_at]);
    expect(history.body.since).toBe(first.updated_at);
  });

  it("tells history's listeners of each snapshot a read kept, once, and of none a repeated read kept", async () => {
    const { store } = await useStore(kind);
    const told: string[] = [];
    const unsubscribe = onHistory("snapshotKept", "test", async (_store, workspace) => void told.push(workspace));
    try {
      await view(pro, "/api/intelligence/score");
      await view(pro, "/api/intelligence/score");
      await view(pro, "/api/intelligence/ranking");
    } finally {
      unsubscribe();
    }
    const workspace = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    expect(told).toEqual([workspace, workspace]);
  });

  it("records nothing while the app is being built, and logs a failed write without the key", async () => {
    let opened = 0;
    overrideContext({
      store: () => {
        opened++;
        return Promise.reject(new Error("disk full"));
      },
    });
    process.env.NEXT_PHASE = "phase-production-build";
    try {
      await view(pro, "/api/intelligence/score");
    } finally {
      delete process.env.NEXT_PHASE;
    }
    expect(opened).toBe(0);

    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await view(pro, "/api/intelligence/score");
    const lines = warn.mock.calls.map((c) => c.join(" "));
    warn.mockRestore();
    expect(opened).toBe(1);
    expect(lines).toContainEqual("[history] could not record the score: disk full");
    expect(lines.join("\n")).not.toContain(DEMO_KEYS.pro);
    // Not remembered as recorded: the next read of the same day tries again.
    const { writes } = await useStore(kind);
    await view(pro, "/api/intelligence/score");
    expect(writes()).toBe(1);
  });

  it("answers the session's workspace only: another key sees none of it", async () => {
    await useStore(kind);
    await view(pro, "/api/intelligence/score");
    await view(pro, "/api/intelligence/ranking");
    await moveSandbox({ advance_ms: DAY });
    const mine = await callApi<RankingHistory>("/api/history/ranking?from=2026-11-20&to=2026-11-21", { cookie: pro });
    // Asking for the history reads the current ranking first: today's is in the answer.
    expect(mine.body.data.map((r) => r.at)).toEqual(["2026-11-20T00:00:00.000Z", "2026-11-21T00:00:00.000Z"]);
    expect(mine.body.data[0]!.entries.filter((e) => e.is_workspace)).toHaveLength(1);
    const theirs = await callApi<ScoreHistory>("/api/history/score?from=2026-11-20&to=2026-11-21", { cookie: free });
    expect(theirs.body).toMatchObject({ since: "2026-11-21T00:00:00.000Z" });
    expect(theirs.body.data.map((s) => s.at)).toEqual(["2026-11-21T00:00:00.000Z"]);
  });

  it("leaves days without a snapshot out (gaps), oldest first, within the range in tz", async () => {
    const { store } = await useStore(kind);
    const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    const snap = (iso: string, score: number) =>
      store.snapshots.recordScore(ws, {
        at: Date.parse(iso),
        score,
        direction: null,
        change: null,
        breakdown: { visibility: 1, sentiment: 2, authority: 3, coverage: 4 },
      });
    await snap("2026-11-03T00:00:00Z", 50);
    await snap("2026-11-01T00:00:00Z", 48);
    await snap("2026-11-06T00:00:00Z", 55);
    await snap("2026-10-31T23:30:00Z", 47); // 1 November in Berlin
    // The sandbox's day is recorded too when the history is asked for (20 November): outside these ranges.
    const utc = await callApi<ScoreHistory>("/api/history/score?from=2026-11-01&to=2026-11-05", { cookie: pro });
    expect(utc.body).toMatchObject({ from: "2026-11-01", to: "2026-11-05", tz: "UTC", since: "2026-10-31T23:30:00.000Z" });
    expect(utc.body.data.map((s) => [s.at.slice(0, 10), s.score])).toEqual([
      ["2026-11-01", 48],
      ["2026-11-03", 50],
    ]);
    const berlin = await callApi<ScoreHistory>("/api/history/score?from=2026-11-01&to=2026-11-01&tz=Europe/Berlin", { cookie: pro });
    expect(berlin.body.data.map((s) => s.score)).toEqual([47, 48]);
  });

  it.each([
    ["from=2026-11-x", "from"],
    ["to=2026-13-01", "to"],
    ["tz=Mars/Base", "tz"],
    ["from=2026-11-10&to=2026-11-01", "from"],
    ["from=2025-01-01&to=2026-11-01", "from"],
    ["from=2099-01-01", "from"],
  ])("refuses %s with a 400 naming %s, on every history route", async (query, param) => {
    await useStore(kind);
    for (const route of ["score", "ranking", "overview"]) {
      const res = await callApi<ErrorJson>(`/api/history/${route}?${query}`, { cookie: pro });
      expect([res.status, res.body.error.code, res.body.error.param], `${route}?${query}`).toEqual([400, "invalid_parameter", param]);
    }
  });

  it("needs a session, and says plainly when the store is not there", async () => {
    await useStore(kind);
    expect((await callApi<ErrorJson>("/api/history/score")).status).toBe(401);
    const { StoreUnavailableError } = await import("@/lib/store/errors");
    overrideContext({ store: () => Promise.reject(new StoreUnavailableError("the embedded store is in use by process 1")) });
    const res = await callApi<ErrorJson>("/api/history/ranking", { cookie: pro });
    expect([res.status, res.body.error.code]).toEqual([503, "store_unavailable"]);
    // Reading the score itself still works without a store: recording is in the background.
    expect((await callApi("/api/intelligence/score", { cookie: pro })).status).toBe(200);
  });

  it("answers the kept daily overview figures by day, each period under its name", async () => {
    const { store } = await useStore(kind);
    const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    await store.snapshots.putDailyFigures(ws, { kind: "overview:7d", date: "2026-11-02", tz: "UTC", data: { total_visitors: 7 } });
    await store.snapshots.putDailyFigures(ws, { kind: "overview:30d", date: "2026-11-02", tz: "UTC", data: { total_visitors: 30 } });
    await store.snapshots.putDailyFigures(ws, { kind: "overview:30d", date: "2026-11-04", tz: "UTC", data: { total_visitors: 31 } });
    await store.snapshots.putDailyFigures(ws, { kind: "overview:30d", date: "2026-11-04", tz: "Europe/Berlin", data: { total_visitors: 99 } });
    const res = await callApi<{ data: Array<{ date: string; periods: Record<string, unknown> }> }>("/api/history/overview?from=2026-11-01&to=2026-11-05", {
      cookie: pro,
    });
    expect(res.body.data.map((d) => [d.date, d.periods])).toEqual([
      ["2026-11-02", { "7d": { total_visitors: 7 }, "30d": { total_visitors: 30 } }],
      ["2026-11-04", { "30d": { total_visitors: 31 } }],
    ]);
  });
});

describe("90 sandbox days read a day at a time (fake time, embedded store)", () => {
  it("gives 90 score and ranking snapshots, one per day, in which our rank changes", async () => {
    await useStore("embedded");
    await moveSandbox({ advance_ms: -90 * DAY });
    await onServerFakeTime(async () => {
      for (let d = 0; d < 90; d++) {
        await moveSandbox({ advance_ms: DAY });
        await view(pro, "/api/intelligence/score");
        await view(pro, "/api/intelligence/ranking");
      }
    });
    const score = await callApi<ScoreHistory>("/api/history/score?from=2026-08-01&to=2026-11-30", { cookie: pro });
    const ranking = await callApi<RankingHistory>("/api/history/ranking?from=2026-08-01&to=2026-11-30", { cookie: pro });
    expect(score.body.data).toHaveLength(90);
    expect(ranking.body.data).toHaveLength(90);
    const days = score.body.data.map((s) => Date.parse(s.at));
    expect(days.slice(1).every((at, i) => at - days[i]! === DAY)).toBe(true);
    expect(score.body.data.at(-1)!.at).toBe("2026-11-20T00:00:00.000Z");
    const ourRanks = ranking.body.data.map((r) => r.entries.find((e) => e.is_workspace)!.rank);
    expect(new Set(ourRanks).size).toBeGreaterThan(1);
  });
});
