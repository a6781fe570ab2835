// Helpers shared by the benchmarks that start servers: a free loopback port, waiting for a URL, the
// build they run, the production entry started on free ports (optionally with its inspector, for heap
// figures), a demo sign-in, Chromium, the sandbox in its own process, and one scenario of a bench run
// in a child process.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "@playwright/test";
import type { SandboxStats } from "../sandbox/types";

/** The session secret every bench server uses (never a real deployment's). */
export const BENCH_SESSION_SECRET = "bench-only-session-secret-0123456789abcdef";

/** Listens on `port` (0: any) for a moment and returns the port, or null when it is taken. */
function tryPort(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(null));
    srv.listen(port, "127.0.0.1", () => {
      const { port: bound } = srv.address() as { port: number };
      srv.close(() => resolve(bound));
    });
  });
}

/** Ports of BENCH_PORT_RANGE already handed out by this process (a server may not have bound one yet). */
const handedOut = new Set<number>();

/**
 * A free loopback port: any, or one of BENCH_PORT_RANGE (`3580-3599`) when set, for a machine
 * shared with other runs that keep to their own ranges.
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORT_RANGE ?? "");
  if (!range) return (await tryPort(0))!;
  const [from, to] = [Number(range[1]), Number(range[2])];
  for (let round = 0; round < 2; round++) {
    for (let port = from; port <= to; port++) {
      if (handedOut.has(port) || (await tryPort(port)) === null) continue;
      handedOut.add(port);
      return port;
    }
    // Every port was handed out once: those of servers since stopped are free again.
    handedOut.clear();
  }
  throw new Error(`no free port in BENCH_PORT_RANGE ${process.env.BENCH_PORT_RANGE}`);
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

export type SandboxProcess = { baseUrl: string; stats(): Promise<SandboxStats>; close(): Promise<void> };

/**
 * The sandbox as its own process (`tsx sandbox/main.ts` on a free port), dated at `now`: the
 * process under test then measures only itself, and the two do not compete for one thread.
 */
export async function processSandbox(visitors: number, now: string): Promise<SandboxProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    env: { ...process.env, SANDBOX_PORT: "0", SANDBOX_HOST: "127.0.0.1", SANDBOX_NOW: now, SANDBOX_VISITORS: String(visitors) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening: (http:\/\/\S+\/v1)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`sandbox exited (${code}): ${out}`)));
  });
  const origin = baseUrl.replace(/\/v1$/, "");
  return {
    baseUrl,
    stats: async () => (await fetch(`${origin}/sandbox/stats`)).json() as Promise<SandboxStats>,
    close: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * Runs `file` again in a child Node process for one scenario (`id` as its argument, `env` added):
 * a fresh per-key rate budget and a clean heap each time, and the `react-server` export condition
 * under which the server-only modules load outside Next. The child prints `RESULT <json>`.
 */
export function runBenchChild<T>(file: string, id: string, env: Record<string, string>, nodeFlags: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=react-server", ...nodeFlags, "--import", "tsx", file, id], {
      cwd: path.resolve(path.dirname(file), ".."),
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    // The server's own logs (e.g. slow upstream calls while the limiter waits) are kept for failures only.
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("RESULT "));
      if (code !== 0 || !line) return reject(new Error(`scenario ${id} failed (exit ${code}): ${out.slice(-2000)}\n${err}`));
      resolve(JSON.parse(line.slice("RESULT ".length)) as T);
    });
  });
}

/** The build in BENCH_DIST_DIR (default .next); undefined, saying so, when there is none. */
export function benchBuild(skipped = "skipped"): string | undefined {
  const distDir = process.env.BENCH_DIST_DIR ?? ".next";
  if (existsSync(path.join(distDir, "BUILD_ID"))) return distDir;
  console.log(`${skipped}: no build in ${distDir} (run \`npx next build\` first)`);
  return undefined;
}

export type BenchServer = {
  base: string;
  sandboxBase: string;
  pid: number;
  /** The entry's inspector (started with `inspect`), for its heap figures. */
  inspector?: NodeInspector;
  stop: () => void;
};

type HeapFigures = Pick<NodeJS.MemoryUsage, "heapUsed" | "heapTotal" | "external" | "arrayBuffers">;

/**
 * A Chrome DevTools protocol session with a Node process started with `--inspect` (undici's
 * WebSocket): its memory figures as the process itself sees them, optionally after a full GC.
 */
