// Share links over HTTP. Members (a session, the store's scope): GET, POST /api/shares; PATCH, DELETE
// /api/shares/{id} (mounted by app/api/shares/**/route.ts), each change in the activity list. Viewers
// (no session, the link alone): GET /api/shared/{token}/{path} (the shared page's reads, reads.ts) and
// POST /api/shared/{token}/unlock {password}. A link that does not open (unknown, revoked, expired, malformed)
// is one and the same 404 wherever it is used; every viewer's answer says `noindex` and `no-referrer`.
import "server-only";
import type { z } from "zod";
import { isDataApiError } from "@/lib/data-api/errors";
import { serverContext } from "@/lib/server/context";
import { getEnv } from "@/lib/server/env";
import { clientKey } from "@/lib/server/client-address";
import { finalError, json, noContent } from "@/lib/server/http";
import type { StoreScope } from "@/lib/server/route-types";
import { cookieAttributes } from "@/lib/server/session";
import type { Share } from "@/lib/store/shares";
import type { Store } from "@/lib/store/store";
import {
  createUnlockThrottle,
  hashSharePassword,
  newShareToken,
  sharePasswordMatches,
  UNLOCK_TTL_MS,
  unlockCookieName,
  unlockCookieOpens,
  unlockCookieValue,
} from "./access";
import { readShared, watchingRequired } from "./reads";
import { SHARE_TOKEN_PATTERN } from "./pages";
import type { changedShare, newShare, unlockBody } from "./schema";

/** What the routes answer for a link. */
export type ShareBody = {
  id: string;
  name: string;
  path: string;
  query: Record<string, string>;
  /** The link, or null while no configured secret opens its sealed token. */
  url: string | null;
  password: boolean;
  expires_at: string | null;
  created_at: string;
  last_opened_at: string | null;
  opened_count: number;
};

/** The headers of every answer a viewer gets: never indexed, never telling another site where it came from. */
export const VIEWER_HEADERS = { "X-Robots-Tag": "noindex, nofollow", "Referrer-Policy": "no-referrer", "Cache-Control": "private, no-store" } as const;

/** The one answer for a link that does not open, whatever the cause. */
export const LINK_GONE_MESSAGE = "This link does not exist or has expired.";
export const linkGone = () => finalError({ status: 404, code: "not_found", message: LINK_GONE_MESSAGE });

/** A link's token in a path: anything that cannot be one opens nothing, as an unknown one. */
export const SHARE_TOKEN = { pattern: SHARE_TOKEN_PATTERN, message: LINK_GONE_MESSAGE, refusal: "not_found" } as const;

/** A segment of a read's path (`insights`, `platforms`): anything else is no read of a shared page. */
export const READ_SEGMENT = { pattern: /^[a-z]{1,20}$/, message: "A shared page reads nothing at this path.", refusal: "not_found" } as const;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Where links point: PUBLIC_URL, else the origin the member's request came to. */
function linkBase(req: Request): string {
  return getEnv().publicUrl ?? new URL(req.url).origin;
}

const shareBody = (s: Share, base: string): ShareBody => ({
  id: s.id,
  name: s.name,
  path: s.path,
  query: s.query,
  url: s.token === null ? null : `${base}/s/${s.token}`,
  password: s.passwordHash !== null,
  expires_at: iso(s.expiresAt),
  created_at: new Date(s.createdAt).toISOString(),
  last_opened_at: iso(s.lastOpenedAt),
  opened_count: s.openedCount,
});

const noSuchShare = () => finalError({ status: 404, code: "not_found", message: "This workspace has no share link with that id (it may have been revoked)." });

/** An expiry must be ahead: a link made expired would never open. */
function checkExpiry(expiresAt: number | null | undefined): void {
  if (expiresAt != null && expiresAt <= serverContext().now())
    throw finalError({
      status: 400,
      code: "invalid_parameter",
      param: "expires_at",
      message: "expires_at must be in the future, or null for a link that does not expire.",
    });
}

async function requireWatching({ store, workspace }: StoreScope): Promise<void> {
  const ws = await store.workspaces.workspace(workspace);
  if (!ws || ws.watching === "off")
    throw finalError({
      status: 409,
      code: "watching_required",
      message: "A share link reads with the workspace's kept key: turn watching on in Settings first.",
    });
}

/** GET /api/shares: the workspace's links, newest first. */
export async function listShares({ scope: { store, workspace } }: { scope: StoreScope }, req: Request) {
  const base = linkBase(req);
  return { data: (await store.shares.list(workspace)).map((s) => shareBody(s, base)) };
}

/** POST /api/shares {name, path, query, password?, expires_at?}: 201 the link. */
export async function createShare({ scope, body }: { scope: StoreScope; body: z.output<typeof newShare> }, req: Request): Promise<Response> {
  checkExpiry(body.expiresAt);
  await requireWatching(scope);
  const share = await scope.store.shares.create(scope.workspace, {
    name: body.name,
    path: body.path,
    query: body.query,
    token: newShareToken(),
    passwordHash: body.password === null ? null : await hashSharePassword(body.password),
    expiresAt: body.expiresAt,
  });
  await scope.record("share.created", `${share.name} (${share.path})`);
  return json(shareBody(share, linkBase(req)), { status: 201 });
}

