// The latency the shared rate budget adds to each upstream request: one admission is one round trip
// to Redis (EVALSHA of the admission script, lib/shared-state/redis/budget-lua.ts), against the in-process
// RateBudget's admission. Starts its own redis-server on loopback (testing/redis.ts).
// 5,000 admissions each, one at a time, on a Pro plan with one request every 61 ms of simulated time:
// none waits, and the minute window holds ~990 answered requests, as on a key used at its full rate.
// Also the answer's record (the scheduler does not wait for it, but Redis does the work). Issue 13's
// goal: < 1 ms p50 on loopback.
import { Redis } from "ioredis";
import { RateBudget, type KeyBudget } from "../lib/data-api/rate-budget";
import { createSharedBudget } from "../lib/shared-state/redis/budget";
import { startInstanceHeartbeat } from "../lib/shared-state/redis/instances";
import { startTestRedis } from "../testing/redis";

export const name = "shared rate budget: latency of one admission through Redis (loopback) vs in-process, 5,000 admissions";

const ADMISSIONS = 5000;
const WARM_UP = 500;
const GOAL_P50_MS = 1;
const PRO = { perSecond: 50, perMinute: 1000 };

type Timings = { admit: number[]; record: number[] };

async function measure(budget: KeyBudget): Promise<Timings> {
  const timings: Timings = { admit: [], record: [] };
  let now = Date.UTC(2026, 10, 20, 12);
  for (let i = 0; i < WARM_UP + ADMISSIONS; i++) {
    const started = performance.now();
    const admission = await budget.admit(now, "interactive");
    const admitted = performance.now();
    if (!admission.admitted) throw new Error(`admission ${i} had to wait ${admission.waitMs} ms: the bench's pace is off`);
    await budget.recordResponse(now + 20, 200, {}, admission.token);
    const recorded = performance.now();
    if (i >= WARM_UP) {
      timings.admit.push(admitted - started);
      timings.record.push(recorded - admitted);
    }
    now += 61;
  }
  return timings;
}

function quantiles(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `p50 ${at(0.5).toFixed(3)} ms, p95 ${at(0.95).toFixed(3)} ms, p99 ${at(0.99).toFixed(3)} ms`;
}

export async function run(): Promise<void> {
  const server = await startTestRedis();
  const redis = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  try {
    await redis.connect();
    const instances = startInstanceHeartbeat({ redis, now: () => Date.now(), intervalMs: 0 });
    // A generous timeout: the bench measures the round trip, it must not fall back mid-run.
    const shared = createSharedBudget({ redis, keyId: "bench-key", instances, budget: PRO, fixed: true, commandTimeoutMs: 5000 });
    const inProcess = await measure(new RateBudget({ budget: PRO, fixed: true }));
    const viaRedis = await measure(shared);
    if (shared.snapshot(Date.now()).localShare) throw new Error("the shared budget fell back to its local share during the bench");
    const p50 = [...viaRedis.admit].sort((a, b) => a - b)[Math.floor(viaRedis.admit.length / 2)]!;
    console.log(`in-process admission:      ${quantiles(inProcess.admit)}`);
    console.log(`Redis admission (EVALSHA): ${quantiles(viaRedis.admit)}  (goal p50 < ${GOAL_P50_MS} ms) ${p50 < GOAL_P50_MS ? "ok" : "OVER"}`);
    console.log(`Redis answer record:       ${quantiles(viaRedis.record)}  (not waited for by the scheduler)`);
  } finally {
    redis.disconnect();
    await server.stop();
  }
}
