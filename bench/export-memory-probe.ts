// A diagnostic run by hand (not part of `npm run bench`): where the server's memory goes while one
// Pro export of 100,000 visitors downloads. Starts the production entry with its inspector, then
// downloads the export with `chromium` (the page's Export button, as bench/export.bench.ts) or
// `plain` (undici reading the URL, the status polled every second as the tray does), and prints
// every 2 s the growth of RSS and of process.memoryUsage() (heapUsed, heapTotal, external,
// arrayBuffers) over a baseline taken after a full GC, then the peaks, then the same 3 s after the
// end and a full GC. Options:
// - `gc`: every sample after a forced full GC (what is really held, rather than garbage);
// - `writes`: counts the export response's writes, those refused (false: backpressure) and how long
//   each wait for 'drain' took, and the server's responses by path;
// - `profile`: V8's sampling heap profiler during the download, keeping only the allocations that a
//   minor GC did not free (promoted or pretenured into the old generation), by allocating function;
//   `profile all` keeps every allocation.
// PROBE_NODE_FLAGS adds node flags to the entry (e.g. `--trace-gc-nvp`), PROBE_SERVER_LOG names a
// file for its output. Usage: BENCH_DIST_DIR=.next npx tsx bench/export-memory-probe.ts chromium|plain [gc] [writes] [profile [all]]
import { readFile } from "node:fs/promises";
import { browserCookie, launchChromium, signIn, startProductionServer, type NodeInspector } from "./support";

const args = process.argv.slice(2);
const mode = args[0] === "plain" ? "plain" : "chromium";
const withGc = args.includes("gc");
const profile = args.includes("profile");
const countWrites = args.includes("writes");
const VISITORS = Number(process.env.PROBE_VISITORS ?? 100_000);

const mb = (n: number) => (n / 2 ** 20).toFixed(1);

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** Patches http.ServerResponse in the server to count the CSV response's writes and every response's path. */
const COUNT_WRITES = `(() => {
  const http = process.getBuiltinModule("node:http");
  const stats = (globalThis.__probeWrites = { writes: 0, bytes: 0, refused: 0, drainMs: [], maxBuffered: 0, paths: {} });
  const write = http.ServerResponse.prototype.write;
  http.ServerResponse.prototype.write = function (chunk, ...rest) {
    const ok = write.call(this, chunk, ...rest);
    if (String(this.getHeader("content-type") ?? "").startsWith("text/csv")) {
      stats.writes++;
      stats.bytes += chunk.length;
      stats.maxBuffered = Math.max(stats.maxBuffered, this.writableLength);
      if (!ok) {
        stats.refused++;
        const t = performance.now();
        this.once("drain", () => stats.drainMs.push(performance.now() - t));
      }
    }
    return ok;
  };
  const end = http.ServerResponse.prototype.end;
  http.ServerResponse.prototype.end = function (...rest) {
    const path = String(this.req?.url ?? "?").split("?")[0];
    stats.paths[path] = (stats.paths[path] ?? 0) + 1;
    return end.apply(this, rest);
  };
  return true;
})()`;

const WRITES = `(() => {
  const s = globalThis.__probeWrites;
  const d = s.drainMs.slice().sort((a, b) => a - b);
  const q = (p) => (d.length ? Number(d[Math.min(d.length - 1, Math.floor(p * d.length))].toFixed(1)) : null);
  return { writes: s.writes, bytes: s.bytes, refused: s.refused, maxBuffered: s.maxBuffered, drainMedianMs: q(0.5), drainP95Ms: q(0.95), drainMaxMs: q(1), drainTotalMs: Math.round(d.reduce((a, b) => a + b, 0)), responses: s.paths };
})()`;

type ProfileNode = { callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; selfSize: number; children: ProfileNode[] };

