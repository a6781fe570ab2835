// The history collector's jobs on both databases, against the sandbox over real HTTP, on fake time
// (the server, the store, the schedulers and the sandbox, whose score moves at each UTC midnight, all
// read one clock moved by hand): two instances ticking every 15 minutes for 48 hours run 48 hourly
// slots, each once, reading score and ranking once per slot and keeping one snapshot per new
// `updated_at`; the daily job keeps each period's overview and the closed days' figures once; a key
// the upstream refuses (401) pauses watching and is not used again; a resource the key may not read
// (403) is skipped; a workspace not watched (or stopped) is never collected; each watched workspace
// is its own run of each slot, so one refused or limited holds back no other; a kept key this
// instance cannot open (sealed under a secret it lacks) is skipped without pausing watching.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, REVOKED_KEY } from "@/sandbox/keys";
import { serverCollectContext } from "@/lib/history/collect";
import { DAILY_JOB, HOURLY_JOB, historyJobs } from "@/lib/history/jobs";
import { serverContextPerTest, TEST_NOW, upstreamForFile } from "@/testing/in-process";
import { serverContext } from "@/lib/server/context";
import { createMemoryInsightsStore } from "@/lib/shared-state/insights";
import type { StoreKind } from "@/lib/store/database";
import { createJobScheduler, HOUR_MS, type JobScheduler } from "@/lib/store/scheduler";
import type { Store } from "@/lib/store/store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";

const T0 = Date.parse(TEST_NOW);
let now = T0;
const clock = () => now;
const sandbox = upstreamForFile({ clock });
const stores = storesForFile();
const overrideContext = serverContextPerTest();
const quiet = { info: () => {}, warn: () => {} };

async function twoInstances(kind: StoreKind): Promise<[Store, Store]> {
  const config = await stores.config(kind);
  const a = await stores.open(config, { now: clock });
  return [a, kind === "postgres" ? await stores.open(config, { now: clock }) : a];
}

function instance(store: Store, name: string, logs: string[] = []): JobScheduler {
  const log = (line: string) => void logs.push(line);
  return createJobScheduler({
    jobs: async () => store.jobs,
    definitions: historyJobs({ store: async () => store, context: serverCollectContext, log }),
    now: clock,
    instance: name,
    log: quiet,
  });
}

/** Moves the clock in 15-minute steps up to `until`, ticking every instance at each step. */
async function runUntil(until: number, instances: JobScheduler[]): Promise<void> {
  for (; now < until; now += 15 * 60_000) {
    for (const s of instances) await s.tick();
  }
}

async function fresh(kind: StoreKind): Promise<[Store, Store]> {
  now = T0;
  const stores2 = await twoInstances(kind);
  overrideContext({ now: clock, store: async () => stores2[0] });
  sandbox().reset();
  return stores2;
}

