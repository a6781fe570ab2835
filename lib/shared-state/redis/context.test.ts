// With REDIS_URL the default server context is made of the Redis-backed stores: what one instance
// did is seen by the next one (here: a fresh server context on the same Redis, with none of the first
// one's in-process state). A response or insight fetched once is not fetched again, a sign-out ends the
// cookie everywhere and leaves the key's shared answers to its other users, an empty workspace's
// insights stay within the key's bound in Redis, and Redis going away fails no request and loses no
// sign-out.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { resetServerContext, serverContext, setServerContext } from "@/lib/server/context";
import { call, callApi, ORIGIN, sessionCookie, TEST_SECRET, upstreamForFile } from "@/testing/in-process";
import { closeSharedRedis } from "./connection";
import { createResilientInsightsStore } from "./insights";
import { redisForFile, until } from "@/testing/redis-links";
import { routeFileAt } from "@/testing/api-routes";

const viewsRoute = await routeFileAt("views");
const demoKeysRoute = await routeFileAt("session/demo-keys");
const sessionRoute = await routeFileAt("session");

/** The session's routes as Next calls them. */
const session = { signIn: sessionRoute.POST, readSession: sessionRoute.GET, signOut: sessionRoute.DELETE, listDemoKeys: demoKeysRoute.GET };

const sandbox = upstreamForFile({ cacheTtlMs: 60_000 });
const redis = redisForFile();

beforeEach(() => {
  process.env.REDIS_URL = redis.server().url;
  process.env.REDIS_KEY_PREFIX = "wa-ctx:";
  resetServerContext();
  sandbox().reset();
});
afterEach(() => resetServerContext());
afterAll(async () => {
  delete process.env.REDIS_URL;
  await closeSharedRedis();
});

/** Another instance: the same Redis, nothing of this one's in-process stores, caches or clients. */
const nextInstance = () => resetServerContext();
const upstreamCalls = (path: string) => sandbox().stats().byPath[path] ?? 0;
const signedIn = async (cookie: string) => (await call<{ signedIn: boolean }>(session.readSession, "/api/session", { cookie })).body.signedIn;

