// The shared rate budget against a real redis-server (testing/redis.ts): two "instances" are two budgets
// with two ioredis clients on one key id. Time is the argument each call takes, so minutes pass in
// milliseconds; only the outage tests wait (for the clients to notice Redis going and coming back).
import { once } from "node:events";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RateBudget, type Admission, type KeyBudget } from "@/lib/data-api/rate-budget";
import { createSharedBudget, localShare, type SharedBudgetOptions } from "./budget";
import { startInstanceHeartbeat } from "./instances";
import { startTestRedis, type TestRedis } from "@/testing/redis";

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0) + 300;

let server: TestRedis;
const clients: Redis[] = [];
let logs: string[] = [];

beforeAll(async () => {
  server = await startTestRedis();
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await server?.stop();
});
beforeEach(async () => {
  logs = [];
  if (!server.running) await server.start();
  const admin = await client();
  await admin.flushall();
});

/** A client as an instance would hold it: reconnecting on its own, failing fast while away. */
async function client(): Promise<Redis> {
  const c = new Redis(server.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => 50 });
  c.on("error", () => undefined);
  clients.push(c);
  if (c.status !== "ready") await once(c, "ready");
  return c;
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met within 5 s");
    await new Promise((r) => setTimeout(r, 10));
  }
}

type Instance = { budget: KeyBudget; redis: Redis; beat: (now: number) => Promise<void> };

/** One instance: its own client and heartbeat, the shared budget of key `keyId`. */
async function instance(keyId = "key-1", options: Partial<SharedBudgetOptions> = {}): Promise<Instance> {
  const redis = await client();
  const heartbeat = startInstanceHeartbeat({ redis, now: () => T0, intervalMs: 0 });
  const budget = createSharedBudget({ redis, keyId, instances: heartbeat, log: (m) => logs.push(m), ...options });
  return { budget, redis, beat: heartbeat.beat };
}

const admitted = <T>(a: Admission<T>): T => {
  if (!a.admitted) throw new Error(`not admitted (wait ${a.waitMs} ms)`);
  return a.token;
};

/**
 * The most requests that any span of `width` ms can hold, counting each over its whole time in
 * flight (from admission to answer: the server may count it anywhere in there).
 */
function mostInAnySpan(requests: Array<{ from: number; to: number }>, width: number): number {
  let most = 0;
  for (const r of requests) {
    // Spans [s, s + width] starting where a request's admission leaves room for the most.
    const s = r.from - width;
    most = Math.max(most, requests.filter((q) => q.from <= s + width && q.to >= s).length);
  }
  return most;
}

