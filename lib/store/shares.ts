// Share links: one page of the app and its query, shared read-only with people who have no key. The
// token (`shr` links' secret, 128 bits or more of randomness, made by the domain) is never kept in
// clear: an HMAC of it under the store's fingerprint secret finds the link, and it is sealed to show
// members the link again. A password is kept as the hash it is given (lib/shares/access.ts, scrypt).
// Opening counts (`opened_count`, `last_opened_at`) are the store's own. A workspace keeps at most
// MAX_SHARES. What a share may hold is judged before it reaches the store (lib/shares/schema.ts).
// Every function but `byToken` takes the workspace first; `byToken` is how a viewer without a session
// finds a link, and answers only one that still opens (not expired).
import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { StoreLimitError, workspaceGone } from "./errors";
import type { SharesTable, StoreTables, WorkspaceId } from "./schema";
import { isSealedUnreadable, SEALED, type SealedValues } from "./sealed";
import { lockWorkspace } from "./workspace-lock";

/** How many links one workspace may keep. */
export const MAX_SHARES = 100;

export type Share = {
  id: string;
  workspace: WorkspaceId;
  name: string;
  path: string;
  query: Record<string, string>;
  /** The link's token, opened from its seal; null when no configured secret opens it. */
  token: string | null;
  passwordHash: string | null;
  expiresAt: number | null;
  openedCount: number;
  lastOpenedAt: number | null;
  createdAt: number;
};

export type NewShare = { name: string; path: string; query: Record<string, string>; token: string; passwordHash: string | null; expiresAt: number | null };

/** A change: `passwordHash` null removes the password, undefined leaves it; the same for `expiresAt`. */
export type ShareChange = { name?: string; passwordHash?: string | null; expiresAt?: number | null };

export type SharesDeps = { db: Kysely<StoreTables>; now: () => number; sealed: SealedValues; fingerprintSecret: string };

export type Shares = ReturnType<typeof sharesContext>;

const COLUMNS = [
  "id",
  "workspace_id",
  "token_sealed",
  "name",
  "path",
  "query",
  "password_hash",
  "expires_at",
  "opened_count",
  "last_opened_at",
  "created_at",
] as const;

type Row = Pick<Selectable<SharesTable>, (typeof COLUMNS)[number]>;

export function sharesContext(deps: SharesDeps) {
  const { db } = deps;
  /** How a token is found: never the token itself. */
  const tokenHash = (token: string) => createHmac("sha256", deps.fingerprintSecret).update(`share:${token}`).digest("base64url");

  async function toShare(row: Row): Promise<Share> {
    let token: string | null;
    try {
      token = await deps.sealed.open(SEALED.shareToken, row.id, row.token_sealed);
    } catch (error) {
      if (!isSealedUnreadable(error)) throw error;
      // A seal no configured secret opens (an instance of another rollout): the link still opens by
      // its hash; only showing it again waits for an instance that has the secret.
      token = null;
    }
    return {
      id: row.id,
      workspace: row.workspace_id,
      name: row.name,
      path: row.path,
      query: JSON.parse(row.query) as Record<string, string>,
      token,
      passwordHash: row.password_hash,
      expiresAt: row.expires_at === null ? null : Number(row.expires_at),
      openedCount: Number(row.opened_count),
      lastOpenedAt: row.last_opened_at === null ? null : Number(row.last_opened_at),
      createdAt: Number(row.created_at),
    };
  }

  return {
    /** The workspace's links, newest first. */
    async list(workspace: WorkspaceId): Promise<Share[]> {
      const rows = await db.selectFrom("shares").select(COLUMNS).where("workspace_id", "=", workspace).orderBy("created_at", "desc").orderBy("id").execute();
      return Promise.all(rows.map(toShare));
    },

    /** One link of the workspace, or undefined. */
    async share(workspace: WorkspaceId, id: string): Promise<Share | undefined> {
      const row = await db.selectFrom("shares").select(COLUMNS).where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
      return row ? toShare(row) : undefined;
    },

    /** Keeps a link (the token made by the caller): 422 `limit_reached` at MAX_SHARES. */
    async create(workspace: WorkspaceId, share: NewShare): Promise<Share> {
      const now = deps.now();
      const id = `shr_${randomBytes(16).toString("base64url")}`;
      return db.transaction().execute(async (tx) => {
        if (!(await lockWorkspace(tx, workspace))) throw workspaceGone();
        const { count } = await tx
          .selectFrom("shares")
          .select((eb) => eb.fn.countAll<number | string>().as("count"))
          .where("workspace_id", "=", workspace)
          .executeTakeFirstOrThrow();
        if (Number(count) >= MAX_SHARES)
          throw new StoreLimitError(`This workspace already keeps ${MAX_SHARES} share links, the most it may. Revoke one to share another.`);
        const row = await tx
          .insertInto("shares")
          .values({
            id,
            workspace_id: workspace,
            token_hash: tokenHash(share.token),
            token_sealed: deps.sealed.seal(SEALED.shareToken, id, share.token),
            name: share.name,
            path: share.path,
            query: JSON.stringify(share.query),
            password_hash: share.passwordHash,
            expires_at: share.expiresAt,
            opened_count: 0,
            last_opened_at: null,
            created_at: now,
            updated_at: now,
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return toShare(row);
      });
    },

    /** Changes a link of the workspace; undefined when it has no such link. */
    async update(workspace: WorkspaceId, id: string, change: ShareChange): Promise<Share | undefined> {
      const row = await db
        .updateTable("shares")
        .set({
          updated_at: deps.now(),
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.passwordHash !== undefined ? { password_hash: change.passwordHash } : {}),
          ...(change.expiresAt !== undefined ? { expires_at: change.expiresAt } : {}),
        })
        .where("workspace_id", "=", workspace)
        .where("id", "=", id)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? toShare(row) : undefined;
    },

    /** Revokes (deletes) a link of the workspace; false when it has no such link. */
    async remove(workspace: WorkspaceId, id: string): Promise<boolean> {
      const result = await db.deleteFrom("shares").where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * The link a token opens, read from the database (so a revoke or an expiry ends it at once on every
     * instance): undefined for an unknown, revoked or expired one, alike.
     */
    async byToken(token: string): Promise<Share | undefined> {
      const row = await db.selectFrom("shares").select(COLUMNS).where("token_hash", "=", tokenHash(token)).executeTakeFirst();
      if (!row || (row.expires_at !== null && Number(row.expires_at) <= deps.now())) return undefined;
      return toShare(row);
    },

    /** Counts one opening of the link (a page load), in one statement. */
    async opened(id: string): Promise<void> {
      await db
        .updateTable("shares")
        .set((eb) => ({ opened_count: eb("opened_count", "+", 1), last_opened_at: deps.now() }))
        .where("id", "=", id)
        .execute();
    },
  };
}
