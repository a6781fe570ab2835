// The streamed prefetch path, against a sandbox over real HTTP: a server page starts its queries
// (prefetchApi), dehydrates at once with the queries still pending, and the browser hydrates the
// state through withFailuresRejected. The page must not wait for the upstream; a success arrives as
// the canonical answer; a failure arrives as the same error /api gives for the same request (status,
// code, message, request id), reaches the cache's error handler, and never carries the key.
import { dehydrate, hydrate, QueryCache, QueryClient, type QueryKey } from "@tanstack/react-query";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DataApiError } from "@/lib/data-api/errors";
import { maskKey, secretPart } from "@/lib/data-api/redact";
import { DEMO_KEYS, REVOKED_KEY } from "@/sandbox/keys";
import { setServerContext } from "@/lib/server/context";
import { prefetchApi } from "./server-api";
import type { Session } from "@/lib/server/session";
import { callApi, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import { apiQuery } from "./api";
import { getQueryClient } from "./get-query-client";
import { failedStatus, withFailuresRejected } from "./streamed-failure";

const sandbox = upstreamForFile();
let restoreContext: () => void;
beforeAll(() => {
  // Upstream failures are still retried, without the real backoff's seconds.
  restoreContext = setServerContext({ retry: { retries: 2, minBackoffMs: 1, maxBackoffMs: 2 } });
});
afterAll(() => {
  restoreContext?.();
});
beforeEach(() => {
  sandbox().setFaults({});
});

const sessionOf = (apiKey: string): Session => ({
  apiKey,
  environment: "test",
  keyHint: maskKey(apiKey),
  sessionId: "s_test",
  expiresAt: Date.now() + 3_600_000,
});

/** A browser's QueryClient, recording what reaches its cache's error handler. */
function browserClient() {
  const onError = vi.fn();
  const client = new QueryClient({ queryCache: new QueryCache({ onError }), defaultOptions: { queries: { retry: false } } });
  return { client, onError };
}

/** Hydrates a page's state in a browser client and waits for the query of `key` to settle. */
async function streamedTo(state: ReturnType<typeof dehydrate>, key: QueryKey) {
  const browser = browserClient();
  hydrate(browser.client, withFailuresRejected(state));
  const query = browser.client.getQueryCache().find({ queryKey: key, exact: true })!;
  await query.promise?.catch(() => undefined);
  return { ...browser, state: query.state };
}

describe("a page's streamed prefetch", () => {
  it("dehydrates before the upstream answers, then delivers the canonical answer", async () => {
    sandbox().setFaults({ latencyMs: 400, paths: ["/analytics/overview"] });
    const server = getQueryClient();
    const options = apiQuery(prefetchApi(sessionOf(DEMO_KEYS.pro)), "/analytics/overview", { query: { period: "7d" } });
    const started = performance.now();
    void server.prefetchQuery(options);
    const state = dehydrate(server);
    // Pending with its promise: dehydrated before the 400 ms upstream answered (no wall-clock bound,
    // which a loaded machine would break).
    expect(state.queries).toHaveLength(1);
    expect(state.queries[0]!.state.status).toBe("pending");
    expect(state.queries[0]!.promise).toBeDefined();

    const { state: settled, onError } = await streamedTo(state, options.queryKey);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    const direct = (await (
      await fetch(`${sandbox().baseUrl}/analytics/overview?period=7d`, { headers: { Authorization: `Bearer ${DEMO_KEYS.pro}` } })
    ).json()) as {
      visitors: { total: number };
    };
    expect(settled.status).toBe("success");
    expect(settled.data).toMatchObject({ visitors: { total: direct.visitors.total } });
    expect(onError).not.toHaveBeenCalled();
  });

  it.each([
    ["a key without access (403)", DEMO_KEYS.limited, "/intelligence/score"],
    ["a failing upstream after the retries (502)", DEMO_KEYS.pro, "/intelligence/ranking"],
    ["a revoked key (401: the session ends)", REVOKED_KEY, "/intelligence/score"],
  ] as const)("%s: the browser gets the error /api gives, with its request id, through the cache's error handler", async (_, key, path) => {
    if (path === "/intelligence/ranking") sandbox().setFaults({ errorRate: 1, paths: [path] });
    const server = getQueryClient();
    const options = apiQuery(prefetchApi(sessionOf(key)), path, {});
    void server.prefetchQuery(options);
    const { state, onError } = await streamedTo(dehydrate(server), options.queryKey);

    const bff = await callApi<ErrorJson>(`/api${path}`, { cookie: await sessionCookie(key) });
    const error = state.error as DataApiError;
    expect(state.status).toBe("error");
    expect({ status: error.status, code: error.code, message: error.message }).toEqual({
      status: bff.status,
      code: bff.body.error.code,
      message: bff.body.error.message,
    });
    expect(error.requestId).toMatch(/^req_[0-9a-f]+$/);
    expect(onError).toHaveBeenCalledWith(error, expect.anything());
  });

  it("an invalid filter is refused by the schema before any upstream call, naming its parameter", async () => {
    const before = sandbox().stats().log.length;
    const server = getQueryClient();
    const options = apiQuery(prefetchApi(sessionOf(DEMO_KEYS.pro)), "/visitors", { query: { source: "myspace", limit: "20" } });
    void server.prefetchQuery(options);
    const { state } = await streamedTo(dehydrate(server), options.queryKey);
    expect(state.error).toMatchObject({ status: 400, code: "invalid_parameter", param: "source", message: expect.stringContaining("source must be one of") });
    expect(sandbox().stats().log.length).toBe(before);
  });

  it("a failure the page awaited (the visitor's 404) is answered by the page, and read back the same way in the browser", async () => {
    const server = getQueryClient();
    const options = apiQuery(prefetchApi(sessionOf(DEMO_KEYS.pro)), "/visitors/:id", { params: { id: "vis_doesnotexist" } });
    const visitor = await server.fetchQuery(options);
    expect(failedStatus(visitor)).toBe(404);
    const state = dehydrate(server);
    expect(state.queries[0]!.promise).toBeUndefined();
    const { state: settled, onError } = await streamedTo(state, options.queryKey);
    expect(settled.error).toMatchObject({ status: 404, code: "not_found" });
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it("never carries the key, even when the upstream echoes it in errors and bodies", async () => {
    const server = getQueryClient();
    const api = prefetchApi(sessionOf(DEMO_KEYS.pro));
    sandbox().setFaults({ echoKey: true });
    await server.fetchQuery(apiQuery(api, "/visitors/:id", { params: { id: "vis_unknown" } }));
    await server.fetchQuery(apiQuery(api, "/visitors", { query: { limit: "5" } }));
    sandbox().setFaults({ echoKey: true, errorRate: 1, paths: ["/analytics/traffic"] });
    await server.fetchQuery(apiQuery(api, "/analytics/traffic", { query: { period: "24h" } }));
    // The upstream did echo the key (so the check below is not vacuous).
    const echoed = await fetch(`${sandbox().baseUrl}/analytics/traffic?period=24h`, { headers: { Authorization: `Bearer ${DEMO_KEYS.pro}` } });
    expect(await echoed.text()).toContain(DEMO_KEYS.pro);
    const streamed = JSON.stringify(dehydrate(server));
    expect(streamed).toContain("upstream_error");
    expect(streamed).toContain("not_found");
    expect(streamed).not.toContain(DEMO_KEYS.pro);
    expect(streamed).not.toContain(secretPart(DEMO_KEYS.pro));
  });
});
