// Several instances on one Pro key (1,000 requests/min, 50/s), through Redis (testing/cluster.ts):
// 1, 2 and 4 production instances behind a round-robin client, each request a different page of
// visitors (no cache hits): first 150 requests at 10/s (latency under the limit), then 32 in flight
// for INSTANCES_BENCH_SECONDS (default 70, so one whole minute window is filled). Prints answered requests per second, latency p50/p95, the upstream
// calls in the busiest 60 s span as a share of the key's 1,000/min, and upstream 429s (goal: >= 90 %
// with none). Then the latency Redis adds per request: one instance with and without REDIS_URL on a
// cached answer (the request path's Redis work: session check, budget note, cache read), p50/p95.
// Needs a build (`npx next build`, or BENCH_DIST_DIR).
import { DEMO_KEYS } from "../sandbox/keys";
import { startCluster } from "../testing/cluster";
import { benchBuild, signIn } from "./support";

export const name = "instances: 1, 2 and 4 instances on one Pro key through Redis; the latency Redis adds";

const SECONDS = Number(process.env.INSTANCES_BENCH_SECONDS ?? 70);
const IN_FLIGHT = 32;
const PRO_PER_MINUTE = 1000;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (v: number) => `${v.toFixed(v < 10 ? 2 : 0)} ms`;

/** Most entries within any `width` ms span of the sorted times. */
function busiestSpan(times: number[], width: number): number {
  let best = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j]! - times[i]! >= width) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

async function loadRun(instances: number): Promise<void> {
  const cluster = await startCluster({ instances, visitors: 200_000 });
  try {
    const bases = cluster.instances.map((i) => i.base);
    const cookie = await signIn(bases[0]!, { apiKey: DEMO_KEYS.pro });
    // Under the limit first (10 requests/s, open loop, for 15 s): what a request costs when nobody waits for the budget.
    const paced: number[] = [];
    const pacedStart = performance.now();
    await Promise.all(
      Array.from({ length: 150 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, pacedStart + i * 100 - performance.now()));
        const t = performance.now();
        const res = await fetch(`${bases[i % bases.length]}/api/visitors?limit=1&offset=${150_000 + i}`, { headers: { cookie } });
        await res.arrayBuffer();
        paced.push(performance.now() - t);
      }),
    );
    paced.sort((x, y) => x - y);
    const before = (await cluster.sandbox.stats()).log.length;
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const started = performance.now();
    const end = started + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (performance.now() < end) {
          const i = next++;
          const t = performance.now();
          const res = await fetch(`${bases[i % bases.length]}/api/visitors?limit=1&offset=${i}`, { headers: { cookie } });
          await res.arrayBuffer();
          latencies.push(performance.now() - t);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const log = (await cluster.sandbox.stats()).log.slice(before);
    const upstream = log.filter((e) => e.path === "/v1/visitors");
    const share =
      busiestSpan(
        upstream.map((e) => e.t).sort((x, y) => x - y),
        60_000,
      ) / PRO_PER_MINUTE;
    latencies.sort((x, y) => x - y);
    const ok = statuses.get(200) ?? 0;
    console.log(
      `${instances} instance${instances > 1 ? "s" : " "}: at 10 req/s p50 ${ms(quantile(paced, 0.5))}, p95 ${ms(quantile(paced, 0.95))}; ` +
        `${IN_FLIGHT} in flight: ${(ok / seconds).toFixed(1)} answers/s over ${seconds.toFixed(0)} s, ` +
        `p50 ${ms(quantile(latencies, 0.5))}, p95 ${ms(quantile(latencies, 0.95))} (waiting for the key's budget); upstream ${upstream.length} calls, ` +
        `busiest minute ${(share * 100).toFixed(1)} % of 1,000/min, 429s ${log.filter((e) => e.status === 429).length}; ` +
        `answers ${[...statuses].map(([s, n]) => `${s}×${n}`).join(", ")}`,
    );
  } finally {
    await cluster.stop();
  }
}

/** Sequential requests for one cached answer on one instance: what the request path costs with and without Redis. */
async function redisOverhead(): Promise<void> {
  const results: Record<string, number[]> = {};
  for (const redis of [false, true]) {
    const cluster = await startCluster({ instances: 1, redis });
    try {
      const base = cluster.instances[0]!.base;
      const cookie = await signIn(base, { apiKey: DEMO_KEYS.pro });
      const url = `${base}/api/visitors?limit=1`;
      const times: number[] = [];
      for (let i = 0; i < 1100; i++) {
        const t = performance.now();
        const res = await fetch(url, { headers: { cookie } });
        await res.arrayBuffer();
        if (i >= 100) times.push(performance.now() - t);
      }
      results[redis ? "with Redis" : "in-process"] = times.sort((x, y) => x - y);
    } finally {
      await cluster.stop();
    }
  }
  const local = results["in-process"]!;
  const shared = results["with Redis"]!;
  console.log(
    `one instance, a cached answer, 1,000 sequential requests: in-process p50 ${ms(quantile(local, 0.5))} p95 ${ms(quantile(local, 0.95))}; ` +
      `with Redis p50 ${ms(quantile(shared, 0.5))} p95 ${ms(quantile(shared, 0.95))}; ` +
      `Redis adds p50 ${ms(quantile(shared, 0.5) - quantile(local, 0.5))}`,
  );
}

export async function run(): Promise<void> {
  if (!benchBuild()) return;
  for (const n of [1, 2, 4]) await loadRun(n);
  await redisOverhead();
}