describe("the server context with REDIS_URL", () => {
  it("a response fetched by one instance is a hit on the next; a sign-out on one ends the cookie on the next and leaves the key's answers", async () => {
    expect(serverContext().redis).not.toBeNull();
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    expect((await callApi("/api/analytics/overview?period=7d", { cookie })).status).toBe(200);
    expect(upstreamCalls("/analytics/overview")).toBe(1);
    nextInstance();
    const again = await callApi("/api/analytics/overview?period=7d", { cookie });
    expect(again.status).toBe(200);
    expect(upstreamCalls("/analytics/overview")).toBe(1);

    const out = await call(session.signOut, "/api/session", { cookie, init: { method: "DELETE", headers: { origin: ORIGIN } } });
    expect(out.status).toBe(200);
    nextInstance();
    expect(await signedIn(cookie)).toBe(false);
    expect((await callApi("/api/visitors?limit=1", { cookie })).status).toBe(401);
    // A teammate's session of the same key, on any instance, still has the key's cached answers.
    const teammate = await sessionCookie(DEMO_KEYS.pro);
    expect((await callApi("/api/analytics/overview?period=7d", { cookie: teammate })).status).toBe(200);
    expect(upstreamCalls("/analytics/overview")).toBe(1);

    const link = serverContext().redis!;
    const keys = await link.client.keys("wa-ctx:*");
    expect(keys.some((k) => k.startsWith("wa-ctx:c:res:"))).toBe(true);
    expect(keys).toContain("wa-ctx:revoked");
    expect(keys.join("\n")).not.toContain(DEMO_KEYS.pro.slice(12));
  });

  it("an insight computed by one instance costs the next no upstream call, and a sign-out on one leaves it to the key's other sessions", async () => {
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    const path = "/api/insights/sources?from=2026-11-01&to=2026-11-10&tz=UTC";
    const first = await callApi(path, { cookie });
    expect(first.status).toBe(200);
    const calls = sandbox().stats().requests;
    expect(calls).toBeGreaterThan(0);
    nextInstance();
    const second = await callApi(path, { cookie });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(sandbox().stats().requests).toBe(calls);

    expect((await call(session.signOut, "/api/session", { cookie, init: { method: "DELETE", headers: { origin: ORIGIN } } })).status).toBe(200);
    nextInstance();
    const teammate = await sessionCookie(DEMO_KEYS.pro);
    const third = await callApi(path, { cookie: teammate });
    expect(third.body).toEqual(first.body);
    expect(sandbox().stats().requests).toBe(calls);
  });

  it("a key checked upstream by one instance is not checked again by the next; one refused there is refused here without asking", async () => {
    const views = (cookie: string) => call<{ error?: { code: string } }>(viewsRoute.GET, "/api/views", { cookie });
    expect((await views(await sessionCookie(DEMO_KEYS.pro))).status).toBe(200);
    expect(upstreamCalls("/visitors")).toBe(1);
    nextInstance();
    expect((await views(await sessionCookie(DEMO_KEYS.pro))).status).toBe(200);
    expect(upstreamCalls("/visitors")).toBe(1);

    sandbox().revokeKey(DEMO_KEYS.free);
    try {
      expect((await views(await sessionCookie(DEMO_KEYS.free))).body.error?.code).toBe("session_expired");
      expect(upstreamCalls("/visitors")).toBe(2);
      nextInstance();
      expect((await views(await sessionCookie(DEMO_KEYS.free))).body.error?.code).toBe("session_expired");
      expect(upstreamCalls("/visitors")).toBe(2);
      // Only the keyed hash names a verdict in Redis.
      const verdicts = await serverContext().redis!.client.keys("wa-ctx:kv:*");
      expect(verdicts.length).toBeGreaterThanOrEqual(2);
      expect(verdicts.join("\n")).not.toContain(DEMO_KEYS.free.slice(12));
    } finally {
      sandbox().revokeKey(DEMO_KEYS.free, false);
    }
  });

  it("an empty workspace's year of insights (~730 day figures per upstream call) stays within the key's bound in Redis", async () => {
    const link = serverContext().redis!;
    await link.settled;
    await link.client.flushdb();
    setServerContext({
      stores: { ...serverContext().stores, insights: createResilientInsightsStore(link, { secret: () => TEST_SECRET, now: Date.now, maxEntriesPerKey: 100 }) },
    });
    const cookie = await sessionCookie(DEMO_KEYS.empty);
    for (const range of ["from=2025-11-21&to=2026-11-20", "from=2024-11-21&to=2025-11-20"]) {
      const answer = await callApi(`/api/insights/trend?${range}&tz=UTC`, { cookie });
      expect(answer.status).toBe(200);
    }
    // Each listing wrote a figure for every day of both periods (~730), and the bound kept 100 of them.
    expect(sandbox().stats().requests).toBeGreaterThan(0);
    const figures = await link.client.keys("wa-ctx:c:ins:*:e:*");
    expect(figures).toHaveLength(100);
    const [index] = await link.client.keys("wa-ctx:c:ins:*:i");
    expect(await link.client.zcard(index!)).toBe(100);
  });

  it("Redis away: requests, sign-in and sign-out all work; the sign-out reaches Redis when it is back", async () => {
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    expect((await callApi("/api/visitors?limit=2", { cookie })).status).toBe(200);
    const link = serverContext().redis!;
    await redis.server().stop({ abrupt: true });
    await until(() => link.state === "unavailable");

    expect((await callApi("/api/visitors?limit=2", { cookie })).status).toBe(200);
    expect((await callApi("/api/visitors?limit=3", { cookie })).status).toBe(200);
    expect(await signedIn(cookie)).toBe(true);
    const signIn = await call(session.signIn, "/api/session", {
      init: { method: "POST", headers: { origin: ORIGIN, "content-type": "application/json" }, body: JSON.stringify({ apiKey: DEMO_KEYS.free }) },
    });
    expect(signIn.status).toBe(200);
    const out = await call(session.signOut, "/api/session", { cookie, init: { method: "DELETE", headers: { origin: ORIGIN } } });
    expect(out.status).toBe(200);
    expect(await signedIn(cookie)).toBe(false);

    await redis.server().start();
    await until(() => link.state === "connected", 10_000);
    nextInstance();
    await until(async () => !(await signedIn(cookie)));
  });
});
