// The per-key caches through a real Redis: an entry written through one instance is a hit through
// another, and only with the same API key (sealed values; another key's reads are misses, never
// errors); clear() drops exactly that key's namespace for every instance; no Redis key or value holds
// an API key or a request in clear; identical requests on two instances make one upstream call; and
// Redis going away and coming back fails nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataApiClient } from "@/lib/data-api/client";
import { createScheduler } from "@/lib/data-api/scheduler";
import { DEMO_KEYS } from "@/sandbox/keys";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { MemoryCacheStore } from "@/lib/data-api/cache";
import { createSharedRequestCache, RedisCacheStore, RedisSharedFlight, ResilientCacheStore } from "./cache-store";
import { createResilientInsightsStore } from "./insights";
import type { RedisLink } from "./connection";
import { sealerFor } from "./sealed";
import { redisForFile, until } from "./test-support";

const redis = redisForFile();
const SECRET = "test-only-session-secret-0123456789abcdef";
const KEY_1 = DEMO_KEYS.pro;
const KEY_2 = DEMO_KEYS.free;

const store = (link: RedisLink, apiKey: string, ns = `ns-${apiKey.slice(-4)}`, kind: "res" | "ins" = "res") =>
  new RedisCacheStore(link, kind, ns, sealerFor(apiKey, SECRET));

/** Every key in the test Redis, and every value (as bytes in latin1, so any text in clear shows). */
async function everything(link: RedisLink): Promise<{ keys: string[]; values: string }> {
  const keys = await link.client.keys("*");
  const values = await Promise.all(keys.map(async (k) => ((await link.client.type(k)) === "string" ? (await link.client.getBuffer(k))!.toString("latin1") : "")));
  return { keys, values: values.join("\n") };
}

describe("RedisCacheStore", () => {
  it("an entry set through A is a hit through B, with the value as it was; it expires with its TTL", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const value = { data: [{ id: "vis_1", email: "ana@example.com", n: 1.5, none: null }], meta: { total: 1 } };
    await store(a, KEY_1).set("/visitors?limit=1", value, 5000);
    expect(await store(b, KEY_1).get("/visitors?limit=1")).toEqual(value);
    expect(await store(b, KEY_1).get("/visitors?limit=2")).toBeUndefined();
    await store(a, KEY_1).set("/short", "soon gone", 250);
    expect(await store(b, KEY_1).get("/short")).toBe("soon gone");
    const set = Date.now();
    await until(async () => (await store(b, KEY_1).get("/short")) === undefined, 2000);
    expect(Date.now() - set).toBeLessThan(1000);
  });

  it("another API key reads nothing: not through its own namespace, not even the same one, not a copied value", async () => {
    const link = await redis.link();
    await link.client.flushdb();
    await store(link, KEY_1, "shared-ns").set("/analytics/overview", { visitors: 42 }, 5000);
    expect(await store(link, KEY_2).get("/analytics/overview")).toBeUndefined();
    // Same namespace name, wrong key: its entry names differ (keyed hash), and a value copied under
    // its name does not open (wrong key, or bound to another entry): a miss, not an error.
    expect(await store(link, KEY_2, "shared-ns").get("/analytics/overview")).toBeUndefined();
    const [entryKey] = await link.client.keys("wa-test:c:res:shared-ns:e:*");
    const sealed = (await link.client.getBuffer(entryKey!))!;
    await store(link, KEY_2, "shared-ns").set("/other", "x", 5000);
    for (const key of await link.client.keys("wa-test:c:res:shared-ns:e:*")) if (key !== entryKey) await link.client.set(key, sealed);
    expect(await store(link, KEY_2, "shared-ns").get("/other")).toBeUndefined();
    // The same key, another entry's value: also a miss.
    await store(link, KEY_1, "shared-ns").set("/other", "y", 5000);
    for (const key of await link.client.keys("wa-test:c:res:shared-ns:e:*")) if (key !== entryKey) await link.client.set(key, sealed);
    expect(await store(link, KEY_1, "shared-ns").get("/other")).toBeUndefined();
    // A damaged value: a miss.
    await link.client.set(entryKey!, Buffer.concat([sealed.subarray(0, 40), Buffer.from("garbage")]));
    expect(await store(link, KEY_1, "shared-ns").get("/analytics/overview")).toBeUndefined();
  });

  it("clear() drops exactly that key's namespace, for every instance at once", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    await store(a, KEY_1).set("/x", 1, 5000);
    await store(a, KEY_1, undefined, "ins").set("/x", 2, 5000);
    await store(a, KEY_2).set("/x", 3, 5000);
    await store(b, KEY_1).clear();
    expect(await store(a, KEY_1).get("/x")).toBeUndefined();
    expect(await store(a, KEY_1, undefined, "ins").get("/x")).toBe(2);
    expect(await store(a, KEY_2).get("/x")).toBe(3);
    // The namespace works on after a clear.
    await store(a, KEY_1).set("/x", 4, 5000);
    expect(await store(b, KEY_1).get("/x")).toBe(4);
    await store(b, KEY_1).delete("/x");
    expect(await store(a, KEY_1).get("/x")).toBeUndefined();
  });

  it("the generation outlives every entry written under it", async () => {
    const link = await redis.link();
    await store(link, KEY_1, "gen-ns").set("/a", 1, 60_000);
    await store(link, KEY_1, "gen-ns").set("/b", 1, 1000);
    expect(await link.client.pttl("wa-test:c:res:gen-ns:g")).toBeGreaterThan(59_000);
    // Lost (evicted): the next write starts a new generation, and older entries stay unreachable.
    await link.client.del("wa-test:c:res:gen-ns:g");
    expect(await store(link, KEY_1, "gen-ns").get("/a")).toBeUndefined();
    await store(link, KEY_1, "gen-ns").set("/b", 2, 1000);
    expect(await store(link, KEY_1, "gen-ns").get("/a")).toBeUndefined();
    expect(await store(link, KEY_1, "gen-ns").get("/b")).toBe(2);
  });
});