describe.each(STORE_KINDS)("history jobs (%s)", (kind) => {
  it("48 hours on two instances: 48 hourly runs, one per slot; one snapshot per new updated_at; daily figures once", async () => {
    const [a, b] = await fresh(kind);
    const watched = (await a.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    await a.workspaces.setWatching(watched, DEMO_KEYS.pro);
    // Another workspace, signed in once but not watched: never collected.
    const unwatched = (await a.workspaces.workspaceForKey(DEMO_KEYS.empty)).id;
    const instances = [instance(a, "one"), instance(b, "two")];

    await runUntil(T0 + 48 * HOUR_MS, instances);

    // One run per slot of the watched workspace (its own slot: `scope`), none for the other.
    expect((await a.jobs.runs(HOURLY_JOB, { allScopes: true, limit: 1000 })).every((r) => r.scope === watched)).toBe(true);
    const runs = await a.jobs.runs(HOURLY_JOB, { scope: watched, limit: 1000 });
    expect(runs).toHaveLength(48);
    expect(new Set(runs.map((r) => r.slot)).size).toBe(48);
    expect(runs.every((r) => r.state === "done" && r.attempts === 1)).toBe(true);
    expect(runs.map((r) => r.slot).sort((x, y) => x - y)).toEqual(Array.from({ length: 48 }, (_, i) => T0 + i * HOUR_MS));
    // One read of each per slot, none twice, and not one 429.
    const stats = sandbox().stats();
    expect(stats.byPath["/intelligence/score"]).toBe(48);
    expect(stats.byPath["/intelligence/ranking"]).toBe(48);
    expect(stats.rateLimited).toBe(0);

    // The sandbox recomputes at 00:00 UTC: 20, 21 and 22 November, each kept once.
    const all = { from: 0, to: now };
    const scores = await a.snapshots.scoreHistory(watched, all);
    expect(scores.map((s) => new Date(s.at).toISOString())).toEqual(["2026-11-20T00:00:00.000Z", "2026-11-21T00:00:00.000Z", "2026-11-22T00:00:00.000Z"]);
    expect((await a.snapshots.rankingHistory(watched, all)).map((r) => r.entries.length)).toEqual([8, 8, 8]);
    expect(await a.snapshots.scoreHistory(unwatched, all)).toEqual([]);

    // Daily at 01:00 UTC: the slot of the 20th (caught up at start), the 21st and the 22nd.
    const daily = await a.jobs.runs(DAILY_JOB, { scope: watched, limit: 100 });
    expect(daily.map((r) => new Date(r.slot).toISOString()).sort()).toEqual([
      "2026-11-20T01:00:00.000Z",
      "2026-11-21T01:00:00.000Z",
      "2026-11-22T01:00:00.000Z",
    ]);
    const overviews = await a.snapshots.dailyFigures(watched, { kind: "overview:30d", tz: "UTC", from: "2026-11-01", to: "2026-11-30" });
    expect(overviews.map((d) => d.date)).toEqual(["2026-11-20", "2026-11-21", "2026-11-22"]);
    expect(overviews[0]!.data).toMatchObject({ visitors: { total: expect.any(Number) } });
    // Closed days: the three before the first run, then each day as it closed; each kept once.
    const sources = await a.snapshots.dailyFigures(watched, { kind: "sources", tz: "UTC", from: "2026-11-01", to: "2026-11-30" });
    expect(sources.map((d) => d.date)).toEqual(["2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21"]);
    const rows = sources[0]!.data as Array<{ source: string; visitors: number; previous?: unknown }>;
    expect(rows.map((r) => r.source)).toContain("chatgpt");
    expect(rows.every((r) => r.previous === undefined && Number.isInteger(r.visitors))).toBe(true);
    const platforms = await a.snapshots.dailyFigures(watched, { kind: "platforms", tz: "UTC", from: "2026-11-01", to: "2026-11-30" });
    expect(platforms.map((d) => d.date)).toEqual(["2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21"]);
    expect((platforms[0]!.data as { data: Array<{ platform: string; mentions: number }> }).data.map((p) => p.platform)).toEqual([
      "chatgpt",
      "claude",
      "perplexity",
      "gemini",
    ]);
    expect(await a.snapshots.dailyFigures(unwatched, { kind: "sources", tz: "UTC", from: "2026-11-01", to: "2026-11-30" })).toEqual([]);
  });

  it("each watched workspace is its own run of each slot, once across two instances: one refused or limited does not hold back another", async () => {
    const [a, b] = await fresh(kind);
    const watch = async (key: string) => {
      const id = (await a.workspaces.workspaceForKey(key)).id;
      await a.workspaces.setWatching(id, key);
      return id;
    };
    const [pro, limited, revoked] = [await watch(DEMO_KEYS.pro), await watch(DEMO_KEYS.limited), await watch(REVOKED_KEY)];
    await runUntil(T0 + 2 * HOUR_MS, [instance(a, "one"), instance(b, "two")]);

    const runs = await a.jobs.runs(HOURLY_JOB, { allScopes: true, limit: 100 });
    const of = (ws: string) => runs.filter((r) => r.scope === ws);
    expect(runs.every((r) => r.state === "done" && r.attempts === 1)).toBe(true);
    expect(of(pro).map((r) => r.slot)).toEqual([T0 + HOUR_MS, T0]);
    expect(of(pro)[1]!.outcome).toBe("hourly: 2 kept, 0 already known, 0 skipped (403), 0 failed");
    expect(of(limited).map((r) => r.outcome)).toEqual(Array.from({ length: 2 }, () => "hourly: 0 kept, 0 already known, 2 skipped (403), 0 failed"));
    // Paused at its first run: no slot of it after.
    expect(of(revoked).map((r) => [r.slot, r.outcome])).toEqual([[T0, "hourly: 0 kept, 0 already known, 0 skipped (403), 0 failed, paused (401)"]]);
    expect(runs).toHaveLength(5);
    // Each read once per run: pro's and limited's two slots, revoked's one.
    expect(sandbox().stats().byPath["/intelligence/score"]).toBe(5);
  });

  it("a key the upstream refuses (401) pauses watching, saying why, and is not used again", async () => {
    const [a] = await fresh(kind);
    const ws = (await a.workspaces.workspaceForKey(REVOKED_KEY)).id;
    await a.workspaces.setWatching(ws, REVOKED_KEY);
    const logs: string[] = [];
    const one = instance(a, "one", logs);
    await runUntil(T0 + 3 * HOUR_MS, [one]);

    const workspace = (await a.workspaces.workspace(ws))!;
    expect(workspace.watching).toBe("paused");
    expect(workspace.pausedReason).toMatch(/refused the kept key on 2026-11-20 12:00 UTC/);
    expect(workspace.pausedReason).not.toContain(REVOKED_KEY);
    expect(await a.workspaces.watchingKey(ws)).toBeUndefined();
    // The first run's score read met the 401; nothing else was asked with the key afterwards.
    expect(sandbox().stats().byPath["/intelligence/score"]).toBe(1);
    expect(sandbox().stats().byPath["/intelligence/ranking"] ?? 0).toBe(0);
    expect(logs.join("\n")).toMatch(/refused its kept key \(401\); watching paused/);
    expect(logs.join("\n")).not.toContain(REVOKED_KEY);
    const runs = await a.jobs.runs(HOURLY_JOB, { scope: ws });
    expect(runs).toEqual([expect.objectContaining({ slot: T0, state: "done", outcome: expect.stringMatching(/paused \(401\)$/) })]);
  });

  it("a resource the key may not read (403) is skipped; the rest is kept", async () => {
    const [a] = await fresh(kind);
    const ws = (await a.workspaces.workspaceForKey(DEMO_KEYS.limited)).id;
    await a.workspaces.setWatching(ws, DEMO_KEYS.limited);
    const one = instance(a, "one");
    await runUntil(T0 + 15 * 60_000, [one]);

    expect((await a.workspaces.workspace(ws))!.watching).toBe("on");
    expect(await a.snapshots.scoreHistory(ws, { from: 0, to: now })).toEqual([]);
    const hourly = await a.jobs.runs(HOURLY_JOB, { scope: ws });
    expect(hourly[0]!.outcome).toMatch(/0 kept.*2 skipped \(403\)/);
    // The overview and the insights figures are open to this key: kept.
    expect(await a.snapshots.dailyFigures(ws, { kind: "overview:7d", tz: "UTC", from: "2026-11-20", to: "2026-11-20" })).toHaveLength(1);
  });

  it("stopping watching stops collection at the next slot", async () => {
    const [a] = await fresh(kind);
    const ws = (await a.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    await a.workspaces.setWatching(ws, DEMO_KEYS.pro);
    const one = instance(a, "one");
    await runUntil(T0 + 2 * HOUR_MS, [one]);
    expect(sandbox().stats().byPath["/intelligence/score"]).toBe(2);
    await a.workspaces.stopWatching(ws);
    await runUntil(T0 + 5 * HOUR_MS, [one]);
    expect(sandbox().stats().byPath["/intelligence/score"]).toBe(2);
    expect((await a.jobs.runs(HOURLY_JOB, { allScopes: true, limit: 10 })).map((r) => r.slot)).toEqual([T0 + HOUR_MS, T0]);
  });

  it("a kept key this instance cannot open (sealed under a secret it lacks) is skipped, saying why, and watching stays on; given the secret, it is collected", async () => {
    now = T0;
    sandbox().reset();
    let secrets: { current: string; previous?: string } = { current: "history-secret-of-another-rollout-0123456789" };
    const a = await stores.open(kind, { now: clock, secrets: () => secrets });
    overrideContext({ now: clock, store: async () => a });
    const ws = (await a.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    await a.workspaces.setWatching(ws, DEMO_KEYS.pro);
    secrets = { current: "history-secret-this-instance-has-0123456789" };
    const logs: string[] = [];
    const one = instance(a, "one", logs);
    await runUntil(T0 + 2 * HOUR_MS, [one]);

    expect(await a.workspaces.workspace(ws)).toMatchObject({ watching: "on", pausedReason: null });
    expect(sandbox().stats().byPath["/intelligence/score"] ?? 0).toBe(0);
    expect(logs.join("\n")).toMatch(/cannot be opened by this instance/);
    expect(logs.join("\n")).not.toContain(DEMO_KEYS.pro);
    const skipped = await a.jobs.runs(HOURLY_JOB, { scope: ws });
    expect(skipped).toHaveLength(2);
    expect(skipped.every((r) => r.state === "done" && r.outcome === "hourly: skipped (the kept key cannot be opened by this instance)")).toBe(true);

    secrets = { current: "history-secret-this-instance-has-0123456789", previous: "history-secret-of-another-rollout-0123456789" };
    await runUntil(T0 + 3 * HOUR_MS, [one]);
    expect(sandbox().stats().byPath["/intelligence/score"]).toBe(1);
    expect(await a.snapshots.scoreHistory(ws, { from: 0, to: now })).not.toEqual([]);
  });
});

describe.each(STORE_KINDS)("watching keeps yesterday's days (%s)", (kind) => {
  it("the daily run keeps yesterday's figures of every dimension in the workspace's zone and in each zone its members read in", async () => {
    const [a] = await fresh(kind);
    // Nothing of another test's in the insights' memory: what is kept here was read here.
    overrideContext({
      insights: { strategy: "auto", gatherMs: 25, keepDays: true },
      stores: { ...serverContext().stores, insights: createMemoryInsightsStore({ now: clock }) },
    });
    const watched = (await a.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    await a.workspaces.setWatching(watched, DEMO_KEYS.pro);
    // A member read the insights in Kolkata lately (the routes note it).
    await a.keptDays.noteZone(watched, "Asia/Kolkata");
    const daily = createJobScheduler({
      jobs: async () => a.jobs,
      definitions: historyJobs({ store: async () => a, context: serverCollectContext }).filter((j) => j.name === DAILY_JOB),
      now: clock,
      instance: "one",
      log: quiet,
    });
    // The daily slot is 01:00 UTC: run the day after TEST_NOW's, so "yesterday" is 2026-11-20.
    now = Date.parse("2026-11-21T01:05:00Z");
    await daily.tick();
    const runs = await a.jobs.runs(DAILY_JOB, { scope: watched, limit: 10 });
    expect(runs.map((r) => r.state)).toEqual(["done"]);
    const yesterday = (tz: string) => {
      const start = tz === "UTC" ? Date.parse("2026-11-20T00:00:00Z") : Date.parse("2026-11-19T18:30:00Z");
      return { startMs: start, endMs: start + 86_400_000 };
    };
    for (const tz of ["UTC", "Asia/Kolkata"]) {
      const kept = await a.keptDays.read(watched, ["vd2", "cd2", "md2", "qd1"], [yesterday(tz)]);
      expect([tz, [...kept].map(([figure, days]) => [figure, days.size])]).toEqual([
        tz,
        [
          ["vd2", 1],
          ["cd2", 1],
          ["md2", 1],
          ["qd1", 1],
        ],
      ]);
    }
  });
});
