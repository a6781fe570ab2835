// The store's cost: what the embedded database adds to a process (the modules, opening it cold, with
// its directory made and migrated, and warm, already there: time and RSS, each in a fresh Node
// process), what it adds to `npm start` (the production entry started with a new DATA_DIR, again on
// the same one, and with the store held by another process so it is not opened: time until
// /api/health answers, and the entry's RSS), and the latency of a snapshot write and of a 365-day
// history read on SQLite and on PostgreSQL (a throwaway server on loopback, testing/postgres.ts).
// Goals: < 150 MB and < 2 s warm start for the embedded store; p50 < 20 ms for writes and reads.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchBuild, benchChildMain, runBenchChild, startProductionServer } from "./support";

export const name = "store: what the embedded database adds to a process and to `npm start`; snapshot write and 365-day read latency on SQLite and PostgreSQL";

const GOAL_RSS_MB = 150;
const GOAL_WARM_START_MS = 2000;
const GOAL_P50_MS = 20;
const SECRET = "bench-only-store-secret-0123456789abcdefgh";

type OpenResult = { ms: number; rssMb: number; packagesMs: number; packagesRssMb: number; modulesMs: number };
type LatencyResult = { kind: string; write: number[]; rankingWrite: number[]; read: number[]; rankingRead: number[] };

const SCENARIOS = [{ id: "open" }, { id: "latency-embedded" }, { id: "latency-postgres" }] as const;
type Scenario = (typeof SCENARIOS)[number];

const mb = (bytes: number) => bytes / 1024 / 1024;

/**
 * In a fresh process: load the store's packages (what `npm start` loads too), then its own modules
 * (here compiled by tsx on the fly; in the app they are in Next's server bundle), then open (and
 * migrate) the store in STORE_BENCH_DIR and make one workspace.
 */
async function openInFreshProcess(): Promise<OpenResult> {
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  await Promise.all([import("better-sqlite3"), import("kysely"), import("pg")]);
  const t1 = performance.now();
  const rss1 = process.memoryUsage().rss;
  const { openStore } = await import("../lib/store/store");
  const t2 = performance.now();
  const store = await openStore({ dataDir: process.env.STORE_BENCH_DIR! }, { secrets: () => ({ current: SECRET }) });
  await store.workspaces.workspaceForKey("svc_sk_test_bench_store_0123456789");
  const t3 = performance.now();
  const rss3 = process.memoryUsage().rss;
  await store.close();
  return { ms: t3 - t2, rssMb: mb(rss3 - rss0), packagesMs: t1 - t0, packagesRssMb: mb(rss1 - rss0), modulesMs: t2 - t1 };
}

