// The insights' listing bounds, as the outside review measured them against `npm start`:
// - an upstream claiming `meta.total = 1e11` on /mentions. Before the fix the mention listing planned
//   a billion offsets in one loop and the process died ("Fatal JavaScript invalid size error", ~5 s).
//   Starts the production entry (front server + Next, the sandbox as a child), opens /platforms and
//   asks its three insights (and the 366-day platforms) while probing GET /api/health every 20 ms and
//   reading the entry's RSS (/proc) every 25 ms: peak RSS growth over the idle baseline, health
//   latency, and each answer's status and time. Then every list claims 1e11 and the trend (visitor
//   figures, counted instead of listed) is asked. Goals: RSS growth < 100 MB, health < 100 ms, a
//   clear error within 10 s.
// - a client that aborts a 365-day request (a Free key, the trend of a year by week, nothing cached):
//   the upstream calls made after the abort, until 20 s later. Goal: < 20 (before the fix the
//   computation went on at the key's pace: 59 more calls within 30 s, for minutes).
// - in this machine's own process (a child with --expose-gc): the mention pipeline over a 732-day
//   span at the listing cap (100,000 rows, served in memory), heap growth while it folds each page,
//   against the same pages held until the end as the listing before the fix did.
// Needs a build in BENCH_DIST_DIR (default .next; `npx next build` first) for the first two parts.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { benchBuild, benchChildMain, runBenchChild, signIn, startProductionServer, type BenchServer } from "./support";

export const name =
  "insights listing bounds: meta.total = 1e11 (RSS, /api/health, time to the error), calls after an aborted 365-day request, pipeline heap at 732 days";

const GOALS = { rssMb: 100, healthMs: 100, errorSeconds: 10, callsAfterAbort: 20 };
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

type Sampler = { stop: () => Promise<{ health: number[]; healthFailures: number; peakRss: number; loopMaxMs: number }> };

/**
 * GET /api/health every 20 ms (one at a time), the entry's RSS every 25 ms, and its own event-loop
 * delay (perf_hooks, read through its inspector: what the server did, apart from the probe's own
 * process), until stopped.
 */
function sample(server: BenchServer): Sampler {
  const loop = server.inspector!.evaluate<boolean>(
    `(globalThis.__benchLoop = process.getBuiltinModule("node:perf_hooks").monitorEventLoopDelay({ resolution: 10 }), globalThis.__benchLoop.enable(), true)`,
  );
  const health: number[] = [];
  let healthFailures = 0;
  let peakRss = 0;
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      const ok = await fetch(`${server.base}/api/health`, { signal: AbortSignal.timeout(5000) })
        .then((r) => r.arrayBuffer().then(() => r.ok))
        .catch(() => false);
      if (ok) health.push(performance.now() - started);
      else healthFailures++;
      await sleep(20);
    }
  })();
  const memory = (async () => {
    while (running) {
      peakRss = Math.max(peakRss, await rssOf(server.pid));
      await sleep(25);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await Promise.all([probe, memory, loop]);
      const loopMaxMs = await server.inspector!.evaluate<number>(`(globalThis.__benchLoop.disable(), globalThis.__benchLoop.max / 1e6)`);
      return { health, healthFailures, peakRss, loopMaxMs };
    },
  };
}

function healthSummary({ health: latencies, healthFailures: failures, loopMaxMs }: { health: number[]; healthFailures: number; loopMaxMs: number }): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const max = sorted.at(-1) ?? NaN;
  const ok = failures === 0 && max < GOALS.healthMs;
  return `health: ${sorted.length} probes, median ${at(0.5).toFixed(1)} ms, max ${max.toFixed(1)} ms, ${failures} failed (goal < ${GOALS.healthMs} ms) ${ok ? "ok" : "OVER"}; server event-loop delay max ${loopMaxMs.toFixed(1)} ms`;
}

async function faults(server: BenchServer, body: object): Promise<void> {
  const res = await fetch(`${server.sandboxBase}/sandbox/faults`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`sandbox faults: HTTP ${res.status}`);
}

/** Upstream (/v1) requests the sandbox has received so far. */
async function upstreamCalls(server: BenchServer): Promise<number> {
  const stats = (await (await fetch(`${server.sandboxBase}/sandbox/stats`)).json()) as { byPath: Record<string, number> };
  return Object.values(stats.byPath).reduce((a, b) => a + b, 0);
}

const isoDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** An answer: its status, error code and time. */
async function timed(url: string, cookie: string): Promise<{ what: string; status: number; code: string; seconds: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { cookie }, signal: AbortSignal.timeout(60_000) }).catch(() => null);
  const text = res ? await res.text().catch(() => "") : "";
  let code = "";
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? "";
  } catch {
    code = res ? "" : "no answer";
  }
  return { what: new URL(url).pathname + new URL(url).search, status: res?.status ?? 0, code, seconds: (performance.now() - started) / 1000 };
}

