// The app as `npm start` runs it, for tests and benches: the production entry (front server + Next,
// the build in BENCH_DIST_DIR or .next) on free loopback ports with a DATA_DIR of its own, optionally
// on a sandbox process of the caller's; a sign-in through POST /api/session; and a client that calls
// /api as the app's own pages do (the session cookie and this origin), or as another site would.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Agent } from "undici";
import { freePort, waitFor } from "./ports";

/** The session secret of every server started here (never a real deployment's). */
export const SERVER_SESSION_SECRET = "bench-only-session-secret-0123456789abcdef";

/** The build the servers run: BENCH_DIST_DIR, default .next. */
export const distDir = (): string => process.env.BENCH_DIST_DIR ?? ".next";

export const hasBuild = (): boolean => existsSync(path.join(distDir(), "BUILD_ID"));

export type ProductionServer = {
  base: string;
  /** The sandbox the entry started (when DATA_API_BASE_URL was left empty): its port is this one. */
  sandboxBase: string;
  pid: number;
  /** Stops the entry; resolves once it has exited and its DATA_DIR is removed. */
  stop: () => Promise<void>;
};

export type ProductionOptions = {
  /** More node flags for the entry (e.g. --inspect, V8's --trace-gc-nvp). */
  nodeFlags?: string[];
  /** Where the entry's output goes (default: nowhere). */
  logFile?: string;
};

/**
 * Starts the production entry (`npm start`: front server + Next in one process, the sandbox as a
 * child unless `env` names DATA_API_BASE_URL) on free loopback ports with the build in
 * BENCH_DIST_DIR, and waits until it answers. `env` adds to or overrides the defaults.
 */
export async function startProductionServer(env: Record<string, string> = {}, options: ProductionOptions = {}): Promise<ProductionServer> {
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const log = options.logFile ? openSync(options.logFile, "w") : "ignore";
  // Its own embedded store: two servers of one checkout never share (and so never lock each other out of) ./data.
  const dataDir = mkdtempSync(path.join(tmpdir(), "wa-bench-data-"));
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), "--import", "tsx", "scripts/run.ts", "start"], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      NEXT_DIST_DIR: distDir(),
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      SANDBOX_PORT: String(sandboxPort),
      DATA_API_BASE_URL: "",
      SESSION_SECRET: SERVER_SESSION_SECRET,
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
    stdio: ["ignore", log, log],
  });
  if (typeof log === "number") closeSync(log);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  const stop = async () => {
    child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${base}/api/health`, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, sandboxBase: `http://127.0.0.1:${sandboxPort}`, pid: child.pid!, stop };
}

/**
 * Signs in through POST /api/session and returns the session cookie as a Cookie header value
 * (`name=value`). A demo id works only where the app's own entry started the sandbox; elsewhere
 * sign in with `{ apiKey }`.
 */
export async function signIn(base: string, body: { demo: string } | { apiKey: string } = { demo: "pro" }, from?: ClientAddress): Promise<string> {
  const res = await fetch(`${base}/api/session`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify(body),
    ...(from ? { dispatcher: from.dispatcher } : {}),
  } as RequestInit);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
  if (res.status !== 200 || !cookie) throw new Error(`sign-in failed: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  return cookie;
}

/** The shared error shape of every /api answer. */
export type ErrorBody = { error: { code: string; message: string; param?: string; request_id?: string } };

export type Answer<T = unknown> = { status: number; headers: Headers; body: T };

export type CallOptions = {
  /** A JSON body (sent as application/json). */
  body?: unknown;
  /** A body sent as it is (as application/json): what a broken or hostile client sends. */
  rawBody?: string;
  /** Headers added to (or replacing) the client's own: another site's Origin, Sec-Fetch-Site. */
  headers?: Record<string, string>;
};

export type ApiClient = {
  base: string;
  call<T = unknown>(method: string, path: string, options?: CallOptions): Promise<Answer<T>>;
};

/**
 * Another client on loopback (a source address of 127.0.0.0/8 other than 127.0.0.1): what the
 * server counts per client (sign-in and linking attempts) is then this client's alone.
 */
export type ClientAddress = { address: string; dispatcher: Agent };
// undici takes the source address as the Agent's own option: under `connect` it is ignored, and every
// such client was 127.0.0.1.
export const fromAddress = (address: string): ClientAddress => ({ address, dispatcher: new Agent({ localAddress: address }) });

/**
 * Calls /api as the app's own pages do: with the session `cookie` (none: signed out) and this
 * server's Origin, from 127.0.0.1 or the client address given. The body is parsed as JSON when there
 * is one (null for a 204).
 */
export function apiClient(base: string, cookie?: string, from?: ClientAddress): ApiClient {
  return {
    base,
    async call<T>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
      const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      const headers: Record<string, string> = {
        origin: base,
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...options.headers,
      };
      const res = await fetch(`${base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        ...(from ? { dispatcher: from.dispatcher } : {}),
      } as RequestInit);
      const text = await res.text();
      let answer: unknown = null;
      try {
        if (text !== "") answer = JSON.parse(text);
      } catch {
        throw new Error(`${method} ${path} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
      }
      return { status: res.status, headers: res.headers, body: answer as T };
    },
  };
}
