// The second way into the /api routes a session opens: a read-only access token of the workspace
// (lib/tokens), carried as `Authorization: Bearer wa_…` by a script or an AI assistant. The route
// wrapper (route.ts) asks here when a request carries an Authorization header: a write is refused
// (403 `token_read_only`) before the token is even looked up; a bad, revoked or expired token is a 401
// with `WWW-Authenticate: Bearer error="invalid_token"`; each token has TOKEN_REQUESTS_PER_MINUTE (429
// with Retry-After; shared by the instances through Redis when they share one). A token reads with the workspace's kept key (watching): without it, 409
// `watching_required`. What the handler gets is a session of that key, named by the token's id, so
// every read a session makes runs unchanged. A token never reaches a route declared `public` (sign-in,
// sign-out, the session's own routes read only the cookie).
import "server-only";
import { isSealedUnreadable } from "@/lib/store/sealed";
import { serverContext } from "./context";
import { finalError } from "./http";
import type { Session } from "./session";
import { toPageSession } from "./session";
import { createSharedTokenLimiter, createTokenLimiter, type TokenLimiter } from "./token-rate-limit";

/** A token's form: `wa_`, then 43 base64url characters (32 bytes). */
export const TOKEN_PATTERN = /^wa_[A-Za-z0-9_-]{43}$/;

/** What a 401 of a request with a token says in WWW-Authenticate (RFC 6750). */
export const INVALID_TOKEN_CHALLENGE = 'Bearer realm="workspace-analytics", error="invalid_token"';
/** What a 401 of a token-only route without any credentials says (RFC 6750: no error code). */
export const TOKEN_CHALLENGE = 'Bearer realm="workspace-analytics"';

/**
 * The token an Authorization header carries: undefined without the header (the request is judged by
 * its cookie), null for a header that names no well-formed bearer token (refused as a bad token).
 */
export function bearerToken(header: string | null): string | null | undefined {
  if (header === null) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match || !TOKEN_PATTERN.test(match[1]!)) return null;
  return match[1]!;
}

export const invalidToken = () =>
  finalError({ status: 401, code: "invalid_token", message: "This access token is not valid: it is unknown, revoked or expired. Make a new one in Settings." });

export const tokenRequired = () =>
  finalError({ status: 401, code: "unauthorized", message: "This endpoint takes an access token: send Authorization: Bearer wa_… (Settings makes one)." });

export const tokenReadOnly = () =>
  finalError({ status: 403, code: "token_read_only", message: "Access tokens only read: this change needs a signed-in session in the dashboard." });

const watchingRequired = () =>
  finalError({
    status: 409,
    code: "watching_required",
    message: "Tokens read with the key the dashboard keeps for this workspace, and it keeps none now: turn watching on in Settings.",
  });

/**
 * The Data API refused the kept key while a token read with it (revoked or no longer valid upstream):
 * the workspace's matter (a member signs in with a working key and watches again), never a session's,
 * so no cookie is cleared and the token itself stays valid.
 */
export const keptKeyRefused = () =>
  finalError({
    status: 409,
    code: "watching_required",
    message: "The Data API refused the key this workspace keeps for its tokens: a member signs in with a working key and turns watching on again in Settings.",
  });

const g = globalThis as typeof globalThis & { __waTokenLimiter?: TokenLimiter };

/** The process's one limiter (route bundles share it): shared through Redis when the instances share one, else on the server context's clock. */
function limiter(): TokenLimiter {
  const redis = serverContext().redis;
  return (g.__waTokenLimiter ??= redis ? createSharedTokenLimiter(redis) : createTokenLimiter({ now: () => serverContext().now() }));
}

/** For tests: a fresh count for every token. */
export function resetTokenLimits(): void {
  g.__waTokenLimiter = undefined;
}

/**
 * The session a bearer token opens (its workspace's kept key, named `token:<id>`), or a refusal: 401
 * for a malformed, unknown, revoked or expired token, 429 past its requests a minute, 409 while the
 * workspace keeps no key.
 */
export async function tokenSession(token: string | null): Promise<Session & { tokenId: string }> {
  if (token === null) throw invalidToken();
  const store = await serverContext().store();
  const found = await store.tokens.byToken(token);
  if (!found) throw invalidToken();
  const wait = await limiter().take(found.id);
  if (wait !== null) {
    throw finalError({
      status: 429,
      code: "rate_limited",
      message: "This access token made too many requests this minute; try again shortly.",
      retryAfter: wait,
    });
  }
  let apiKey: string | undefined;
  try {
    apiKey = await store.workspaces.watchingKey(found.workspace);
  } catch (error) {
    if (!isSealedUnreadable(error)) throw error;
    throw finalError({
      status: 503,
      code: "store_unavailable",
      message: "This instance cannot open the workspace's kept key yet; try again shortly.",
      retryAfter: 5,
    });
  }
  if (!apiKey) throw watchingRequired();
  // Best effort: a use not recorded must not fail the read.
  await store.tokens.used(found.id).catch(() => undefined);
  const now = serverContext().now();
  return { ...toPageSession(apiKey), sessionId: `token:${found.id}`, expiresAt: found.expiresAt ?? now + 3600_000, tokenId: found.id };
}
