// The server context is what tests replace instead of module-level singletons: each piece must
// really reach what uses it. A replaced clock decides session expiry; a replaced retry policy decides
// how often a failing upstream request is tried; replaced stores are the ones the routes use; and the
// upstream clients are made afresh for the new context and shared within it.
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { serverContext, upstreamFor } from "./context";
import { createMemoryRevocationStore } from "@/lib/shared-state/revocations";
import { SESSION_TTL_SECONDS, getRequestSession, revokeSession } from "./session";
import { callApi, serverContextPerTest, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";

const sandbox = upstreamForFile();
const overrideContext = serverContextPerTest();
afterEach(() => {
  sandbox().setFaults({});
});

const requestWith = (cookie: string) => new Request("http://localhost:3000/api/session", { headers: { cookie } });

describe("the server context", () => {
  it("its clock decides when a session ends (no waiting eight hours)", async () => {
    let t = Date.parse("2026-11-20T12:00:00Z");
    overrideContext({ now: () => t });
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    expect(await getRequestSession(requestWith(cookie))).not.toBeNull();
    t += SESSION_TTL_SECONDS * 1000 + 1000;
    expect(await getRequestSession(requestWith(cookie))).toBeNull();
  });

  it("its retry policy decides how often a failing upstream request is tried", async () => {
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    // Three failures in a row: one retry is not enough, four are.
    const oneRetry = overrideContext({ retry: { retries: 1, minBackoffMs: 1, maxBackoffMs: 2 } });
    sandbox().setFaults({ errorCount: 3, paths: ["/analytics/funnel"] });
    expect((await callApi<ErrorJson>("/api/analytics/funnel?period=7d", { cookie })).status).toBe(502);
    oneRetry();
    overrideContext({ retry: { retries: 4, minBackoffMs: 1, maxBackoffMs: 2 } });
    sandbox().setFaults({ errorCount: 3, paths: ["/analytics/funnel"] });
    expect((await callApi("/api/analytics/funnel?period=24h", { cookie })).status).toBe(200);
  });

  it("its stores are the ones sign-out and every session read use", async () => {
    const revocations = createMemoryRevocationStore();
    overrideContext({ stores: { ...serverContext().stores, revocations } });
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    const session = await getRequestSession(requestWith(cookie));
    await revokeSession(session!);
    expect(revocations.size()).toBe(1);
    expect(await getRequestSession(requestWith(cookie))).toBeNull();
  });

  it("makes one upstream client per key, afresh for a new context", () => {
    const first = upstreamFor(DEMO_KEYS.pro);
    expect(upstreamFor(DEMO_KEYS.pro)).toBe(first);
    expect(upstreamFor(DEMO_KEYS.free)).not.toBe(first);
    const restore = overrideContext({});
    expect(upstreamFor(DEMO_KEYS.pro)).not.toBe(first);
    restore();
    expect(upstreamFor(DEMO_KEYS.pro)).toBe(first);
  });
});
