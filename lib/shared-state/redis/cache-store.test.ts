// The per-key caches through a real Redis: an entry written through one instance is a hit through
// another, and only with the same API key (sealed values; another key's reads are misses, never
// errors); a namespace never holds more than its bound, whatever is written to it; no Redis key or
// value holds an API key or a request in clear; identical requests on two instances make one upstream
// call, and an instance waiting for another's fetch costs Redis a few commands, not one every 25 ms;
// Redis going away and coming back fails nothing.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDataApiClient } from "@/lib/data-api/client";
import { createScheduler } from "@/lib/data-api/scheduler";
import { DEMO_KEYS } from "@/sandbox/keys";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { MemoryCacheStore } from "@/lib/data-api/cache";
import { ioTurn } from "@/lib/fake-time";
import { createSharedRequestCache, RedisCacheStore, RedisSharedFlight, ResilientCacheStore } from "./cache-store";
import { createResilientInsightsStore } from "./insights";
import type { RedisLink } from "./connection";
import { sealerFor } from "./sealed";
import { redisForFile, until } from "@/testing/redis-links";

const redis = redisForFile();
const SECRET = "test-only-session-secret-0123456789abcdef";
const KEY_1 = DEMO_KEYS.pro;
const KEY_2 = DEMO_KEYS.free;

const store = (link: RedisLink, apiKey: string, ns = `ns-${apiKey.slice(-4)}`, kind: "res" | "ins" = "res", maxEntries = 500) =>
  new RedisCacheStore(link, kind, ns, sealerFor(apiKey, SECRET), maxEntries);

/** Every key in the test Redis, and every value (as bytes in latin1, so any text in clear shows). */
async function everything(link: RedisLink): Promise<{ keys: string[]; values: string }> {
  const keys = await link.client.keys("*");
  const values = await Promise.all(
    keys.map(async (k) => ((await link.client.type(k)) === "string" ? (await link.client.getBuffer(k))!.toString("latin1") : "")),
  );
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

  it("delete() drops one entry for every instance; other keys' entries stay", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    await store(a, KEY_1).set("/x", 1, 5000);
    await store(a, KEY_1, undefined, "ins").set("/x", 2, 5000);
    await store(a, KEY_2).set("/x", 3, 5000);
    await store(b, KEY_1).delete("/x");
    expect(await store(a, KEY_1).get("/x")).toBeUndefined();
    expect(await store(a, KEY_1, undefined, "ins").get("/x")).toBe(2);
    expect(await store(a, KEY_2).get("/x")).toBe(3);
  });
});

describe("the bound of a namespace", () => {
  /** The namespace's entry keys and index size, as Redis holds them. */
  async function held(link: RedisLink, ns: string): Promise<{ entries: number; index: number }> {
    const entries = (await link.client.keys(`wa-test:c:ins:${ns}:e:*`)).length;
    return { entries, index: await link.client.zcard(`wa-test:c:ins:${ns}:i`) };
  }

  it("120 figures written to a namespace bounded at 50: Redis holds the 50 written last, and other namespaces keep theirs", async () => {
    const link = await redis.link();
    await link.client.flushdb();
    const bounded = store(link, KEY_1, "full", "ins", 50);
    await store(link, KEY_1, "neighbour", "ins", 50).set("day:2026-01-01", { visitors: 1 }, 60_000);
    for (let i = 0; i < 120; i++) await bounded.set(`day:${i}`, { visitors: i }, 60_000);
    expect(await held(link, "full")).toEqual({ entries: 50, index: 50 });
    expect(await bounded.get("day:69")).toBeUndefined();
    expect(await bounded.get("day:70")).toEqual({ visitors: 70 });
    expect(await bounded.get("day:119")).toEqual({ visitors: 119 });
    expect(await store(link, KEY_1, "neighbour", "ins", 50).get("day:2026-01-01")).toEqual({ visitors: 1 });
    // Writing an entry again replaces it: it is not counted twice.
    await bounded.set("day:119", { visitors: -1 }, 60_000);
    expect(await held(link, "full")).toEqual({ entries: 50, index: 50 });
    // The index lives as long as its longest entry, so it cannot outlive them for ever.
    expect(await link.client.pttl("wa-test:c:ins:full:i")).toBeGreaterThan(59_000);
  });

  it("beyond the bound the entries due to expire soonest go first, never the one being written; expired ones leave the index", async () => {
    const link = await redis.link();
    await link.client.flushdb();
    const bounded = store(link, KEY_1, "mixed", "ins", 3);
    await bounded.set("closed-1", 1, 60_000);
    await bounded.set("open", 2, 30_000);
    await bounded.set("closed-2", 3, 60_000);
    await bounded.set("closed-3", 4, 60_000);
    expect(await bounded.get("open")).toBeUndefined();
    expect([await bounded.get("closed-1"), await bounded.get("closed-2"), await bounded.get("closed-3")]).toEqual([1, 3, 4]);
    // A short-lived entry written into a full namespace is kept; the soonest of the others goes.
    await bounded.set("today", 5, 30_000);
    expect(await bounded.get("today")).toBe(5);
    expect(await bounded.get("closed-1")).toBeUndefined();
    expect(await held(link, "mixed")).toEqual({ entries: 3, index: 3 });
    // Once "today" has expired, the next write finds room without evicting anyone.
    await bounded.set("brief", 6, 50);
    await until(async () => (await bounded.get("brief")) === undefined, 2000);
    await bounded.set("closed-4", 7, 60_000);
    expect(await held(link, "mixed")).toEqual({ entries: 3, index: 3 });
    expect(await bounded.get("closed-2")).toBe(3);
    await bounded.delete("closed-4");
    expect(await held(link, "mixed")).toEqual({ entries: 2, index: 2 });
  });
});

