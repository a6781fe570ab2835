// A real redis-server for the tests of the shared stores and of several instances: started on a free
// loopback port with persistence off, stopped by the test. `stop()` then `start()` again on the same
// port is how tests take Redis away mid-run and bring it back (its data is gone, as after a restart of
// a Redis without persistence). Installs Debian's redis-server first when none is found
// (scripts/ensure-redis.sh), as the e2e step does for Chromium.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createConnection } from "node:net";
import { fileURLToPath } from "node:url";
import { freePort } from "./ports";

let binary: string | undefined;

function redisServerPath(): string {
  binary ??= execFileSync("bash", [fileURLToPath(new URL("../scripts/ensure-redis.sh", import.meta.url))], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  return binary;
}

/** Resolves once the server at `port` answers PING, or rejects after `timeoutMs`. */
async function waitForPong(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: "127.0.0.1", port });
      let data = "";
      socket.setTimeout(500, () => socket.destroy());
      socket.on("connect", () => socket.write("PING\r\n"));
      socket.on("data", (chunk) => {
        data += chunk.toString();
        if (data.includes("\r\n")) {
          socket.end();
          resolve(data.startsWith("+PONG"));
        }
      });
      socket.on("error", () => resolve(false));
      socket.on("close", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export type TestRedis = {
  url: string;
  port: number;
  /** Starts the server (again) on the same port; resolves when it answers. */
  start(): Promise<void>;
  /** Stops the server (SIGKILL when `abrupt`, as a crash); resolves when the process has exited. */
  stop(options?: { abrupt?: boolean }): Promise<void>;
  readonly running: boolean;
};

export async function startTestRedis(): Promise<TestRedis> {
  const path = redisServerPath();
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start() {
    if (child) return;
    const proc = spawn(
      path,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    child = proc;
    proc.once("exit", () => {
      if (child === proc) child = undefined;
    });
    await waitForPong(port);
  }

  async function stop(options: { abrupt?: boolean } = {}) {
    const proc = child;
    if (!proc) return;
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    proc.kill(options.abrupt ? "SIGKILL" : "SIGTERM");
    await exited;
    child = undefined;
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    get running() {
      return child !== undefined;
    },
  };
}