describe("the shared budget across two instances on one key", () => {
  /**
   * 300 admissions taken in turns by two instances (a random one of those not yet refused, with a
   * random priority), each answered up to 0.9 s later, on a simulated clock; returns them.
   */
  async function simulate(instances: KeyBudget[], refused: (n: number) => boolean = () => false) {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const requests: Array<{ from: number; to: number; token: unknown; by: KeyBudget; answered: boolean }> = [];
    let now = T0;
    while (requests.length < 300) {
      // Answers due by now, in time order.
      for (const r of requests.filter((q) => !q.answered && q.to <= now).sort((a, b) => a.to - b.to)) {
        r.answered = true;
        if (refused(requests.indexOf(r))) await r.by.recordResponse(r.to, 429, { retryAfter: 1 }, r.token);
        else await r.by.recordResponse(r.to, 200, {}, r.token);
      }
      // Both instances take turns, one admission each, until both must wait.
      let wake = Infinity;
      let open = [0, 1];
      while (open.length > 0 && requests.length < 300) {
        const i = open[Math.floor(random() * open.length)]!;
        const budget = instances[i]!;
        const a = await budget.admit(now, random() < 0.3 ? "bulk" : "interactive");
        if (a.admitted) requests.push({ from: now, to: now + Math.floor(random() * 900), token: a.token, by: budget, answered: false });
        else {
          wake = Math.min(wake, now + a.waitMs);
          open = open.filter((j) => j !== i);
        }
      }
      const nextAnswer = Math.min(...requests.filter((q) => !q.answered).map((q) => q.to));
      now = Math.max(now + 1, Math.min(wake, nextAnswer));
    }
    return requests;
  }

  it("keeps 300 admissions from two instances within 10 in any second and 100 in any minute, in-flight ones included", async () => {
    const requests = await simulate([(await instance()).budget, (await instance()).budget]);
    expect(new Set(requests.map((r) => r.by)).size).toBe(2);
    expect(mostInAnySpan(requests, 1000)).toBeLessThanOrEqual(10);
    expect(mostInAnySpan(requests, 60_000)).toBeLessThanOrEqual(100);
    // ...and decides exactly as one in-process RateBudget does for both: no slower, no faster.
    const alone = new RateBudget();
    const inProcess = await simulate([alone, alone]);
    expect(requests.map((r) => r.from)).toEqual(inProcess.map((r) => r.from));
    expect(requests.at(-1)!.from - T0).toBeLessThan(140_000);
  });

  it("halves the burst on a 429 answered on either instance and grows it back, deciding exactly as one in-process RateBudget", async () => {
    // An upstream that refuses now and then without saying why (no headers): requests 25, 26, 27, 90, 160.
    const refused = (n: number) => [25, 26, 27, 90, 160].includes(n);
    const a = await instance("key-1", { burstRecoveryMs: 5000 });
    const b = await instance("key-1", { burstRecoveryMs: 5000 });
    const shared = await simulate([a.budget, b.budget], refused);
    const alone = new RateBudget({ burstRecoveryMs: 5000 });
    const inProcess = await simulate([alone, alone], refused);
    expect(shared.map((r) => r.from)).toEqual(inProcess.map((r) => r.from));
    // The cuts did happen: the same 300 take longer than without a 429, and the burst was below the plan's.
    const plain = new RateBudget({ burstRecoveryMs: 5000 });
    const unrefused = await simulate([plain, plain]);
    expect(shared.at(-1)!.from).toBeGreaterThan(unrefused.at(-1)!.from);
    expect(
      mostInAnySpan(
        shared.filter((r) => r.from > shared[28]!.from && r.from < shared[28]!.from + 3000),
        1000,
      ),
    ).toBeLessThanOrEqual(5);
  });

  it("keeps the interactive reserve from bulk requests of another instance while the dashboard is in use", async () => {
    const a = await instance();
    const b = await instance();
    a.budget.noteInteractive(T0);
    await a.budget.recordResponse(T0, 200, {}, admitted(await a.budget.admit(T0, "interactive")));
    // B exports as fast as it may for 30 s: it leaves 1 per second and 10 per minute.
    const sent: number[] = [];
    for (let now = T0 + 1; now < T0 + 30_000;) {
      const adm = await b.budget.admit(now, "bulk");
      if (!adm.admitted) {
        now += adm.waitMs;
        continue;
      }
      await b.budget.recordResponse(now, 200, {}, adm.token);
      sent.push(now);
    }
    expect(sent.length).toBe(89);
    expect(mostInAnySpan([{ from: T0, to: T0 }, ...sent.map((t) => ({ from: t, to: t }))], 1000)).toBeLessThanOrEqual(9);
    expect(b.budget.snapshot(T0 + 30_000).reserved).toEqual({ perSecond: 2, perMinute: 10 });
    // A dashboard request on either instance goes at once.
    expect((await b.budget.admit(T0 + 30_000, "interactive")).admitted).toBe(true);
    // With nobody at the dashboard for the interactive window, bulk takes the whole minute.
    const idle = await instance("key-2", { interactiveWindowMs: 60_000 });
    idle.budget.noteInteractive(T0 - 61_000);
    let n = 0;
    for (let now = T0; now < T0 + 30_000;) {
      const adm = await idle.budget.admit(now, "bulk");
      if (!adm.admitted) {
        now += adm.waitMs;
        continue;
      }
      n++;
      await idle.budget.recordResponse(now, 200, {}, adm.token);
    }
    expect(n).toBe(100);
  });

  it("pauses B after a 429 answered on A, for its Retry-After, and B keeps to the halved burst", async () => {
    const a = await instance();
    const b = await instance();
    await a.budget.recordResponse(T0 + 5, 429, { retryAfter: 3 }, admitted(await a.budget.admit(T0, "interactive")));
    const wait = await b.budget.admit(T0 + 10, "interactive");
    expect(wait).toEqual({ admitted: false, waitMs: 2995 });
    expect(b.budget.snapshot(T0 + 10).pausedUntil).toBe(T0 + 3005);
    let burst = 0;
    while ((await b.budget.admit(T0 + 3005, "interactive")).admitted) burst++;
    expect(burst).toBe(5);
    expect(b.budget.snapshot(T0 + 3005)).toMatchObject({ perSecond: 10, burst: 5 });
  });

  it("uses on B the plan learned on A, and stops B when A reads Remaining 0", async () => {
    const a = await instance();
    const b = await instance();
    await a.budget.recordResponse(T0, 200, { limit: 1000, remaining: 990, resetAt: T0 + 60_000 }, admitted(await a.budget.admit(T0, "interactive")));
    expect(a.budget.snapshot(T0)).toMatchObject({ perSecond: 50, perMinute: 1000, learned: true });
    let burst = 0;
    while ((await b.budget.admit(T0 + 1, "interactive")).admitted) burst++;
    // Pro: 50 in the second, one of them A's.
    expect(burst).toBe(49);
    expect(b.budget.snapshot(T0 + 1)).toMatchObject({ perSecond: 50, perMinute: 1000, learned: true, inFlight: 49 });

    const c = await instance("key-2");
    const d = await instance("key-2");
    await c.budget.recordResponse(T0, 200, { limit: 100, remaining: 0, resetAt: T0 + 20_000 }, admitted(await c.budget.admit(T0, "interactive")));
    const stop = await d.budget.admit(T0 + 10, "interactive");
    expect(stop.admitted).toBe(false);
    expect((stop as { waitMs: number }).waitMs).toBeGreaterThanOrEqual(19_990);
  });

  it("lets an instance that died with requests in flight hold their places only until their lease runs out", async () => {
    const a = await instance("key-1", { inFlightLeaseMs: 30_000 });
    const b = await instance();
    for (let i = 0; i < 10; i++) admitted(await a.budget.admit(T0, "interactive"));
    a.redis.disconnect(); // A is gone without a word about its ten requests.
    expect((await b.budget.admit(T0 + 20_000, "interactive")).admitted).toBe(false);
    // At the end of the lease they count as answered then, for one more second's window.
    expect(await b.budget.admit(T0 + 30_000, "interactive")).toEqual({ admitted: false, waitMs: 1100 });
    expect((await b.budget.admit(T0 + 31_100, "interactive")).admitted).toBe(true);
    expect(b.budget.snapshot(T0 + 31_100)).toMatchObject({ inFlight: 1, sentLastMinute: 11 });
  });
});

