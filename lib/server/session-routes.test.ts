// The session API against a sandbox over real HTTP: sign-in with a key or a demo id, cookie
// attributes, key form checks, upstream outcomes (revoked, rate limited, failing, unreachable),
// CSRF, throttling of failed attempts, sign-out ending only the session (the key's cached answers are
// everyone's who uses the key), expiry.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { sealData } from "iron-session";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_KEYS, REVOKED_KEY } from "@/sandbox/keys";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { PEER_ADDRESS_HEADER } from "./client-address";
import { runtimeFlags, setRuntimeFlags } from "./runtime-flags";
import { SESSION_COOKIE, unsealSession } from "./session";
import { apiRoute, call, onServerFakeTime, sessionCookie, startUpstream, TEST_SECRET, type ErrorJson } from "@/testing/in-process";
import { routeFileAt } from "@/testing/api-routes";

const demoKeysRoute = await routeFileAt("session/demo-keys");
const sessionRoute = await routeFileAt("session");

/** The session's routes as Next calls them. */
const session = { signIn: sessionRoute.POST, readSession: sessionRoute.GET, signOut: sessionRoute.DELETE, listDemoKeys: demoKeysRoute.GET };
const noSegments = { params: Promise.resolve({}) };

let sandbox: Sandbox;
let ipCounter = 0;
/** A fresh client address per attempt series, so the failure throttle of one test never affects another. */
const freshIp = () => `198.51.${100 + (ipCounter >> 8)}.${++ipCounter & 255}`;