async function absurdTotal(): Promise<void> {
  const server = await startProductionServer({}, { inspect: true });
  try {
    const cookie = await signIn(server.base);
    // Next loads a route's code on its first request: load the page and the routes once, on a range
    // the measured requests do not share (their figures must not be cached).
    const other = `from=${isoDay(130)}&to=${isoDay(100)}`;
    await timed(`${server.base}/platforms?${other}`, cookie);
    await Promise.all(["platforms", "sentiment", "competitors", "trend"].map((r) => timed(`${server.base}/api/insights/${r}?${other}`, cookie)));
    // Idle: the baseline the growth is measured from, and the probe's own floor.
    let sampler = sample(server);
    await sleep(3000);
    const idle = await sampler.stop();
    const baseline = await rssOf(server.pid);
    console.log(`idle: RSS ${mb(baseline)} MB; ${healthSummary(idle)}`);

    await faults(server, { metaTotal: 1e11, paths: ["/mentions"] });
    const year = `from=${isoDay(365)}&to=${isoDay(0)}`;
    console.log("/mentions claiming meta.total = 1e11:");
    const scenarios: Array<[string, string[]]> = [
      // The insights of /platforms asked at once, as its widgets do, and the longest range.
      ["insights", ["platforms", "sentiment", "competitors", `platforms?${year}`].map((r) => `/api/insights/${r}`)],
      // The page itself: its server render prefetches the same three (on a range not yet asked).
      ["page", [`/platforms?from=${isoDay(60)}&to=${isoDay(31)}`]],
    ];
    for (const [label, paths] of scenarios) {
      const sampler = sample(server);
      const answers = await Promise.all(paths.map((p) => timed(`${server.base}${p}`, cookie)));
      await sleep(1000);
      const busy = await sampler.stop();
      for (const a of answers) {
        const ok = label === "page" ? a.status === 200 : a.status === 422 && a.seconds < GOALS.errorSeconds;
        console.log(`  ${a.what.padEnd(54)} HTTP ${a.status} ${a.code} in ${a.seconds.toFixed(2)} s ${ok ? "ok" : "MISSED"}`);
      }
      const growth = busy.peakRss - baseline;
      console.log(
        `  ${label}: peak RSS growth ${mb(growth)} MB (goal < ${GOALS.rssMb} MB) ${growth < GOALS.rssMb * 1024 * 1024 ? "ok" : "OVER"}; ${healthSummary(busy)}`,
      );
    }

    await faults(server, { metaTotal: 1e11 });
    sampler = sample(server);
    const trend = await timed(`${server.base}/api/insights/trend?from=${isoDay(6)}&to=${isoDay(0)}`, cookie);
    const counted = await sampler.stop();
    console.log(
      `every list claiming 1e11: ${trend.what} HTTP ${trend.status} in ${trend.seconds.toFixed(2)} s (visitor figures counted, not listed); ` +
        `peak RSS growth ${mb(counted.peakRss - baseline)} MB; ${healthSummary(counted)}`,
    );
  } finally {
    server.stop();
  }
}

