// The process's link to Redis: it says in the log once that Redis went away and once that it is back
// (never with the URL's password), reconnects by itself with the same client, fails commands at once
// while away (no queue that would hold requests), warns at connect when the server's maxmemory-policy
// could evict revoked sessions, and /api/health reports it. Without REDIS_URL no client is made at all.
import { afterEach, describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "@/lib/store/migrations";
import { closeSharedRedis, redactRedisUrl, sharedRedis, viaRedis, type RedisLink } from "./connection";
import { freePort } from "@/testing/ports";
import { createSharedBudget } from "./budget";
import { startInstanceHeartbeat } from "./instances";
import { redisForFile, TEST_PREFIX, until } from "@/testing/redis-links";
import { routeFileAt } from "@/testing/api-routes";

const { GET } = await routeFileAt("health");

const health = () => GET(new Request("http://localhost:3000/api/health"), undefined);

const redis = redisForFile();

afterEach(async () => {
  await closeSharedRedis();
});

describe("the Redis link", () => {
  it("logs the loss once and the return once, fails fast meanwhile, and rejoins with the same client", async () => {
    const link = await redis.link();
    const client = link.client;
    expect(link.logs).toEqual([expect.stringMatching(/^\[redis\] connected \(redis:\/\/127\.0\.0\.1:\d+\)$/)]);
    expect(link.key("rev", "x")).toBe(`${TEST_PREFIX}rev:x`);

    await redis.server().stop({ abrupt: true });
    await until(() => link.state === "unavailable");
    const started = performance.now();
    await expect(client.get("k")).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(100);
    expect(link.usable()).toBe(false);
    // Served from the in-process side, without trying Redis.
    expect(
      await viaRedis(
        link,
        () => client.get("k"),
        async () => "local",
      ),
    ).toBe("local");
    // Several reconnection attempts fail meanwhile: still one line.
    await new Promise((r) => setTimeout(r, 200));

    await redis.server().start();
    await until(() => link.state === "connected");
    expect(link.client).toBe(client);
    expect(
      await viaRedis(
        link,
        async () => (await client.ping()) as string,
        async () => "local",
      ),
    ).toBe("PONG");
    expect(link.logs).toHaveLength(3);
    expect(link.logs[1]).toMatch(
      /^\[redis\] unavailable \(redis:\/\/127\.0\.0\.1:\d+\): .* — serving with in-process stores and a conservative share of the rate budget until it returns$/,
    );
    expect(link.logs[2]).toMatch(/^\[redis\] connected again/);
  });

  it("warns once at connect when the server's maxmemory-policy could evict revoked sessions (allkeys-*), and only then", async () => {
    const admin = await redis.link();
    /** A new link's log once its connection's INFO has been answered (replies come in order: a PING after it). */
    const logsOfNewLink = async () => {
      const link = await redis.link();
      await link.client.ping();
      return link.logs;
    };
    try {
      for (const policy of ["allkeys-lru", "allkeys-lfu", "allkeys-random"]) {
        await admin.client.config("SET", "maxmemory-policy", policy);
        const logs = await logsOfNewLink();
        expect(logs).toHaveLength(2);
        expect(logs[1]).toMatch(
          new RegExp(
            `^\\[redis\\] maxmemory-policy is ${policy} \\(redis://127\\.0\\.0\\.1:\\d+\\): when full, Redis may evict the revoked sessions, and a signed-out cookie would work again — set maxmemory-policy to volatile-lru .* or noeviction$`,
          ),
        );
      }
      for (const policy of ["volatile-lru", "volatile-ttl", "noeviction"]) {
        await admin.client.config("SET", "maxmemory-policy", policy);
        expect(await logsOfNewLink()).toEqual([expect.stringMatching(/^\[redis\] connected /)]);
      }
    } finally {
      await admin.client.config("SET", "maxmemory-policy", "noeviction");
    }
  });

  it("a failing command on a live connection pauses Redis for a moment, said once", async () => {
    const link = await redis.link();
    const failing = () => link.client.call("NO-SUCH-COMMAND") as Promise<string>;
    expect(await viaRedis(link, failing, async () => "local")).toBe("local");
    expect(await viaRedis(link, failing, async () => "local")).toBe("local");
    expect(link.usable()).toBe(false);
    expect(link.logs.filter((l) => l.includes("a command failed"))).toHaveLength(1);
  });

  // A busy Next server stalls the event loop for longer than the bound right after a command went out:
  // the reply then waits in the socket while the timers run first. Seen on two instances under load
  // as one of them falling back to a local share of the rate budget while the other went on sharing,
  // and the key getting 429s.
  describe("a reply that waited while the event loop was busy is Redis's answer", () => {
    /** The loop stalls for `ms` right after each command is written, as long as `on` says so. */
    function stallAfterEachCommand(link: RedisLink, ms: number): { on: boolean } {
      const control = { on: true };
      const send = link.client.sendCommand.bind(link.client);
      link.client.sendCommand = ((...args: Parameters<typeof send>) => {
        const sent = send(...args);
        if (control.on) {
          const end = performance.now() + ms;
          while (performance.now() < end);
        }
        return sent;
      }) as typeof send;
      return control;
    }

    it("for a store step (viaRedis): no fallback, no pause, nothing logged", async () => {
      const link = await redis.link();
      await link.client.set("stalled", "from redis");
      const stalls = stallAfterEachCommand(link, 3 * link.timeoutMs);
      expect(
        await viaRedis(
          link,
          () => link.client.get("stalled"),
          async () => "local",
        ),
      ).toBe("from redis");
      stalls.on = false;
      expect(link.usable()).toBe(true);
      expect(link.logs.filter((l) => l.includes("a command failed"))).toEqual([]);
    });

    it("for the shared rate budget: admitted through Redis, not by a local share", async () => {
      const link = await redis.link();
      const budgetLogs: string[] = [];
      const heartbeat = startInstanceHeartbeat({ redis: link.client, now: () => Date.now(), intervalMs: 0 });
      const budget = createSharedBudget({ redis: link.client, keyId: `stall-${Date.now()}`, instances: heartbeat, log: (m) => budgetLogs.push(m) });
      const stalls = stallAfterEachCommand(link, 3 * link.timeoutMs);
      // The first admission of a key imports this instance's (empty) state first: two round trips.
      let admission = await budget.admit(Date.now(), "interactive");
      while (!admission.admitted && admission.waitMs === 0) admission = await budget.admit(Date.now(), "interactive");
      stalls.on = false;
      expect(admission.admitted).toBe(true);
      expect(budgetLogs).toEqual([]);
      // Counted in Redis's windows, not by a local share.
      const shared = budget.snapshot(Date.now());
      expect(shared).toMatchObject({ inFlight: 1 });
      expect(shared).not.toHaveProperty("localShare");
    });

    it("a Redis that really does not answer still fails the step within the bound", async () => {
      const link = await redis.link();
      const started = performance.now();
      expect(
        await viaRedis(
          link,
          () => new Promise<string>(() => undefined),
          async () => "local",
        ),
      ).toBe("local");
      expect(performance.now() - started).toBeLessThan(link.timeoutMs + 200);
      expect(link.usable()).toBe(false);
    });
  });

  it("runs what waited for Redis once it is back", async () => {
    const link = await redis.link();
    await redis.server().stop();
    await until(() => link.state === "unavailable");
    let ran = 0;
    link.onReturn("task", async () => void ran++);
    link.onReturn("task", async () => void (ran += 10));
    await redis.server().start();
    await until(() => ran > 0);
    expect(ran).toBe(10);
  });

  it("never logs the password of the URL", async () => {
    expect(redactRedisUrl("redis://user:s3cret-pw@redis.internal:6380/2")).toBe("redis://user:***@redis.internal:6380/2");
    expect(redactRedisUrl("rediss://:s3cret-pw@redis.internal")).toBe("rediss://:***@redis.internal");
    expect(redactRedisUrl("redis://127.0.0.1:6379")).toBe("redis://127.0.0.1:6379");
    // Nothing listens there: the "unavailable" line names the server without its password.
    const link = await redis.link({ url: `redis://app:s3cret-pw@127.0.0.1:${await freePort()}` });
    await until(() => link.logs.length > 0);
    expect(link.logs[0]).toMatch(/^\[redis\] unavailable \(redis:\/\/app:\*\*\*@127\.0\.0\.1:\d+\)/);
    expect(link.logs.join("\n")).not.toContain("s3cret");
  });
});

describe("the process's Redis and /api/health", () => {
  const env = () => {
    process.env.DATA_API_BASE_URL = "http://127.0.0.1:9/v1";
    process.env.SESSION_SECRET = "test-only-session-secret-0123456789abcdef";
  };

  it("without REDIS_URL: no client, and health says off", async () => {
    env();
    delete process.env.REDIS_URL;
    expect(sharedRedis()).toBeNull();
    const body = await (await health()).json();
    // The store's sealed counts are the store's tests' business (lib/store/shared.test.ts).
    expect(body).toEqual({
      ok: true,
      instance: expect.stringMatching(/^[0-9a-f]{8}$/),
      redis: "off",
      store: expect.objectContaining({ kind: "embedded", schema: SCHEMA_VERSION }),
    });
  });

  it("with REDIS_URL: one client for the process; health says connected, then degraded (still 200) while Redis is away", async () => {
    env();
    process.env.REDIS_URL = redis.server().url;
    const link = sharedRedis()!;
    expect(sharedRedis()).toBe(link);
    const up = await health();
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ ok: true, redis: "connected" });
    expect(await (await health()).json()).not.toHaveProperty("degraded");

    await redis.server().stop({ abrupt: true });
    await until(() => link.state === "unavailable");
    const down = await health();
    expect(down.status).toBe(200);
    expect(await down.json()).toMatchObject({ ok: true, redis: "unavailable", degraded: true });

    await redis.server().start();
    await until(async () => (await (await health()).json()).redis === "connected", 5000);
    expect(sharedRedis()).toBe(link);
  });
});