beforeAll(async () => {
  sandbox = await startUpstream({ cacheTtlMs: 60_000 });
  // As under `npm start`: the front server passes each request's socket address in PEER_ADDRESS_HEADER.
  setRuntimeFlags({ frontServer: true });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => {
  sandbox.setFaults({});
  sandbox.reset();
});

type SessionJson = { signedIn: boolean; environment?: string; keyHint?: string };

function post(body: unknown, headers: Record<string, string> = {}, url = "/api/session") {
  return call<SessionJson & ErrorJson>(session.signIn, url, {
    init: {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: { "content-type": "application/json", [PEER_ADDRESS_HEADER]: freshIp(), origin: "http://localhost:3000", ...headers },
    },
  });
}

const cookieFrom = (res: { headers: Headers }) => res.headers.get("set-cookie")!.split(";")[0]!;

describe("POST /api/session", () => {
  it("signs in with a valid key: masked hint only, sealed httpOnly cookie", async () => {
    const res = await post({ apiKey: `  ${DEMO_KEYS.pro}\n` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ signedIn: true, environment: "test", keyHint: "svc_sk_test_…9d1f" });
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^wa_session=Fe26\.2\*/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toContain("Max-Age=28800");
    expect(setCookie).not.toContain("Secure");
    expect(setCookie).not.toContain(DEMO_KEYS.pro.slice(12));
    // Exactly one cheap upstream call validated it.
    expect(sandbox.stats().log.map((l) => `${l.path}?${l.query}`)).toEqual(["/v1/visitors?limit=1&offset=0"]);

    const who = await call<SessionJson>(session.readSession, "/api/session", { cookie: cookieFrom(res) });
    expect(who.body).toEqual({ signedIn: true, environment: "test", keyHint: "svc_sk_test_…9d1f" });
    const visitors = await call(apiRoute, "/api/visitors?limit=2", { cookie: cookieFrom(res) });
    expect(visitors.status).toBe(200);
  });

  it("marks the cookie Secure outside localhost", async () => {
    const res = await post({ apiKey: DEMO_KEYS.pro }, { origin: "https://dash.example.com", host: "dash.example.com" });
    // The test request URL is localhost; rebuild it as a public host.
    expect(res.status).toBe(200);
    const req = new Request("https://dash.example.com/api/session", {
      method: "POST",
      body: JSON.stringify({ apiKey: DEMO_KEYS.pro }),
      headers: { origin: "https://dash.example.com", [PEER_ADDRESS_HEADER]: freshIp() },
    });
    const secure = await session.signIn(req, noSegments);
    expect(secure.headers.get("set-cookie")).toContain("; Secure");
  });

  it.each([
    ["behind a TLS proxy (X-Forwarded-Proto: https) -> Secure", { "x-forwarded-proto": "https" }, undefined, true],
    ["X-Forwarded-Proto with several hops, https first -> Secure", { "x-forwarded-proto": "https, http" }, undefined, true],
    ["a public Host over plain http -> Secure", { host: "dash.example.com", origin: "http://dash.example.com" }, undefined, true],
    ["a LAN address as Host -> Secure", { host: "192.168.1.20:3000", origin: "http://192.168.1.20:3000" }, undefined, true],
    ["plain http to localhost -> not Secure", { host: "localhost:3000" }, undefined, false],
    ["plain http to 127.0.0.1 -> not Secure", { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }, undefined, false],
    ["plain http to [::1] -> not Secure", { host: "[::1]:3000", origin: "http://[::1]:3000" }, undefined, false],
    ["plain http to a .localhost name -> not Secure", { host: "dash.localhost:3000", origin: "http://dash.localhost:3000" }, undefined, false],
    ["COOKIE_SECURE=never behind a TLS proxy -> not Secure", { "x-forwarded-proto": "https" }, "never", false],
    ["COOKIE_SECURE=always on localhost -> Secure", { host: "localhost:3000" }, "always", true],
  ] as const)("session cookie Secure flag: %s", async (_name, headers, mode, secure) => {
    if (mode) process.env.COOKIE_SECURE = mode;
    try {
      const res = await post({ demo: "pro" }, headers);
      expect(res.status).toBe(200);
      expect(/;\s*Secure/.test(res.headers.get("set-cookie")!)).toBe(secure);
      // Signing out clears the cookie with the same attributes (a browser ignores a mismatched clear).
      const out = await call(session.signOut, "/api/session", {
        cookie: cookieFrom(res),
        init: { method: "DELETE", headers: { origin: "http://localhost:3000", ...headers } },
      });
      expect(/;\s*Secure/.test(out.headers.get("set-cookie")!)).toBe(secure);
    } finally {
      delete process.env.COOKIE_SECURE;
    }
  });

  it("signs in with a demo id, resolving the key on the server", async () => {
    const res = await post({ demo: "limited" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ signedIn: true, environment: "test" });
    expect(res.text).not.toContain(DEMO_KEYS.limited);
    // Limited keys get 403 on some endpoints, but the key is good: signed in.
    const ranking = await call<ErrorJson>(apiRoute, "/api/intelligence/ranking", { cookie: cookieFrom(res) });
    expect(ranking.status).toBe(403);
  });

  it.each([
    ["empty", ""],
    ["no prefix", "abcdefghijklmnop"],
    ["unknown environment", "svc_sk_prod_abcdefghijkl"],
    ["prefix only", "svc_sk_test_"],
    ["too short", "svc_sk_test_abc"],
    ["too long", `svc_sk_test_${"a".repeat(300)}`],
    ["inner space", "svc_sk_test_abcd efgh"],
    ["unicode", "svc_sk_test_ключключключ"],
    ["injection", "svc_sk_test_x' OR '1'='1"],
  ])("refuses a key of the wrong form (%s) before any upstream call", async (_name, apiKey) => {
    const res = await post({ apiKey });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_parameter", param: "apiKey" });
    expect(sandbox.stats().requests).toBe(0);
  });

  it.each([
    ["not JSON", "apiKey=svc", "body"],
    ["an array", "[]", "body"],
    ["null", "null", "body"],
    ["a number key", { apiKey: 5 }, "apiKey"],
    ["an unknown demo", { demo: "gold" }, "demo"],
    ["a key and a demo id at once", { apiKey: 1, demo: "free" }, "apiKey"],
  ])("refuses a body that is %s", async (_name, body, param) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe(param);
    expect(sandbox.stats().requests).toBe(0);
  });

  /** A body streamed in 16 KB chunks, counting how much of it the server pulled. */
  function streamedBody(totalBytes: number) {
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    const state = { pulled: 0, cancelled: false };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (state.pulled >= totalBytes) return controller.close();
        state.pulled += chunk.length;
        controller.enqueue(chunk);
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { stream, state };
  }

  const signInRequest = (body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}) =>
    new Request("http://localhost:3000/api/session", {
      method: "POST",
      body,
      headers: { "content-type": "application/json", origin: "http://localhost:3000", ...headers },
      duplex: "half",
    } as RequestInit);

  it("sign-in body: a chunked body over the limit is refused with 413 after reading only past the limit, and the stream is cancelled", async () => {
    const { stream, state } = streamedBody(100 * 1024 * 1024);
    const res = await session.signIn(signInRequest(stream), noSegments);
    expect(res.status).toBe(413);
    expect(((await res.json()) as ErrorJson).error).toMatchObject({ code: "payload_too_large" });
    expect(state.pulled).toBeLessThan(64 * 1024);
    expect(state.cancelled).toBe(true);
    expect(sandbox.stats().requests).toBe(0);
  });

  it("sign-in body: a declared Content-Length over the limit is refused with 413 before reading any of it", async () => {
    const { stream, state } = streamedBody(100 * 1024 * 1024);
    const res = await session.signIn(signInRequest(stream, { "content-length": String(100 * 1024 * 1024) }), noSegments);
    expect(res.status).toBe(413);
    expect(((await res.json()) as ErrorJson).error.code).toBe("payload_too_large");
    expect(state.pulled).toBeLessThanOrEqual(16 * 1024);
  });

  it("sign-in body: just over the limit is 413, just under is read", async () => {
    const over = await session.signIn(signInRequest(JSON.stringify({ apiKey: "x".repeat(5000) })), noSegments);
    expect(over.status).toBe(413);
    const under = await session.signIn(
      signInRequest(JSON.stringify({ apiKey: DEMO_KEYS.pro, pad: " ".repeat(3000) }), { [PEER_ADDRESS_HEADER]: freshIp() }),
      noSegments,
    );
    expect(under.status).toBe(200);
  });

  it("revoked, unknown and live keys: 401 'not valid or was revoked', no cookie", async () => {
    for (const apiKey of [REVOKED_KEY, "svc_sk_test_unknownkey123456", "svc_sk_live_0123456789abcdef"]) {
      const res = await post({ apiKey });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: "invalid_key", message: "This key is not valid or was revoked.", param: "apiKey" });
      expect(res.headers.get("set-cookie")).toBeNull();
    }
  });

  it("an upstream that rate limits is said as such (503), not as a bad key", async () => {
    sandbox.setFaults({ rateLimitStorm: 100, paths: ["/visitors"] });
    // On fake time: the scheduler waits out each Retry-After before it gives up.
    const res = await onServerFakeTime(() => post({ apiKey: DEMO_KEYS.free }));
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("rate_limited");
    expect(res.body.error.message).toMatch(/rate limit/i);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("an upstream failing with 5xx is said as such (502)", async () => {
    sandbox.setFaults({ errorCount: 100, paths: ["/visitors"] });
    // On fake time: the scheduler's backoff between its retries is waited out on the fake clock.
    const res = await onServerFakeTime(() => post({ apiKey: DEMO_KEYS.empty }));
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("upstream_error");
    expect(res.body.error.request_id).toMatch(/\S/);
  });

  it("refuses cross-site requests with 403: csrf_rejected for a foreign Origin, cross_site_rejected for a browser's Sec-Fetch-Site", async () => {
    for (const [headers, code] of [
      [{ origin: "https://evil.example" }, "csrf_rejected"],
      [{ origin: "null" }, "csrf_rejected"],
      [{ origin: "", "sec-fetch-site": "cross-site" }, "cross_site_rejected"],
    ] as const) {
      const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== ""));
      const req = new Request("http://localhost:3000/api/session", {
        method: "POST",
        body: JSON.stringify({ apiKey: DEMO_KEYS.pro }),
        headers: clean,
      });
      const res = await session.signIn(req, noSegments);
      expect(res.status).toBe(403);
      expect(((await res.json()) as ErrorJson).error.code).toBe(code);
    }
    expect(sandbox.stats().requests).toBe(0);
  });

  it("throttles a client after 10 failed attempts a minute, with Retry-After; others are unaffected", async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await post({ apiKey: "nonsense" }, { [PEER_ADDRESS_HEADER]: ip })).status).toBe(400);
    const blocked = await post({ apiKey: DEMO_KEYS.pro }, { [PEER_ADDRESS_HEADER]: ip });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe("too_many_attempts");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await post({ apiKey: DEMO_KEYS.pro })).status).toBe(200);
  });

  it("sign-in throttling: a rotating X-Forwarded-For from a peer that is not a trusted proxy does not escape the limit", async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await post({ apiKey: "nonsense" }, { [PEER_ADDRESS_HEADER]: ip, "x-forwarded-for": `203.0.113.${i + 1}`, "x-real-ip": `203.0.113.${i + 1}` })).status,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(400), 429, 429]);
  });

  it("sign-in throttling: behind a trusted proxy, each forwarded client has its own limit", async () => {
    process.env.TRUSTED_PROXIES = "10.9.0.0/16";
    try {
      const proxy = "10.9.0.1";
      for (let i = 0; i < 10; i++) await post({ apiKey: "nonsense" }, { [PEER_ADDRESS_HEADER]: proxy, "x-forwarded-for": "1.2.3.4, 203.0.113.200" });
      expect((await post({ apiKey: "nonsense" }, { [PEER_ADDRESS_HEADER]: proxy, "x-forwarded-for": "9.9.9.9, 203.0.113.200" })).status).toBe(429);
      // Another client through the same proxy is not affected.
      expect((await post({ apiKey: DEMO_KEYS.pro }, { [PEER_ADDRESS_HEADER]: proxy, "x-forwarded-for": "203.0.113.201" })).status).toBe(200);
    } finally {
      delete process.env.TRUSTED_PROXIES;
    }
  });

  it("sign-in throttling: a bad body, a rejected key and an unreachable upstream all count as failures", async () => {
    const ip = freshIp();
    expect((await post("not json", { [PEER_ADDRESS_HEADER]: ip })).status).toBe(400);
    expect((await post({ apiKey: REVOKED_KEY }, { [PEER_ADDRESS_HEADER]: ip })).status).toBe(401);
    const saved = process.env.DATA_API_BASE_URL;
    const gone = await startSandbox({ port: 0, visitors: 10 });
    await gone.close();
    process.env.DATA_API_BASE_URL = `${gone.url}/v1`;
    try {
      // Eight attempts at once, each reserving its point before the upstream fails them (after the
      // retries' backoff, on fake time).
      const unreachable = await onServerFakeTime(() =>
        Promise.all(Array.from({ length: 8 }, () => post({ apiKey: DEMO_KEYS.pro }, { [PEER_ADDRESS_HEADER]: ip }))),
      );
      expect(unreachable.map((r) => r.body.error.code)).toEqual(Array(8).fill("network_error"));
    } finally {
      process.env.DATA_API_BASE_URL = saved;
    }
    // Ten failures: even a correct key from this client now waits.
    expect((await post({ apiKey: DEMO_KEYS.pro }, { [PEER_ADDRESS_HEADER]: ip })).status).toBe(429);
  });

  it("sign-in throttling: cross-site attempts are refused without spending the visitor's attempts", async () => {
    const ip = freshIp();
    for (let i = 0; i < 15; i++) expect((await post({ apiKey: "nonsense" }, { [PEER_ADDRESS_HEADER]: ip, origin: "https://evil.example" })).status).toBe(403);
    expect((await post({ apiKey: DEMO_KEYS.pro }, { [PEER_ADDRESS_HEADER]: ip })).status).toBe(200);
  });

  it("successful sign-ins are not throttled", async () => {
    const ip = freshIp();
    for (let i = 0; i < 15; i++) expect((await post({ demo: "pro" }, { [PEER_ADDRESS_HEADER]: ip })).status).toBe(200);
  });
});

