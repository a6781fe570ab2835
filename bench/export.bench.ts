// Exports as a user gets them: headless Chromium on /visitors (so the key is in interactive use and
// the scheduler keeps the dashboard's share), a click on Export, and the file arriving in the
// browser's own download, through the production entry (front server + Next + the sandbox it starts).
// For each run it measures:
// - time from the click to the last byte, as rows per minute against the plan's bound (Pro 1,000
//   requests of 100 rows a minute = 100,000 rows/min; Free 10,000 rows/min), and against the least
//   time the plan allows in bursts (lib/exports/rate-bound.ts), for reference;
// - every row in the file (compared with the sandbox's meta.total) and no 429 reaching the user;
// - server memory: RSS growth of the production entry's process (Next runs in it) during the export,
//   after a one-page export has loaded the export routes' code and a full GC; its V8 heap (heapUsed,
//   through the entry's inspector: no GC forced during the export, so garbage counts as it does in
//   RSS), and both again 2 s after the download ended and a full GC (what the export left behind);
// - browser memory: JS heap growth of the page during the download, through the Chrome DevTools
//   protocol (Runtime.getHeapUsage), both its peak and what stays after a forced GC.
// Needs a build (`npx next build`, or BENCH_DIST_DIR).
import { readFile } from "node:fs/promises";
import { DEMO_KEYS } from "../sandbox/keys";
import { minSecondsForRequests, pagesFor } from "../lib/exports/rate-bound";
import { benchBuild, browserCookie, launchChromium, signIn, startProductionServer, type BenchServer } from "./support";

export const name = "exports in Chromium: 100,000 visitors on Pro and 20,000 on Free against the plan's bound; server and browser memory";

const NOW = "2026-11-20T12:00:00Z";
const PLANS = { Pro: { perSecond: 50, perMinute: 1000 }, Free: { perSecond: 10, perMinute: 100 } } as const;

type Scenario = { id: string; plan: keyof typeof PLANS; visitors: number; demo: "pro" | "free"; key: string; target: string; meets: (r: Result) => boolean };

type Result = {
  rows: number;
  total: number;
  seconds: number;
  rowsPerMinute: number;
  boundRowsPerMinute: number;
  burstBoundSeconds: number;
  upstream429: number;
  failure: string | null;
  serverRssGrowthMb: number;
  serverHeapUsedGrowthMb: number;
  serverRssAfterGcGrowthMb: number;
  serverHeapAfterGcGrowthMb: number;
  browserHeapPeakGrowthMb: number;
  browserHeapAfterGcGrowthMb: number;
};

const mb = (bytes: number) => bytes / 2 ** 20;

const SCENARIOS: Scenario[] = [
  {
    id: "pro-100k",
    plan: "Pro",
    visitors: 100_000,
    demo: "pro",
    key: DEMO_KEYS.pro,
    target: ">= 90% of 100,000 rows/min, server RSS growth < 50 MB, browser JS heap growth < 5 MB",
    meets: (r) => r.rowsPerMinute >= 0.9 * r.boundRowsPerMinute && r.serverRssGrowthMb < 50 && r.browserHeapAfterGcGrowthMb < 5,
  },
  {
    id: "free-20k",
    plan: "Free",
    visitors: 20_000,
    demo: "free",
    key: DEMO_KEYS.free,
    target: "within 5% of 10,000 rows/min",
    meets: (r) => r.rowsPerMinute >= 0.95 * r.boundRowsPerMinute,
  },
];

/** RSS of a process (Linux /proc), in bytes. */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

