// Read-only access tokens: scripts and AI assistants read a workspace's data with one (lib/tokens).
// A token (`wa_` and 32 random bytes, made by the domain) is never kept in clear: an HMAC of it under
// the store's fingerprint secret finds it, and lists show its hint. A workspace keeps at most
// MAX_TOKENS. `last_used_at` is written at most once a USE_RECORD_MS per token, so a script's burst
// costs one write, not one per request. Every function but `byToken` and `used` takes the workspace
// first; `byToken` is how a request without a session finds its workspace, and answers only a token
// that still opens (not expired).
import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { StoreLimitError, workspaceGone } from "./errors";
import type { StoreTables, TokensTable, WorkspaceId } from "./schema";
import { lockWorkspace } from "./workspace-lock";

/** How many tokens one workspace may keep. */
export const MAX_TOKENS = 20;

/** How stale `last_used_at` may be: a use within this long of the one recorded is not written. */
export const USE_RECORD_MS = 60_000;

export type Token = {
  id: string;
  workspace: WorkspaceId;
  name: string;
  hint: string;
  expiresAt: number | null;
  lastUsedAt: number | null;
  createdAt: number;
};

export type NewToken = { name: string; token: string; hint: string; expiresAt: number | null };

export type TokensDeps = { db: Kysely<StoreTables>; now: () => number; fingerprintSecret: string };

export type Tokens = ReturnType<typeof tokensContext>;

const COLUMNS = ["id", "workspace_id", "name", "hint", "expires_at", "last_used_at", "created_at"] as const;

type Row = Pick<Selectable<TokensTable>, (typeof COLUMNS)[number]>;

const toToken = (row: Row): Token => ({
  id: row.id,
  workspace: row.workspace_id,
  name: row.name,
  hint: row.hint,
  expiresAt: row.expires_at === null ? null : Number(row.expires_at),
  lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  createdAt: Number(row.created_at),
});

export function tokensContext(deps: TokensDeps) {
  const { db } = deps;
  /** How a token is found: never the token itself. */
  const tokenHash = (token: string) => createHmac("sha256", deps.fingerprintSecret).update(`token:${token}`).digest("base64url");

  return {
    /** The workspace's tokens, newest first. */
    async list(workspace: WorkspaceId): Promise<Token[]> {
      const rows = await db.selectFrom("tokens").select(COLUMNS).where("workspace_id", "=", workspace).orderBy("created_at", "desc").orderBy("id").execute();
      return rows.map(toToken);
    },

    /** Keeps a token (made by the caller) by its HMAC: 422 `limit_reached` at MAX_TOKENS. */
    async create(workspace: WorkspaceId, token: NewToken): Promise<Token> {
      const id = `tok_${randomBytes(12).toString("base64url")}`;
      return db.transaction().execute(async (tx) => {
        if (!(await lockWorkspace(tx, workspace))) throw workspaceGone();
        const { count } = await tx
          .selectFrom("tokens")
          .select((eb) => eb.fn.countAll<number | string>().as("count"))
          .where("workspace_id", "=", workspace)
          .executeTakeFirstOrThrow();
        if (Number(count) >= MAX_TOKENS)
          throw new StoreLimitError(`This workspace already keeps ${MAX_TOKENS} access tokens, the most it may. Revoke one to make another.`);
        const row = await tx
          .insertInto("tokens")
          .values({
            id,
            workspace_id: workspace,
            token_hash: tokenHash(token.token),
            hint: token.hint,
            name: token.name,
            expires_at: token.expiresAt,
            last_used_at: null,
            created_at: deps.now(),
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return toToken(row);
      });
    },

    /** Revokes (deletes) a token of the workspace: the token it was; undefined when it has no such token. */
    async remove(workspace: WorkspaceId, id: string): Promise<Token | undefined> {
      const row = await db.deleteFrom("tokens").where("workspace_id", "=", workspace).where("id", "=", id).returning(COLUMNS).executeTakeFirst();
      return row ? toToken(row) : undefined;
    },

    /**
     * The token `token` is, read from the database (so a revoke or an expiry ends it at once on every
     * instance): undefined for an unknown, revoked or expired one, alike.
     */
    async byToken(token: string): Promise<Token | undefined> {
      const row = await db.selectFrom("tokens").select(COLUMNS).where("token_hash", "=", tokenHash(token)).executeTakeFirst();
      if (!row || (row.expires_at !== null && Number(row.expires_at) <= deps.now())) return undefined;
      return toToken(row);
    },

    /** Records a use of the token now, unless one within USE_RECORD_MS is recorded already (one statement). */
    async used(id: string): Promise<void> {
      const now = deps.now();
      await db
        .updateTable("tokens")
        .set({ last_used_at: now })
        .where("id", "=", id)
        .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", now - USE_RECORD_MS)]))
        .execute();
    },
  };
}
