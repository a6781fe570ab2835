// The sandbox Data API in a process of its own (`tsx sandbox/main.ts` on a free loopback port), as a
// deployment's upstream would be: the processes under test reach it over real HTTP only, and it does
// not compete with them for one thread.
import { spawn } from "node:child_process";
import type { SandboxStats } from "../sandbox/types";

export type SandboxProcess = { baseUrl: string; stats(): Promise<SandboxStats>; close(): Promise<void> };

/** Starts the sandbox with `visitors` in its demo workspace, dated at `now` (ISO), and resolves once it listens. */
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
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
