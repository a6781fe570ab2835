// Test support for the Redis-backed stores: a real redis-server for the file (testing/redis.ts) and
// links to it, each one an "instance" (its own ioredis client) that reconnects within ~50 ms, with its
// log lines kept for the test to read. Everything made here is closed after the file.
import { afterAll, beforeAll } from "vitest";
import { connectRedis, type RedisLink } from "@/lib/shared-state/redis/connection";
import { startTestRedis, type TestRedis } from "./redis";

export const TEST_PREFIX = "wa-test:";

export type TestLink = RedisLink & { logs: string[] };

export function redisForFile(): { server: () => TestRedis; link: (options?: { url?: string }) => Promise<TestLink> } {
  let server: TestRedis | undefined;
  const links: RedisLink[] = [];
  beforeAll(async () => {
    server = await startTestRedis();
  });
  afterAll(async () => {
    await Promise.all(links.map((l) => l.close()));
    await server?.stop();
  });
  const current = () => {
    if (!server) throw new Error("The test Redis starts in beforeAll: use it in a hook or a test.");
    return server;
  };
  return {
    server: current,
    async link(options = {}) {
      const logs: string[] = [];
      const link = connectRedis(options.url ?? current().url, TEST_PREFIX, {
        maxBackoffMs: 50,
        pauseAfterFailureMs: 50,
        log: { warn: (line) => logs.push(line), info: (line) => logs.push(line) },
      });
      links.push(link);
      // Connected before it is used, unless the test gives the URL (to see it connect, or fail to).
      if (!options.url) await until(() => link.state === "connected");
      return Object.assign(link, { logs });
    },
  };
}

/** Resolves once `check` holds (checked every 10 ms), or fails after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
