// Revoked sessions through a real Redis: the same contract as the in-process store, a sign-out made
// through one instance refused by another, and an outage that fails nothing and loses nothing this
// instance revoked (written to Redis again when it is back, even after a restart emptied it).
import { describe, expect, it } from "vitest";
import { revocationContract } from "../stores/revocations.contract";
import { createRedisRevocationStore, createResilientRevocationStore } from "./revocations";
import { redisForFile, until } from "./test-support";

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
  it("a session revoked through A is refused through B, and Redis drops it when the session would have ended", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const t = Date.now();
    const onA = createResilientRevocationStore(a, Date.now);
    const onB = createResilientRevocationStore(b, Date.now);
    await onA.revoke("sid-shared", t + 60_000);
    expect(await onB.isRevoked("sid-shared")).toBe(true);
    expect(await onB.isRevoked("sid-other")).toBe(false);
    const ttl = await b.client.pttl("wa-test:rev:sid-shared");
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
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
