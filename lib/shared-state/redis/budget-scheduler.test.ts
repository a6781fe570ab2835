// Two instances' schedulers on one Free key, sharing its budget through a real redis-server, against
// the sandbox over real HTTP (its limiter counts in fixed windows aligned to epoch seconds and
// minutes and answers 429 beyond 10/s or 100/min). On fake time (lib/fake-time.ts): the schedulers'
// waits and both clocks are faked; HTTP and Redis run for real, and the clock stands still while
// either has something on the wire, so minutes of rate-limit windows take about a second.
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRequestCache } from "@/lib/data-api/cache";
import { createDataApiClient } from "@/lib/data-api/client";
import { createScheduler } from "@/lib/data-api/scheduler";
import { countedTransport, onFakeTime } from "@/lib/fake-time";
import { DEMO_KEYS } from "@/sandbox/keys";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { createSharedBudget } from "./budget";
import { startInstanceHeartbeat } from "./instances";
import { startTestRedis, type TestRedis } from "@/testing/redis";

let server: TestRedis;
let sandbox: Sandbox;
const clients: Redis[] = [];

beforeAll(async () => {
  [server, sandbox] = await Promise.all([startTestRedis(), startSandbox({ port: 0, now: "2026-11-20T12:00:00Z", visitors: 500, clock: () => Date.now() })]);
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await Promise.all([server?.stop(), sandbox?.close()]);
});

/** Redis commands sent and not yet answered, over every client below: what fake time must wait for. */
let redisInFlight = 0;

/** An instance's client, counting its commands' round trips (a proxy: the budget sees a plain client). */
async function countedClient(): Promise<Redis> {
  const redis = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  clients.push(redis);
  await redis.connect();
  return new Proxy(redis, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        if (result instanceof Promise) {
          redisInFlight++;
          result.then(
            () => redisInFlight--,
            () => redisInFlight--,
          );
        }
        return result;
      };
    },
  });
}

const maxPerEpochWindow = (times: number[], width: number) => {
  const counts = new Map<number, number>();
  for (const t of times) counts.set(Math.floor(t / width), (counts.get(Math.floor(t / width)) ?? 0) + 1);
  return Math.max(0, ...counts.values());
};

it("200 requests spread over two instances on one Free key: every one answered, 0 upstream 429s", async () => {
  const transport = countedTransport(fetch);
  const instances = await Promise.all(
    ["a", "b"].map(async () => {
      const redis = await countedClient();
      const heartbeat = startInstanceHeartbeat({ redis, now: () => Date.now(), intervalMs: 0 });
      const keyBudget = createSharedBudget({ redis, keyId: "free-key-id", instances: heartbeat });
      return createDataApiClient({
        baseUrl: sandbox.baseUrl,
        apiKey: DEMO_KEYS.free,
        fetch: transport.fetch,
        // A queue long enough for the bulk third, which leaves the dashboard's reserve and so runs
        // into a third minute: every request is answered, none refused by the scheduler.
        scheduler: createScheduler({ keyBudget, now: () => Date.now(), maxQueueWaitMs: 200_000 }),
        cache: createRequestCache({ ttlMs: 0 }),
      });
    }),
  );
  const requests = Array.from({ length: 200 }, (_, i) =>
    instances[i % 2]!.get("/visitors", { query: { limit: 1, offset: i } }, { priority: i % 3 === 0 ? "bulk" : "interactive" }),
  );
  const pages = await onFakeTime(
    () => Promise.all(requests),
    () => transport.inFlight() + redisInFlight,
  );

  expect(pages.map((p) => p.meta.offset)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  const stats = sandbox.stats();
  expect(stats.rateLimited, "upstream 429s").toBe(0);
  const times = stats.log.filter((l) => l.path === "/v1/visitors").map((l) => l.t);
  expect(times).toHaveLength(200);
  expect(maxPerEpochWindow(times, 1000)).toBeLessThanOrEqual(10);
  expect(maxPerEpochWindow(times, 60_000)).toBeLessThanOrEqual(100);
});
