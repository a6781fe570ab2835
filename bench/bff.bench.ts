// The BFF's cost, in two measurements on loopback in the same run:
// 1. the route handler's own code, called in-process without Next (session unseal, validation,
//    scheduler, cache, upstream call, normalisation, JSON), against the direct sandbox call (Node's
//    global fetch), interleaved with the same call through the BFF's transport alone (upstreamFetch);
// 2. GET /api/visitors through a real `next start` (adds Next's request pipeline and proxy.ts):
//    latency (median/p95) and throughput against the same call made directly to the sandbox, on
//    cache misses (every request a different page), with the cache's effect on repeated calls and
//    an empty route (/api/health) as Next's own floor.
// Rate limits are taken out of the picture on both sides (the sandbox gets a clock that puts each
// request in a fresh window; the BFF a fixed, huge DATA_API_RATE_BUDGET): this measures the proxy,
// not the plan. Part 2 needs a build in .next-d (`NEXT_DIST_DIR=.next-d npx next build`, or set BENCH_DIST_DIR).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sealData } from "iron-session";
import { DEMO_KEYS } from "../sandbox/keys";
import { startSandbox } from "../sandbox/server";
import { BENCH_SESSION_SECRET, freePort, waitFor } from "./support";

export const name = "bff: GET /api/visitors, the handler alone and through next start, vs direct to the sandbox";

const N_LATENCY = 400;
const N_THROUGHPUT = 1500;
const CONCURRENCY = 16;
const THROUGHPUT_ROUNDS = 3;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

async function get(url: string, headers: Record<string, string>): Promise<void> {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
}

type Target = { label: string; url: (i: number) => string; headers: Record<string, string> };

/** Sequential latency, alternating between targets so both see the same machine conditions. */
async function latency(targets: Target[], n: number): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(targets.map((t) => [t.label, []]));
  for (let i = 0; i < n; i++) {
    for (const t of targets) {
      const started = performance.now();
      await get(t.url(i), t.headers);
      times.get(t.label)!.push(performance.now() - started);
    }
  }
  for (const list of times.values()) list.sort((a, b) => a - b);
  return times;
}

async function throughput(t: Target, n: number, offset: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        const i = next++;
        await get(t.url(offset + i), t.headers);
      }
    }),
  );
  return n / ((performance.now() - started) / 1000);
}

/**
 * The handler alone, without Next: the route function called in-process (session unseal,
 * validation, scheduler, cache, upstream call, normalisation, JSON) against the direct call.
 * Runs in a child process with the react-server condition, where `server-only` imports resolve.
 */
async function inProcessChild(): Promise<void> {
  let tick = 0;
  const sandbox = await startSandbox({ port: 0, now: "2026-11-20T12:00:00Z", visitors: 20_000, clock: () => Date.now() + ++tick * 61_000 });
  process.env.DATA_API_BASE_URL = sandbox.baseUrl;
  process.env.SESSION_SECRET = BENCH_SESSION_SECRET;
  process.env.DATA_API_RATE_BUDGET = "100000/s,10000000/min";
  const { answerAsNext } = await import("../testing/api-routes");
  const { sealSession } = await import("../lib/server/session");
  const { upstreamFetch } = await import("../lib/server/upstream-transport");
  const cookie = `wa_session=${await sealSession(DEMO_KEYS.pro)}`;
  const direct: number[] = [];
  const transport: number[] = [];
  const handler: number[] = [];
  for (let i = 0; i < 60 + N_LATENCY; i++) {
    const headers = { Authorization: `Bearer ${DEMO_KEYS.pro}` };
    let started = performance.now();
    await get(`${sandbox.baseUrl}/visitors?limit=20&offset=${i}`, headers);
    if (i >= 60) direct.push(performance.now() - started);
    // The same call through the BFF's transport (undici.request on its keep-alive Agent).
    started = performance.now();
    await (await upstreamFetch(`${sandbox.baseUrl}/visitors?limit=20&offset=${i}`, { headers })).arrayBuffer();
    if (i >= 60) transport.push(performance.now() - started);
    started = performance.now();
    const req = new Request(`http://127.0.0.1/api/visitors?limit=20&offset=${i}`, { headers: { cookie } });
    const res = await answerAsNext(req);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`handler: HTTP ${res.status}`);
    if (i >= 60) handler.push(performance.now() - started);
  }
  for (const list of [direct, transport, handler]) list.sort((a, b) => a - b);
  console.log(
    `direct  /v1/visitors (in-process run)   n=${direct.length}  median ${quantile(direct, 0.5).toFixed(2)} ms  p95 ${quantile(direct, 0.95).toFixed(2)} ms`,
  );
  console.log(
    `same via upstreamFetch (undici.request) n=${transport.length}  median ${quantile(transport, 0.5).toFixed(2)} ms  p95 ${quantile(transport, 0.95).toFixed(2)} ms`,
  );
  console.log(
    `handler GET /api/visitors, no Next (miss)  n=${handler.length}  median ${quantile(handler, 0.5).toFixed(2)} ms  p95 ${quantile(handler, 0.95).toFixed(2)} ms`,
  );
  console.log(`the handler's code adds at the median: ${(quantile(handler, 0.5) - quantile(direct, 0.5)).toFixed(2)} ms   (target <= 2 ms)`);
  await sandbox.close();
}

function runInProcessChild(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", fileURLToPath(import.meta.url)], {
      env: { ...process.env, BFF_BENCH_CHILD: "1" },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`in-process bench exited with ${code}`))));
  });
}

