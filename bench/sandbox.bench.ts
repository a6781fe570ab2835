// Sandbox speed: data generation at 20,000 and 1,000,000 visitors, 90 days of score and ranking
// snapshots through the clock control, then median/p95 latency over loopback HTTP of filtered,
// paginated /visitors queries and overviews on the 1,000,000-visitor sandbox.
import { DEMO_KEYS } from "../sandbox/keys";
import { startSandbox } from "../sandbox/server";
import type { Sandbox } from "../sandbox/types";

export const name = "sandbox: generation and query latency at 1,000,000 visitors";

const NOW = "2026-11-20T12:00:00Z";
const SOURCES = ["chatgpt", "organic", "direct", "perplexity", "social", "paid"];
const INTENTS = ["problem_research", "solution_comparison", "pricing_research", "brand_search"];
const FROMS = ["2026-11-13", "2026-10-21T12:00:00Z", "2026-08-22", "2026-06-01"];
const PERIODS = ["24h", "7d", "30d", "90d"];

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function timeRequests(sandbox: Sandbox, label: string, paths: string[]): Promise<void> {
  const times: number[] = [];
  for (const [i, path] of paths.entries()) {
    // Pro allows 50/s and 1000/min; the bench measures the server, not the limiter.
    if (i % 40 === 0) sandbox.reset();
    const started = performance.now();
    const res = await fetch(sandbox.baseUrl + path, { headers: { Authorization: `Bearer ${DEMO_KEYS.pro}` } });
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
  }
  times.sort((a, b) => a - b);
  console.log(`${label.padEnd(44)} n=${times.length}  median ${quantile(times, 0.5).toFixed(2)} ms  p95 ${quantile(times, 0.95).toFixed(2)} ms`);
}

/** 90 days of snapshots as a history test takes them: the clock moved a day, then score and ranking read. */
async function historyWalk(sandbox: Sandbox): Promise<void> {
  const move = (body: object) => fetch(`${sandbox.url}/sandbox/clock`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.arrayBuffer());
  const read = (path: string) => fetch(sandbox.baseUrl + path, { headers: { Authorization: `Bearer ${DEMO_KEYS.pro}` } }).then((r) => r.arrayBuffer());
  await move({ advance_ms: -90 * 86_400_000 });
  const started = performance.now();
  for (let d = 0; d < 90; d++) {
    if (d % 20 === 0) sandbox.reset(); // Pro's 50/s burst: the bench measures the server, not the limiter
    await move({ advance_ms: 86_400_000 });
    await read("/intelligence/score");
    await read("/intelligence/ranking");
  }
  console.log(`90 daily clock moves + score and ranking reads: ${(performance.now() - started).toFixed(0)} ms`);
  await move({ reset: true });
}

async function generate(visitors: number): Promise<{ sandbox: Sandbox; ms: number }> {
  const started = performance.now();
  const sandbox = await startSandbox({ visitors, now: NOW, port: 0 });
  return { sandbox, ms: performance.now() - started };
}

export async function run(): Promise<void> {
  const small = await generate(20_000);
  console.log(`generate + start, 20,000 visitors:            ${small.ms.toFixed(0)} ms`);
  await historyWalk(small.sandbox);
  await small.sandbox.close();

  const { sandbox, ms } = await generate(1_000_000);
  console.log(`generate + start, 1,000,000 visitors:         ${ms.toFixed(0)} ms (rss ${Math.round(process.memoryUsage().rss / 1e6)} MB)`);
  try {
    // Aggregates are built at start; the first request per period still warms the JIT.
    const cold: number[] = [];
    for (const p of PERIODS) {
      const started = performance.now();
      await fetch(`${sandbox.baseUrl}/analytics/overview?period=${p}`, { headers: { Authorization: `Bearer ${DEMO_KEYS.pro}` } }).then((r) => r.arrayBuffer());
      cold.push(performance.now() - started);
    }
    console.log(`first overview per period:                     ${cold.map((t) => t.toFixed(1)).join(" / ")} ms (${PERIODS.join(" / ")})`);
    for (const p of ["/visitors", "/visitors?source=chatgpt&offset=500"]) {
      await fetch(sandbox.baseUrl + p, { headers: { Authorization: `Bearer ${DEMO_KEYS.pro}` } }).then((r) => r.arrayBuffer());
    }

    const visitorQueries = Array.from({ length: 200 }, (_, i) => {
      const q = new URLSearchParams({ limit: String([20, 50, 100][i % 3]), offset: String((i * 137) % 2000) });
      if (i % 2 === 0) q.set("source", SOURCES[i % SOURCES.length]!);
      if (i % 3 === 0) q.set("intent", INTENTS[i % INTENTS.length]!);
      if (i % 5 === 0) q.set("converted", i % 10 === 0 ? "true" : "false");
      if (i % 4 !== 3) q.set("from", FROMS[i % FROMS.length]!);
      if (i % 7 === 0) q.set("to", "2026-11-18");
      return `/visitors?${q}`;
    });
    await timeRequests(sandbox, "/visitors filtered + paginated (1M)", visitorQueries);
    // Without `from` nothing prunes the scan: every one of the 1,000,000 rows is tested.
    const fullScans = Array.from({ length: 200 }, (_, i) => {
      const q = new URLSearchParams({ limit: "100", offset: String((i * 911) % 5000), source: SOURCES[i % SOURCES.length]! });
      if (i % 2 === 0) q.set("converted", "false");
      if (i % 3 === 0) q.set("intent", INTENTS[i % INTENTS.length]!);
      return `/visitors?${q}`;
    });
    await timeRequests(sandbox, "/visitors filtered, no date (full 1M scan)", fullScans);
    const overviews = Array.from({ length: 200 }, (_, i) => `/analytics/overview?period=${PERIODS[i % PERIODS.length]}`);
    await timeRequests(sandbox, "/analytics/overview (1M)", overviews);
  } finally {
    await sandbox.close();
  }
}
