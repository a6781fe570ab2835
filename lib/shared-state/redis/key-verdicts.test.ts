// The keys' verdicts through a real Redis: the contract of the in-process store, a check made through
// one instance read by another (so the key is not checked upstream again), nothing but the keyed hash
// in Redis' keys, and an outage that fails nothing: each instance then reads its own verdicts.
import { describe, expect, it } from "vitest";
import { keyVerdictContract } from "../key-verdicts.contract";
import { createRedisKeyVerdictStore, createResilientKeyVerdictStore } from "./key-verdicts";
import { redisForFile, until } from "@/testing/redis-links";

const redis = redisForFile();

keyVerdictContract("Redis key verdicts: the contract", async (now) => {
  const link = await redis.link();
  await link.client.flushdb();
  return createRedisKeyVerdictStore(link, now);
});

keyVerdictContract("resilient key verdicts (Redis up): the contract", async (now) => {
  const link = await redis.link();
  await link.client.flushdb();
  return createResilientKeyVerdictStore(link, now);
});

describe("key verdicts shared by two instances", () => {
  it("a verdict written through A is read through B, under P kv:NAME with a TTL", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    await a.client.flushdb();
    const now = () => Date.now();
    const [onA, onB] = [createResilientKeyVerdictStore(a, now), createResilientKeyVerdictStore(b, now)];
    await onA.set([{ name: "hash1", verdict: "refused" }], 300_000);
    expect(await onB.get(["hash1"])).toEqual(["refused"]);
    expect(await a.client.keys("*")).toEqual(["wa-test:kv:hash1"]);
    const ttl = await a.client.pttl("wa-test:kv:hash1");
    expect(ttl).toBeGreaterThan(300_000);
    expect(ttl).toBeLessThanOrEqual(360_000);
  });

  it("while Redis is away, each instance keeps serving its own verdicts; back, it shares again", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    await a.client.flushdb();
    const now = () => Date.now();
    const [onA, onB] = [createResilientKeyVerdictStore(a, now), createResilientKeyVerdictStore(b, now)];
    await redis.server().stop();
    await until(() => a.state === "unavailable" && b.state === "unavailable");
    await onA.set([{ name: "hash2", verdict: "ok" }], 300_000);
    expect(await onA.get(["hash2"])).toEqual(["ok"]);
    expect(await onB.get(["hash2"])).toEqual([undefined]);
    await redis.server().start();
    await until(() => a.state === "connected" && b.state === "connected" && a.usable() && b.usable());
    await onA.set([{ name: "hash3", verdict: "refused" }], 300_000);
    expect(await onB.get(["hash3"])).toEqual(["refused"]);
  });
});