describe("GET and DELETE /api/session", () => {
  it("GET without a session, or with a tampered or expired one: signedIn false", async () => {
    expect((await call<SessionJson>(session.readSession, "/api/session")).body).toEqual({ signedIn: false });
    const good = await sessionCookie(DEMO_KEYS.pro);
    const tampered = await call<SessionJson>(session.readSession, "/api/session", { cookie: good.replace(/.{4}$/, "abcd") });
    expect(tampered.body).toEqual({ signedIn: false });
    expect(tampered.headers.get("set-cookie")).toMatch(/^wa_session=;/);
    const old = await sealData({ apiKey: DEMO_KEYS.pro, iat: Date.now() - 9 * 3600_000, sid: crypto.randomUUID() }, { password: TEST_SECRET, ttl: 8 * 3600 });
    expect((await call<SessionJson>(session.readSession, "/api/session", { cookie: `${SESSION_COOKIE}=${old}` })).body).toEqual({ signedIn: false });
    const foreign = await sealData(
      { apiKey: DEMO_KEYS.pro, iat: Date.now(), sid: crypto.randomUUID() },
      { password: "another-secret-of-at-least-32-characters!", ttl: 3600 },
    );
    expect((await call<SessionJson>(session.readSession, "/api/session", { cookie: `${SESSION_COOKIE}=${foreign}` })).body).toEqual({ signedIn: false });
  });

  it("DELETE signs out and clears the cookie, and leaves the key's cached answers to its other sessions", async () => {
    const teammate = cookieFrom(await post({ apiKey: DEMO_KEYS.pro }));
    const cookie = cookieFrom(await post({ apiKey: DEMO_KEYS.pro }));
    await call(apiRoute, "/api/intelligence/score", { cookie });
    await call(apiRoute, "/api/intelligence/score", { cookie });
    expect(sandbox.stats().byPath["/intelligence/score"]).toBe(1);
    const out = await call<SessionJson>(session.signOut, "/api/session", { cookie, init: { method: "DELETE", headers: { origin: "http://localhost:3000" } } });
    expect(out.body).toEqual({ signedIn: false });
    expect(out.headers.get("set-cookie")).toMatch(/^wa_session=;.*Max-Age=0/);
    expect((await call(apiRoute, "/api/intelligence/score", { cookie })).status).toBe(401);
    // The answer is the key's, not the session's: a teammate signed in with it still has it.
    expect((await call(apiRoute, "/api/intelligence/score", { cookie: teammate })).status).toBe(200);
    expect(sandbox.stats().byPath["/intelligence/score"]).toBe(1);
  });

  it("a sign-in checks the key afresh even when that answer is cached, and keeps the key's other cached answers", async () => {
    const cookie = cookieFrom(await post({ apiKey: DEMO_KEYS.pro }));
    await call(apiRoute, "/api/visitors?limit=1&offset=0", { cookie });
    await call(apiRoute, "/api/intelligence/score", { cookie });
    const scores = () => sandbox.stats().byPath["/intelligence/score"] ?? 0;
    const scoresBefore = scores();
    const checks = () => sandbox.stats().log.filter((l) => l.path === "/v1/visitors" && l.query === "limit=1&offset=0").length;
    expect(checks()).toBe(1);
    expect((await post({ apiKey: DEMO_KEYS.pro })).status).toBe(200);
    expect(checks()).toBe(2);
    // Another user of the same key signing in does not throw away what the first one has cached.
    await call(apiRoute, "/api/intelligence/score", { cookie });
    expect(scores()).toBe(scoresBefore);
  });

  it("the session keeps the plan the sign-in check saw (X-RateLimit-Limit), for the header", async () => {
    const free = cookieFrom(await post({ apiKey: DEMO_KEYS.free }));
    const pro = cookieFrom(await post({ apiKey: DEMO_KEYS.pro }));
    expect((await unsealSession(free.slice(SESSION_COOKIE.length + 1)))?.rateLimit).toBe(100);
    expect((await unsealSession(pro.slice(SESSION_COOKIE.length + 1)))?.rateLimit).toBe(1000);
  });

  it("session revocation: a cookie saved before sign-out is refused afterwards (401 on the API, no page session)", async () => {
    const saved = cookieFrom(await post({ apiKey: DEMO_KEYS.pro }));
    // Used once before sign-out, so the unseal cache holds it: the revocation must win over the cache.
    expect((await call(apiRoute, "/api/intelligence/score", { cookie: saved })).status).toBe(200);
    expect(await unsealSession(saved.slice(SESSION_COOKIE.length + 1))).not.toBeNull();
    const out = await call(session.signOut, "/api/session", { cookie: saved, init: { method: "DELETE", headers: { origin: "http://localhost:3000" } } });
    expect(out.status).toBe(200);

    const replayed = await call<ErrorJson>(apiRoute, "/api/intelligence/score", { cookie: saved });
    expect(replayed.status).toBe(401);
    expect(replayed.body.error.code).toBe("unauthorized");
    expect((await call<SessionJson>(session.readSession, "/api/session", { cookie: saved })).body).toEqual({ signedIn: false });
    // Pages (the proxy and server components) read the session through unsealSession.
    expect(await unsealSession(saved.slice(SESSION_COOKIE.length + 1))).toBeNull();
    // Only that session ended: a new sign-in with the same key works.
    const again = cookieFrom(await post({ apiKey: DEMO_KEYS.pro }));
    expect((await call(apiRoute, "/api/intelligence/score", { cookie: again })).status).toBe(200);
  });

  it("session revocation: a cookie without a session id (sealed before revocation existed) is not accepted", async () => {
    const legacy = await sealData({ apiKey: DEMO_KEYS.pro, iat: Date.now() }, { password: TEST_SECRET, ttl: 8 * 3600 });
    expect((await call(apiRoute, "/api/intelligence/score", { cookie: `${SESSION_COOKIE}=${legacy}` })).status).toBe(401);
  });

  it("DELETE from another site is refused", async () => {
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    const res = await call<ErrorJson>(session.signOut, "/api/session", { cookie, init: { method: "DELETE", headers: { origin: "https://evil.example" } } });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
  });
});