if (process.env.BFF_BENCH_CHILD) {
  inProcessChild().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

export async function run(): Promise<void> {
  await runInProcessChild();
  const distDir = process.env.BENCH_DIST_DIR ?? ".next-d";
  if (!existsSync(path.join(distDir, "BUILD_ID"))) {
    console.log(`skipped: no Next build in ${distDir} (run \`NEXT_DIST_DIR=${distDir} npx next build\` first)`);
    return;
  }
  // Each request lands in a fresh rate-limit window of the sandbox.
  let tick = 0;
  const sandbox = await startSandbox({ port: 0, now: "2026-11-20T12:00:00Z", visitors: 20_000, clock: () => Date.now() + ++tick * 61_000 });
  const port = await freePort();
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const child: ChildProcess = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_DIST_DIR: distDir,
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_API_BASE_URL: sandbox.baseUrl,
      SESSION_SECRET: BENCH_SESSION_SECRET,
      DATA_API_RATE_BUDGET: "100000/s,10000000/min",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    const app = `http://127.0.0.1:${port}`;
    await waitFor(`${app}/api/health`, 60_000);
    const cookie = `wa_session=${await sealData({ apiKey: DEMO_KEYS.pro, iat: Date.now(), sid: crypto.randomUUID() }, { password: BENCH_SESSION_SECRET, ttl: 8 * 3600 })}`;

    // Visitors pages of 20 (a ~6 KB body); offsets keep every request a cache miss.
    const direct: Target = {
      label: "direct  /v1/visitors",
      url: (i) => `${sandbox.baseUrl}/visitors?limit=20&offset=${i % 19_000}`,
      headers: { Authorization: `Bearer ${DEMO_KEYS.pro}`, "Content-Type": "application/json" },
    };
    const bff: Target = { label: "BFF     /api/visitors (miss)", url: (i) => `${app}/api/visitors?limit=20&offset=${i % 19_000}`, headers: { cookie } };
    const hit: Target = { label: "BFF     /api/visitors (cache hit)", url: () => `${app}/api/visitors?limit=20&offset=42`, headers: { cookie } };
    // The sandbox never compresses; through Next, fetch's default Accept-Encoding gets a gzipped body
    // (as a browser would). This variant shows what that costs; the target is judged on `bff`.
    // Its offsets (12000+) never meet the other targets' (cache misses throughout).
    const identity: Target = {
      label: "BFF     /api/visitors (miss, identity)",
      url: (i) => bff.url(12_000 + i),
      headers: { cookie, "Accept-Encoding": "identity" },
    };
    // Next's own floor: a route that does nothing (no session, no upstream).
    const floor: Target = { label: "Next    /api/health (floor)", url: () => `${app}/api/health`, headers: {} };

    // Warm-up: JIT, Next's route compilation caches, connection pools.
    await latency([direct, bff, hit, identity, floor], 60);

    const lat = await latency([direct, bff, hit, identity, floor], N_LATENCY);
    for (const [label, list] of lat) {
      console.log(`${label.padEnd(36)} n=${list.length}  median ${quantile(list, 0.5).toFixed(2)} ms  p95 ${quantile(list, 0.95).toFixed(2)} ms`);
    }
    const added = quantile(lat.get(bff.label)!, 0.5) - quantile(lat.get(direct.label)!, 0.5);
    const med = (t: Target) => quantile(lat.get(t.label)!, 0.5);
    console.log(`BFF adds at the median (miss):       ${added.toFixed(2)} ms   (target <= 2 ms)`);
    // An empty Next route costs (floor - direct) over a bare loopback request; the rest is ours.
    console.log(
      `  Next's own cost (empty route - direct): ${(med(floor) - med(direct)).toFixed(2)} ms; ` +
        `this app's handler (BFF - empty route - upstream call): ${(med(bff) - med(floor) - med(direct)).toFixed(2)} ms`,
    );

    // Rounds alternate between the targets (and the median round counts), so a burst of load from
    // elsewhere on the machine does not land on one side only. Offsets differ per round: all misses.
    const rates = new Map<string, number[]>([direct, bff, hit, identity, floor].map((t) => [t.label, []]));
    for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
      for (const [t, offset] of [
        [direct, 1000],
        [bff, 5000],
        [hit, 0],
        [identity, 500],
        [floor, 0],
      ] as const) {
        rates.get(t.label)!.push(await throughput(t, N_THROUGHPUT, offset + round * N_THROUGHPUT));
      }
    }
    const rate = (t: Target) => median(rates.get(t.label)!);
    const [rDirect, rBff] = [rate(direct), rate(bff)];
    console.log(`throughput, ${CONCURRENCY} concurrent, n=${N_THROUGHPUT}, median of ${THROUGHPUT_ROUNDS} alternating rounds:`);
    console.log(
      `  direct ${rDirect.toFixed(0)} req/s   BFF miss ${rBff.toFixed(0)} req/s (${((rBff / rDirect) * 100).toFixed(0)}% of direct; target >= 50%)   BFF cache hit ${rate(hit).toFixed(0)} req/s   Next floor ${rate(floor).toFixed(0)} req/s`,
    );
    console.log(`  for comparison only: BFF miss without gzip (Accept-Encoding: identity, as the direct call gets) ${rate(identity).toFixed(0)} req/s`);
  } finally {
    child.kill("SIGTERM");
    await sandbox.close();
  }
}
