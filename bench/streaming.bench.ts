// Streaming pages against a slow upstream: starts the production entry (`npm start`: front server +
// Next in one process, the sandbox as a child) with SANDBOX_LATENCY_MS=300 and the server's response
// cache off (every page view reaches the upstream), signs in with the Pro demo key, and measures on
// `/` and `/visitors`:
// - time to first byte of the HTML (raw node:http: the response's first body chunk), and to its end;
// - in Chromium, time from navigation start to the last widget: no `data-testid="loading"` left and
//   the page's heading shown (polled every animation frame), and the browser's own responseStart;
// - the slowest upstream call of each page, made directly to the sandbox with the same latency.
// Goals (issue 10): TTFB < 200 ms (the shell leaves before any upstream answer) and last widget
// about the slowest upstream call + 300 ms. Needs a build in BENCH_DIST_DIR (default .next).
import { request } from "node:http";
import { DEMO_KEYS } from "../sandbox/keys";
import { benchBuild, browserCookie, launchChromium, signIn, startProductionServer } from "./support";

export const name = "streaming: time to first byte and to the last widget on / and /visitors, upstream latency 300 ms";

const LATENCY_MS = 300;
const RUNS = Number(process.env.STREAMING_RUNS ?? 5);
const TTFB_GOAL_MS = 200;
/** The Data API calls each page makes (the slowest of them bounds when its last widget can show). */
const PAGES: Record<string, string[]> = {
  "/": ["/analytics/overview?period=30d", "/analytics/traffic?period=30d", "/analytics/funnel?period=30d", "/intelligence/score", "/intelligence/ranking"],
  "/visitors": ["/visitors?limit=20&offset=0"],
};

declare global {
  interface Window {
    __lastWidgetAt?: number;
  }
}

/**
 * Runs in the page from its first byte: every animation frame, notes the time (since navigation
 * start) at which the page last became complete: its heading shown and no widget loading. Noting
 * each change to complete, not the first, keeps a moment between two chunks from counting. A string,
 * so no helper the TypeScript loader adds to functions is sent to the page.
 */
const RECORD_LAST_WIDGET = `(() => {
  let complete = false;
  const check = () => {
    const now = document.querySelector("main h1") !== null && document.querySelector('[data-testid="loading"]') === null;
    if (now && !complete) window.__lastWidgetAt = performance.now();
    complete = now;
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;

/** GET `url` with `cookie`: ms to the response headers, to the first body chunk, and to the end. */
function timeHtml(url: string, cookie: string): Promise<{ headers: number; firstByte: number; end: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let headers = 0;
    let firstByte = 0;
    const req = request(url, { headers: { Cookie: cookie, Accept: "text/html" } }, (res) => {
      headers = performance.now() - started;
      res.on("data", () => {
        if (!firstByte) firstByte = performance.now() - started;
      });
      res.on("end", () => resolve({ headers, firstByte, end: performance.now() - started, status: res.statusCode ?? 0 }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** The slowest of a page's upstream calls, made directly to the sandbox (same key, same latency). */
async function slowestUpstream(sandboxBase: string, paths: string[]): Promise<number> {
  const times = await Promise.all(
    paths.map(async (p) => {
      const started = performance.now();
      const res = await fetch(`${sandboxBase}/v1${p}`, { headers: { Authorization: `Bearer ${DEMO_KEYS.pro}` } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`sandbox ${p}: HTTP ${res.status}`);
      return performance.now() - started;
    }),
  );
  return Math.max(...times);
}

export async function run(): Promise<void> {
  if (!benchBuild()) return;
  const server = await startProductionServer({
    SANDBOX_LATENCY_MS: String(LATENCY_MS),
    SANDBOX_NOW: "2026-11-20T12:00:00Z",
    // Every page view goes to the upstream: the figures are cold views, not cache hits.
    DATA_API_CACHE_TTL_MS: "0",
  });
  const { base, sandboxBase } = server;
  try {
    const cookie = await signIn(base);
    const browser = await launchChromium();
    const context = await browser.newContext();
    await context.addCookies([browserCookie(cookie, base)]);
    await context.addInitScript({ content: RECORD_LAST_WIDGET });
    try {
      for (const [route, upstreamPaths] of Object.entries(PAGES)) {
        // Warm-up: the route's code loaded and compiled once, in the server and in the browser cache.
        await timeHtml(`${base}${route}`, cookie);
        const warm = await context.newPage();
        await warm.goto(`${base}${route}`, { waitUntil: "load" });
        await warm.close();

        const upstream: number[] = [];
        const html: Array<Awaited<ReturnType<typeof timeHtml>>> = [];
        const lastWidget: number[] = [];
        const browserTtfb: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          upstream.push(await slowestUpstream(sandboxBase, upstreamPaths));
          const timed = await timeHtml(`${base}${route}`, cookie);
          if (timed.status !== 200) throw new Error(`${route}: HTTP ${timed.status}`);
          html.push(timed);
          const page = await context.newPage();
          await page.goto(`${base}${route}`, { waitUntil: "commit" });
          // Complete, then nothing left to fetch, then still (or again) complete.
          for (const settle of [false, true]) {
            if (settle) await page.waitForLoadState("networkidle");
            await page.waitForFunction(() => window.__lastWidgetAt !== undefined && document.querySelector('[data-testid="loading"]') === null, undefined, {
              polling: "raf",
              timeout: 30_000,
            });
          }
          const [done, responseStart] = await page.evaluate(() => {
            const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
            return [window.__lastWidgetAt ?? NaN, nav.responseStart] as const;
          });
          lastWidget.push(done);
          browserTtfb.push(responseStart);
          await page.close();
        }
        const ttfb = median(html.map((h) => h.firstByte));
        const slowest = median(upstream);
        const last = median(lastWidget);
        console.log(
          `${route.padEnd(9)} TTFB ${ms(ttfb)} (headers ${ms(median(html.map((h) => h.headers)))}, browser responseStart ${ms(median(browserTtfb))}; goal < ${TTFB_GOAL_MS} ms ${ttfb < TTFB_GOAL_MS ? "ok" : "OVER"}), ` +
            `HTML complete ${ms(median(html.map((h) => h.end)))}; last widget ${ms(last)} (max ${ms(Math.max(...lastWidget))}); ` +
            `slowest upstream call ${ms(slowest)}: last widget = slowest + ${ms(last - slowest)} (goal about + 300 ms). Medians of ${RUNS}.`,
        );
      }
    } finally {
      await browser.close();
    }
  } finally {
    server.stop();
  }
}
