// The test Redis really starts, answers, stops and comes back on its port (the outage tests rely on it).
import { Redis } from "ioredis";
import { afterAll, expect, test } from "vitest";
import { startTestRedis, type TestRedis } from "./redis";

let redis: TestRedis | undefined;
afterAll(async () => {
  await redis?.stop();
});

test("starts on loopback, loses its data when stopped, and answers again on the same port", async () => {
  redis = await startTestRedis();
  expect(redis.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
  const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  await client.connect();
  await client.set("k", "v");
  expect(await client.get("k")).toBe("v");
  client.disconnect();
  await redis.stop();
  expect(redis.running).toBe(false);
  await redis.start();
  const again = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  await again.connect();
  expect(await again.get("k")).toBeNull();
  again.disconnect();
});
