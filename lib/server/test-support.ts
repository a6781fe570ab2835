// Test support for the route handler tests: a sandbox on a free port as the upstream (real HTTP),
// the environment pointing at it, and small helpers to call a handler like Next would.
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { setRuntimeFlags } from "./runtime-flags";
import { SESSION_COOKIE, sealSession } from "./session";

export const TEST_NOW = "2026-11-20T12:00:00Z";
export const TEST_SECRET = "test-only-session-secret-0123456789abcdef";
export const ORIGIN = "http://localhost:3000";

export async function startUpstream(options: { visitors?: number; cacheTtlMs?: number } = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, visitors: options.visitors ?? 2000 });
  process.env.DATA_API_BASE_URL = sandbox.baseUrl;
  process.env.SESSION_SECRET = TEST_SECRET;
  process.env.DATA_API_CACHE_TTL_MS = String(options.cacheTtlMs ?? 0);
  // As `npm start` does for the sandbox it starts: this one is the embedded sandbox (demo keys on offer).
  setRuntimeFlags({ embeddedSandboxOrigin: sandbox.url });
  return sandbox;
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
  options: { cookie?: string; init?: RequestInit; params?: Record<string, string> } = {},
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

export type ErrorJson = { error: { code: string; message: string; param?: string; request_id?: string } };