describe("the insights store in Redis", () => {
  it("a key's figures written through A are read through B, only with that key, and sign-out clears them", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const onA = createResilientInsightsStore(a, { secret: () => SECRET, now: Date.now });
    const onB = createResilientInsightsStore(b, { secret: () => SECRET, now: Date.now });
    await onA.namespace("ins-1", KEY_1).set("day:2026-11-19", { visitors: 10 }, 60_000);
    expect(await onB.namespace("ins-1", KEY_1).get("day:2026-11-19")).toEqual({ visitors: 10 });
    expect(await onB.namespace("ins-1", KEY_2).get("day:2026-11-19")).toBeUndefined();
    await onB.namespace("ins-1", KEY_1).clear();
    expect(await onA.namespace("ins-1", KEY_1).get("day:2026-11-19")).toBeUndefined();
  });
});

describe("the response cache of a key's upstream, on two instances", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: "2026-11-20T12:00:00Z", visitors: 300 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const instance = (link: RedisLink, apiKey: string = KEY_1) =>
    createDataApiClient({
      baseUrl: sandbox.baseUrl,
      apiKey,
      scheduler: createScheduler(),
      cache: createSharedRequestCache(link, { ns: `up-${apiKey.slice(-4)}`, apiKey, secret: SECRET, ttlMs: 5000, now: Date.now }),
    });

  it("20 identical concurrent requests over two instances make one upstream call; then a hit on both", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    await a.client.flushdb();
    const [onA, onB] = [instance(a), instance(b)];
    sandbox.setFaults({ latencyMs: 150 });
    const before = sandbox.stats().byPath["/visitors"] ?? 0;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? onB : onA).get("/visitors", { query: { limit: 5, offset: 10 } })),
    );
    sandbox.setFaults({});
    expect((sandbox.stats().byPath["/visitors"] ?? 0) - before).toBe(1);
    expect(new Set(answers.map((x) => JSON.stringify(x))).size).toBe(1);
    expect(answers[0]!.data).toHaveLength(5);
    await onA.get("/visitors", { query: { limit: 5, offset: 10 } });
    await instance(b).get("/visitors", { query: { limit: 5, offset: 10 } });
    expect((sandbox.stats().byPath["/visitors"] ?? 0) - before).toBe(1);
    // No lock is left behind.
    expect(await a.client.keys("wa-test:c:res:*:lock:*")).toEqual([]);
  });

  it("another key asking the same at the same moment makes its own call and never gets the first key's answer", async () => {
    const link = await redis.link();
    await link.client.flushdb();
    const before = sandbox.stats().byPath["/visitors"] ?? 0;
    const [pro, empty] = await Promise.all([
      instance(link, KEY_1).get("/visitors", { query: { limit: 1 } }),
      instance(link, DEMO_KEYS.empty).get("/visitors", { query: { limit: 1 } }),
    ]);
    expect((sandbox.stats().byPath["/visitors"] ?? 0) - before).toBe(2);
    expect(pro.meta.total).toBeGreaterThan(0);
    expect(empty.meta.total).toBe(0);
  });

  it("no Redis key or value holds an API key, a request path or a row in clear", async () => {
    const link = await redis.link();
    await link.client.flushdb();
    const rows = await instance(link).get("/visitors", { query: { limit: 3 } });
    await instance(link, KEY_2).get("/analytics/overview", { query: { period: "7d" } });
    const { keys, values } = await everything(link);
    expect(keys.length).toBeGreaterThan(2);
    for (const secret of [KEY_1, KEY_2, KEY_1.slice(-12), "visitors", "overview", rows.data[0]!.id]) {
      expect(keys.join("\n")).not.toContain(secret);
      expect(values).not.toContain(secret);
    }
  });
});

