// The app's route handlers called in-process, as Next would call them, for the tests that do: a sandbox
// on a free port as the upstream (real HTTP), the environment pointing at it, a session cookie, and
// server work on fake time with every upstream request counted.
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { countedTransport, onFakeTime } from "@/lib/fake-time";
import { answerAsNext, apiRouteFiles } from "./api-routes";
import { serverContext, setServerContext } from "@/lib/server/context";
import { insightRoutes as insightsTable } from "@/lib/insights/routes";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { setRuntimeFlags } from "@/lib/server/runtime-flags";
import { SESSION_COOKIE, sealSession } from "@/lib/server/session";
import type { StoreKind } from "@/lib/store/database";
import type { Store, StoreOptions } from "@/lib/store/store";
import { storesForFile } from "./stores";

export const TEST_NOW = "2026-11-20T12:00:00Z";

/** The insights routes, by name (`trend` for /api/insights/trend), from their route files under app/api/insights: tests read them here, never from a list of their own. */
export const insightRoutes = (): string[] =>
  apiRouteFiles().flatMap(({ segments }) => (segments.length === 2 && segments[0] === "insights" ? [segments[1]!] : []));

/** Of those, the ones with a `previous` (their query takes `compare`), as their definitions declare. */
export const comparedInsightRoutes = (): string[] =>
  insightRoutes().filter((name) => {
    const def = (insightsTable as Record<string, { query: { shape: object } } | undefined>)[`/insights/${name}`];
    return def !== undefined && "compare" in def.query.shape;
  });
export const TEST_SECRET = "test-only-session-secret-0123456789abcdef";
export const ORIGIN = "http://localhost:3000";

type UpstreamOptions = {
  visitors?: number;
  cacheTtlMs?: number;
  clock?: () => number;
  /** The sandbox's "now" (default TEST_NOW): its data ends there. */ now?: string;
};

/**
 * A sandbox on a free port as the upstream of the route handlers. Its rate-limit clock reads `Date`
 * at each call (so it follows fake time, see onServerFakeTime) unless `clock` is given.
 */
export async function startUpstream(options: UpstreamOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ port: 0, now: options.now ?? TEST_NOW, visitors: options.visitors ?? 2000, clock: options.clock ?? (() => Date.now()) });
  process.env.DATA_API_BASE_URL = sandbox.baseUrl;
  process.env.SESSION_SECRET = TEST_SECRET;
  process.env.DATA_API_CACHE_TTL_MS = String(options.cacheTtlMs ?? 0);
  // As `npm start` does for the sandbox it starts: this one is the embedded sandbox (demo keys on offer).
  setRuntimeFlags({ embeddedSandboxOrigin: sandbox.url });
  return sandbox;
}

/**
 * A test file's upstream: a sandbox (startUpstream) started before the file's tests and closed after
 * them. Call it at the top of the file; what it returns gives the sandbox in every hook and test.
 */
export function upstreamForFile(options: UpstreamOptions = {}): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startUpstream(options);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return () => {
    if (!sandbox) throw new Error("The upstream starts in beforeAll: use it in a hook or a test.");
    return sandbox;
  };
}

/**
 * A file's upstream and a Pro session on it (the export tests): the sandbox started before the
 * file's tests and closed after them, its faults cleared before each test; `set` receives both.
 */
export function withProUpstream(set: (sandbox: Sandbox, cookie: string) => void, options: UpstreamOptions = {}): void {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startUpstream(options);
    set(sandbox, await sessionCookie(DEMO_KEYS.pro));
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  beforeEach(() => {
    sandbox?.setFaults({});
  });
}

/**
 * Server context overrides that last one test: each call lays its overrides over the context
 * (setServerContext) and returns their undo; after every test, whatever is left is undone, last first.
 */
export function serverContextPerTest(): (overrides: Parameters<typeof setServerContext>[0]) => () => void {
  const undos: Array<() => void> = [];
  afterEach(() => {
    while (undos.length > 0) undos.pop()!();
  });
  return (overrides) => {
    const undo = setServerContext(overrides);
    undos.push(undo);
    return undo;
  };
}

/**
 * A fresh store of `kind` per test (`options` for its clock), made the server's (the context's store
 * replaced for that test): what the routes' tests over both databases start from.
 */
export function serverStoresForFile(): (kind: StoreKind, options?: Partial<StoreOptions>) => Promise<Store> {
  const stores = storesForFile();
  const overrideContext = serverContextPerTest();
  return async (kind, options) => {
    const store = await stores.open(kind, options);
    overrideContext({ store: async () => store });
    return store;
  };
}

export async function sessionCookie(apiKey: string): Promise<string> {
  return `${SESSION_COOKIE}=${await sealSession(apiKey)}`;
}

/** Any route handler; `never` accepts handlers whatever their context type. */
type Handler = (req: Request, ctx: never) => Promise<Response>;

export type Called<T = unknown> = { status: number; headers: Headers; text: string; body: T };

/** Calls a route handler with a GET (or `init`) request for `path` (may include a query). */
export async function call<T = Record<string, unknown>>(
  handler: Handler,
  path: string,
  options: { cookie?: string; init?: RequestInit; params?: Record<string, string | string[]> } = {},
): Promise<Called<T>> {
  const headers = new Headers(options.init?.headers);
  if (options.cookie) headers.set("cookie", options.cookie);
  const req = new Request(`${ORIGIN}${path}`, { ...options.init, headers });
  const ctx = { params: Promise.resolve(options.params ?? {}) } as never;
  const res = await handler(req, ctx);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: body as T };
}

/**
 * Any /api route as a plain handler for `call`: the route file Next would choose for the request's
 * path, its method's handler (testing/api-routes.ts). `params: { path: [...] }` gives the segments after
 * /api as the router would hand them over, for paths a URL cannot carry.
 */
export const apiRoute = async (req: Request, ctx: { params: Promise<{ path?: string[] }> }): Promise<Response> => answerAsNext(req, (await ctx.params).path);

/**
 * A request to /api/... (GET unless `init` says otherwise) answered by its route file, as Next calls
 * it; `segments` gives the path after /api as the router would hand it over, for odd paths.
 */
export async function callApi<T = Record<string, unknown>>(
  path: string,
  options: { cookie?: string; init?: RequestInit; segments?: string[] } = {},
): Promise<Called<T>> {
  return call<T>(apiRoute, path, { ...options, ...(options.segments ? { params: { path: options.segments } } : {}) });
}

export type ErrorJson = { error: { code: string; message: string; param?: string; request_id?: string } };

/**
 * Runs `work` on fake time (onFakeTime) as the server sees it: every upstream request of the server
 * context is counted at its transport, from sending until its body is read, and the clock moves only
 * while none is on the wire. A request the sandbox holds back for its latency fault waits on a (fake)
 * timer, not on I/O, so pass the sandbox when latency is on. The work runs in a fresh server context:
 * per-key clients made on fake time keep budgets dated ahead of the real clock, and must not outlive it.
 */
export async function onServerFakeTime<T>(work: () => Promise<T>, options: { sandbox?: Sandbox } = {}): Promise<T> {
  const transport = countedTransport(serverContext().fetch);
  const restore = setServerContext({ fetch: transport.fetch });
  try {
    return await onFakeTime(work, () => transport.inFlight() - (options.sandbox?.delayed() ?? 0));
  } finally {
    restore();
  }
}