describe("many entries at once", () => {
  it("setMany writes a listing's figures in one command, others' entries going first beyond the bound; getMany reads them in one", async () => {
    const link = await redis.link();
    await link.client.flushdb();
    const bounded = store(link, KEY_1, "batch", "ins", 5);
    await bounded.set("older-1", 1, 60_000);
    await bounded.set("older-2", 2, 60_000);
    const pending = { n: 0 };
    const sent = counted(link, pending);
    await bounded.setMany([
      { key: "day:1", value: { v: 1 }, ttlMs: 60_000 },
      { key: "day:2", value: { v: 2 }, ttlMs: 30_000 },
      { key: "day:3", value: { v: 3 }, ttlMs: 60_000 },
      { key: "day:4", value: { v: 4 }, ttlMs: 60_000 },
      { key: "never", value: undefined, ttlMs: 60_000 },
    ]);
    expect(await bounded.getMany(["day:1", "day:2", "day:3", "day:4", "older-1", "older-2", "never"])).toEqual([
      { v: 1 },
      { v: 2 },
      { v: 3 },
      { v: 4 },
      undefined,
      2,
      undefined,
    ]);
    expect(sent.sent).toBe(2);
    // A write over the bound on its own keeps its longest-lived entries.
    await bounded.setMany(Array.from({ length: 8 }, (_, i) => ({ key: `w:${i}`, value: i, ttlMs: 10_000 * (i + 1) })));
    expect(await bounded.getMany(["w:2", "w:3", "w:4", "w:7", "day:1"])).toEqual([undefined, 3, 4, 7, undefined]);
    expect(await link.client.keys("wa-test:c:ins:batch:e:*")).toHaveLength(5);
    expect(await bounded.getMany([])).toEqual([]);
  });
});

describe("the insights store in Redis", () => {
  it("a key's figures written through A are read through B, only with that key, within the key's bound", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    await a.client.flushdb();
    const onA = createResilientInsightsStore(a, { secret: () => SECRET, now: Date.now, maxEntriesPerKey: 10 });
    const onB = createResilientInsightsStore(b, { secret: () => SECRET, now: Date.now, maxEntriesPerKey: 10 });
    await onA.namespace("ins-1", KEY_1).set("day:2026-11-19", { visitors: 10 }, 60_000);
    expect(await onB.namespace("ins-1", KEY_1).get("day:2026-11-19")).toEqual({ visitors: 10 });
    expect(await onB.namespace("ins-1", KEY_2).get("day:2026-11-19")).toBeUndefined();
    for (let i = 0; i < 30; i++) await (i % 2 ? onA : onB).namespace("ins-1", KEY_1).set(`day:${i}`, i, 60_000);
    expect(await a.client.keys("wa-test:c:ins:ins-1:e:*")).toHaveLength(10);
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
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? onB : onA).get("/visitors", { query: { limit: 5, offset: 10 } })));
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

/**
 * Counts what a link's client sends to Redis (every command, scripts included: ioredis sends them all
 * through sendCommand) and how many of them still await their reply.
 */