describe("RedisSharedFlight", () => {
  it("when the fetching instance fails, the waiting ones fetch themselves at once (no waiting out the lock)", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const [onA, onB] = [new RedisSharedFlight(store(a, KEY_1, "sf")), new RedisSharedFlight(store(b, KEY_1, "sf"), { lockMs: 10_000 })];
    let calls = 0;
    const signal = new AbortController().signal;
    const failing = onA.run("/k", async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 50));
      throw new Error("upstream 500");
    }, signal);
    await new Promise((r) => setTimeout(r, 10));
    const started = Date.now();
    const waiting = onB.run(
      "/k",
      async () => {
        calls++;
        return "fetched by B";
      },
      signal,
    );
    await expect(failing).rejects.toThrow("upstream 500");
    expect(await waiting).toBe("fetched by B");
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("a waiting caller that gives up (abort) stops waiting", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const [onA, onB] = [new RedisSharedFlight(store(a, KEY_1, "sf2")), new RedisSharedFlight(store(b, KEY_1, "sf2"))];
    const slow = onA.run("/k", () => new Promise((r) => setTimeout(() => r("late"), 300)), new AbortController().signal);
    await new Promise((r) => setTimeout(r, 10));
    const giveUp = new AbortController();
    const waiting = onB.run("/k", async () => "never", giveUp.signal);
    giveUp.abort(new Error("tab closed"));
    await expect(waiting).rejects.toThrow("tab closed");
    expect(await slow).toBe("late");
  });
});

describe("Redis going away and coming back", () => {
  it("the caches fail nothing: served in-process meanwhile, back to Redis after, a clear made meanwhile reaching Redis", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const cacheA = new ResilientCacheStore(store(a, KEY_1, "out"), new MemoryCacheStore(), "res:out");
    const cacheB = new ResilientCacheStore(store(b, KEY_1, "out"), new MemoryCacheStore(), "res:out");
    await cacheA.set("/before", 1, 60_000);

    // A command fails on a live connection (a timeout, say): A serves alone and clears later.
    a.failed(new Error("timeout"));
    await cacheA.clear();
    expect(await cacheA.get("/before")).toBeUndefined();
    // A's next use of Redis once the pause is over makes the clear there too.
    await until(async () => {
      await cacheA.get("/anything");
      return (await cacheB.get("/before")) === undefined;
    });

    await redis.server().stop({ abrupt: true });
    await until(() => a.state === "unavailable");
    await cacheA.set("/during", 2, 60_000);
    expect(await cacheA.get("/during")).toBe(2);
    expect(await cacheB.get("/during")).toBeUndefined();
    await cacheA.delete("/during");
    await cacheA.clear();
    const flight = new RedisSharedFlight(store(a, KEY_1, "out"));
    expect(await flight.run("/k", async () => "alone", new AbortController().signal)).toBe("alone");

    await redis.server().start();
    await until(() => a.state === "connected" && b.state === "connected");
    await cacheA.set("/after", 3, 60_000);
    expect(await cacheB.get("/after")).toBe(3);
  });
});
