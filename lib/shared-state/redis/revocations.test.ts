// Revoked sessions through a real Redis: the same contract as the in-process store, a sign-out made
// through one instance refused by another, kept when a full Redis evicts under volatile-lru (the
// caches go instead), bounded in number, and an outage that fails nothing and loses nothing this
// instance revoked (written to Redis again when it is back, even after a restart emptied it).
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { revocationContract } from "../revocations.contract";
import { RedisCacheStore } from "./cache-store";
import { createRedisRevocationStore, createResilientRevocationStore } from "./revocations";
import { sealerFor } from "./sealed";
import { redisForFile, until } from "@/testing/redis-links";

const redis = redisForFile();

revocationContract("Redis revocation store: the contract", async (now) => {
  const link = await redis.link();
  await link.client.flushdb();
  return createRedisRevocationStore(link, now);
});

revocationContract("resilient revocation store (Redis up): the contract", async (now) => {
  const link = await redis.link();
  await link.client.flushdb();
  return createResilientRevocationStore(link, now);
});

describe("revocations shared by two instances", () => {
  it("a session revoked through A is refused through B; the set drops it once the session would have ended", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    await a.client.flushdb();
    let t = Date.now();
    const onA = createResilientRevocationStore(a, () => t);
    const onB = createResilientRevocationStore(b, () => t);
    await onA.revoke("sid-shared", t + 60_000);
    await onA.revoke("sid-short", t + 1_000);
    expect(await onB.isRevoked("sid-shared")).toBe(true);
    expect(await onB.isRevoked("sid-other")).toBe(false);
    // One set, without a TTL of its own (what volatile-* eviction policies never touch).
    expect(await b.client.keys("wa-test:*")).toEqual(["wa-test:revoked"]);
    expect(await b.client.pttl("wa-test:revoked")).toBe(-1);
    expect(await b.client.zscore("wa-test:revoked", "sid-shared")).toBe(String(t + 60_000));
    t += 2_000;
    await onA.revoke("sid-later", t + 60_000);
    expect(await b.client.zrange("wa-test:revoked", "0", "-1")).toEqual(["sid-shared", "sid-later"]);
  });

  it("keeps at most its bound, the sessions due to end soonest going first; a session revoked again keeps its later end", async () => {
    const link = await redis.link();
    await link.client.flushdb();
    const t = Date.now();
    const store = createRedisRevocationStore(link, () => t, { maxEntries: 3 });
    await store.revoke("ends-last", t + 50_000);
    await store.revoke("ends-first", t + 10_000);
    await store.revoke("ends-second", t + 20_000);
    await store.revoke("ends-second", t + 15_000);
    await store.revoke("ends-third", t + 30_000);
    expect(await link.client.zcard("wa-test:revoked")).toBe(3);
    expect(await store.isRevoked("ends-first")).toBe(false);
    for (const id of ["ends-second", "ends-third", "ends-last"]) expect(await store.isRevoked(id)).toBe(true);
  });

  it("a session revoked by an earlier version (its own key with a TTL) is still refused", async () => {
    const link = await redis.link();
    await link.client.set("wa-test:rev:sid-legacy", String(Date.now() + 60_000), "PX", 60_000);
    expect(await createResilientRevocationStore(link, Date.now).isRevoked("sid-legacy")).toBe(true);
  });

  it("a full Redis evicting by volatile-lru drops cached entries, never a revoked session", async () => {
    const link = await redis.link();
    await link.client.flushdb();
    const store = createRedisRevocationStore(link, Date.now);
    const ids = Array.from({ length: 200 }, (_, i) => `sid-${i}`);
    for (const id of ids) await store.revoke(id, Date.now() + 3_600_000);
    const before = Number(/^used_memory:(\d+)/m.exec(await link.client.info("memory"))![1]);
    await link.client.config("SET", "maxmemory", String(before + 2_000_000));
    await link.client.config("SET", "maxmemory-policy", "volatile-lru");
    try {
      // ~6 MB of cached answers into a Redis with 2 MB to spare.
      const cache = new RedisCacheStore(link, "res", "filler", sealerFor(DEMO_KEYS.pro, "test-only-session-secret-0123456789abcdef"), 10_000);
      const body = "x".repeat(10_000);
      for (let i = 0; i < 600; i++) await cache.set(`/visitors?offset=${i}`, body, 3_600_000);
      const info = await link.client.info("stats");
      expect(Number(/^evicted_keys:(\d+)/m.exec(info)![1])).toBeGreaterThan(100);
      for (const id of ids) expect(await store.isRevoked(id)).toBe(true);
    } finally {
      await link.client.config("SET", "maxmemory", "0");
      await link.client.config("SET", "maxmemory-policy", "noeviction");
    }
  });

  it("a key's sessions ended through A are refused through B, also after a restart emptied Redis", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    await a.client.flushdb();
    const t = Date.now();
    const onA = createResilientRevocationStore(a, () => t);
    const onB = createResilientRevocationStore(b, () => t);
    await onA.revokeKey("lk_unlinked", t + 60_000);
    const ref = (r: string) => async () => r;
    expect(await onB.isSessionRevoked({ sessionId: "sid-of-key", expiresAt: t + 30_000 }, ref("lk_unlinked"))).toBe(true);
    expect(await onB.isSessionRevoked({ sessionId: "sid-of-key", expiresAt: t + 90_000 }, ref("lk_unlinked"))).toBe(false);
    expect(await onB.isSessionRevoked({ sessionId: "sid-other", expiresAt: t + 30_000 }, ref("lk_other"))).toBe(false);
    // Neither key carries a TTL (what volatile-* eviction policies never touch).
    expect((await b.client.keys("wa-test:*")).sort()).toEqual(["wa-test:revoked", "wa-test:revoked-keys-until"]);
    expect(await b.client.pttl("wa-test:revoked-keys-until")).toBe(-1);

    await redis.server().stop();
    await redis.server().start();
    await until(async () => onB.isSessionRevoked({ sessionId: "sid-of-key", expiresAt: t + 30_000 }, ref("lk_unlinked")));
  });

  it("a new instance's first request already asks Redis: it waits for the first connection's outcome", async () => {
    const a = await redis.link();
    await createResilientRevocationStore(a, Date.now).revoke("sid-early", Date.now() + 60_000);
    const fresh = await redis.link({ url: redis.server().url });
    expect(fresh.state).toBe("unavailable");
    expect(await createResilientRevocationStore(fresh, Date.now).isRevoked("sid-early")).toBe(true);
  });

  it("Redis away: nothing throws, this instance keeps its revocations, and writes them to Redis when it is back", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const onA = createResilientRevocationStore(a, Date.now);
    const onB = createResilientRevocationStore(b, Date.now);
    await onA.revoke("sid-before", Date.now() + 60_000);
    await redis.server().stop({ abrupt: true });
    await until(() => a.state === "unavailable" && b.state === "unavailable");

    await onA.revoke("sid-during", Date.now() + 60_000);
    expect(await onA.isRevoked("sid-during")).toBe(true);
    expect(await onA.isRevoked("sid-before")).toBe(true);
    // B never saw these and cannot ask: it serves (the session stays valid there until Redis is back).
    expect(await onB.isRevoked("sid-during")).toBe(false);

    // The restarted Redis lost everything (no persistence): A writes its revocations there again.
    await redis.server().start();
    await until(() => a.state === "connected" && b.state === "connected");
    await until(async () => (await onB.isRevoked("sid-during")) && (await onB.isRevoked("sid-before")));
    expect(a.logs.filter((l) => l.includes("unavailable"))).toHaveLength(1);
    expect(a.logs.filter((l) => l.includes("connected again"))).toHaveLength(1);

    // A restart that nobody noticed between two requests empties Redis too: A writes them again.
    await redis.server().stop();
    await redis.server().start();
    await until(async () => (await onB.isRevoked("sid-during")) && (await onB.isRevoked("sid-before")));
  });

  it("a revocation not written because a command failed is written once Redis is usable again", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const onA = createResilientRevocationStore(a, Date.now);
    a.failed(new Error("a timeout, say"));
    await onA.revoke("sid-paused", Date.now() + 60_000);
    expect(await createRedisRevocationStore(b, Date.now).isRevoked("sid-paused")).toBe(false);
    // A's next use of Redis once the pause is over (every request reads a session) writes it.
    await until(async () => {
      await onA.isRevoked("sid-other");
      return createRedisRevocationStore(b, Date.now).isRevoked("sid-paused");
    });
  });
});