export class NodeInspector {
  private lastId = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly ws: WebSocket) {
    ws.addEventListener("message", (event) => {
      const msg = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiting = msg.id === undefined ? undefined : this.pending.get(msg.id);
      if (!waiting) return;
      this.pending.delete(msg.id!);
      if (msg.error) waiting.reject(new Error(msg.error.message));
      else waiting.resolve(msg.result);
    });
  }

  static async connect(port: number): Promise<NodeInspector> {
    const { WebSocket } = await import("undici");
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
    const ws = new WebSocket(targets[0]!.webSocketDebuggerUrl) as unknown as WebSocket;
    await new Promise((resolve, reject) => {
      ws.addEventListener("open", resolve, { once: true });
      ws.addEventListener("error", reject, { once: true });
    });
    return new NodeInspector(ws);
  }

  send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = ++this.lastId;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise<T>((resolve, reject) => this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
  }

  /** The value of `expression` in the process (JSON-serialisable). */
  async evaluate<T>(expression: string): Promise<T> {
    const r = await this.send<{ result: { value?: string }; exceptionDetails?: { exception?: { description?: string } } }>("Runtime.evaluate", {
      expression: `JSON.stringify(${expression})`,
      returnByValue: true,
    });
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? "evaluation failed");
    return JSON.parse(r.result.value!) as T;
  }

  /** process.memoryUsage() without RSS (read /proc for that); after a full GC when `gc`. */
  async memory(gc = false): Promise<HeapFigures> {
    if (gc) await this.send("HeapProfiler.collectGarbage");
    return this.evaluate<HeapFigures>("process.memoryUsage()");
  }

  close(): void {
    this.ws.close();
  }
}

export type ServerOptions = {
  /** Start the entry with its inspector on a free port (BenchServer.inspector). */
  inspect?: boolean;
  /** More node flags for the entry (e.g. V8's --trace-gc-nvp). */
  nodeFlags?: string[];
  /** Where the entry's output goes (default: nowhere). */
  logFile?: string;
};

/**
 * Starts the production entry (`npm start`: front server + Next in one process, the sandbox as a
 * child) on free loopback ports with the build in BENCH_DIST_DIR, and waits until it answers.
 * `env` adds to or overrides the bench defaults (e.g. SANDBOX_LATENCY_MS).
 */
export async function startProductionServer(env: Record<string, string> = {}, options: ServerOptions = {}): Promise<BenchServer> {
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const inspectPort = options.inspect ? await freePort() : undefined;
  const base = `http://127.0.0.1:${port}`;
  const flags = [...(inspectPort === undefined ? [] : [`--inspect=127.0.0.1:${inspectPort}`]), ...(options.nodeFlags ?? [])];
  const log = options.logFile ? openSync(options.logFile, "w") : "ignore";
  // Its own embedded store: two servers of one checkout never share (and so never lock each other out of) ./data.
  const dataDir = mkdtempSync(path.join(tmpdir(), "wa-bench-data-"));
  const child = spawn(process.execPath, [...flags, "--import", "tsx", "scripts/run.ts", "start"], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      NEXT_DIST_DIR: process.env.BENCH_DIST_DIR ?? ".next",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      SANDBOX_PORT: String(sandboxPort),
      DATA_API_BASE_URL: "",
      SESSION_SECRET: BENCH_SESSION_SECRET,
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
    stdio: ["ignore", log, log],
  });
  if (typeof log === "number") closeSync(log);
  let inspector: NodeInspector | undefined;
  const stop = () => {
    inspector?.close();
    const removeData = () => rmSync(dataDir, { recursive: true, force: true });
    if (child.exitCode !== null || child.signalCode !== null) removeData();
    else child.once("exit", removeData);
    child.kill("SIGTERM");
  };
  try {
    await waitFor(`${base}/api/health`, 60_000);
    if (inspectPort !== undefined) inspector = await NodeInspector.connect(inspectPort);
  } catch (error) {
    stop();
    throw error;
  }
  return { base, sandboxBase: `http://127.0.0.1:${sandboxPort}`, pid: child.pid!, inspector, stop };
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
  // As playwright.config.ts launches a system Chromium: no GPU, and none of its own background traffic.
  const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
  return chromium.launch({ executablePath: CHROMIUM, args });
}

/**
 * The child side of runBenchChild: when `flag` is set in the environment, runs the scenario named by
 * the first argument and prints `RESULT <json>` for the parent (exit 1 on failure).
 */
export function benchChildMain<S extends { id: string }, R>(flag: string, scenarios: readonly S[], run: (scenario: S) => Promise<R>): void {
  if (process.env[flag] !== "1" || !process.argv[2]) return;
  const scenario = scenarios.find((s) => s.id === process.argv[2]);
  if (!scenario) throw new Error(`unknown scenario ${process.argv[2]}`);
  run(scenario).then(
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
