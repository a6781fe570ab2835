// `npm start` / `npm run dev`: starts the dashboard, and the embedded sandbox Data API when no
// DATA_API_BASE_URL is configured, so a newcomer gets a working dashboard with no configuration.
// The sandbox runs in this process; Next runs as a child process that gets the upstream's address.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { loadEnvConfig } from "@next/env";
import { z } from "zod";
import { startSandbox } from "../sandbox/server";
import { loadSandboxConfig } from "../sandbox/config";

const mode = process.argv[2] === "dev" ? "dev" : "start";

// Read .env / .env.local (etc.) the way Next does, before deciding whether to start the sandbox;
// variables already in the environment win.
loadEnvConfig(process.cwd(), mode === "dev", { info: () => {}, error: console.error });

const env = z
  .object({
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOSTNAME: z.string().min(1).optional(),
    DATA_API_BASE_URL: z
      .url({ error: "DATA_API_BASE_URL must be an http(s) URL ending in /v1, e.g. https://api.example.com/v1" })
      .refine((u) => /^https?:\/\//.test(u) && /\/v1\/?$/.test(u), {
        error: "DATA_API_BASE_URL must be an http(s) URL ending in /v1, e.g. https://api.example.com/v1",
      })
      .optional(),
    SESSION_SECRET: z.string().min(32, { error: "SESSION_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`)" }).optional(),
  })
  .safeParse({ ...process.env, DATA_API_BASE_URL: process.env.DATA_API_BASE_URL || undefined, SESSION_SECRET: process.env.SESSION_SECRET || undefined });

if (!env.success) {
  const messages = new Set(env.error.issues.map((issue) => `Configuration error: ${String(issue.path[0])}: ${issue.message}`));
  for (const message of messages) console.error(message);
  process.exit(1);
}
const config = env.data;

async function main() {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: String(config.PORT) };
  let stopSandbox: (() => Promise<void>) | undefined;

  if (!config.DATA_API_BASE_URL) {
    const sandboxConfig = loadSandboxConfig(process.env);
    const sandbox = await startSandbox({ ...sandboxConfig, host: "127.0.0.1" });
    stopSandbox = () => sandbox.close();
    childEnv.DATA_API_BASE_URL = sandbox.baseUrl;
    console.log(`Sandbox Data API: ${sandbox.baseUrl} (demo keys: ${sandbox.url}/sandbox/keys)`);
  } else {
    console.log(`Data API: ${config.DATA_API_BASE_URL}`);
  }

  if (!config.SESSION_SECRET) {
    if (config.DATA_API_BASE_URL && mode === "start") {
      console.error(
        "Configuration error: SESSION_SECRET is required with a real Data API (DATA_API_BASE_URL is set).\n" +
          "Set SESSION_SECRET to a random string of at least 32 characters, e.g. `export SESSION_SECRET=$(openssl rand -base64 32)`.",
      );
      await stopSandbox?.();
      process.exit(1);
    }
    childEnv.SESSION_SECRET = randomBytes(32).toString("base64url");
    console.warn("Warning: SESSION_SECRET is not set; generated one for this run. Sessions end when the server restarts.");
  }

  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const args = [nextBin, mode, "-p", String(config.PORT)];
  if (config.HOSTNAME) args.push("-H", config.HOSTNAME);
  const child = spawn(process.execPath, args, { stdio: "inherit", env: childEnv });

  const shutdown = (signal: NodeJS.Signals) => {
    child.kill(signal);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  child.on("exit", async (code, signal) => {
    await stopSandbox?.();
    process.exit(code ?? (signal ? 0 : 1));
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
