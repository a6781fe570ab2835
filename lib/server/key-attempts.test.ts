// Linking attempts count against the sign-in throttle (key-attempts.ts), through the app's own route
// handlers against the sandbox over real HTTP, behind the front server (each request's address in
// its header): a session guessing keys is refused after 10 failed attempts a minute whatever address
// it comes from, a client likewise whatever session it uses, sign-in and linking failures share the
// client's count, the refusal is sign-in's (429 too_many_attempts, Retry-After) and costs no upstream
// call, and a successful link gives its point back.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { storesForFile } from "@/testing/stores";
import { DEMO_KEYS } from "@/sandbox/keys";
import { PEER_ADDRESS_HEADER } from "./client-address";
import { serverContext } from "./context";
import { setRuntimeFlags } from "./runtime-flags";
import { FAILURES_PER_CLIENT, createSignInThrottle } from "./sign-in-throttle";
import { call, ORIGIN, serverContextPerTest, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import { routeFileAt } from "@/testing/api-routes";

const { POST: keysPost } = await routeFileAt("workspace/keys");
const { POST: sessionPost } = await routeFileAt("session");

const sandbox = upstreamForFile({ visitors: 200 });
const stores = storesForFile();
const overrideContext = serverContextPerTest();

beforeAll(() => {
  // As under `npm start`: the front server passes each request's socket address on.
  setRuntimeFlags({ frontServer: true });
});
afterAll(() => {
  setRuntimeFlags({ frontServer: false });
});
beforeEach(async () => {
  const store = await stores.open("embedded");
  overrideContext({ store: async () => store, stores: { ...serverContext().stores, signInThrottle: createSignInThrottle() } });
  sandbox().reset();
});

type Answer = ErrorJson & { key_hint: string };

/** A guess: a well-formed key the sandbox does not know (401 upstream, a 400 `invalid_key` here). */
const guess = (i: number) => `svc_sk_test_guess_${String(i).padStart(8, "0")}`;

const link = (cookie: string, ip: string, apiKey: string) =>
  call<Answer>(keysPost, "/api/workspace/keys", {
    cookie,
    init: { method: "POST", headers: { origin: ORIGIN, "content-type": "application/json", [PEER_ADDRESS_HEADER]: ip }, body: JSON.stringify({ apiKey }) },
  });

const signIn = (ip: string, apiKey: string) =>
  call<ErrorJson>(sessionPost, "/api/session", {
    init: { method: "POST", headers: { origin: ORIGIN, "content-type": "application/json", [PEER_ADDRESS_HEADER]: ip }, body: JSON.stringify({ apiKey }) },
  });

describe("linking attempts and the sign-in throttle", () => {
  it("a session guessing keys is refused after 10 failures a minute, from any address: 429 with Retry-After, no upstream call", async () => {
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    for (let i = 0; i < FAILURES_PER_CLIENT; i++) {
      const res = await link(cookie, `198.51.100.${i + 1}`, guess(i));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_key");
    }
    const before = sandbox().stats().requests;
    const refused = await link(cookie, "198.51.100.200", DEMO_KEYS.free);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      code: "too_many_attempts",
      message: expect.stringMatching(/^Too many failed attempts to link a key or sign in; try again in \d+ s\.$/),
    });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(sandbox().stats().requests).toBe(before);
    // Another session of the same key, from an address not used yet, is not refused.
    expect((await link(await sessionCookie(DEMO_KEYS.pro), "198.51.100.201", DEMO_KEYS.free)).status).toBe(201);
  });

  it("a client is refused after 10 failures a minute, whatever sessions it uses; failed sign-ins count there too", async () => {
    const ip = "203.0.113.7";
    for (let i = 0; i < 4; i++) expect((await signIn(ip, guess(100 + i))).status).toBe(401);
    for (let i = 0; i < FAILURES_PER_CLIENT - 4; i++) expect((await link(await sessionCookie(DEMO_KEYS.pro), ip, guess(i))).status).toBe(400);
    const refused = await link(await sessionCookie(DEMO_KEYS.pro), ip, DEMO_KEYS.free);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("too_many_attempts");
    // And sign-in from that client is refused the same way.
    const signInRefused = await signIn(ip, DEMO_KEYS.pro);
    expect(signInRefused.status).toBe(429);
    expect(signInRefused.body.error.code).toBe("too_many_attempts");
  });

  it("a key of another workspace (409) counts as a failure; a successful link gives its point back", async () => {
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    const ip = "203.0.113.8";
    for (let i = 0; i < 3 * FAILURES_PER_CLIENT; i++) expect((await link(cookie, ip, DEMO_KEYS.free)).status).toBe(201);
    for (let i = 0; i < FAILURES_PER_CLIENT; i++) expect((await link(cookie, ip, DEMO_KEYS.empty)).status).toBe(409);
    expect((await link(cookie, ip, DEMO_KEYS.free)).status).toBe(429);
  });
});
