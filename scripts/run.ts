// `npm start` / `npm run dev`: the production entry. Runs Next in this process behind the front
// server (lib/server/front-server.ts, Next's custom-server pattern), and starts the embedded sandbox
// Data API as a child process when no DATA_API_BASE_URL is configured, so a newcomer gets a working
// dashboard with no configuration. It tells the app (process-level flags, lib/server/runtime-flags.ts)
// that it runs behind the front server and, when it started one, which sandbox is the embedded one.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadEnvConfig } from "@next/env";
import { loadSandboxConfig } from "../sandbox/config";
import { parseDashboardEnv } from "../lib/config/env-schema";
import { createFrontServer } from "../lib/server/front-server";
import { setRuntimeFlags } from "../lib/server/runtime-flags";

const mode = process.argv[2] === "dev" ? "dev" : "start";
const dev = mode === "dev";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// Read .env / .env.local (etc.) the way Next does, before deciding whether to start the sandbox;
// variables already in the environment win.
loadEnvConfig(root, dev, { info: () => {}, error: console.error });

// The same declaration the app reads (lib/config/env-schema.ts), checked before anything starts so a
// bad value stops start-up here with a message, not later on the first request.
const parsed = parseDashboardEnv(process.env);
if (!parsed.ok) {
  for (const problem of parsed.problems) console.error(`Configuration error: ${problem}.`);
  process.exit(1);
}
const config = parsed.env;

/** Starts sandbox/main.ts as a child process and resolves with its base URL once it listens. */
function startSandboxProcess(): Promise<{ child: ChildProcess; baseUrl: string }> {
  // Validated here first, so a bad SANDBOX_* value stops start-up with the sandbox's own message.
  loadSandboxConfig(process.env);
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "sandbox/main.ts")], {
    cwd: root,
    env: { ...process.env, SANDBOX_HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      process.stdout.write(chunk);
      seen += chunk.toString();
      const url = /listening: (http:\/\/\S+\/v1)/.exec(seen)?.[1];
      if (url) {
        child.stdout!.off("data", onData);
        child.stdout!.pipe(process.stdout, { end: false });
        resolve({ child, baseUrl: url });
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`The sandbox Data API did not start (exit code ${code}).`)));
  });
}

async function main() {
  let sandbox: ChildProcess | undefined;
  process.env.PORT = String(config.PORT);

  if (!config.DATA_API_BASE_URL) {
    const started = await startSandboxProcess();
    sandbox = started.child;
    process.env.DATA_API_BASE_URL = started.baseUrl;
    setRuntimeFlags({ embeddedSandboxOrigin: new URL(started.baseUrl).origin });
    // The dashboard cannot work without its upstream.
    sandbox.once("exit", (code) => {
      console.error(`The sandbox Data API stopped (exit code ${code}).`);
      process.exit(1);
    });
  } else {
    console.log(`Data API: ${config.DATA_API_BASE_URL}`);
  }

  if (!config.SESSION_SECRET) {
    if (config.DATA_API_BASE_URL && !dev) {
      console.error(
        "Configuration error: SESSION_SECRET is required with a real Data API (DATA_API_BASE_URL is set).\n" +
          "Set SESSION_SECRET to a random string of at least 32 characters, e.g. `export SESSION_SECRET=$(openssl rand -base64 32)`.",
      );
      process.exit(1);
    }
    process.env.SESSION_SECRET = randomBytes(32).toString("base64url");
    console.warn("Warning: SESSION_SECRET is not set; generated one for this run. Sessions end when the server restarts.");
  }

  // As `next start` / `next dev` do; read by Next and React when they load (below).
  Object.assign(process.env, { NODE_ENV: dev ? "development" : "production" });
  setRuntimeFlags({ frontServer: true });
  const { default: createNext } = await import("next");
  const app = createNext({ dev, dir: root, hostname: config.HOSTNAME ?? "localhost", port: config.PORT });
  await app.prepare();
  const server = createFrontServer({
    handle: app.getRequestHandler(),
    ...(dev ? { upgrade: app.getUpgradeHandler(), dev } : {}),
  });
  server.listen(config.PORT, config.HOSTNAME, () => {
    console.log(`Dashboard: http://${config.HOSTNAME ?? "localhost"}:${config.PORT} (${dev ? "development" : "production"})`);
  });

  const shutdown = () => {
    sandbox?.removeAllListeners("exit");
    sandbox?.kill("SIGTERM");
    server.close();
    // Open keep-alive connections would hold close() up; nothing is left to finish.
    setTimeout(() => process.exit(0), 2000).unref();
    server.on("close", () => process.exit(0));
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
