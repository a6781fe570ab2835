// The sandbox Data API server: every endpoint of the API's documentation under /v1 (shapes as
// sandbox/README.md "Settled unknowns" settles them), demo keys, per-key rate limits, fault injection,
// a clock the score and ranking follow, and admin endpoints under /sandbox/ for tests in other
// processes. Binds loopback by default; `startSandbox({ port: 0 })` picks a free port.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { z } from "zod";
import { funnelJson, overviewJson, queryVisitors, trafficJson } from "./analytics";
import { parseClockMove, SandboxClock } from "./clock";
import { DEFAULT_SEED, DEFAULT_VISITORS, MAX_VISITORS } from "./config";
import { mentionListQuery, noQuery, periodQuery, readQuery, visitorListQuery } from "./contract";
import { faultsSchema, FaultState } from "./faults";
import { holdBodySchema, Holds } from "./holds";
import { SCORE_INTERVAL_MS } from "./intelligence";
import { authenticate, KEY_INFO, keyInfo, maskKey, type KeyInfo } from "./keys";
import { mentionJson, queryMentions } from "./mentions";
import { withEchoedKey, withMetaTotal, withOddities } from "./oddities";
import { RateLimiter, type RateDecision } from "./rate-limit";
import { visitorTimeline } from "./timeline";
import type { Faults, Sandbox, SandboxLogEntry, SandboxOptions, SandboxStats } from "./types";
import { visitorJson, visitorRow } from "./visitors";
import { createWorkspace, type Workspace } from "./workspace";

export type { Sandbox, SandboxOptions } from "./types";

const LOG_MAX = 20_000;

type Reply = { status: number; body: unknown; headers?: Record<string, string | number> };

const errorReply = (status: number, code: string, message: string, param?: string, headers?: Record<string, string | number>): Reply => ({
  status,
  body: { error: { code, message, ...(param ? { param } : {}) } },
  headers,
});

const notFound = (what = "No such endpoint") => errorReply(404, "not_found", what);

/** Reads the query with the endpoint's schema (contract.ts); a 400 invalid_parameter reply when invalid. */
function parseParams<S extends z.ZodObject>(schema: S, search: URLSearchParams): { ok: true; data: z.output<S> } | { ok: false; reply: Reply } {
  const read = readQuery(schema, search);
  return read.ok ? { ok: true, data: read.query } : { ok: false, reply: errorReply(400, "invalid_parameter", read.message, read.param) };
}

/** The most past days /sandbox/history answers (a year and a day). */
const PAST_DAYS_MAX = 366;

/** Routes an authenticated GET under /v1 (path without the /v1 prefix); `clock` dates the score and ranking. */
function routeApi(path: string, search: URLSearchParams, ws: Workspace, key: KeyInfo, clock: SandboxClock): Reply {
  const segments = path.split("/").slice(1);
  const [a, b, c, extra] = segments;
  if (extra !== undefined) return notFound();

  if (a === "visitors") {
    if (b === undefined) {
      const p = parseParams(visitorListQuery, search);
      if (!p.ok) return p.reply;
      const { total, rows } = queryVisitors(ws.visitors, p.data);
      return { status: 200, body: { data: rows.map((r) => visitorJson(ws.visitors, r)), meta: { total, limit: p.data.limit, offset: p.data.offset } } };
    }
    if (c !== undefined && c !== "timeline") return notFound();
    if (c === "timeline" && key.limited) return errorReply(403, "forbidden", "This key has no access to visitor timelines");
    let id: string;
    try {
      id = decodeURIComponent(b);
    } catch {
      return notFound("No visitor with this id");
    }
    const p = parseParams(noQuery, search);
    if (!p.ok) return p.reply;
    const row = visitorRow(ws.visitors, id);
    if (row < 0) return notFound("No visitor with this id");
    return { status: 200, body: c === "timeline" ? visitorTimeline(ws.visitors, row) : visitorJson(ws.visitors, row) };
  }

  if (a === "mentions" && b === undefined) {
    const p = parseParams(mentionListQuery, search);
    if (!p.ok) return p.reply;
    const { total, page } = queryMentions(ws.mentions, p.data);
    return { status: 200, body: { data: page.map(mentionJson), meta: { total, limit: p.data.limit, offset: p.data.offset } } };
  }

  if (a === "analytics" && c === undefined && (b === "overview" || b === "traffic" || b === "funnel")) {
    const p = parseParams(periodQuery, search);
    if (!p.ok) return p.reply;
    const agg = ws.aggregate(p.data.period);
    return { status: 200, body: b === "overview" ? overviewJson(agg) : b === "traffic" ? trafficJson(agg) : funnelJson(agg) };
  }

  if (a === "intelligence" && c === undefined && (b === "score" || b === "ranking")) {
    if (key.limited) return errorReply(403, "forbidden", "This key has no access to the intelligence endpoints");
    const p = parseParams(noQuery, search);
    if (!p.ok) return p.reply;
    const at = clock.now();
    return { status: 200, body: b === "score" ? ws.score(at) : ws.ranking(at) };
  }

  return notFound();
}

