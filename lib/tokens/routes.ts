// Access tokens over HTTP (GET, POST /api/tokens; DELETE /api/tokens/{id}, mounted by
// app/api/tokens/**/route.ts): read-only tokens of the session's workspace for scripts and AI
// assistants (lib/server/token-access.ts is how a request uses one). The token is answered once, by
// the POST; afterwards only its hint. Tokens read with the kept key, so making one needs watching (409
// `watching_required`); a workspace keeps at most 20 (422 `limit_reached`, the store's). Making and
// revoking are written in the activity list. An id of another workspace is a 404, as is an unknown one.
import "server-only";
import type { z } from "zod";
import { serverContext } from "@/lib/server/context";
import { finalError, json, noContent } from "@/lib/server/http";
import type { StoreScope } from "@/lib/server/route-types";
import type { Token } from "@/lib/store/tokens";
import { MAX_TOKEN_DAYS, type newToken } from "./schema";
import { makeToken, tokenHint } from "./token";

/** What the routes answer for a token (the POST's answer adds `token`, once). */
export type TokenBody = { id: string; name: string; hint: string; created_at: string; last_used_at: string | null; expires_at: string | null };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const tokenBody = (t: Token): TokenBody => ({
  id: t.id,
  name: t.name,
  hint: t.hint,
  created_at: new Date(t.createdAt).toISOString(),
  last_used_at: iso(t.lastUsedAt),
  expires_at: iso(t.expiresAt),
});

const noSuchToken = () => finalError({ status: 404, code: "not_found", message: "This workspace has no token with that id (it may have been revoked)." });

/** GET /api/tokens: the workspace's tokens, newest first. */
export async function listTokens({ scope: { store, workspace } }: { scope: StoreScope }) {
  return { data: (await store.tokens.list(workspace)).map(tokenBody) };
}

/** POST /api/tokens {name, expires_at?}: 201 the token, with `token` this once. */
export async function createToken({ scope, body }: { scope: StoreScope; body: z.output<typeof newToken> }): Promise<Response> {
  const { store, workspace } = scope;
  const now = serverContext().now();
  const expiresAt = body.expires_at ?? null;
  if (expiresAt !== null && expiresAt <= now)
    throw finalError({ status: 400, code: "invalid_parameter", param: "expires_at", message: "expires_at must be in the future." });
  if (expiresAt !== null && expiresAt > now + MAX_TOKEN_DAYS * 86_400_000)
    throw finalError({ status: 400, code: "invalid_parameter", param: "expires_at", message: `expires_at must be at most ${MAX_TOKEN_DAYS} days away.` });
  const found = await store.workspaces.workspace(workspace);
  if (found?.watching !== "on") {
    throw finalError({
      status: 409,
      code: "watching_required",
      message: "Tokens read with the key the dashboard keeps for this workspace: turn watching on first.",
    });
  }
  const token = makeToken();
  const made = await store.tokens.create(workspace, { name: body.name, token, hint: tokenHint(token), expiresAt });
  await scope.record("token.created", `${made.name} (${made.hint})`);
  return json({ ...tokenBody(made), token }, { status: 201 });
}

/** DELETE /api/tokens/{id}: 204, the token refused from the next request on, on every instance. */
export async function revokeToken({ scope, params }: { scope: StoreScope; params: { id: string } }): Promise<Response> {
  const revoked = await scope.store.tokens.remove(scope.workspace, params.id);
  if (!revoked) throw noSuchToken();
  await scope.record("token.revoked", `${revoked.name} (${revoked.hint})`);
  return noContent();
}