function counted(link: RedisLink, pending: { n: number }): { sent: number } {
  const count = { sent: 0 };
  const send = link.client.sendCommand.bind(link.client);
  link.client.sendCommand = (command, stream) => {
    count.sent++;
    pending.n++;
    command.promise.then(
      () => pending.n--,
      () => pending.n--,
    );
    return send(command, stream);
  };
  return count;
}

describe("RedisSharedFlight", () => {
  it("an instance waiting 10 s for another's fetch sends a few commands a second, and has the answer within 200 ms of its writing (fake time)", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    await a.client.flushdb();
    const pending = { n: 0 };
    counted(a, pending);
    const byWaiter = counted(b, pending);
    const leader = new RedisSharedFlight(store(a, KEY_1, "slow"), { lockMs: 60_000 });
    const waiter = new RedisSharedFlight(store(b, KEY_1, "slow"));
    const signal = new AbortController().signal;
    let writtenAt = 0;
    let answeredAt = 0;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const started = Date.now();
      const fetching = leader.run(
        "/k",
        async () => {
          await new Promise((r) => setTimeout(r, 10_000));
          await store(a, KEY_1, "slow").set("/k", "the answer", 60_000);
          writtenAt = Date.now();
          return "the answer";
        },
        signal,
      );
      // Taken by the leader before the waiter asks.
      while (pending.n > 0) await ioTurn();
      const waiting = waiter
        .run("/k", async () => "fetched again", signal)
        .then((v) => {
          answeredAt = Date.now();
          return v;
        });
      let done = false;
      const both = Promise.all([fetching, waiting]).finally(() => (done = true));
      // Discrete-event time over real Redis: the clock jumps to the next timer only while no command is on the wire.
      while (!done) {
        await ioTurn();
        if (pending.n === 0 && vi.getTimerCount() > 0) vi.advanceTimersToNextTimer();
      }
      expect(await both).toEqual(["the answer", "the answer"]);
      expect(writtenAt - started).toBe(10_000);
      expect(answeredAt - writtenAt).toBeLessThanOrEqual(200);
      // The lock, then one look per wait: 5, 10, 20 ... 200 ms, then every 200 ms (polling every 25 ms
      // with two commands a look, it was ~800).
      expect(byWaiter.sent).toBeLessThanOrEqual(1 + 6 + 10_000 / 200);
      expect(byWaiter.sent).toBeGreaterThan(10);
    } finally {
      vi.useRealTimers();
    }
  });

  it("when the fetching instance fails, the waiting ones fetch themselves at once (no waiting out the lock)", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const [onA, onB] = [new RedisSharedFlight(store(a, KEY_1, "sf")), new RedisSharedFlight(store(b, KEY_1, "sf"), { lockMs: 10_000 })];
    let calls = 0;
    const signal = new AbortController().signal;
    const failing = onA.run(
      "/k",
      async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 50));
        throw new Error("upstream 500");
      },
      signal,
    );
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
  it("the caches fail nothing: served in-process meanwhile, back to Redis after", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const cacheA = new ResilientCacheStore(store(a, KEY_1, "out"), new MemoryCacheStore());
    const cacheB = new ResilientCacheStore(store(b, KEY_1, "out"), new MemoryCacheStore());
    await cacheA.set("/before", 1, 60_000);
    expect(await cacheB.get("/before")).toBe(1);

    // A command fails on a live connection (a timeout, say): A serves alone for a moment.
    a.failed(new Error("timeout"));
    await cacheA.set("/paused", 2, 60_000);
    expect(await cacheA.get("/paused")).toBe(2);
    expect(await cacheB.get("/paused")).toBeUndefined();

    await redis.server().stop({ abrupt: true });
    await until(() => a.state === "unavailable");
    await cacheA.set("/during", 3, 60_000);
    expect(await cacheA.get("/during")).toBe(3);
    expect(await cacheB.get("/during")).toBeUndefined();
    await cacheA.delete("/during");
    expect(await cacheA.get("/during")).toBeUndefined();
    const flight = new RedisSharedFlight(store(a, KEY_1, "out"));
    expect(await flight.run("/k", async () => "alone", new AbortController().signal)).toBe("alone");

    await redis.server().start();
    await until(() => a.state === "connected" && b.state === "connected");
    await cacheA.set("/after", 4, 60_000);
    expect(await cacheB.get("/after")).toBe(4);
  });
});
