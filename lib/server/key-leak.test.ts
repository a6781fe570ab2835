// The key never leaves the server: a full run through every route (sign-in with a pasted key and
// a demo id, every data route, every error path incl. upstream faults, sign-out) while recording
// every response body and header and every console line; neither a key nor its secret part may
// appear anywhere in them.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { secretPart } from "@/lib/data-api/redact";
import { DEMO_KEYS, REVOKED_KEY } from "@/sandbox/keys";
import { apiRoute, call, onServerFakeTime, sessionCookie, upstreamForFile } from "@/testing/in-process";
import { routeFileAt } from "@/testing/api-routes";

const demoKeysRoute = await routeFileAt("session/demo-keys");
const sessionRoute = await routeFileAt("session");

/** The session's routes as Next calls them. */
const session = { signIn: sessionRoute.POST, readSession: sessionRoute.GET, signOut: sessionRoute.DELETE, listDemoKeys: demoKeysRoute.GET };

const sandbox = upstreamForFile();
const seen: string[] = [];
const KEYS = [DEMO_KEYS.pro, DEMO_KEYS.limited, DEMO_KEYS.empty, REVOKED_KEY];

beforeAll(() => {
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      seen.push(`console.${method}: ${args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(" ")}`);
    });
  }
});
afterAll(async () => {
  vi.restoreAllMocks();
});

/** Calls a handler and records everything the browser would receive. */
async function record(handler: Parameters<typeof call>[0], path: string, options: Parameters<typeof call>[2] = {}) {
  const res = await call(handler, path, options);
  seen.push(`${path} ${res.status} ${res.text}`);
  for (const [k, v] of res.headers) seen.push(`${path} header ${k}: ${v}`);
  return res;
}

function signIn(body: unknown) {
  return record(session.signIn, "/api/session", {
    init: { method: "POST", body: JSON.stringify(body), headers: { origin: "http://localhost:3000", "x-forwarded-for": "192.0.2.77" } },
  });
}

const cookieOf = (res: { headers: Headers }) => res.headers.get("set-cookie")?.split(";")[0] ?? "";

/** Every data route once with this session, unknown ids and a bad parameter included. */
async function everyRoute(cookie: string) {
  const list = await record(apiRoute, "/api/visitors?limit=3&source=chatgpt", { cookie });
  const id = (list.body as { data?: { id: string }[] }).data?.[0]?.id ?? "vis_none";
  await record(apiRoute, `/api/visitors/${id}`, { cookie });
  await record(apiRoute, `/api/visitors/${id}/timeline`, { cookie });
  await record(apiRoute, "/api/mentions?limit=3", { cookie });
  await record(apiRoute, "/api/analytics/overview?period=7d", { cookie });
  await record(apiRoute, "/api/analytics/traffic", { cookie });
  await record(apiRoute, "/api/analytics/funnel?period=90d", { cookie });
  await record(apiRoute, "/api/intelligence/score", { cookie });
  await record(apiRoute, "/api/intelligence/ranking", { cookie });
  await record(apiRoute, "/api/visitors/vis_unknown", { cookie });
  await record(apiRoute, "/api/visitors/vis_unknown/timeline", { cookie });
  await record(apiRoute, "/api/visitors?limit=0", { cookie });
}

function expectNoKey(keys: readonly string[]) {
  const all = seen.join("\n");
  for (const key of keys) {
    expect(all).not.toContain(key);
    expect(all).not.toContain(secretPart(key));
  }
}

describe("the API key never appears in responses or logs", () => {
  it("across a full run", async () => {
    await record(session.listDemoKeys, "/api/session/demo-keys");
    const pro = cookieOf(await signIn({ apiKey: DEMO_KEYS.pro }));
    const limited = cookieOf(await signIn({ demo: "limited" }));
    const empty = cookieOf(await signIn({ apiKey: DEMO_KEYS.empty }));
    await signIn({ apiKey: REVOKED_KEY });
    await signIn({ apiKey: `${DEMO_KEYS.pro}x` });
    await record(session.readSession, "/api/session", { cookie: pro });

    for (const cookie of [pro, limited, empty]) await everyRoute(cookie);

    // A session whose key was revoked since, and upstream faults (logged as failures; their retries
    // and Retry-After waited out on fake time).
    await record(apiRoute, "/api/intelligence/score", { cookie: await sessionCookie(REVOKED_KEY) });
    await onServerFakeTime(async () => {
      sandbox().setFaults({ errorCount: 2, paths: ["/analytics/traffic"] });
      await record(apiRoute, "/api/analytics/traffic?period=24h", { cookie: pro });
      sandbox().setFaults({ malformedCount: 1, paths: ["/mentions"] });
      await record(apiRoute, "/api/mentions?limit=4", { cookie: pro });
      sandbox().setFaults({ rateLimitStorm: 1, paths: ["/analytics/funnel"] });
      await record(apiRoute, "/api/analytics/funnel?period=24h", { cookie: pro });
    });
    sandbox().setFaults({});

    await record(session.signOut, "/api/session", { cookie: pro, init: { method: "DELETE", headers: { origin: "http://localhost:3000" } } });

    // The run did exercise errors and logging, so the check below is not vacuous.
    const all = seen.join("\n");
    expect(all).toContain("session_expired");
    expect(all).toContain("unexpected_response");
    expect(all).toContain("console.warn: [data-api]");
    expect(all).toContain("svc_sk_test_…9d1f");

    expectNoKey(KEYS);
  });

  it("when the upstream echoes the key: in error codes, messages and params, X-Request-ID, extra and text fields of 200 bodies", async () => {
    seen.length = 0;
    sandbox().setFaults({ echoKey: true });
    const pro = cookieOf(await signIn({ apiKey: DEMO_KEYS.pro }));
    const limited = cookieOf(await signIn({ demo: "limited" }));
    // A key that the upstream rejects with its key-echoing 401 and request id.
    await signIn({ apiKey: `${DEMO_KEYS.pro}x` });
    for (const cookie of [pro, limited]) await everyRoute(cookie);
    // Every upstream error kind, each echoing the key (retries and Retry-After on fake time), and
    // odd data on top.
    await onServerFakeTime(async () => {
      sandbox().setFaults({ echoKey: true, errorCount: 5, paths: ["/analytics/traffic"] });
      await record(apiRoute, "/api/analytics/traffic?period=24h", { cookie: pro });
      sandbox().setFaults({ echoKey: true, rateLimitStorm: 1, paths: ["/analytics/funnel"] });
      await record(apiRoute, "/api/analytics/funnel?period=24h", { cookie: pro });
    });
    sandbox().setFaults({ echoKey: true, oddRate: 0.5 });
    await everyRoute(pro);
    sandbox().setFaults({});

    // The upstream did echo it (so the check is not vacuous), and the app passed on what it could.
    const upstream = await fetch(`${sandbox().baseUrl}/visitors/vis_unknown`, { headers: { Authorization: `Bearer ${DEMO_KEYS.pro}` } });
    expect(upstream.status).toBe(404);
    const all = seen.join("\n");
    expect(all).toMatch(/"request_id":"req_[0-9a-f]+-svc_sk_test_/);
    expect(all).toContain("not_found_svc_sk_test_");
    expect(all).toContain(`"unreadable":{"count":`);

    expectNoKey([DEMO_KEYS.pro, DEMO_KEYS.limited]);
  });
});
