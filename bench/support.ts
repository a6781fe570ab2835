// Helpers shared by the benchmarks that start servers: a free loopback port, waiting for a URL, the
// build they run, the production entry started on free ports, a demo sign-in, and Chromium.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import type { Browser } from "@playwright/test";

/** The session secret every bench server uses (never a real deployment's). */
export const BENCH_SESSION_SECRET = "bench-only-session-secret-0123456789abcdef";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export async function waitFor(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up within ${ms} ms`);
}

/** The build in BENCH_DIST_DIR (default .next); undefined, saying so, when there is none. */
export function benchBuild(skipped = "skipped"): string | undefined {
  const distDir = process.env.BENCH_DIST_DIR ?? ".next";
  if (existsSync(path.join(distDir, "BUILD_ID"))) return distDir;
  console.log(`${skipped}: no build in ${distDir} (run \`npx next build\` first)`);
  return undefined;
}

export type BenchServer = { base: string; sandboxBase: string; pid: number; stop: () => void };

/**
 * Starts the production entry (`npm start`: front server + Next in one process, the sandbox as a
 * child) on free loopback ports with the build in BENCH_DIST_DIR, and waits until it answers.
 * `env` adds to or overrides the bench defaults (e.g. SANDBOX_LATENCY_MS).
 */
export async function startProductionServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/run.ts", "start"], {
    env: {
      ...process.env,
      NEXT_DIST_DIR: process.env.BENCH_DIST_DIR ?? ".next",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      SANDBOX_PORT: String(sandboxPort),
      DATA_API_BASE_URL: "",
      SESSION_SECRET: BENCH_SESSION_SECRET,
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
    stdio: "ignore",
  });
  const stop = () => void child.kill("SIGTERM");
  try {
    await waitFor(`${base}/api/health`, 60_000);
  } catch (error) {
    stop();
    throw error;
  }
  return { base, sandboxBase: `http://127.0.0.1:${sandboxPort}`, pid: child.pid!, stop };
}

/**
 * Signs in through POST /api/session and returns the session cookie as a Cookie header value
 * (`name=value`). A demo id works only where the app's own entry started the sandbox; elsewhere
 * sign in with `{ apiKey }`.
 */
export async function signIn(base: string, body: { demo: string } | { apiKey: string } = { demo: "pro" }): Promise<string> {
  const res = await fetch(`${base}/api/session`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify(body),
  });
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
  if (res.status !== 200 || !cookie) throw new Error(`sign-in failed: HTTP ${res.status}`);
  return cookie;
}

/** A `name=value` cookie as Playwright's context.addCookies takes it, for `url`. */
export function browserCookie(cookie: string, url: string): { name: string; value: string; url: string } {
  const at = cookie.indexOf("=");
  return { name: cookie.slice(0, at), value: cookie.slice(at + 1), url };
}

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Headless Chromium from CHROMIUM_PATH (default /usr/bin/chromium); Playwright loads only for it. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("@playwright/test");
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--headless"] });
}
