// The signed-in session: the workspace API key sealed (encrypted + signed) by iron-session into an
// httpOnly cookie with a finite lifetime. Request-based helpers serve the route handlers (pure
// `(req: Request) => Response` functions, testable without Next) and the proxy; getPageSession()
// serves server components. Only the masked key hint ever leaves the server. Each session carries a
// random id in its sealed data, so sign-out can revoke that session on the server (stores/revocations.ts)
// and a copy of the cookie saved before stops working at once, not when it expires. Every session of
// one key can be ended too (the key unlinked from its workspace, the workspace deleted): the key is
// named there by its link's id in the store (lib/store/workspaces.ts), never by itself.
// Secret rotation: cookies are sealed under SESSION_SECRET and opened under it or under
// SESSION_SECRET_PREVIOUS; a page request whose cookie was sealed under the previous secret gets it
// back sealed under the new one (the same session: id, start and end unchanged; see proxy.ts).
import "server-only";
import { createHash } from "node:crypto";
import { sealData, unsealData } from "iron-session";
import { cookies } from "next/headers";
import { maskKey } from "@/lib/data-api/redact";
import { getEnv, isConfigError, type CookieSecureMode } from "./env";
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
export type Session = PageSession & {
  sessionId: string;
  expiresAt: number;
  rateLimit?: number;
  /** The cookie was sealed under SESSION_SECRET_PREVIOUS: it is sealed again under SESSION_SECRET on the next page. */
  sealedWithPrevious?: boolean;
};

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

/**
 * iron-session names the password a cookie was sealed with by an id and opens it only with the
 * password of that id (it seals with the highest id of the map it is given). Without a rotation,
 * cookies are sealed with id 1, iron-session's id for a single password, as they always were (so an
 * instance of an older version reads them). During a rotation (SESSION_SECRET_PREVIOUS set), id 1 is
 * the previous secret, whose cookies those are, and new cookies are sealed with an id derived from
 * the new secret itself, which names it unambiguously after the rotation and the next one.
 */
function passwordId(secret: string): string {
  return String(2 + (createHash("sha256").update(`iron-session password id\n${secret}`).digest().readUInt32BE(0) % 2_000_000_000));
}

type Passwords = { seal: Record<string, string>; open: Record<string, string>; previousIds?: string[] };

function sessionPasswords(): Passwords {
  const { sessionSecret, sessionSecretPrevious } = getEnv();
  const current = passwordId(sessionSecret);
  if (!sessionSecretPrevious) return { seal: { 1: sessionSecret }, open: { 1: sessionSecret, [current]: sessionSecret } };
  const previous = passwordId(sessionSecretPrevious);
  return {
    seal: { [current]: sessionSecret },
    // The current secret wins a (vanishingly unlikely) clash of derived ids.
    open: { 1: sessionSecretPrevious, [previous]: sessionSecretPrevious, [current]: sessionSecret },
    previousIds: ["1", previous].filter((id) => id !== current),
  };
}

type SealedFields = { apiKey: string; iat: number; sid: string; limit?: number };

function seal(fields: SealedFields): Promise<string> {
  return sealData(fields, { password: sessionPasswords().seal, ttl: SESSION_TTL_SECONDS });
}

export async function sealSession(apiKey: string, rateLimit?: number): Promise<string> {
  return seal({ apiKey, iat: serverContext().now(), sid: crypto.randomUUID(), ...(rateLimit ? { limit: rateLimit } : {}) });
}

/** The same session (key, id, start, plan) sealed under the current secret. */
export async function resealSession(session: Session): Promise<string> {
  return seal({
    apiKey: session.apiKey,
    iat: session.expiresAt - SESSION_TTL_SECONDS * 1000,
    sid: session.sessionId,
    ...(session.rateLimit ? { limit: session.rateLimit } : {}),
  });
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
  if (!session || (await serverContext().stores.revocations.isSessionRevoked(session, () => linkIdOf(session.apiKey)))) return null;
  return session;
}

/**
 * The id of the key's link in the store, which its sessions are ended by. Asked for only while some
 * key's sessions were ended recently (stores/revocations.ts); a store that cannot be opened ends
 * nothing by key (its own routes fail meanwhile, and the key still works upstream).
 */
async function linkIdOf(apiKey: string): Promise<string | undefined> {
  try {
    return (await serverContext().store()).workspaces.linkIdOf(apiKey);
  } catch {
    return undefined;
  }
}

async function unsealCached(value: string | undefined | null): Promise<Session | null> {
  if (!value || value.length > 4096) return null;
  const passwords = sessionPasswords();
  const secrets = JSON.stringify(passwords.open);
  if (unsealedWith !== secrets) {
    unsealed.clear();
    unsealedWith = secrets;
  }
  const cacheKey = value;
  const hit = unsealed.get(cacheKey);
  if (hit) {
    if (hit.until > serverContext().now()) return hit.session;
    unsealed.delete(cacheKey);
  }
  let data: unknown;
  try {
    data = await unsealData(value, { password: passwords.open, ttl: SESSION_TTL_SECONDS });
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
  // An iron seal reads `Fe26.2*<password id>*...`: the id tells which secret opened it.
  const sealedWithPrevious = passwords.previousIds?.includes(value.split("*")[1] ?? "") ?? false;
  const session: Session = {
    ...toPageSession(apiKey),
    sessionId: sid,
    expiresAt,
    ...(typeof limit === "number" && limit > 0 ? { rateLimit: limit } : {}),
    ...(sealedWithPrevious ? { sealedWithPrevious } : {}),
  };
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

/**
 * Ends every session of the key whose link in the store has id `linkId` (LinkedKey.id), on every
 * instance sharing the revocations: each one started until now. A sign-in with the key afterwards
 * starts a session that works.
 */
export async function endSessionsOfKey(linkId: string): Promise<void> {
  await serverContext().stores.revocations.revokeKey(linkId, serverContext().now() + SESSION_TTL_SECONDS * 1000);
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

/** The attributes of the app's cookies (a share link's unlock cookie too): host-wide, HttpOnly, Lax, Secure as `secureFor` says. */
export function cookieAttributes(req: Request, maxAge: number): string {
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secureFor(req) ? "; Secure" : ""}`;
}

export function sessionSetCookie(req: Request, sealed: string): string {
  return `${SESSION_COOKIE}=${sealed}; ${cookieAttributes(req, SESSION_TTL_SECONDS)}`;
}

/**
 * For a session whose cookie was sealed under the previous secret: the Set-Cookie that replaces it
 * with the same session sealed under the current one, for what is left of its lifetime. Null for any
 * other session.
 */
export async function sessionResealCookie(req: Request, session: Session): Promise<string | null> {
  if (!session.sealedWithPrevious) return null;
  const left = Math.floor((session.expiresAt - serverContext().now()) / 1000);
  if (left <= 0) return null;
  return `${SESSION_COOKIE}=${await resealSession(session)}; ${cookieAttributes(req, left)}`;
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
    if (isConfigError(error)) {
      console.error(`[config] ${error.message}`);
      return null;
    }
    throw error;
  }
}
