// Helpers shared by the benchmarks that start servers: a free loopback port, waiting for a URL, the
// sandbox in its own process, and one scenario of a bench run in a child process.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

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

export type SandboxStats = { requests: number; byPath: Record<string, number>; rateLimited: number; log: Array<{ path: string; query: string; status: number }> };
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