describe("GET /api/session/demo-keys", () => {
  it("lists the sandbox's demo keys by id, without key values", async () => {
    const res = await call<{ available: boolean; keys: Record<string, string>[] }>(session.listDemoKeys, "/api/session/demo-keys");
    expect(res.body.available).toBe(true);
    expect(res.body.keys.map((k) => k.id).sort()).toEqual(["empty", "free", "limited", "pro"]);
    for (const k of res.body.keys) expect(Object.keys(k).sort()).toEqual(["description", "id", "plan", "workspace"]);
    for (const key of Object.values(DEMO_KEYS)) expect(res.text).not.toContain(key.slice(12));
  });

  it("offers none when the upstream is not the sandbox, and a demo sign-in is refused", async () => {
    const saved = process.env.DATA_API_BASE_URL;
    // A sandbox's /v1 behind a different origin path: /sandbox/keys does not exist at that origin's root.
    const other = await startSandbox({ port: 0, visitors: 10 });
    await other.close();
    process.env.DATA_API_BASE_URL = `${other.url}/v1`;
    try {
      const res = await call<{ available: boolean; keys: unknown[] }>(session.listDemoKeys, "/api/session/demo-keys");
      expect(res.body).toEqual({ available: false, keys: [] });
      const demo = await post({ demo: "free" });
      expect(demo.status).toBe(404);
      expect(demo.body.error.code).toBe("demo_unavailable");
      // A real key against an unreachable upstream: said as such, not as a bad key (after the
      // retries' backoff, on fake time).
      const unreachable = await onServerFakeTime(() => post({ apiKey: DEMO_KEYS.pro }));
      expect(unreachable.status).toBe(502);
      expect(unreachable.body.error.code).toBe("network_error");
    } finally {
      process.env.DATA_API_BASE_URL = saved;
    }
  });

  it("demo keys: asks only the embedded sandbox, not an upstream that merely serves /sandbox/keys", async () => {
    const saved = process.env.DATA_API_BASE_URL;
    // A running sandbox that this process did not start (as a real upstream answering /sandbox/keys would).
    const foreign = await startSandbox({ port: 0, visitors: 10 });
    process.env.DATA_API_BASE_URL = foreign.baseUrl;
    try {
      const res = await call<{ available: boolean; keys: unknown[] }>(session.listDemoKeys, "/api/session/demo-keys");
      expect(res.body).toEqual({ available: false, keys: [] });
      expect(foreign.stats().log.filter((l) => l.path === "/sandbox/keys")).toEqual([]);
      expect((await post({ demo: "pro" })).body.error.code).toBe("demo_unavailable");
    } finally {
      process.env.DATA_API_BASE_URL = saved;
      await foreign.close();
    }
  });

  it("demo keys: only svc_sk_test_ keys are offered, never live ones, even from the embedded sandbox", async () => {
    const hostile = createServer((req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.end(
        JSON.stringify({
          keys: [
            { id: "free", key: "svc_sk_live_realcustomerkey_0123456789" },
            { id: "pro", key: "svc_sk_test_demo_pro_4e8b2a6c9d1f", plan: "Pro" },
            { id: "empty", key: "svc_sk_test_bad key with spaces" },
            { key: "svc_sk_live_demo_limited_0123456789" },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
    const saved = { base: process.env.DATA_API_BASE_URL, flags: runtimeFlags() };
    process.env.DATA_API_BASE_URL = `${origin}/v1`;
    setRuntimeFlags({ embeddedSandboxOrigin: origin });
    try {
      const res = await call<{ available: boolean; keys: { id: string }[] }>(session.listDemoKeys, "/api/session/demo-keys");
      expect(res.body.keys.map((k) => k.id)).toEqual(["pro"]);
      expect((await post({ demo: "free" })).body.error.code).toBe("demo_unavailable");
    } finally {
      process.env.DATA_API_BASE_URL = saved.base;
      setRuntimeFlags(saved.flags);
      hostile.close();
    }
  });
});
