// The signed-in session: the workspace API key sealed (encrypted + signed) by iron-session into an
// httpOnly cookie with a finite lifetime. Request-based helpers serve the route handlers (pure
// `(req: Request) => Response` functions, testable without Next) and the proxy; getPageSession()
// serves server components. Only the masked key hint ever leaves the server. Each session carries a
// random id in its sealed data, so sign-out can revoke that session on the server (stores/revocations.ts)
// and a copy of the cookie saved before stops working at once, not when it expires.
import "server-only";
import { sealData, unsealData } from "iron-session";
import { cookies } from "next/headers";
import { maskKey } from "@/lib/data-api/redact";
import { ConfigError, getEnv, type CookieSecureMode } from "./env";
import { serverContext } from "./context";

export const SESSION_COOKIE = "wa_session";
/** Eight hours: a working day, after which the key is pasted (or the demo picked) again. */
export const SESSION_TTL_SECONDS = 8 * 3600;

export type Environment = "live" | "test";
export type PageSession = { apiKey: string; environment: Environment; keyHint: string };
/**
 * A session read from a cookie: which one it is (for revocation), when it ends by itself, and the
 * key's per-minute rate limit as the sign-in check saw it (the workspace's plan, for the header).
 */
export type Session = PageSession & { sessionId: string; expiresAt: number; rateLimit?: number };

/** Session ids: 128 random bits, base64url or UUID form. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** The form of a workspace API key: documented prefix, then a sane run of token characters. */
export const API_KEY_PATTERN = /^svc_sk_(live|test)_[A-Za-z0-9_-]{8,200}$/;

export function environmentOf(apiKey: string): Environment {
  return apiKey.startsWith("svc_sk_live_") ? "live" : "test";
}

export function toPageSession(apiKey: string): PageSession {
  return { apiKey, environment: environmentOf(apiKey), keyHint: maskKey(apiKey) };
}

export async function sealSession(apiKey: string, rateLimit?: number): Promise<string> {
  const { sessionSecret } = getEnv();
  return sealData({ apiKey, iat: serverContext().now(), sid: crypto.randomUUID(), ...(rateLimit ? { limit: rateLimit } : {}) }, { password: sessionSecret, ttl: SESSION_TTL_SECONDS });
}

/**
 * Recently unsealed cookies (seal -> session), so a dashboard's burst of API calls does not repeat
 * the same decryption (WebCrypto round trips, ~0.5 ms each). Bounded, short-lived, and an entry
 * never outlives its session. Keyed by the whole seal: any change to the cookie misses.
 */
const unsealed = new Map<string, { session: Session; until: number }>();
const UNSEAL_CACHE_MAX = 1000;
const UNSEAL_CACHE_MS = 60_000;
let unsealedWith = "";

/** The session in a cookie value, or null when it is missing, tampered with, foreign, expired or revoked. */
export async function unsealSession(value: string | undefined | null): Promise<Session | null> {
  const session = await unsealCached(value);
  // Checked on every read, cache hit or not: a revocation takes effect on the next request.
  if (!session || (await serverContext().stores.revocations.isRevoked(session.sessionId))) return null;
  return session;
}

async function unsealCached(value: string | undefined | null): Promise<Session | null> {
  if (!value || value.length > 4096) return null;
  const { sessionSecret } = getEnv();
  if (unsealedWith !== sessionSecret) {
    unsealed.clear();
    unsealedWith = sessionSecret;
  }
  const cacheKey = value;
  const hit = unsealed.get(cacheKey);
  if (hit) {
    if (hit.until > serverContext().now()) return hit.session;
    unsealed.delete(cacheKey);
  }
  let data: unknown;
  try {
    data = await unsealData(value, { password: sessionSecret, ttl: SESSION_TTL_SECONDS });
  } catch {
    return null;
  }
  if (typeof data !== "object" || data === null) return null;
  const { apiKey, iat, sid, limit } = data as { apiKey?: unknown; iat?: unknown; sid?: unknown; limit?: unknown };
  if (typeof apiKey !== "string" || !API_KEY_PATTERN.test(apiKey)) return null;
  if (typeof iat !== "number" || serverContext().now() - iat > SESSION_TTL_SECONDS * 1000) return null;
  // A session without an id could never be revoked: not accepted.
  if (typeof sid !== "string" || !SESSION_ID_PATTERN.test(sid)) return null;
  const expiresAt = iat + SESSION_TTL_SECONDS * 1000;
  const session: Session = { ...toPageSession(apiKey), sessionId: sid, expiresAt, ...(typeof limit === "number" && limit > 0 ? { rateLimit: limit } : {}) };
  if (unsealed.size >= UNSEAL_CACHE_MAX) unsealed.delete(unsealed.keys().next().value!);
  unsealed.set(cacheKey, { session, until: Math.min(serverContext().now() + UNSEAL_CACHE_MS, expiresAt) });
  return session;
}

/** Reads one cookie from a Cookie header. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

export function hasSessionCookie(req: Request): boolean {
  return readCookie(req.headers.get("cookie"), SESSION_COOKIE) !== undefined;
}

/** Ends a session on the server: its cookie, and every copy of it, is refused from now on. */
export async function revokeSession(session: Session): Promise<void> {
  await serverContext().stores.revocations.revoke(session.sessionId, session.expiresAt);
}

export async function getRequestSession(req: Request): Promise<Session | null> {
  return unsealSession(readCookie(req.headers.get("cookie"), SESSION_COOKIE));
}

/** Host names that only ever reach this machine, where browsers allow plain-http development. */
function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return h === "localhost" || h.endsWith(".localhost") || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Whether the session cookie gets `Secure`: always, unless the request is plain http to a loopback
 * host (local development, where a Secure cookie would never come back). Behind a TLS-terminating
 * proxy the app sees plain http, so X-Forwarded-Proto: https counts as https; believing it from
 * anyone is safe here, as a forged value can only add the flag. A public Host is taken as served
 * over https. COOKIE_SECURE=always|never overrides (e.g. `never` for plain http on a LAN address).
 */
function secureFor(req: Request): boolean {
  let mode: CookieSecureMode = "auto";
  try {
    mode = getEnv().cookieSecure;
  } catch {
    // Misconfigured: the request fails with that message elsewhere; clearing a cookie must not throw.
  }
  if (mode !== "auto") return mode === "always";
  const url = new URL(req.url);
  const forwardedProto = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (forwardedProto === "https" || url.protocol === "https:") return true;
  const host = req.headers.get("host") ?? url.host;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return true;
  }
  return !isLoopbackHost(hostname);
}

function cookieAttributes(req: Request, maxAge: number): string {
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secureFor(req) ? "; Secure" : ""}`;
}

export function sessionSetCookie(req: Request, sealed: string): string {
  return `${SESSION_COOKIE}=${sealed}; ${cookieAttributes(req, SESSION_TTL_SECONDS)}`;
}

export function sessionClearCookie(req: Request): string {
  return `${SESSION_COOKIE}=; ${cookieAttributes(req, 0)}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/**
 * For server components: the session of the current request, or null. A configuration error
 * (e.g. no DATA_API_BASE_URL) is logged and reads as "not signed in", so the sign-in page still
 * renders and shows the configuration message that the session API answers with.
 */
export async function getPageSession(): Promise<Session | null> {
  const store = await cookies();
  try {
    return await unsealSession(store.get(SESSION_COOKIE)?.value);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`[config] ${error.message}`);
      return null;
    }
    throw error;
  }
}
