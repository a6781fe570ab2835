// The upstream client over real HTTP: against the sandbox (happy paths, errors, faults, retries,
// single-flight, cache, priority) and against a tiny node:http server for what the sandbox never
// does (shape variants, redirects, the exact headers sent).
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { countedTransport, onFakeTime } from "@/lib/fake-time";
import { DEMO_KEYS, REVOKED_KEY } from "@/sandbox/keys";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { createRequestCache } from "./cache";
import { createDataApiClient } from "./client";
import { DataApiError } from "./errors";
import { createScheduler } from "./scheduler";

let sandbox: Sandbox;

beforeAll(async () => {
  // Its rate-limit clock and log times read Date at each call, so they follow fake time (onFakeTime).
  sandbox = await startSandbox({ port: 0, now: "2026-11-20T12:00:00Z", visitors: 2000, clock: () => Date.now() });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => {
  sandbox.setFaults({});
  sandbox.reset();
});

/** Requests of the clients below, counted until their body is read: what runs on fake time needs it. */
const transport = countedTransport(fetch);

/** A client with no cache and fast retries, so each test sees its own upstream requests. */
const client = (key: string = DEMO_KEYS.pro, extra: { timeoutMs?: number; ttlMs?: number } = {}) =>
  createDataApiClient({
    baseUrl: sandbox.baseUrl,
    apiKey: key,
    fetch: transport.fetch,
    scheduler: createScheduler({ minBackoffMs: 20, maxBackoffMs: 100 }),
    cache: createRequestCache({ ttlMs: extra.ttlMs ?? 0 }),
    timeoutMs: extra.timeoutMs,
  });

/** Runs `work` on fake time: backoff, Retry-After and timeouts are waited out on the fake clock. */
const onFakeClock = <T>(work: () => Promise<T>) => onFakeTime(work, () => transport.inFlight() - sandbox.delayed());

async function failure(p: Promise<unknown>): Promise<DataApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(DataApiError);
    return e as DataApiError;
  }
  throw new Error("expected a DataApiError");
}

