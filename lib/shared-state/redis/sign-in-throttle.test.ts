// The sign-in throttle with REDIS_URL (rate-limiter-flexible's Redis store, insured by its memory
// store): the limit holds across instances, successful attempts still do not count, the client's
// record leaves Redis with its window, and while Redis is away each instance throttles on its own
// instead of failing the sign-in.
import { describe, expect, it } from "vitest";
import { createSignInThrottle } from "@/lib/server/sign-in-throttle";
import { redisForFile, until } from "@/testing/redis-links";

const redis = redisForFile();

describe("sign-in throttle in Redis", () => {
  it("counts failed attempts across two instances: 10 in the window over both, then a wait on either", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const [onA, onB] = [createSignInThrottle({ redis: a }), createSignInThrottle({ redis: b })];
    for (let i = 0; i < 10; i++) expect(await (i % 2 ? onB : onA).begin("198.51.100.7")).toBe(0);
    const wait = await onA.begin("198.51.100.7");
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await onB.begin("198.51.100.7")).toBeGreaterThan(0);
    // Another client is not affected.
    expect(await onB.begin("198.51.100.8")).toBe(0);
    const ttl = await a.client.pttl("wa-test:sign-in:198.51.100.7");
    expect(ttl).toBeGreaterThan(50_000);
  });

  it("a burst over both instances cannot exceed the limit, and successful attempts give their point back", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const [onA, onB] = [createSignInThrottle({ redis: a }), createSignInThrottle({ redis: b })];
    const waits = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? onB : onA).begin("198.51.100.9")));
    expect(waits.filter((w) => w === 0)).toHaveLength(10);
    for (let i = 0; i < 20; i++) {
      expect(await onA.begin("198.51.100.10")).toBe(0);
      await onB.succeeded("198.51.100.10");
    }
  });

  it("the client's record leaves Redis when its window ends", async () => {
    const link = await redis.link();
    const throttle = createSignInThrottle({ redis: link, points: 2, durationSec: 5 });
    expect(await throttle.begin("198.51.100.11")).toBe(0);
    expect(await throttle.begin("198.51.100.11")).toBe(0);
    expect(await throttle.begin("198.51.100.11")).toBe(5);
    const ttl = await link.client.pttl("wa-test:sign-in:198.51.100.11");
    expect(ttl).toBeGreaterThan(4000);
    expect(ttl).toBeLessThanOrEqual(5000);
  });

  it("Redis away: each instance throttles on its own, no attempt fails; back to the shared count after", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const [onA, onB] = [createSignInThrottle({ redis: a }), createSignInThrottle({ redis: b })];
    await redis.server().stop({ abrupt: true });
    await until(() => a.state === "unavailable" && b.state === "unavailable");
    for (let i = 0; i < 10; i++) expect(await onA.begin("198.51.100.12")).toBe(0);
    expect(await onA.begin("198.51.100.12")).toBeGreaterThan(0);
    await onA.succeeded("198.51.100.12");
    expect(await onB.begin("198.51.100.12")).toBe(0);

    await redis.server().start();
    await until(() => a.state === "connected" && b.state === "connected");
    for (let i = 0; i < 10; i++) expect(await (i % 2 ? onB : onA).begin("198.51.100.13")).toBe(0);
    expect(await onB.begin("198.51.100.13")).toBeGreaterThan(0);
  });
});
