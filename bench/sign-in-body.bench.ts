// Memory of the server under an oversized sign-in body: starts the production entry (`npm start`:
// front server + Next in one process, the sandbox as a child) and sends POST /api/session bodies of
// 100 MB, chunked and with a declared Content-Length, as fast as the server takes them, from a client
// that stops at the answer (Node's http client) and from one that goes on sending its whole body
// whatever the server says (a raw socket, reading all the while), which the server's lingering close
// reads and drops up to its bound. Prints the server process's resident memory growth (sampled every
// 10 ms from /proc), how much of each body the client sent, and whether it read the 413. Goal: < 10
// MB growth (the outside review measured 300 MB for a 100 MB chunked body, and a crash into a 500 at
// 600 MB). Needs a build in BENCH_DIST_DIR (default .next; `npx next build` first).
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { rawUpload } from "../e2e/helpers/raw-http";
import { benchBuild, signIn, startProductionServer } from "./support";

export const name = "sign-in body: server memory growth for a 100 MB sign-in body (chunked, and declared)";

const BODY_BYTES = 100 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, "x");
const GOAL_MB = 10;

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : NaN;
}

type Upload = { status: number | string; sentMb: number; ms: number; error?: string | null };

/** Streams up to BODY_BYTES as one sign-in body; stops when the server answers or drops the connection. */
function upload(base: string, declared: boolean): Promise<Upload> {
  return new Promise((resolve) => {
    const started = performance.now();
    let sent = 0;
    let done = false;
    const finish = (status: number | string) => {
      if (done) return;
      done = true;
      req.destroy();
      resolve({ status, sentMb: sent / 1024 / 1024, ms: performance.now() - started });
    };
    const headers: Record<string, string> = { "Content-Type": "application/json", Origin: base };
    if (declared) headers["Content-Length"] = String(BODY_BYTES);
    const req = request(`${base}/api/session`, { method: "POST", headers }, (res) => {
      res.resume();
      finish(res.statusCode ?? "?");
    });
    req.on("error", (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
    const pump = () => {
      while (!done && sent < BODY_BYTES) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) return void req.once("drain", pump);
      }
      if (!done) req.end();
    };
    pump();
  });
}

/** The whole body over a raw socket whatever the answer, reading all the while (rawUpload). */
async function uploadToTheEnd(base: string, declared: boolean): Promise<Upload> {
  const started = performance.now();
  const head = [
    "POST /api/session HTTP/1.1",
    "Content-Type: application/json",
    `Origin: ${base}`,
    declared ? `Content-Length: ${BODY_BYTES}` : "Transfer-Encoding: chunked",
  ].join("\r\n");
  const res = await rawUpload(head, { total: BODY_BYTES, chunked: !declared, base });
  return { status: Number(res.response.split(" ", 2)[1]) || "none", sentMb: res.sent / 1024 / 1024, ms: performance.now() - started, error: res.error };
}

export async function run(): Promise<void> {
  if (!benchBuild()) return;
  const server = await startProductionServer();
  const { base } = server;
  try {
    // Warm-up: the sign-in route loaded and run, and one oversized body refused, before measuring.
    for (let i = 0; i < 3; i++) await signIn(base);
    await upload(base, true);
    const cases = [
      { declared: false, toTheEnd: false },
      { declared: true, toTheEnd: false },
      { declared: false, toTheEnd: true },
      { declared: true, toTheEnd: true },
    ];
    for (const { declared, toTheEnd } of cases) {
      await new Promise((r) => setTimeout(r, 500));
      const before = rssMb(server.pid);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 10);
      const result = toTheEnd ? await uploadToTheEnd(base, declared) : await upload(base, declared);
      await new Promise((r) => setTimeout(r, 300));
      clearInterval(sampler);
      peak = Math.max(peak, rssMb(server.pid));
      const growth = peak - before;
      const client = toTheEnd
        ? `client sending it all: connection closed after ${result.ms.toFixed(0)} ms (${result.error ?? "cleanly"}), HTTP ${result.status} read`
        : `HTTP ${result.status} after ${result.ms.toFixed(0)} ms`;
      console.log(
        `${declared ? "declared" : "chunked "} 100 MB body, ${client}, client had sent ${result.sentMb.toFixed(1)} MB; ` +
          `server RSS ${before.toFixed(1)} MB -> peak ${peak.toFixed(1)} MB: growth ${growth.toFixed(1)} MB (goal < ${GOAL_MB} MB) ${growth < GOAL_MB ? "ok" : "OVER"}`,
      );
    }
    const health = await fetch(`${base}/api/health`);
    console.log(`server still answers: /api/health HTTP ${health.status}`);
  } finally {
    server.stop();
  }
}