describe("against the sandbox", () => {
  it("lists visitors with filters and pagination meta", async () => {
    const page = await client().get("/visitors", { query: { source: "chatgpt", limit: 5, offset: 5 } });
    expect(page.meta).toMatchObject({ limit: 5, offset: 5 });
    expect(page.meta.total).toBeGreaterThan(10);
    expect(page.data).toHaveLength(5);
    expect(page.data.every((v) => v.source === "chatgpt")).toBe(true);
    expect(sandbox.stats().log.at(-1)?.query).toBe("limit=5&offset=5&source=chatgpt");
  });

  it("reads one visitor and its timeline by id", async () => {
    const api = client();
    const id = (await api.get("/visitors", { query: { limit: 1, offset: 0 } })).data[0]!.id;
    expect((await api.get("/visitors/:id", { params: { id: id } })).id).toBe(id);
    const timeline = await api.get("/visitors/:id/timeline", { params: { id: id } });
    expect(timeline.data.length).toBeGreaterThan(0);
  });

  it("rejects a malformed id before any request", async () => {
    const before = sandbox.stats().requests;
    const e = await failure(client().get("/visitors/:id", { params: { id: "vis_../../intelligence/score" } }));
    expect(e).toMatchObject({ status: 400, code: "invalid_parameter", param: "id" });
    expect(sandbox.stats().requests).toBe(before);
  });

  it("maps upstream errors: 401 revoked, 404 unknown id, 403 limited", async () => {
    const revoked = await failure(client(REVOKED_KEY).get("/intelligence/score", {}));
    expect(revoked).toMatchObject({ status: 401, code: "unauthorized" });
    expect(revoked.requestId).toMatch(/\S/);
    expect(revoked.message).not.toContain(REVOKED_KEY);
    expect(await failure(client().get("/visitors/:id", { params: { id: "vis_doesnotexist" } }))).toMatchObject({ status: 404, code: "not_found" });
    expect(await failure(client(DEMO_KEYS.limited).get("/intelligence/ranking", {}))).toMatchObject({ status: 403, code: "forbidden" });
  });

  it("rides out a burst of 500s within the retry bounds", async () => {
    sandbox.setFaults({ errorCount: 3, paths: ["/intelligence/score"] });
    const score = await onFakeClock(() => client().get("/intelligence/score", {}));
    expect(typeof score.score).toBe("number");
    expect(sandbox.stats().byPath["/intelligence/score"]).toBe(4);
  });

  it("gives up after the bounded retries with the upstream's status and request id", async () => {
    sandbox.setFaults({ errorCount: 50, paths: ["/intelligence/score"] });
    const e = await onFakeClock(() => failure(client().get("/intelligence/score", {})));
    expect(e).toMatchObject({ status: 500, code: "internal_error" });
    expect(e.requestId).toMatch(/\S/);
    expect(sandbox.stats().byPath["/intelligence/score"]).toBe(5);
  });

  it("waits out a 429 storm (Retry-After) and then succeeds", async () => {
    sandbox.setFaults({ rateLimitStorm: 2, paths: ["/intelligence/ranking"] });
    const ranking = await onFakeClock(() => client().get("/intelligence/ranking", {}));
    expect(ranking.data.length).toBeGreaterThan(0);
    const log = sandbox.stats().log.filter((l) => l.path === "/v1/intelligence/ranking");
    expect(log.map((l) => l.status)).toEqual([429, 429, 200]);
    // Retry-After: 1 was honoured between tries.
    expect(log[1]!.t - log[0]!.t).toBeGreaterThanOrEqual(950);
    expect(log[2]!.t - log[1]!.t).toBeGreaterThanOrEqual(950);
  });

  it("does not retry a malformed body: unexpected_response with the request id", async () => {
    sandbox.setFaults({ malformedCount: 1, paths: ["/analytics/overview"] });
    const e = await failure(client().get("/analytics/overview", { query: { period: "7d" } }));
    expect(e).toMatchObject({ status: 502, code: "unexpected_response" });
    expect(e.requestId).toMatch(/\S/);
    expect(sandbox.stats().byPath["/analytics/overview"]).toBe(1);
  });

  it("times out a slow upstream with upstream_timeout", async () => {
    sandbox.setFaults({ latencyMs: 400, paths: ["/analytics/funnel"] });
    const e = await onFakeClock(() => failure(client(DEMO_KEYS.pro, { timeoutMs: 100 }).get("/analytics/funnel", { query: { period: "30d" } })));
    expect(e).toMatchObject({ status: 504, code: "upstream_timeout" });
  });

  it("makes identical concurrent requests once (single-flight)", async () => {
    const api = client();
    const results = await Promise.all(Array.from({ length: 6 }, () => api.get("/analytics/traffic", { query: { period: "90d" } })));
    expect(new Set(results).size).toBe(1);
    expect(sandbox.stats().byPath["/analytics/traffic"]).toBe(1);
  });

  it("caches successful responses per key for the TTL, but not bulk (export) pages", async () => {
    const api = client(DEMO_KEYS.pro, { ttlMs: 60_000 });
    await api.get("/mentions", { query: { limit: 3, offset: 0 } });
    await api.get("/mentions", { query: { limit: 3, offset: 0 } });
    expect(sandbox.stats().byPath["/mentions"]).toBe(1);
    await api.get("/mentions", { query: { limit: 3, offset: 3 } }, { priority: "bulk" });
    await api.get("/mentions", { query: { limit: 3, offset: 3 } }, { priority: "bulk" });
    expect(sandbox.stats().byPath["/mentions"]).toBe(3);
  });

  it("a fresh read asks upstream whatever is cached; one with keep: false leaves the cache as it was", async () => {
    const api = client(DEMO_KEYS.pro, { ttlMs: 60_000 });
    const first = await api.get("/intelligence/score", {});
    await api.get("/intelligence/score", {}, { fresh: true, keep: false });
    expect(sandbox.stats().byPath["/intelligence/score"]).toBe(2);
    // The key's check was not kept: the next read is the answer cached before it.
    expect(await api.get("/intelligence/score", {})).toBe(first);
    expect(sandbox.stats().byPath["/intelligence/score"]).toBe(2);
    await api.get("/intelligence/ranking", {}, { fresh: true, keep: false });
    await api.get("/intelligence/ranking", {});
    expect(sandbox.stats().byPath["/intelligence/ranking"]).toBe(2);
  });

  it("lets interactive requests go ahead of queued bulk requests", async () => {
    const api = createDataApiClient({
      baseUrl: sandbox.baseUrl,
      apiKey: DEMO_KEYS.pro,
      fetch: transport.fetch,
      // One request per second, kept (not learned from the headers), so the others queue up behind the first.
      scheduler: createScheduler({ budget: { perSecond: 1, perMinute: 20 }, fixed: true, secondMarginMs: 10 }),
      cache: createRequestCache({ ttlMs: 0 }),
    });
    // Four export pages and then a dashboard request, all at once; on fake time, so the pacing takes
    // no real time and the order depends on the priorities alone.
    await onFakeClock(() =>
      Promise.all([
        ...[1, 2, 3, 4].map((offset) => api.get("/visitors", { query: { limit: 1, offset } }, { priority: "bulk" })),
        api.get("/intelligence/score", {}),
      ]),
    );
    const arrivals = sandbox.stats().log.map((l) => (l.path.endsWith("/score") ? "interactive" : `bulk${/offset=(\d)/.exec(l.query)?.[1]}`));
    // bulk1 was admitted before the others were asked for; the interactive request, asked for last, goes next.
    expect(arrivals).toEqual(["bulk1", "interactive", "bulk2", "bulk3", "bulk4"]);
    // One per second: the budget, not a race, set the order.
    const times = sandbox.stats().log.map((l) => l.t);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1000);
  });
});