async function latency(kind: "embedded" | "postgres"): Promise<LatencyResult> {
  const { openStore } = await import("../lib/store/store");
  const { startTestPostgres } = await import("../testing/postgres");
  const dir = mkdtempSync(path.join(tmpdir(), "wa-bench-store-"));
  const server = kind === "postgres" ? await startTestPostgres() : undefined;
  try {
    const databaseUrl = server ? await server.createDatabase() : undefined;
    let now = Date.UTC(2026, 0, 1);
    const store = await openStore({ dataDir: dir, ...(databaseUrl ? { databaseUrl } : {}) }, { secrets: () => ({ current: SECRET }), now: () => now });
    try {
      const busy = (await store.workspaces.workspaceForKey("svc_sk_test_bench_busy_0123456789")).id;
      const year = (await store.workspaces.workspaceForKey("svc_sk_test_bench_year_0123456789")).id;
      const entries = Array.from({ length: 12 }, (_, i) => ({
        rank: i + 1,
        name: `Competitor ${i + 1}`,
        score: 90 - i * 3,
        change: (i % 5) - 2,
        is_workspace: i === 4,
      }));
      const timed = async (fn: () => Promise<unknown>) => {
        const t = performance.now();
        await fn();
        return performance.now() - t;
      };
      const write: number[] = [];
      const rankingWrite: number[] = [];
      // Hourly snapshots of a busy workspace: the writes measured (after a warm-up of 100).
      for (let i = 0; i < 1100; i++) {
        now += 3_600_000;
        const at = now;
        const w = await timed(() =>
          store.snapshots.recordScore(busy, {
            at,
            score: 70 + (i % 9),
            direction: "up",
            change: 1,
            breakdown: { visibility: 70, sentiment: 71, authority: 72, coverage: 73 },
          }),
        );
        const r = await timed(() => store.snapshots.recordRanking(busy, { at, entries }));
        if (i >= 100) {
          write.push(w);
          rankingWrite.push(r);
        }
      }
      // A year of daily snapshots of another workspace, read back whole.
      const from = Date.UTC(2025, 0, 1, 6);
      for (let d = 0; d < 365; d++) {
        const at = from + d * 86_400_000;
        await store.snapshots.recordScore(year, {
          at,
          score: 60 + (d % 30),
          direction: "up",
          change: 1,
          breakdown: { visibility: 60, sentiment: 61, authority: 62, coverage: 63 },
        });
        await store.snapshots.recordRanking(year, { at, entries });
      }
      const range = { from, to: from + 364 * 86_400_000 };
      const read: number[] = [];
      const rankingRead: number[] = [];
      for (let i = 0; i < 220; i++) {
        let n = 0;
        const r = await timed(async () => (n = (await store.snapshots.scoreHistory(year, range)).length));
        if (n !== 365) throw new Error(`read ${n} snapshots, not 365`);
        const k = await timed(async () => (n = (await store.snapshots.rankingHistory(year, range)).length));
        if (n !== 365) throw new Error(`read ${n} rankings, not 365`);
        if (i >= 20) {
          read.push(r);
          rankingRead.push(k);
        }
      }
      return { kind, write, rankingWrite, read, rankingRead };
    } finally {
      await store.close();
    }
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

benchChildMain("STORE_BENCH_CHILD", SCENARIOS, async (scenario: Scenario) => {
  if (scenario.id === "open") return openInFreshProcess();
  return latency(scenario.id === "latency-embedded" ? "embedded" : "postgres");
});

// ---------------------------------------------------------------------------------------------
// Parent.

const self = fileURLToPath(import.meta.url);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;

function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(/(\d+)/.exec(line ?? "")?.[1] ?? 0) / 1024;
}

async function entryStart(env: Record<string, string>): Promise<{ ms: number; rssMb: number; health: Record<string, unknown> }> {
  const t = performance.now();
  const server = await startProductionServer(env);
  try {
    const elapsed = performance.now() - t;
    const health = (await (await fetch(`${server.base}/api/health`)).json()) as Record<string, unknown>;
    // Settled: the first tick of the scheduler and any first request's allocations are over.
    await new Promise((r) => setTimeout(r, 1500));
    return { ms: elapsed, rssMb: rssOf(server.pid), health };
  } finally {
    server.stop();
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * The store's packages loaded by plain Node (as the app loads them: no tsx loader hooks, which on a
 * loaded machine make kysely's hundreds of ES modules slow to load): time and RSS, in a fresh process.
 */
function packagesInPlainNode(): Promise<{ ms: number; rssMb: number }> {
  const code = `const r0 = process.memoryUsage().rss; const t0 = performance.now();
await Promise.all([import("better-sqlite3"), import("kysely"), import("pg")]);
console.log(JSON.stringify({ ms: performance.now() - t0, rssMb: (process.memoryUsage().rss - r0) / 1048576 }));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", code], {
      cwd: path.resolve(path.dirname(self), ".."),
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out) as { ms: number; rssMb: number }) : reject(new Error(`plain node exited ${code}`))));
  });
}

export async function run(): Promise<void> {
  const failures: string[] = [];

  // 1. The embedded store in a fresh Node process, cold (new directory) and warm (the same again).
  const cold: OpenResult[] = [];
  const warm: OpenResult[] = [];
  for (let i = 0; i < 3; i++) {
    const dir = mkdtempSync(path.join(tmpdir(), "wa-bench-open-"));
    try {
      cold.push(await runBenchChild<OpenResult>(self, "open", { STORE_BENCH_CHILD: "1", STORE_BENCH_DIR: dir }));
      warm.push(await runBenchChild<OpenResult>(self, "open", { STORE_BENCH_CHILD: "1", STORE_BENCH_DIR: dir }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const line = (label: string, r: OpenResult[]) =>
    `${label}: packages loaded in ${ms(median(r.map((x) => x.packagesMs)))} (+${median(r.map((x) => x.packagesRssMb)).toFixed(1)} MB RSS), opened in ${ms(median(r.map((x) => x.ms)))}; in all +${median(r.map((x) => x.rssMb)).toFixed(1)} MB RSS (median of ${r.length} processes; compiling lib/store with tsx, which the app does not do, took ${ms(median(r.map((x) => x.modulesMs)))} more)`;
  console.log(line("embedded store, cold (directory made, migrated)", cold));
  console.log(line("embedded store, warm (already there)          ", warm));
  const plain: { ms: number; rssMb: number }[] = [];
  for (let i = 0; i < 3; i++) plain.push(await packagesInPlainNode());
  console.log(
    `the store's packages in plain Node (as the app loads them): ${ms(median(plain.map((p) => p.ms)))}, +${median(plain.map((p) => p.rssMb)).toFixed(1)} MB RSS (median of 3 processes)`,
  );
  const warmMs = median(plain.map((p) => p.ms)) + median(warm.map((x) => x.ms));
  console.log(`warm start of the embedded store: ${ms(warmMs)} (packages in plain Node + opening warm)`);
  const rssMb = Math.max(median(cold.map((x) => x.rssMb)), median(warm.map((x) => x.rssMb)));
  if (warmMs >= GOAL_WARM_START_MS) failures.push(`warm start ${ms(warmMs)}`);
  if (rssMb >= GOAL_RSS_MB) failures.push(`RSS +${rssMb.toFixed(1)} MB`);

  // 2. The production entry: the store opened cold, warm, and not at all (held by another process).
  if (benchBuild("npm start with and without the store skipped")) {
    const dir = mkdtempSync(path.join(tmpdir(), "wa-bench-entry-"));
    try {
      const first = await entryStart({ DATA_DIR: dir });
      const again = await entryStart({ DATA_DIR: dir });
      const { startStoreHolder } = await import("../testing/store-holder");
      const holder = await startStoreHolder(dir);
      let without: Awaited<ReturnType<typeof entryStart>>;
      try {
        without = await entryStart({ DATA_DIR: dir });
      } finally {
        await holder.kill();
      }
      for (const [label, r] of [
        ["new DATA_DIR", first],
        ["same DATA_DIR", again],
        ["store not opened (held by another process)", without],
      ] as const) {
        console.log(`npm start, ${label}: /api/health after ${ms(r.ms)}, entry RSS ${r.rssMb.toFixed(0)} MB, store ${JSON.stringify(r.health.store)}`);
      }
      console.log(
        `the open store adds to npm start: ${(again.rssMb - without.rssMb).toFixed(1)} MB RSS warm (${(first.rssMb - without.rssMb).toFixed(1)} MB cold), ${ms(again.ms - without.ms)} to the start warm (${ms(first.ms - without.ms)} cold; start times vary by seconds on a shared machine)`,
      );
      if ((first.health.store as { schema?: number } | undefined)?.schema !== 1) failures.push("npm start did not open the store");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  // 3. Latency on both databases.
  for (const id of ["latency-embedded", "latency-postgres"] as const) {
    const r = await runBenchChild<LatencyResult>(self, id, { STORE_BENCH_CHILD: "1" });
    const q = (v: number[]) => `p50 ${ms(quantile(v, 0.5))}, p95 ${ms(quantile(v, 0.95))}`;
    console.log(`${r.kind.padEnd(8)} score snapshot write ${q(r.write)}; ranking snapshot write (12 entries) ${q(r.rankingWrite)}`);
    console.log(`${r.kind.padEnd(8)} 365-day score history read ${q(r.read)}; 365-day ranking history read ${q(r.rankingRead)}`);
    for (const [label, v] of [
      ["write", r.write],
      ["read", r.read],
      ["ranking read", r.rankingRead],
    ] as const) {
      if (quantile(v, 0.5) >= GOAL_P50_MS) failures.push(`${r.kind} ${label} p50 ${ms(quantile(v, 0.5))}`);
    }
  }
  console.log(
    failures.length === 0
      ? `goals met: embedded store < ${GOAL_RSS_MB} MB and < ${GOAL_WARM_START_MS} ms warm; writes and 365-day reads p50 < ${GOAL_P50_MS} ms on both databases`
      : `GOALS MISSED: ${failures.join(", ")}`,
  );
}