/** PATCH /api/shares/{id} {name?, password?, expires_at?}: 200 the link. */
export async function changeShare({ scope, params, body }: { scope: StoreScope; params: { id: string }; body: z.output<typeof changedShare> }, req: Request) {
  checkExpiry(body.expires_at);
  const share = await scope.store.shares.update(scope.workspace, params.id, {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.password !== undefined ? { passwordHash: body.password === null ? null : await hashSharePassword(body.password) } : {}),
    ...(body.expires_at !== undefined ? { expiresAt: body.expires_at } : {}),
  });
  if (!share) throw noSuchShare();
  await scope.record("share.changed", share.name);
  return shareBody(share, linkBase(req));
}

/** DELETE /api/shares/{id}: 204, the link ends at once. */
export async function revokeShare({ scope, params }: { scope: StoreScope; params: { id: string } }): Promise<Response> {
  const share = await scope.store.shares.share(scope.workspace, params.id);
  if (!share || !(await scope.store.shares.remove(scope.workspace, params.id))) throw noSuchShare();
  await scope.record("share.revoked", share.name);
  return noContent();
}

/** The secrets that open unlock cookies: SESSION_SECRET, and the previous one during a rotation. */
function cookieSecrets(): string[] {
  const env = getEnv();
  return env.sessionSecretPrevious ? [env.sessionSecret, env.sessionSecretPrevious] : [env.sessionSecret];
}

/** The value of cookie `name` in `req`. */
function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

/** What a viewer's request opens: the link, and whether its password was typed in this browser (or it has none). */
export async function openShare(
  store: Store,
  token: string,
  cookie: (name: string) => string | undefined,
): Promise<{ share: Share; unlocked: boolean } | undefined> {
  const share = await store.shares.byToken(token);
  if (!share) return undefined;
  if (share.passwordHash === null) return { share, unlocked: true };
  const value = cookie(unlockCookieName(share.id));
  return { share, unlocked: unlockCookieOpens(value, cookieSecrets(), { id: share.id, passwordHash: share.passwordHash }, serverContext().now()) };
}

/** GET /api/shared/{token}/{path}: one read of the shared page, for anyone holding the link. */
export async function sharedRead({ params }: { params: { token: string; group: string; name?: string } }, req: Request): Promise<Response> {
  const store = await serverContext().store();
  const opened = await openShare(store, params.token, (name) => cookieOf(req, name));
  if (!opened) throw linkGone();
  if (!opened.unlocked) throw finalError({ status: 401, code: "password_required", message: "This link needs its password." });
  const query = Object.fromEntries(new URL(req.url).searchParams);
  const path = params.name === undefined ? `/${params.group}` : `/${params.group}/${params.name}`;
  try {
    const { body } = await readShared({ store, now: serverContext().now }, opened.share, path, query);
    return json(body, { headers: VIEWER_HEADERS });
  } catch (thrown) {
    // The kept key refused upstream is the workspace's matter (watching pauses), never a viewer's
    // session: a 401 here would end the session of a member who opened the link in their browser.
    if (isDataApiError(thrown) && thrown.status === 401) throw watchingRequired();
    throw thrown;
  }
}

const g = globalThis as typeof globalThis & { __waUnlockThrottle?: ReturnType<typeof createUnlockThrottle> };
const unlockThrottle = () => (g.__waUnlockThrottle ??= createUnlockThrottle(serverContext().redis ? { redis: serverContext().redis! } : {}));

/** POST /api/shared/{token}/unlock {password}: 204 and the link's cookie; 401 a wrong password; 429 past 5 wrong ones in 15 minutes. */
export async function unlockShare({ params, body }: { params: { token: string }; body: z.output<typeof unlockBody> }, req: Request): Promise<Response> {
  const store = await serverContext().store();
  const share = await store.shares.byToken(params.token);
  if (!share) throw linkGone();
  if (share.passwordHash === null) return noContent(VIEWER_HEADERS);
  const tries = `share:${share.id}|${clientKey(req, getEnv().trustedProxies)}`;
  const wait = await unlockThrottle().begin(tries);
  if (wait > 0)
    throw finalError({ status: 429, code: "too_many_attempts", message: "Too many wrong passwords for this link: try again later.", retryAfter: wait });
  if (!(await sharePasswordMatches(body.password, share.passwordHash)))
    throw finalError({ status: 401, code: "wrong_password", param: "password", message: "That is not this link's password." });
  await unlockThrottle().succeeded(tries);
  const value = unlockCookieValue(cookieSecrets()[0]!, { id: share.id, passwordHash: share.passwordHash }, serverContext().now());
  return noContent({ ...VIEWER_HEADERS, "Set-Cookie": `${unlockCookieName(share.id)}=${value}; ${cookieAttributes(req, UNLOCK_TTL_MS / 1000)}` });
}
