// Export throughput and memory: exports every visitor through the real export route handler and
// its stream (session cookie, per-key scheduler, bulk priority) from an in-process sandbox, and
// compares the time with the rate-limit bound, the least time the plan allows for that many pages
// (lib/server/export/rate-bound.ts: the rate bound is the target's reference; the stricter burst
// bound is printed beside it). Also counts 429s reaching the user (must be 0) and the peak memory
// growth of a 100,000-row export.
//
// Each scenario runs in a child Node process: a fresh per-key rate budget, a clean heap to measure,
// and the `react-server` export condition under which the server-only modules load outside Next.
import { fileURLToPath } from "node:url";
import { BENCH_SESSION_SECRET, processSandbox, runBenchChild, type SandboxProcess } from "./support";

export const name = "exports: 20,000 visitors on Pro and Free vs the rate-limit bound; memory of a 100,000-row export";

const NOW = "2026-11-20T12:00:00Z";
const PLANS = { Pro: { perSecond: 50, perMinute: 1000 }, Free: { perSecond: 10, perMinute: 100 } } as const;

/**
 * `sandbox: "process"` runs the sandbox in its own process so the memory figure is the export
 * server's alone (not the sandbox's request handling) and the two do not compete for one thread.
 */
type Scenario = {
  id: string;
  plan: keyof typeof PLANS;
  visitors: number;
  format: "csv" | "json";
  sandbox: "in-process" | "process";
  /** Whether the >= 90% throughput target applies (the memory run reports its time for information). */
  throughputTarget: boolean;
};

const SCENARIOS: Scenario[] = [
  { id: "pro-20k", plan: "Pro", visitors: 20_000, format: "csv", sandbox: "in-process", throughputTarget: true },
  { id: "free-20k", plan: "Free", visitors: 20_000, format: "csv", sandbox: "in-process", throughputTarget: true },
  { id: "pro-100k-memory", plan: "Pro", visitors: 100_000, format: "csv", sandbox: "process", throughputTarget: false },
];

type Result = {
  id: string;
  plan: string;
  rows: number;
  total: number;
  pages: number;
  seconds: number;
  boundSeconds: number;
  burstBoundSeconds: number;
  bytes: number;
  upstreamRequests: number;
  upstream429: number;
  userErrors: number;
  estimateHeaderSeconds?: number;
  baselineRssMb: number;
  peakRssGrowthMb: number;
  peakHeapGrowthMb: number;
  /** Largest heap growth still live after a forced full GC during the export: what is really retained. */
  retainedHeapGrowthMb: number;
};

async function inProcessSandbox(visitors: number): Promise<SandboxProcess> {
  const { startSandbox } = await import("../sandbox/server");
  const sandbox = await startSandbox({ port: 0, now: NOW, visitors });
  return { baseUrl: sandbox.baseUrl, stats: async () => sandbox.stats(), close: () => sandbox.close() };
}

// ---------------------------------------------------------------------------------------------
// Child: one scenario.

async function runScenario(scenario: Scenario): Promise<Result> {
  const { DEMO_KEYS } = await import("../sandbox/keys");
  const sandbox = scenario.sandbox === "process" ? await processSandbox(scenario.visitors, NOW) : await inProcessSandbox(scenario.visitors);
  process.env.DATA_API_BASE_URL = sandbox.baseUrl;
  process.env.SESSION_SECRET = BENCH_SESSION_SECRET;
  process.env.DATA_API_CACHE_TTL_MS = "0";
  const { exportVisitors } = await import("../lib/server/export/handlers");
  const { SESSION_COOKIE, sealSession } = await import("../lib/server/session");
  const { csvRecordCounter } = await import("../components/export/record-counter");
  const { burstBoundSeconds, minSecondsForRequests, pagesFor } = await import("../lib/server/export/rate-bound");

  const key = scenario.plan === "Pro" ? DEMO_KEYS.pro : DEMO_KEYS.free;
  const cookie = `${SESSION_COOKIE}=${await sealSession(key)}`;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const baseline = process.memoryUsage();
  let peakRss = baseline.rss;
  let peakHeap = baseline.heapUsed;
  let retainedHeap = baseline.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 20);
  // A full GC now and then shows what the export keeps alive (as opposed to garbage not yet collected).
  const collector = setInterval(() => {
    gc?.();
    retainedHeap = Math.max(retainedHeap, process.memoryUsage().heapUsed);
  }, 1000);

  let userErrors = 0;
  const started = performance.now();
  const res = await exportVisitors(new Request(`http://localhost/api/export/visitors?format=${scenario.format}`, { headers: { cookie } }), undefined);
  if (res.status !== 200 || !res.body) {
    userErrors++;
    throw new Error(`export answered ${res.status}: ${await res.text()}`);
  }
  const total = Number(res.headers.get("x-total-count"));
  const estimate = res.headers.get("x-export-estimated-seconds");
  const counter = csvRecordCounter();
  let bytes = 0;
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      counter.push(value);
    }
  } catch (err) {
    userErrors++;
    throw err;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  clearInterval(collector);
  const stats = await sandbox.stats();
  await sandbox.close();
  const pages = pagesFor(total);
  return {
    id: scenario.id,
    plan: scenario.plan,
    rows: counter.count,
    total,
    pages,
    seconds,
    boundSeconds: minSecondsForRequests(pages, PLANS[scenario.plan]),
    burstBoundSeconds: burstBoundSeconds(pages, PLANS[scenario.plan]),
    bytes,
    upstreamRequests: stats.byPath["/visitors"] ?? 0,
    upstream429: stats.rateLimited,
    userErrors,
    ...(estimate !== null ? { estimateHeaderSeconds: Number(estimate) } : {}),
    baselineRssMb: baseline.rss / 2 ** 20,
    peakRssGrowthMb: (peakRss - baseline.rss) / 2 ** 20,
    peakHeapGrowthMb: (peakHeap - baseline.heapUsed) / 2 ** 20,
    retainedHeapGrowthMb: (retainedHeap - baseline.heapUsed) / 2 ** 20,
  };
}