// ---------------------------------------------------------------------------------------------

type Route = (path: string) => { status?: number; body?: unknown; headers?: Record<string, string> };

async function tinyServer(route: Route): Promise<{ url: string; seen: { path: string; headers: IncomingHttpHeaders }[]; server: Server }> {
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? "", headers: req.headers });
    const r = route(req.url ?? "");
    res.writeHead(r.status ?? 200, { "Content-Type": "application/json", "X-Request-ID": "req_tiny", ...r.headers });
    res.end(r.body === undefined ? "" : JSON.stringify(r.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, server };
}

describe("against a tiny server serving the shape variants", () => {
  const event = { id: "e1", type: "page_view", timestamp: "2026-11-01T10:00:00Z" };
  let tiny: Awaited<ReturnType<typeof tinyServer>>;

  beforeAll(async () => {
    tiny = await tinyServer((path): ReturnType<Route> => {
      if (path.startsWith("/v1/visitors/vis_wrapped/timeline")) return { body: { visitor_id: "vis_wrapped", events: [event] } };
      if (path.startsWith("/v1/visitors/vis_wrapped")) return { body: { data: { id: "vis_wrapped", city: "Oslo" } } };
      if (path.startsWith("/v1/analytics/traffic")) return { body: [{ source: "claude", count: 7 }] };
      if (path.startsWith("/v1/analytics/funnel")) return { body: { data: [{ name: "visit", count: 9 }] } };
      if (path.startsWith("/v1/intelligence/ranking")) return { body: { competitors: [{ rank: 1, name: "Acme", score: 90 }] } };
      if (path.startsWith("/v1/intelligence/score")) return { status: 302, headers: { Location: "http://127.0.0.1:1/steal" } };
      if (path.startsWith("/v1/analytics/overview")) return { status: 503, body: undefined, headers: { "Retry-After": "1" } };
      return { status: 404, body: { error: { code: "not_found", message: "nope" } } };
    });
  });
  afterAll(() => tiny?.server.close());

  const tinyClient = () =>
    createDataApiClient({
      baseUrl: `${tiny.url}/v1`,
      apiKey: DEMO_KEYS.free,
      scheduler: createScheduler({ retries: 1, minBackoffMs: 10, maxBackoffMs: 20 }),
      cache: createRequestCache({ ttlMs: 0 }),
    });

  it("normalises wrapped visitors, `events` + `timestamp` timelines, `count` traffic, `name` funnels, `competitors` rankings", async () => {
    const api = tinyClient();
    expect(await api.get("/visitors/:id", { params: { id: "vis_wrapped" } })).toEqual({ id: "vis_wrapped", city: "Oslo" });
    expect(await api.get("/visitors/:id/timeline", { params: { id: "vis_wrapped" } })).toEqual({
      visitor_id: "vis_wrapped",
      data: [{ id: "e1", type: "page_view", occurred_at: "2026-11-01T10:00:00Z" }],
    });
    expect(await api.get("/analytics/traffic", { query: { period: "30d" } })).toEqual({ data: [{ source: "claude", visitors: 7 }] });
    expect(await api.get("/analytics/funnel", { query: { period: "30d" } })).toEqual({ data: [{ stage: "visit", count: 9 }] });
    expect(await api.get("/intelligence/ranking", {})).toEqual({ data: [{ rank: 1, name: "Acme", score: 90 }] });
  });

  it("treats a redirect as an error and never follows it", async () => {
    const e = await failure(tinyClient().get("/intelligence/score", {}));
    expect(e).toMatchObject({ status: 502, code: "redirect_rejected", requestId: "req_tiny" });
    expect(tiny.seen.some((s) => s.path.includes("steal"))).toBe(false);
  });

  it("retries a 5xx without an error body, then reports it with its status", async () => {
    const before = tiny.seen.length;
    const e = await failure(tinyClient().get("/analytics/overview", { query: { period: "30d" } }));
    expect(e).toMatchObject({ status: 503, code: "upstream_error", retryAfter: 1 });
    expect(tiny.seen.length - before).toBe(2);
  });

  it("sends the key as a Bearer token with Content-Type, and nothing from any browser request", async () => {
    await tinyClient().get("/analytics/traffic", { query: { period: "7d" } });
    const { headers, path } = tiny.seen.at(-1)!;
    expect(path).toBe("/v1/analytics/traffic?period=7d");
    expect(headers.authorization).toBe(`Bearer ${DEMO_KEYS.free}`);
    expect(headers["content-type"]).toBe("application/json");
    for (const h of ["cookie", "x-forwarded-for", "origin", "referer", "x-nonce"]) expect(headers[h]).toBeUndefined();
  });
});
