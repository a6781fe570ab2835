// What watching costs a key: one Free key's workspace watched for N simulated days (BENCH_COLLECTION_DAYS,
// default 7) against the sandbox (20,000 visitors), the history jobs run by the job scheduler as in
// the app, ticking every 5 simulated minutes. Time is the real clock plus an offset the bench moves
// between ticks, read by everything: the sandbox (its score day and its rate limiter), the server
// context (the key's budget), the store and the scheduler. Inside a tick time runs for real, so a
// rate-limit wait is a real wait on both sides. Prints the upstream calls per watched workspace per
// day (first day apart: it also catches up three closed days) and the 429s.
// Goals: < 60 upstream calls per watched workspace per day on Free; 0 429s.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_SESSION_SECRET, benchChildMain, freePort, runBenchChild } from "./support";

export const name = "collection: upstream calls per watched workspace per day, Free key, N simulated days against the sandbox";

const GOAL_CALLS_PER_DAY = 60;
const DAY_MS = 86_400_000;
const STEP_MS = 5 * 60_000;
const START = "2026-11-20T00:02:00Z";

type Scenario = { id: string; days: number };
const SCENARIOS: Scenario[] = [{ id: "free", days: Number(process.env.BENCH_COLLECTION_DAYS ?? 7) }];

type Day = { date: string; calls: number; byPath: Record<string, number>; rateLimited: number };
type Result = { days: Day[]; hourlyRuns: number; dailyRuns: number; scores: number; seconds: number };

async function runScenario(scenario: Scenario): Promise<Result> {
  let offset = Date.parse(START) - Date.now();
  const clock = () => Date.now() + offset;
  const { startSandbox } = await import("../sandbox/server");
  const { DEMO_KEYS } = await import("../sandbox/keys");
  const sandbox = await startSandbox({ port: await freePort(), host: "127.0.0.1", now: START, visitors: 20_000, clock });
  process.env.DATA_API_BASE_URL = sandbox.baseUrl;
  process.env.SESSION_SECRET = BENCH_SESSION_SECRET;
  const dir = mkdtempSync(path.join(tmpdir(), "wa-bench-collection-"));
  const { openStore } = await import("../lib/store/store");
  const { setServerContext } = await import("../lib/server/context");
  const { createJobScheduler } = await import("../lib/store/scheduler");
  const { historyJobs, HOURLY_JOB, DAILY_JOB } = await import("../lib/history/jobs");
  const { serverCollectContext } = await import("../lib/history/collect");
  const store = await openStore({ dataDir: dir }, { secrets: () => ({ current: BENCH_SESSION_SECRET }), now: clock });
  setServerContext({ now: clock, store: async () => store });
  const started = performance.now();
  try {
    const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.free)).id;
    await store.workspaces.setWatching(ws, DEMO_KEYS.free);
    const quiet = { info: () => {}, warn: (line: string) => console.error(line) };
    const scheduler = createJobScheduler({
      jobs: async () => store.jobs,
      definitions: historyJobs({ store: async () => store, context: serverCollectContext, log: (line) => console.error(line) }),
      now: clock,
      instance: "bench",
      log: quiet,
    });
    const days: Day[] = [];
    for (let d = 0; d < scenario.days; d++) {
      sandbox.reset();
      const dayStart = Date.parse(START) + d * DAY_MS;
      for (let t = dayStart; t < dayStart + DAY_MS; t += STEP_MS) {
        offset = t - Date.now();
        await scheduler.tick();
      }
      const stats = sandbox.stats();
      const calls = Object.values(stats.byPath).reduce((n, c) => n + c, 0);
      days.push({ date: new Date(dayStart).toISOString().slice(0, 10), calls, byPath: stats.byPath, rateLimited: stats.rateLimited });
    }
    await scheduler.stop();
    const hourlyRuns = (await store.jobs.runs(HOURLY_JOB, { allScopes: true, limit: 10_000 })).length;
    const dailyRuns = (await store.jobs.runs(DAILY_JOB, { allScopes: true, limit: 1000 })).length;
    const scores = (await store.snapshots.scoreHistory(ws, { from: 0, to: clock() })).length;
    return { days, hourlyRuns, dailyRuns, scores, seconds: (performance.now() - started) / 1000 };
  } finally {
    await store.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  for (const scenario of SCENARIOS) {
    const r = await runBenchChild<Result>(self, scenario.id, { COLLECTION_BENCH_CHILD: "1" });
    console.log(`${scenario.days} simulated days, Free key, one watched workspace (${r.seconds.toFixed(1)} s of real time)`);
    console.log("day         calls  429s  by path");
    for (const day of r.days) {
      const paths = Object.entries(day.byPath)
        .sort((a, b) => b[1] - a[1])
        .map(([p, n]) => `${p} ${n}`)
        .join(", ");
      console.log(`${day.date}  ${String(day.calls).padStart(5)}  ${String(day.rateLimited).padStart(4)}  ${paths}`);
    }
    const steady = r.days.slice(1);
    const average = steady.length ? steady.reduce((n, d) => n + d.calls, 0) / steady.length : r.days[0]!.calls;
    const worst = Math.max(...steady.map((d) => d.calls), 0);
    const limited = r.days.reduce((n, d) => n + d.rateLimited, 0);
    console.log(`jobs: ${r.hourlyRuns} hourly runs, ${r.dailyRuns} daily runs; ${r.scores} score snapshots kept (one per new updated_at)`);
    console.log(
      `per watched workspace per day after the first: ${average.toFixed(1)} calls on average, ${worst} at most; first day (with its catch-up): ${r.days[0]!.calls}; 429s: ${limited}`,
    );
    const met = worst < GOAL_CALLS_PER_DAY && r.days[0]!.calls < GOAL_CALLS_PER_DAY * 2 && limited === 0;
    console.log(
      met
        ? `goals met: < ${GOAL_CALLS_PER_DAY} calls a day, 0 429s`
        : `GOALS MISSED: ${worst} calls a day at most (goal < ${GOAL_CALLS_PER_DAY}), ${limited} 429s (goal 0)`,
    );
  }
}

benchChildMain("COLLECTION_BENCH_CHILD", SCENARIOS, runScenario);