// ---------------------------------------------------------------------------------------------
// Parent: runs each scenario in a child and prints the figures.

const self = fileURLToPath(import.meta.url);

const runChild = (scenario: Scenario) => runBenchChild<Result>(self, scenario.id, { EXPORT_BENCH_CHILD: "1" }, ["--expose-gc"]);

const f1 = (n: number) => n.toFixed(1);

export async function run(): Promise<void> {
  const results: Result[] = [];
  for (const scenario of SCENARIOS) {
    const r = await runChild(scenario);
    results.push(r);
    const ratio = r.boundSeconds > 0 ? r.boundSeconds / r.seconds : 1;
    console.log(
      `${r.id.padEnd(16)} sandbox ${SCENARIOS.find((x) => x.id === r.id)?.sandbox},  ${r.plan.padEnd(4)} rows ${r.rows.toLocaleString("en-US")}/${r.total.toLocaleString("en-US")} in ${r.pages} pages: ` +
        `${f1(r.seconds)} s vs bound ${f1(r.boundSeconds)} s -> ${(ratio * 100).toFixed(1)}% of the bound's throughput` +
        ` (burst bound ${f1(r.burstBoundSeconds)} s -> ${((r.burstBoundSeconds / r.seconds) * 100).toFixed(1)}%)` +
        ` (${Math.round(r.rows / r.seconds).toLocaleString("en-US")} rows/s; estimate header ${r.estimateHeaderSeconds ?? "-"} s)`,
    );
    console.log(
      `${"".padEnd(21)} 429s: ${r.upstream429} from upstream (absorbed), ${r.userErrors} passed to the user; ` +
        `upstream /visitors requests ${r.upstreamRequests}; ${f1(r.bytes / 2 ** 20)} MB sent; ` +
        `peak growth RSS ${f1(r.peakRssGrowthMb)} MB, heap ${f1(r.peakHeapGrowthMb)} MB, heap live after GC ${f1(r.retainedHeapGrowthMb)} MB ` +
        `(baseline RSS ${f1(r.baselineRssMb)} MB)`,
    );
  }
  const slow = (r: Result) => SCENARIOS.find((s) => s.id === r.id)?.throughputTarget === true && r.boundSeconds / r.seconds < 0.9;
  const failures = results.filter((r) => r.rows !== r.total || r.userErrors > 0 || slow(r) || r.peakRssGrowthMb >= 50);
  console.log(
    failures.length === 0
      ? "targets met: every row exported, 0 errors/429s to the user, >= 90% of the bound's throughput (20,000-row runs), memory growth < 50 MB"
      : `TARGETS MISSED: ${failures.map((r) => r.id).join(", ")}`,
  );
}

if (process.env.EXPORT_BENCH_CHILD === "1" && process.argv[2]) {
  const scenario = SCENARIOS.find((s) => s.id === process.argv[2]);
  if (!scenario) throw new Error(`unknown scenario ${process.argv[2]}`);
  runScenario(scenario).then(
    (result) => {
      console.log(`RESULT ${JSON.stringify(result)}`);
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