describe("when Redis goes away", () => {
  it("falls back to 1/2 of the plan on each of two live instances without an error, and shares again when Redis is back", async () => {
    const a = await instance();
    const b = await instance();
    // Each counts the instances it sees at its beat: A sees B from its second beat on.
    await a.beat(T0);
    await b.beat(T0 + 1);
    await a.beat(T0 + 2);
    const inFlight = admitted(await a.budget.admit(T0, "interactive"));
    await b.budget.recordResponse(T0, 200, {}, admitted(await b.budget.admit(T0, "interactive")));

    await server.stop();
    await until(() => a.redis.status !== "ready" && b.redis.status !== "ready");
    const t1 = T0 + 70_000;
    // The answer of a request admitted before the outage arrives during it: no error, it counts locally.
    await expect(a.budget.recordResponse(t1, 200, {}, inFlight)).resolves.toBeUndefined();
    const burst = async (i: Instance, now: number) => {
      let n = 0;
      for (let adm = await i.budget.admit(now, "interactive"); adm.admitted; adm = await i.budget.admit(now, "interactive")) {
        n++;
        await i.budget.recordResponse(now, 200, {}, adm.token);
      }
      return n;
    };
    expect(await burst(a, t1)).toBe(4);
    expect(await burst(b, t1)).toBe(5);
    expect(a.budget.snapshot(t1)).toMatchObject({ localShare: { perSecond: 5, perMinute: 50 }, perMinute: 100 });
    expect(logs.filter((l) => l.includes("unavailable"))).toHaveLength(2);
    expect(logs[0]).toContain("5/s and 50/min, 1/2 of the key's plan");

    await server.start(); // empty: a restarted Redis without persistence
    await until(() => a.redis.status === "ready" && b.redis.status === "ready");
    const t2 = t1 + 2000;
    admitted(await a.budget.admit(t2, "interactive"));
    admitted(await b.budget.admit(t2, "interactive"));
    expect(a.budget.snapshot(t2).localShare).toBeUndefined();
    // The requests made during the outage were put back: the shared minute holds 5 + 5 + 2.
    expect(b.budget.snapshot(t2)).toMatchObject({ sentLastMinute: 12, inFlight: 2 });
    expect(logs.filter((l) => l.includes("available again"))).toHaveLength(2);
  });

  it("a new instance's first admission waits for Redis to connect instead of taking a local share", async () => {
    const redis = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    clients.push(redis);
    const heartbeat = startInstanceHeartbeat({ redis, now: () => T0, intervalMs: 0 });
    let connect!: () => void;
    const connected = new Promise<void>((resolve) => (connect = resolve));
    const budget = createSharedBudget({ redis, keyId: "key-1", instances: heartbeat, connected, log: (m) => logs.push(m) });
    const first = budget.admit(T0, "interactive");
    await redis.connect();
    connect();
    // Asked again once connected, with the time it is then: admitted through Redis, no fallback said.
    expect(await first).toEqual({ admitted: false, waitMs: 0 });
    admitted(await budget.admit(T0 + 5, "interactive"));
    expect(budget.snapshot(T0 + 5)).toMatchObject({ sentLastMinute: 1 });
    expect(budget.snapshot(T0 + 5).localShare).toBeUndefined();
    expect(logs).toEqual([]);
  });

  it("assumes two instances when it never saw Redis (a getter that returns null)", async () => {
    const heartbeat = startInstanceHeartbeat({ redis: () => null, now: () => T0, intervalMs: 0 });
    const budget = createSharedBudget({ redis: () => null, keyId: "key-1", instances: heartbeat, log: () => undefined });
    let n = 0;
    while ((await budget.admit(T0, "interactive")).admitted) n++;
    expect(n).toBe(5);
    expect(localShare({ perSecond: 50, perMinute: 1000 }, 3)).toEqual({ perSecond: 16, perMinute: 333 });
  });

  it("treats a Redis that does not answer in time as away, and gives back an admission whose reply came late", async () => {
    const a = await instance("key-1", { commandTimeoutMs: 100 });
    admitted(await a.budget.admit(T0, "interactive"));
    const admin = await client();
    await admin.call("CLIENT", "PAUSE", "400", "ALL");
    const started = Date.now();
    const local = await a.budget.admit(T0 + 10, "interactive");
    expect(local.admitted).toBe(true);
    expect(Date.now() - started).toBeLessThan(350);
    expect(a.budget.snapshot(T0 + 10).localShare).toEqual({ perSecond: 5, perMinute: 50 });
    // Once the pause is over, the late admission is released: only the first request is in flight.
    await new Promise((r) => setTimeout(r, 500));
    expect(await admin.zcard("wa:budget:{key-1}:inflight")).toBe(1);
  });
});

describe("the instance heartbeat", () => {
  it("counts the instances seen within 15 s, drops one that left or went silent, and keeps the last count while Redis is away", async () => {
    const [ra, rb, rc] = [await client(), await client(), await client()];
    const a = startInstanceHeartbeat({ redis: ra, now: () => T0, intervalMs: 0 });
    const b = startInstanceHeartbeat({ redis: rb, now: () => T0, intervalMs: 0 });
    const c = startInstanceHeartbeat({ redis: rc, now: () => T0, intervalMs: 0 });
    expect(a.liveInstances()).toBe(2); // never seen: assumed
    await b.beat(T0);
    await c.beat(T0 + 1000);
    await a.beat(T0 + 2000);
    expect(a.liveInstances()).toBe(3);
    await c.stop();
    await a.beat(T0 + 3000);
    expect(a.liveInstances()).toBe(2);
    // B's last beat is 15 s old by now: it no longer counts.
    await a.beat(T0 + 15_001);
    expect(a.liveInstances()).toBe(1);
    await server.stop();
    await until(() => ra.status !== "ready");
    await a.beat(T0 + 20_000);
    expect(a.liveInstances()).toBe(1);
  });
});