function rateHeaders(d: RateDecision): Record<string, number> {
  return { "X-RateLimit-Limit": d.limit, "X-RateLimit-Remaining": d.remaining, "X-RateLimit-Reset": d.reset };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  return text === "" ? {} : (JSON.parse(text) as unknown);
}

export async function startSandbox(opts: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const options: SandboxOptions = {
    port: 0,
    host: "127.0.0.1",
    seed: DEFAULT_SEED,
    now: undefined,
    visitors: DEFAULT_VISITORS,
    faults: {},
    ...opts,
  };
  // The wall clock: rate-limit windows, X-RateLimit-Reset, Retry-After and the log follow it, since a
  // client waits in its own real time; only the score and ranking follow the movable sandbox clock.
  const clock = options.clock ?? Date.now;
  const nowMs = options.now ? Date.parse(options.now) : Date.now();
  if (Number.isNaN(nowMs)) throw new Error(`Invalid sandbox option now=${options.now}: use an ISO 8601 instant`);
  if (!Number.isInteger(options.visitors) || options.visitors < 0 || options.visitors > MAX_VISITORS) {
    throw new Error(`Invalid sandbox option visitors=${options.visitors}: use a whole number from 0 to ${MAX_VISITORS}`);
  }

  const demo = createWorkspace(options.seed, options.visitors, nowMs);
  const empty = createWorkspace(options.seed, 0, nowMs, false);
  const sandboxClock = new SandboxClock(clock, nowMs);
  const limiter = new RateLimiter();
  const faults = new FaultState();
  faults.set(options.faults);
  const holds = new Holds();
  /** Keys revoked at run time (POST /sandbox/revoked): 401 until given back. */
  const revoked = new Set<string>();

  let stats: SandboxStats = { requests: 0, byPath: {}, rateLimited: 0, log: [] };
  let delayed = 0;
  const log = (entry: SandboxLogEntry) => {
    stats.log.push(entry);
    if (stats.log.length > LOG_MAX * 1.25) stats.log.splice(0, stats.log.length - LOG_MAX);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `req_${randomBytes(10).toString("hex")}`;
    const method = req.method ?? "GET";
    stats.requests++;
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://sandbox.invalid");
    } catch {
      url = new URL("http://sandbox.invalid/");
    }
    // A request target that is not a plain path (e.g. "//v1/x" or an absolute URL) matches no route.
    const path = req.url?.startsWith("/") && !req.url.startsWith("//") ? url.pathname : "/invalid-request-target";
    let maskedKey = "";
    // Set by the echoKey fault: a careless upstream that repeats the caller's key back.
    let echoedKey: string | undefined;

    const send = (reply: Reply, raw?: string) => {
      const id = echoedKey ? `${requestId}-${echoedKey}` : requestId;
      const errorBody = () => withRequestId(echoedKey ? withKeyInError(reply.body, echoedKey) : reply.body, id);
      const body = raw ?? JSON.stringify(reply.status >= 400 ? errorBody() : reply.body);
      res.writeHead(reply.status, {
        "Content-Type": "application/json",
        "Cache-Control": "no-store",
        "X-Request-ID": id,
        ...reply.headers,
      });
      res.end(body);
      if (reply.status === 429) stats.rateLimited++;
      log({ t: clock(), key: maskedKey, method, path, query: url.search.slice(1), status: reply.status, request_id: id });
    };

    if (path.startsWith("/sandbox/")) {
      send(await handleAdmin(req, method, path, url.searchParams));
      return;
    }
    if (path !== "/v1" && !path.startsWith("/v1/")) {
      send(notFound("No such endpoint; the API lives under /v1"));
      return;
    }

    const apiPath = path.slice(3) || "/";
    stats.byPath[apiPath] = (stats.byPath[apiPath] ?? 0) + 1;

    const auth = authenticate(req.headers.authorization, revoked);
    if (!auth.ok) {
      send(errorReply(401, "unauthorized", auth.message, undefined, rateHeaders(RateLimiter.idle("Free", clock()))));
      return;
    }
    const key = auth.info;
    maskedKey = maskKey(key.key);
    const shape = faults.shapeFor(apiPath, key.key);
    if (shape.echoKey) echoedKey = key.key;
    const decision = limiter.hit(key.key, key.plan, clock());
    const headers: Record<string, string | number> = shape.hideRateLimitHeaders ? {} : rateHeaders(decision);
    if (!decision.allowed) {
      send(
        errorReply(429, "rate_limit_exceeded", `Rate limit exceeded for this key (${key.plan} plan); retry after ${decision.retryAfter}s`, undefined, {
          ...headers,
          "Retry-After": decision.retryAfter,
        }),
      );
      return;
    }

    const latency = faults.latencyFor(apiPath, key.key);
    if (latency > 0) {
      // Counted while the caller still waits for it: a request whose caller gave up is not.
      let held = true;
      const release = () => {
        if (held) delayed--;
        held = false;
      };
      delayed++;
      res.once("close", release);
      try {
        await sleep(latency);
      } finally {
        release();
        res.off("close", release);
      }
    }
    await holds.wait(apiPath, url.searchParams, key.key, res);
    // A caller that gave up while its request was held gets no answer (and the log no entry).
    if (res.destroyed || req.socket.destroyed) return;
    const action = faults.actionFor(apiPath, key.key);
    if (action.kind === "rate_limit") {
      send(errorReply(429, "rate_limit_exceeded", "Rate limit exceeded (injected by the sandbox)", undefined, { ...headers, "Retry-After": 1 }));
      return;
    }
    if (action.kind === "error") {
      send(errorReply(500, "internal_error", "Internal server error (injected by the sandbox)", undefined, headers));
      return;
    }

    if (method !== "GET") {
      send(errorReply(405, "method_not_allowed", `Method ${method} is not allowed; the Data API is read-only (GET)`, undefined, { ...headers, Allow: "GET" }));
      return;
    }

    const ws = key.workspace === "empty" ? empty : demo;
    let reply: Reply;
    try {
      reply = routeApi(apiPath, url.searchParams, ws, key, sandboxClock);
    } catch (err) {
      console.error(`sandbox: ${requestId} ${method} ${path} failed:`, err);
      reply = errorReply(500, "internal_error", "Internal server error");
    }
    reply.headers = { ...headers, ...reply.headers };
    if (reply.status === 200) {
      if (shape.oddRate) reply.body = withOddities(reply.body, apiPath, url.search.slice(1), shape.oddRate);
      if (shape.metaTotal !== undefined) reply.body = withMetaTotal(reply.body, shape.metaTotal);
      if (shape.echoKey) reply.body = withEchoedKey(reply.body, apiPath, key.key);
    }
    if (reply.status === 200 && faults.malformFor(apiPath, key.key)) {
      const json = JSON.stringify(reply.body);
      send(reply, json.slice(0, Math.max(1, Math.floor(json.length / 2))));
      return;
    }
    send(reply);
  }

  async function handleAdmin(req: IncomingMessage, method: string, path: string, search: URLSearchParams): Promise<Reply> {
    const route = `${method} ${path}`;
    switch (route) {
      case "GET /sandbox/history":
        return pastDays(req, search);
      case "GET /sandbox/health":
        return { status: 200, body: { ok: true } };
      case "GET /sandbox/keys":
        return {
          status: 200,
          body: {
            keys: Object.values(KEY_INFO).map((k) => ({ key: k.key, plan: k.plan, workspace: k.workspace, description: k.description })),
          },
        };
      case "GET /sandbox/stats":
        return { status: 200, body: snapshot() };
      case "POST /sandbox/reset":
        reset();
        return { status: 200, body: { ok: true } };
      case "GET /sandbox/faults":
        return { status: 200, body: faults.get() };
      case "POST /sandbox/faults": {
        let body: unknown;
        try {
          body = await readJsonBody(req);
        } catch {
          return errorReply(400, "invalid_parameter", "The body must be a JSON object of faults", "body");
        }
        const parsed = faultsSchema.safeParse(body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          return errorReply(400, "invalid_parameter", `${issue.path.join(".") || "body"}: ${issue.message}`, String(issue.path[0] ?? "body"));
        }
        faults.set(parsed.data);
        return { status: 200, body: faults.get() };
      }
      case "GET /sandbox/holds":
        return { status: 200, body: holds.list(maskKey) };
      case "POST /sandbox/holds": {
        let body: unknown;
        try {
          body = await readJsonBody(req);
        } catch {
          return errorReply(400, "invalid_parameter", 'The body must be JSON: {"key", "paths"}, {"key", "release": n} or {"key", "end": true}', "body");
        }
        const parsed = holdBodySchema.safeParse(body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          const field = String(issue.path[0] ?? "body");
          return errorReply(
            400,
            "invalid_parameter",
            `The body must be {"key", "paths", "query"?, "maxMs"?}, {"key", "release": n} or {"key", "end": true}${field === "body" ? "" : ` (${field})`}`,
            field,
          );
        }
        const refused = holds.apply(parsed.data, maskKey);
        if (refused) return errorReply(400, "invalid_parameter", refused.message, refused.param);
        return { status: 200, body: holds.list(maskKey) };
      }
      case "GET /sandbox/revoked":
        return { status: 200, body: revokedJson() };
      case "POST /sandbox/revoked": {
        let body: unknown;
        try {
          body = await readJsonBody(req);
        } catch {
          return errorReply(400, "invalid_parameter", 'The body must be JSON: {"key": "svc_sk_test_…", "revoked": true}', "body");
        }
        const parsed = parseRevocation(body);
        if (!parsed.ok) return errorReply(400, "invalid_parameter", parsed.message, parsed.param);
        revokeKey(parsed.key, parsed.revoked);
        return { status: 200, body: revokedJson() };
      }
      case "GET /sandbox/clock":
        return { status: 200, body: sandboxClock.json() };
      case "POST /sandbox/clock": {
        let body: unknown;
        try {
          body = await readJsonBody(req);
        } catch {
          return errorReply(400, "invalid_parameter", 'The body must be JSON: {"now": ISO}, {"advance_ms": n} or {"reset": true}', "body");
        }
        const parsed = parseClockMove(body);
        if (!parsed.ok) return errorReply(400, "invalid_parameter", parsed.message, parsed.param);
        const moved = sandboxClock.move(parsed.move);
        if (!moved.ok) return errorReply(400, "invalid_parameter", moved.message, moved.param);
        return { status: 200, body: sandboxClock.json() };
      }
    }
    const known = [
      "/sandbox/health",
      "/sandbox/keys",
      "/sandbox/stats",
      "/sandbox/reset",
      "/sandbox/faults",
      "/sandbox/clock",
      "/sandbox/history",
      "/sandbox/revoked",
      "/sandbox/holds",
    ];
    if (known.includes(path)) return errorReply(405, "method_not_allowed", `Method ${method} is not allowed on ${path}`);
    return notFound("No such sandbox endpoint");
  }

  /**
   * The score and ranking the key's workspace had on each of the `days` days before the clock's day,
   * oldest first: what a client reading once a day would have recorded (a demo's history). One call
   * instead of moving the one clock every key shares; not counted against the key's rate limit.
   */
  function pastDays(req: IncomingMessage, search: URLSearchParams): Reply {
    const auth = authenticate(req.headers.authorization, revoked);
    if (!auth.ok) return errorReply(401, "unauthorized", auth.message);
    if (auth.info.limited) return errorReply(403, "forbidden", "This key has no access to the intelligence endpoints");
    const raw = search.get("days") ?? "90";
    const days = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
    if (!(days >= 1 && days <= PAST_DAYS_MAX)) return errorReply(400, "invalid_parameter", `days must be a whole number from 1 to ${PAST_DAYS_MAX}`, "days");
    const ws = auth.info.workspace === "empty" ? empty : demo;
    const today = Math.floor(sandboxClock.now() / SCORE_INTERVAL_MS) * SCORE_INTERVAL_MS;
    const data = [];
    for (let d = days; d >= 1; d--) data.push({ score: ws.score(today - d * SCORE_INTERVAL_MS), ranking: ws.ranking(today - d * SCORE_INTERVAL_MS) });
    return { status: 200, body: { data } };
  }

  function revokeKey(key: string, isRevoked = true): void {
    if (!keyInfo(key)) throw new Error("Only the sandbox's demo keys, and keys derived from them, can be revoked (sandbox/keys.ts)");
    if (isRevoked) revoked.add(key);
    else revoked.delete(key);
  }

  /** The revoked keys, masked as in the log (the control answers no key in full). */
  const revokedJson = () => ({ revoked: [...revoked].map(maskKey).sort() });

  function snapshot(): SandboxStats {
    return { requests: stats.requests, byPath: { ...stats.byPath }, rateLimited: stats.rateLimited, log: stats.log.slice(-LOG_MAX) };
  }

  function reset(): void {
    stats = { requests: 0, byPath: {}, rateLimited: 0, log: [] };
    limiter.clear();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      console.error("sandbox: request failed:", err);
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "application/json", "X-Request-ID": `req_${randomBytes(10).toString("hex")}` });
        res.end(JSON.stringify({ error: { code: "internal_error", message: "Internal server error" } }));
      } else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}`;

  return {
    url,
    baseUrl: `${url}/v1`,
    setFaults: (f: Faults) => faults.set(faultsSchema.parse(f)),
    stats: snapshot,
    reset,
    delayed: () => delayed,
    revokeKey,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

type Revocation = { ok: true; key: string; revoked: boolean } | { ok: false; message: string; param: string };

/** The body of POST /sandbox/revoked: `{key, revoked}`, `key` a demo key or one derived from it, `revoked` a boolean. */
function parseRevocation(body: unknown): Revocation {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { ok: false, message: 'The body must be a JSON object: {"key": "svc_sk_test_…", "revoked": true}', param: "body" };
  const { key, revoked, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined)
    return { ok: false, message: `Unknown field ${unknown.slice(0, 40)}: the body takes key and revoked only`, param: unknown.slice(0, 40) };
  if (typeof key !== "string" || !keyInfo(key))
    return { ok: false, message: "key must be one of the sandbox's demo keys (GET /sandbox/keys) or a key derived from one", param: "key" };
  if (typeof revoked !== "boolean") return { ok: false, message: "revoked must be true (revoke the key) or false (give it back)", param: "revoked" };
  return { ok: true, key, revoked };
}

/** An error body with the key in its code, message and param (the echoKey fault). */
function withKeyInError(body: unknown, key: string): unknown {
  if (!body || typeof body !== "object" || !("error" in body)) return body;
  const { error } = body as { error: { code: string; message: string; param?: string } };
  return {
    error: { ...error, code: `${error.code}_${key}`, message: `${error.message} (API key ${key})`, ...(error.param ? { param: `${error.param}:${key}` } : {}) },
  };
}

function withRequestId(body: unknown, requestId: string): unknown {
  if (body && typeof body === "object" && "error" in body) {
    const { error } = body as { error: Record<string, unknown> };
    return { error: { ...error, request_id: requestId } };
  }
  return body;
}
