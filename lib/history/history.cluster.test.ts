// Several instances sharing one PostgreSQL, for real: two production instances of the built app
// (bench/cluster.ts) with DATABASE_URL pointing at a PostgreSQL server this test starts on loopback
// (lib/store/test-postgres.ts), on one sandbox. A workspace watched before they start: the current
// hour's collection slot runs once across both (one claim, one read of the score and the ranking),
// and stays run after both have ticked again; both instances answer the same /api/workspace.
// Run after the build (`npm run test:cluster`, part of `npm test`).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { startCluster, type Cluster } from "@/bench/cluster";
import { BENCH_SESSION_SECRET, signIn } from "@/bench/support";
import { HOURLY_JOB } from "@/lib/history/jobs";
import { hourlySlot } from "@/lib/store/scheduler";
import { openStore, type Store } from "@/lib/store/store";
import { startTestPostgres, type TestPostgres } from "@/lib/store/test-postgres";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

let postgres: TestPostgres;
let cluster: Cluster;
let store: Store;
const dataDir = mkdtempSync(path.join(tmpdir(), "wa-cluster-history-"));

beforeAll(async () => {
  postgres = await startTestPostgres();
  const databaseUrl = await postgres.createDatabase();
  // The deployment's store, as the instances will open it (same SESSION_SECRET: the sealed key opens there).
  store = await openStore({ dataDir, databaseUrl }, { secrets: () => ({ current: BENCH_SESSION_SECRET }) });
  const ws = await store.workspaces.workspaceForKey(DEMO_KEYS.pro);
  await store.workspaces.setWatching(ws.id, DEMO_KEYS.pro);
  cluster = await startCluster({ instances: 2, redis: false, env: { DATABASE_URL: databaseUrl } });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
  await store?.close();
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe("two instances sharing one PostgreSQL", () => {
  it("run the watched workspace's hourly collection once per slot across both", async () => {
    const slot = hourlySlot(Date.now());
    const run = await until("the hourly slot to be run", async () => (await store.jobs.runs(HOURLY_JOB)).find((r) => r.slot >= slot && r.state === "done"), 40_000);
    expect(run.outcome).toMatch(/^hourly: 1 watched workspaces collected/);
    // Both instances tick every 30 s: after another round of ticks the slot is still run once.
    await new Promise((r) => setTimeout(r, 32_000));
    const runs = (await store.jobs.runs(HOURLY_JOB)).filter((r) => r.slot === run.slot);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.attempts).toBe(1);
    const stats = await cluster.sandbox.stats();
    // Each instance's catch-up ran the slot's collection at most once between them (a slot crossing
    // an hour while the test waits would be a second slot, and a second row, not a second read).
    const slots = (await store.jobs.runs(HOURLY_JOB)).length;
    expect(stats.byPath["/intelligence/score"]).toBe(slots);
    expect(stats.byPath["/intelligence/ranking"]).toBe(slots);
    expect(stats.rateLimited).toBe(0);
  }, 90_000);

  it("both answer the same /api/workspace", async () => {
    const [a, b] = cluster.instances.map((i) => i.base) as [string, string];
    const answers = await Promise.all(
      [a, b].map(async (base) => {
        const cookie = await signIn(base, { apiKey: DEMO_KEYS.pro });
        const res = await fetch(`${base}/api/workspace`, { headers: { cookie } });
        expect(res.status).toBe(200);
        return (await res.json()) as { watching: string; history_since: string | null; linked_keys: unknown[] };
      }),
    );
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toMatchObject({ watching: "on", history_since: expect.stringMatching(/^2026-/) });
  });
});