/** Sampled bytes by allocating function, and by its stack (up to 5 frames). */
function printProfile(head: ProfileNode) {
  const bySite = new Map<string, number>();
  const byStack = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode, stack: string[]) => {
    const where = node.callFrame.url.replace(/^.*\/(node_modules|\.next[^/]*)\//, "$1/");
    const frame = `${node.callFrame.functionName || "(anonymous)"} ${where}:${node.callFrame.lineNumber + 1}:${node.callFrame.columnNumber + 1}`;
    const next = [...stack, frame];
    if (node.selfSize > 0) {
      total += node.selfSize;
      bySite.set(frame, (bySite.get(frame) ?? 0) + node.selfSize);
      const key = next.slice(-5).reverse().join("  <-  ");
      byStack.set(key, (byStack.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, next);
  };
  walk(head, []);
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`sampled allocations${args.includes("all") ? "" : " not freed by a minor GC"}: ${mb(total)} MB`);
  for (const [site, size] of top(bySite, 20)) console.log(`  ${mb(size).padStart(6)} MB  ${site}`);
  console.log("by stack:");
  for (const [stack, size] of top(byStack, 12)) console.log(`  ${mb(size).padStart(6)} MB  ${stack}`);
}

async function main() {
  const nodeFlags = (process.env.PROBE_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  const server = await startProductionServer(
    { SANDBOX_VISITORS: String(VISITORS), SANDBOX_NOW: "2026-11-20T12:00:00Z", DATA_API_CACHE_TTL_MS: "0" },
    { inspect: true, nodeFlags, logFile: process.env.PROBE_SERVER_LOG },
  );
  const inspector: NodeInspector = server.inspector!;
  const browser = mode === "chromium" ? await launchChromium() : undefined;
  try {
    const { base } = server;
    const cookie = await signIn(base, { demo: "pro" });
    const warmUrl = `${base}/api/export/visitors?source=claude&converted=true&intent=support&format=csv`;
    let download: () => Promise<number>;
    if (browser) {
      const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
      await context.addCookies([browserCookie(cookie, base)]);
      const page = await context.newPage();
      await page.goto(`${base}/visitors`);
      const button = page.getByTestId("export-visitors").getByRole("button", { name: /^Export [\d,]+ rows$/ });
      await button.waitFor({ timeout: 60_000 });
      await page
        .getByTestId("loading")
        .first()
        .waitFor({ state: "detached", timeout: 60_000 })
        .catch(() => undefined);
      await (await page.request.get(warmUrl)).body();
      await page.request.get(`${base}/api/export/status`);
      await page.waitForTimeout(2000);
      download = async () => {
        const downloading = page.waitForEvent("download", { timeout: 300_000 });
        await button.click();
        const path = await (await downloading).path();
        return (await readFile(path, "utf8")).split("\r\n").filter(Boolean).length - 1;
      };
    } else {
      const headers = { cookie, "sec-fetch-site": "same-origin" };
      await (await fetch(warmUrl, { headers })).text();
      await (await fetch(`${base}/api/export/status`, { headers })).text();
      await new Promise((r) => setTimeout(r, 2000));
      download = async () => {
        let polling = true;
        const poller = (async () => {
          while (polling) {
            await (await fetch(`${base}/api/export/status`, { headers })).text();
            await new Promise((r) => setTimeout(r, 1000));
          }
        })();
        const res = await fetch(`${base}/api/export/visitors?format=csv`, { headers });
        let lines = 0;
        const reader = res.body!.getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) for (const byte of r.value) if (byte === 10) lines++;
        polling = false;
        await poller;
        return lines - 1;
      };
    }

    if (countWrites) await inspector.evaluate(COUNT_WRITES);
    const base0 = await inspector.memory(true);
    const baseRss = await rssOf(server.pid);
    console.log(
      `baseline after a full GC: rss ${mb(baseRss)} MB, heapUsed ${mb(base0.heapUsed)}, heapTotal ${mb(base0.heapTotal)}, external ${mb(base0.external)}, arrayBuffers ${mb(base0.arrayBuffers)}`,
    );
    if (profile) {
      await inspector.send("HeapProfiler.enable");
      await inspector.send("HeapProfiler.startSampling", {
        samplingInterval: 16384,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: args.includes("all"),
      });
    }
    const growth = (rss: number, m: typeof base0) =>
      `rss +${mb(rss - baseRss)} heapUsed +${mb(m.heapUsed - base0.heapUsed)} heapTotal +${mb(m.heapTotal - base0.heapTotal)} external +${mb(m.external - base0.external)} arrayBuffers +${mb(m.arrayBuffers - base0.arrayBuffers)}`;
    const peak = { rss: baseRss, ...base0 };
    let sampling = true;
    const started = performance.now();
    const sampler = (async () => {
      for (let i = 0; sampling; i++) {
        const rss = await rssOf(server.pid);
        const m = await inspector.memory(withGc);
        peak.rss = Math.max(peak.rss, rss);
        for (const k of ["heapUsed", "heapTotal", "external", "arrayBuffers"] as const) peak[k] = Math.max(peak[k], m[k]);
        if (i % 4 === 0) console.log(`t=${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s  ${growth(rss, m)}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    // V8's spaces (committed size) at the baseline and at their largest: young generation vs old.
    const SPACES = `Object.fromEntries(process.getBuiltinModule("node:v8").getHeapSpaceStatistics().map((s) => [s.space_name, s.physical_space_size]))`;
    const baseSpaces = await inspector.evaluate<Record<string, number>>(SPACES);
    const peakSpaces = { ...baseSpaces };
    const spaceSampler = (async () => {
      while (sampling) {
        for (const [name, size] of Object.entries(await inspector.evaluate<Record<string, number>>(SPACES)))
          peakSpaces[name] = Math.max(peakSpaces[name] ?? 0, size);
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    const rows = await download();
    const seconds = (performance.now() - started) / 1000;
    sampling = false;
    await sampler;
    await spaceSampler;
    console.log(
      `V8 spaces, largest growth (physical size): ${Object.entries(peakSpaces)
        .map(([name, size]) => `${name} +${mb(size - (baseSpaces[name] ?? 0))}`)
        .join(", ")}`,
    );
    console.log(`${mode}: ${rows} rows in ${seconds.toFixed(1)} s`);
    console.log(`peak growth${withGc ? " (samples after a full GC)" : ""}: ${growth(peak.rss, peak)}`);
    if (countWrites) console.log(`export response: ${JSON.stringify(await inspector.evaluate(WRITES))}`);
    if (profile) printProfile((await inspector.send<{ profile: { head: ProfileNode } }>("HeapProfiler.stopSampling")).profile.head);
    await new Promise((r) => setTimeout(r, 3000));
    const end = await inspector.memory(true);
    console.log(`3 s after the end, after a full GC: ${growth(await rssOf(server.pid), end)}`);
  } finally {
    await browser?.close();
    server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
