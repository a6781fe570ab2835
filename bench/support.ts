// Helpers shared by the benchmarks: the harness they share with the tests (testing/: free ports, the
// sandbox process, the production entry, a sign-in), the entry started with its inspector (for heap
// figures), the build they run, Chromium, and one scenario of a bench run in a child process.
import { spawn } from "node:child_process";
import path from "node:path";
import type { Browser } from "@playwright/test";
import { freePort } from "../testing/ports";
import { distDir, hasBuild, SERVER_SESSION_SECRET, startProductionServer as startEntry, type ProductionServer } from "../testing/production";

export { freePort, waitFor } from "../testing/ports";
export { processSandbox, type SandboxProcess } from "../testing/sandbox-process";
export { signIn } from "../testing/production";

/** The session secret every bench server uses (never a real deployment's). */
export const BENCH_SESSION_SECRET = SERVER_SESSION_SECRET;

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
  if (hasBuild()) return distDir();
  console.log(`${skipped}: no build in ${distDir()} (run \`npx next build\` first)`);
  return undefined;
}

export type BenchServer = ProductionServer & {
  /** The entry's inspector (started with `inspect`), for its heap figures. */
  inspector?: NodeInspector;
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
 * The production entry as testing/production.ts starts it (free ports, its own DATA_DIR, the bench
 * session secret), optionally with its inspector connected. `env` adds to or overrides the defaults
 * (e.g. SANDBOX_LATENCY_MS).
 */
export async function startProductionServer(env: Record<string, string> = {}, options: ServerOptions = {}): Promise<BenchServer> {
  const inspectPort = options.inspect ? await freePort() : undefined;
  const nodeFlags = [...(inspectPort === undefined ? [] : [`--inspect=127.0.0.1:${inspectPort}`]), ...(options.nodeFlags ?? [])];
  const server = await startEntry(env, { nodeFlags, ...(options.logFile ? { logFile: options.logFile } : {}) });
  if (inspectPort === undefined) return server;
  try {
    const inspector = await NodeInspector.connect(inspectPort);
    return {
      ...server,
      inspector,
      stop: () => {
        inspector.close();
        return server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
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
  const args = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ];
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