async function sandboxTotal(server: BenchServer, key: string): Promise<number> {
  const res = await fetch(`${server.sandboxBase}/v1/visitors?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
  return ((await res.json()) as { meta: { total: number } }).meta.total;
}

async function runScenario(scenario: Scenario): Promise<Result> {
  const server = await startProductionServer({ SANDBOX_VISITORS: String(scenario.visitors), SANDBOX_NOW: NOW, DATA_API_CACHE_TTL_MS: "0" }, { inspect: true });
  const inspector = server.inspector!;
  const browser = await launchChromium();
  try {
    const total = await sandboxTotal(server, scenario.key);
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
    await context.addCookies([browserCookie(await signIn(server.base, { demo: scenario.demo }), server.base)]);
    const page = await context.newPage();
    await page.goto(`${server.base}/visitors`);
    const button = page.getByTestId("export-visitors").getByRole("button", { name: /^Export [\d,]+ rows$/ });
    await button.waitFor({ timeout: 60_000 });
    await page
      .getByTestId("loading")
      .first()
      .waitFor({ state: "detached", timeout: 60_000 })
      .catch(() => undefined);

    // Warm-up: a one-page export and a status read load the export routes' code into the server
    // (and compile it), a one-time cost that is not the export's memory.
    const warm = await page.request.get(`${server.base}/api/export/visitors?source=claude&converted=true&intent=support&format=csv`);
    await warm.body();
    await page.request.get(`${server.base}/api/export/status`);
    await page.waitForTimeout(2000);

    const cdp = await context.newCDPSession(page);
    const heapUsed = async (gc: boolean) => {
      if (gc) await cdp.send("HeapProfiler.collectGarbage");
      return (await cdp.send("Runtime.getHeapUsage")).usedSize;
    };
    const baseHeap = await heapUsed(true);
    const baseServerHeap = (await inspector.memory(true)).heapUsed;
    const baseRss = await rssOf(server.pid);
    let peakHeap = baseHeap;
    let afterGcHeap = baseHeap;
    let peakRss = baseRss;
    let peakServerHeap = baseServerHeap;
    let sampling = true;
    const sampler = (async () => {
      for (let i = 0; sampling; i++) {
        peakRss = Math.max(peakRss, await rssOf(server.pid));
        peakServerHeap = Math.max(peakServerHeap, (await inspector.memory(false)).heapUsed);
        peakHeap = Math.max(peakHeap, await heapUsed(false));
        // Every second, what the page really keeps (garbage collected first).
        if (i % 4 === 0) afterGcHeap = Math.max(afterGcHeap, await heapUsed(true));
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    const started = performance.now();
    const downloading = page.waitForEvent("download", { timeout: 300_000 });
    await button.click();
    const download = await downloading;
    const path = await download.path().catch(() => null);
    const seconds = (performance.now() - started) / 1000;
    sampling = false;
    await sampler;
    // What the export left behind: the server's memory once it settled and collected its garbage.
    await new Promise((r) => setTimeout(r, 2000));
    const settledServerHeap = (await inspector.memory(true)).heapUsed;
    const settledRss = await rssOf(server.pid);
    const failure = await download.failure();
    const text = path ? await readFile(path, "utf8") : "";
    // CSV: one line per row after the header (values are quoted; the sandbox's have no line breaks).
    const rows = text ? text.split("\r\n").filter(Boolean).length - 1 : 0;
    const stats = (await (await fetch(`${server.sandboxBase}/sandbox/stats`)).json()) as { rateLimited: number };
    const plan = PLANS[scenario.plan];
    return {
      rows,
      total,
      seconds,
      rowsPerMinute: (rows / seconds) * 60,
      boundRowsPerMinute: plan.perMinute * 100,
      burstBoundSeconds: minSecondsForRequests(pagesFor(total), plan),
      upstream429: stats.rateLimited,
      failure,
      serverRssGrowthMb: mb(peakRss - baseRss),
      serverHeapUsedGrowthMb: mb(peakServerHeap - baseServerHeap),
      serverRssAfterGcGrowthMb: mb(settledRss - baseRss),
      serverHeapAfterGcGrowthMb: mb(settledServerHeap - baseServerHeap),
      browserHeapPeakGrowthMb: mb(peakHeap - baseHeap),
      browserHeapAfterGcGrowthMb: mb(afterGcHeap - baseHeap),
    };
  } finally {
    await browser.close();
    server.stop();
  }
}

const f1 = (n: number) => n.toFixed(1);
const int = (n: number) => Math.round(n).toLocaleString("en-US");

export async function run(): Promise<void> {
  if (!benchBuild("export bench skipped")) return;
  const missed: string[] = [];
  for (const scenario of SCENARIOS) {
    const r = await runScenario(scenario);
    const complete = r.failure === null && r.rows === r.total;
    console.log(
      `${scenario.id.padEnd(9)} ${int(r.rows)}/${int(r.total)} rows in ${f1(r.seconds)} s = ${int(r.rowsPerMinute)} rows/min, ` +
        `${f1((r.rowsPerMinute / r.boundRowsPerMinute) * 100)}% of the plan's ${int(r.boundRowsPerMinute)} rows/min ` +
        `(least time in bursts with nobody at the dashboard: ${f1(r.burstBoundSeconds)} s); download ${r.failure ?? "complete"}; ${r.upstream429} upstream 429s`,
    );
    console.log(
      `${"".padEnd(9)} server RSS growth ${f1(r.serverRssGrowthMb)} MB (V8 heapUsed ${f1(r.serverHeapUsedGrowthMb)} MB); after the end and a GC ` +
        `${f1(r.serverRssAfterGcGrowthMb)} MB (heapUsed ${f1(r.serverHeapAfterGcGrowthMb)} MB); browser JS heap growth ${f1(r.browserHeapAfterGcGrowthMb)} MB after GC (peak ${f1(r.browserHeapPeakGrowthMb)} MB)`,
    );
    if (!complete || !scenario.meets(r)) missed.push(`${scenario.id} (${scenario.target})`);
  }
  console.log(
    missed.length === 0
      ? "targets met: every row downloaded; " + SCENARIOS.map((s) => `${s.id} ${s.target}`).join("; ")
      : `TARGETS MISSED: ${missed.join(", ")}`,
  );
}