async function abortedYear(): Promise<void> {
  const server = await startProductionServer();
  try {
    const cookie = await signIn(server.base, { demo: "free" });
    const abort = new AbortController();
    const before = await upstreamCalls(server);
    const request = fetch(`${server.base}/api/insights/trend?from=${isoDay(364)}&to=${isoDay(0)}`, { headers: { cookie }, signal: abort.signal }).catch(
      () => null,
    );
    await sleep(3000);
    abort.abort();
    await request;
    const atAbort = await upstreamCalls(server);
    await sleep(20_000);
    const after = (await upstreamCalls(server)) - atAbort;
    console.log(
      `Free key, a 365-day trend (by week) aborted after 3 s: ${atAbort - before} upstream calls before the abort, ${after} in the 20 s after it ` +
        `(goal < ${GOALS.callsAfterAbort}) ${after < GOALS.callsAfterAbort ? "ok" : "OVER"}`,
    );
  } finally {
    server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Child: the mention pipeline's heap over 732 days at the cap, folding vs holding.

type HeapResult = { rows: number; pages: number; foldPeakMb: number; foldRetainedMb: number; holdPeakMb: number; seconds: number };

async function pipelineHeap(): Promise<HeapResult> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const { listDays } = await import("../lib/insights/listing");
  const { MENTION_DAYS } = await import("../lib/insights/mentions");
  const { MemoryCacheStore, SingleFlight } = await import("../lib/data-api/cache");
  type Mention = import("../lib/data-api/schemas").Mention;
  type ListEnvelope<T> = import("../lib/data-api/schemas").ListEnvelope<T>;

  const DAYS = 732;
  const TOTAL = 100_000;
  const start = Date.parse("2024-11-25T00:00:00Z");
  const days = Array.from({ length: DAYS }, (_, i) => ({
    date: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
    startMs: start + i * 86_400_000,
    endMs: start + (i + 1) * 86_400_000,
  }));
  const span = { startMs: days[0]!.startMs, endMs: days.at(-1)!.endMs, days };
  const platforms = ["chatgpt", "claude", "perplexity", "gemini"];
  const sentiments = ["positive", "neutral", "negative"];
  const row = (n: number): Mention => ({
    id: `men_${n.toString(36).padStart(8, "0")}`,
    platform: platforms[n % 4],
    sentiment: sentiments[n % 3],
    position: (n % 7) + 1,
    query: `how does brand ${n % 50} compare for use case ${n % 13}?`,
    response_snippet: `A response of some length that names the brand and its competitors, number ${n}, as a real snippet would. `.repeat(3),
    competitors_mentioned: [`Competitor ${n % 9}`, `Competitor ${(n + 3) % 9}`, `Competitor ${(n + 5) % 9}`],
    created_at: new Date(start + (n % DAYS) * 86_400_000 + (n % 86_400) * 1000).toISOString(),
  });
  const page = async (offset: number): Promise<ListEnvelope<Mention>> => {
    await new Promise((r) => setImmediate(r));
    const data: Mention[] = [];
    for (let n = offset; n < Math.min(TOTAL, offset + 100); n++) data.push(row(n));
    return { data, meta: { total: TOTAL, limit: 100, offset } };
  };
  let peak = 0;
  const note = () => (peak = Math.max(peak, process.memoryUsage().heapUsed));
  const resource = { ...MENTION_DAYS.resource, page: async (_api: unknown, q: { offset: number }) => page(q.offset).finally(note) };
  const ictx = {
    api: {} as never,
    store: new MemoryCacheStore(),
    state: { plans: new Map(), listings: new Map(), flights: new SingleFlight() },
    policy: { strategy: "auto" as const, gatherMs: 0 },
    now: () => Date.now(),
    ttl: { closedMs: 1, openMs: 1 },
    ttlFor: () => 1,
    maxListedRows: TOTAL,
  };

  gc();
  let base = process.memoryUsage().heapUsed;
  peak = base;
  const started = performance.now();
  const read = await listDays(ictx, span, { ...MENTION_DAYS, resource });
  const seconds = (performance.now() - started) / 1000;
  if (read.kind !== "summed" || !read.exact) throw new Error(`the listing was not exact: ${JSON.stringify(read).slice(0, 200)}`);
  const foldPeak = peak - base;
  gc();
  const retained = process.memoryUsage().heapUsed - base;
  const summaries = read.days.length;

  // The listing before the fix: every page kept until the last one, then summarised.
  gc();
  base = process.memoryUsage().heapUsed;
  peak = base;
  const held: Mention[] = [];
  for (let offset = 0; offset < TOTAL; offset += 100) {
    held.push(...(await page(offset)).data);
    note();
  }
  const holdPeak = peak - base;
  if (held.length !== TOTAL || summaries !== DAYS) throw new Error("unexpected sizes");
  return { rows: TOTAL, pages: TOTAL / 100, foldPeakMb: foldPeak / 2 ** 20, foldRetainedMb: retained / 2 ** 20, holdPeakMb: holdPeak / 2 ** 20, seconds };
}

const self = fileURLToPath(import.meta.url);

export async function run(): Promise<void> {
  const heap = await runBenchChild<HeapResult>(self, "heap", { LISTING_BOUNDS_BENCH_CHILD: "1" }, ["--expose-gc"]);
  console.log(
    `mention pipeline, 732 days, ${heap.rows.toLocaleString("en-US")} rows (${heap.pages} pages, the cap) folded as they arrive: heap peak +${heap.foldPeakMb.toFixed(1)} MB, ` +
      `+${heap.foldRetainedMb.toFixed(1)} MB after (day summaries), ${heap.seconds.toFixed(2)} s; the same pages held to the end (the listing before): heap peak +${heap.holdPeakMb.toFixed(1)} MB`,
  );
  if (!benchBuild("server parts skipped")) return;
  await absurdTotal();
  await abortedYear();
}

benchChildMain("LISTING_BOUNDS_BENCH_CHILD", [{ id: "heap" }], pipelineHeap);
