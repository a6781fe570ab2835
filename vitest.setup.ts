// Runs before every test file. Test files share a worker process (`isolate: false` in
// vitest.config.ts: modules are loaded once per worker, not once per file), so each file starts from
// the state a fresh process would have: the environment as the worker got it, no runtime flags, a
// fresh server context, no Redis client and no store open. Files set these for their own run
// (startUpstream, the front-server flag) without putting them back. For the same reason the Testing
// Library cleanup is registered here: a hook registered when a shared module loads would reach only
// the first file of a worker.
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { resetServerContext } from "@/lib/server/context";
import { closeSharedRedis } from "@/lib/shared-state/redis/connection";
import { setRuntimeFlags } from "@/lib/server/runtime-flags";
import { closeSharedStore } from "@/lib/store/shared";

const g = globalThis as typeof globalThis & { __vitestInitialEnv?: Record<string, string | undefined> };
// Each worker's own DATA_DIR: a test that reaches the process's store (e.g. through /api/health) never
// opens the checkout's ./data, nor another worker's (the embedded store is one process's at a time).
const initialEnv = (g.__vitestInitialEnv ??= { ...process.env, DATA_DIR: workerDataDir() });
for (const name of Object.keys(process.env)) if (!(name in initialEnv)) delete process.env[name];
Object.assign(process.env, initialEnv);
setRuntimeFlags({ frontServer: false, embeddedSandboxOrigin: null });
// The insights keep closed days in the store only where a test asks for it (with a store of its own):
// the worker's store outlives this file, and other files' sandboxes answer other rows under the same keys.
resetServerContext({ insights: { keepDays: false } });
// A file that set REDIS_URL leaves no client reconnecting to its stopped redis-server behind.
await closeSharedRedis();
await closeSharedStore();

/** Made only if a test opens the process's store (most never do); one folder holds every worker's. */
function workerDataDir(): string {
  const dir = path.join(tmpdir(), "wa-vitest-data", String(process.pid));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Component tests (`@vitest-environment jsdom`): unmount what each test rendered.
if (typeof document !== "undefined") {
  const { cleanup } = await import("@testing-library/react");
  afterEach(cleanup);
}
