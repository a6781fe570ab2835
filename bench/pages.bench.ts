// Page weight and Lighthouse: first-load JavaScript per route (the gzip size of every script the
// page loads up to its load event, measured in Chromium), whether recharts is among it, and
// Lighthouse 12 (mobile defaults) performance + accessibility on `/` and `/visitors`. Runs the
// sandbox in-process and `next start` on the default build (.next; run `npx next build` first).
// Budgets (issue 4): <= 180 KB on /visitors and /mentions, <= 260 KB on chart pages; Lighthouse
// performance >= 90 and accessibility 100.
import { spawn } from "node:child_process";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { DEMO_KEYS } from "../sandbox/keys";
import { startSandbox } from "../sandbox/server";
import { BENCH_SESSION_SECRET, benchBuild, CHROMIUM, browserCookie, freePort, launchChromium, signIn, waitFor } from "./support";

export const name = "pages: first-load JS per route (gzip) and Lighthouse (mobile)";

const BUDGET_KB: Record<string, number> = { "/visitors": 180, "/mentions": 180, "/": 260, "/intelligence": 260 };

type LighthouseResult = {
  environment?: { benchmarkIndex?: number };
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string }> } | undefined>;
  audits: Record<string, { score: number | null; displayValue?: string }>;
};

function runLighthouse(url: string, cookie: string): Promise<LighthouseResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join("node_modules", "lighthouse", "cli", "index.js"),
        url,
        "--quiet",
        "--output=json",
        "--output-path=stdout",
        "--only-categories=performance,accessibility",
        `--extra-headers=${JSON.stringify({ Cookie: cookie })}`,
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`lighthouse exited ${code}: ${err.slice(-500)}`));
      try {
        resolve(JSON.parse(out) as LighthouseResult);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

export async function run(): Promise<void> {
  const distDir = benchBuild();
  if (!distDir) return;
  const sandbox = await startSandbox({ port: 0, now: "2026-11-20T12:00:00Z" });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const next = spawn(path.join("node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...process.env, NEXT_DIST_DIR: distDir, DATA_API_BASE_URL: sandbox.baseUrl, SESSION_SECRET: BENCH_SESSION_SECRET, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "ignore",
  });
  try {
    await waitFor(`${base}/api/health`, 60_000);
    // By key: demo ids are only offered when the app's own entry started the sandbox.
    const cookie = await signIn(base, { apiKey: DEMO_KEYS.pro });
    const visitorId = ((await (await fetch(`${base}/api/visitors?limit=1`, { headers: { Cookie: cookie } })).json()) as { data: Array<{ id: string }> })
      .data[0]!.id;

    // First-load JS per route.
    const browser = await launchChromium();
    const routes = ["/sign-in", "/", "/visitors", `/visitors/${visitorId}`, "/mentions", "/intelligence", "/settings"];
    console.log("first-load = scripts loaded by the load event; +later = chunks loaded after it (the lazily loaded charts)");
    console.log("route                          scripts   raw KB   gzip KB  +later KB  recharts  budget (first-load)");
    for (const route of routes) {
      const context = await browser.newContext();
      if (route !== "/sign-in") await context.addCookies([browserCookie(cookie, base)]);
      const page = await context.newPage();
      const bodies: Buffer[] = [];
      const later: Buffer[] = [];
      const pending: Array<Promise<void>> = [];
      let loaded = false;
      page.on("response", (res) => {
        if (res.request().resourceType() !== "script" || !res.url().startsWith(base)) return;
        const into = loaded ? later : bodies;
        pending.push(
          res
            .body()
            .then((b) => void into.push(b))
            .catch(() => undefined),
        );
      });
      await page.goto(`${base}${route}`, { waitUntil: "load" });
      loaded = true;
      // Let the page settle (lazy chunks, widgets) before counting what came later.
      await page.waitForLoadState("networkidle").catch(() => undefined);
      await Promise.all(pending);
      const raw = bodies.reduce((s, b) => s + b.length, 0);
      const gz = bodies.reduce((s, b) => s + gzipSync(b, { level: 6 }).length, 0);
      const gzLater = later.reduce((s, b) => s + gzipSync(b, { level: 6 }).length, 0);
      const recharts = bodies.some((b) => b.includes("recharts-wrapper")) ? "first" : later.some((b) => b.includes("recharts-wrapper")) ? "later" : "no";
      const label = route.startsWith("/visitors/") ? "/visitors/[id]" : route;
      const budget = BUDGET_KB[label];
      const verdict = budget === undefined ? "" : `${(gz / 1024).toFixed(1)} <= ${budget} ${gz / 1024 <= budget ? "ok" : "OVER"}`;
      console.log(
        `${label.padEnd(30)} ${String(bodies.length).padStart(7)} ${(raw / 1024).toFixed(1).padStart(8)} ${(gz / 1024).toFixed(1).padStart(9)} ${(gzLater / 1024).toFixed(1).padStart(10)}  ${recharts.padEnd(8)}  ${verdict}`,
      );
      await context.close();
    }
    await browser.close();

    // Lighthouse (mobile defaults: emulated phone, simulated throttling). Its CLI runs under plain
    // node: functions it sends to the page must not carry tsx's injected helpers.
    // The median of RUNS runs: a shared machine makes single runs noisy.
    const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
    for (const route of ["/", "/visitors"]) {
      const runs: LighthouseResult[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await runLighthouse(`${base}${route}`, cookie));
      const perf = (r: LighthouseResult) => r.categories.performance?.score ?? 0;
      runs.sort((a, b) => perf(a) - perf(b));
      const lhr = runs[Math.floor(runs.length / 2)]!;
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const metric = (id: string) => lhr.audits[id]?.displayValue ?? "—";
      console.log(
        `lighthouse ${route.padEnd(10)} performance ${score("performance")} (runs: ${runs.map((r) => Math.round(perf(r) * 100)).join(", ")})  accessibility ${score("accessibility")}  ` +
          `(FCP ${metric("first-contentful-paint")}, LCP ${metric("largest-contentful-paint")}, TBT ${metric("total-blocking-time")}, CLS ${metric("cumulative-layout-shift")}; ` +
          `machine benchmarkIndex ${Math.round(lhr.environment?.benchmarkIndex ?? 0)})`,
      );
      const a11yIds = new Set((lhr.categories.accessibility?.auditRefs ?? []).map((r) => r.id));
      const failing = Object.entries(lhr.audits).filter(([id, a]) => a11yIds.has(id) && a.score !== null && a.score < 1);
      if (failing.length) console.log(`  accessibility audits below 100: ${failing.map(([id]) => id).join(", ")}`);
    }
  } finally {
    next.kill("SIGTERM");
    await sandbox.close();
  }
}
