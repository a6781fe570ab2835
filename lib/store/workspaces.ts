// Workspaces: what a key opens. The Data API names no workspace, so the store knows a workspace by
// the keys linked to it, each by its fingerprint (HMAC-SHA256 under the store's own secret, kept in
// store_meta: a change of SESSION_SECRET keeps every workspace reachable). The first sign-in with a
// key makes its workspace; another key of the same workspace can be linked to it (the route layer
// checks upstream that both keys work), so rotating keys keeps the workspace's history.
// Watching: the owner may let the dashboard keep the key, sealed (sealed.ts), so background jobs
// can use it while nobody is signed in; stopping deletes it at once; a key the upstream refuses
// pauses it with the reason (and nothing else does: a kept key this instance cannot open is left
// as it is, since an instance of another rollout may hold the secret that opens it).
// Every function but the listing of watched workspaces takes the workspace first; no query here
// reads or writes a row without it.
import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { maskKey } from "@/lib/data-api/redact";
import { isTimeZoneName } from "@/lib/data-api/params";
import { StoreConflictError, StoreInputError } from "./errors";
import type { StoreTables, WatchingState, WorkspaceId, WorkspacesTable } from "./schema";
import { SEALED, type SealedValues } from "./sealed";

export type Workspace = {
  id: WorkspaceId;
  createdAt: number;
  /** The IANA zone of the workspace's calendar days (default UTC). */
  timeZone: string;
  watching: WatchingState;
  /** Why watching is paused (e.g. the upstream refused the key), else null. */
  pausedReason: string | null;
  /** The `at` of the first snapshot recorded, or null: where its history begins. */
  historySince: number | null;
};

export type LinkedKey = { keyHint: string; linkedAt: number };

export type WorkspacesDeps = {
  db: Kysely<StoreTables>;
  /** The store's own fingerprint secret (store_meta). */
  fingerprintSecret: string;
  /** Seals and opens the kept key (sealed.ts: resealed on read during a rotation). */
  sealed: SealedValues;
  now: () => number;
};

export type Workspaces = ReturnType<typeof workspacesContext>;

function toWorkspace(row: Selectable<WorkspacesTable>): Workspace {
  return {
    id: row.id,
    createdAt: row.created_at,
    timeZone: row.time_zone,
    watching: row.watching,
    pausedReason: row.paused_reason,
    historySince: row.history_since,
  };
}

const WORKSPACE_COLUMNS = ["id", "created_at", "time_zone", "watching", "paused_reason", "watch_key_sealed", "history_since"] as const;

export function workspacesContext(deps: WorkspacesDeps) {
  const { db } = deps;

  /** A key's fingerprint: what the store knows it by (never the key). */
  const fingerprint = (apiKey: string) => createHmac("sha256", deps.fingerprintSecret).update(apiKey).digest("base64url");

  async function byFingerprint(fp: string): Promise<Workspace | undefined> {
    const row = await db
      .selectFrom("workspace_keys")
      .innerJoin("workspaces", "workspaces.id", "workspace_keys.workspace_id")
      .select(WORKSPACE_COLUMNS.map((c) => `workspaces.${c}` as const))
      .where("workspace_keys.fingerprint", "=", fp)
      .executeTakeFirst();
    return row ? toWorkspace(row) : undefined;
  }

  async function workspace(id: WorkspaceId): Promise<Workspace | undefined> {
    const row = await db.selectFrom("workspaces").select(WORKSPACE_COLUMNS).where("id", "=", id).executeTakeFirst();
    return row ? toWorkspace(row) : undefined;
  }

  async function requireWorkspace(id: WorkspaceId): Promise<Workspace> {
    const found = await workspace(id);
    if (!found) throw new StoreInputError(`no workspace ${id}`, "workspace");
    return found;
  }

  return {
    fingerprint,

    /** The workspace `apiKey` opens, made (with the key linked) the first time the key is seen. */
    async workspaceForKey(apiKey: string): Promise<Workspace> {
      const fp = fingerprint(apiKey);
      const found = await byFingerprint(fp);
      if (found) return found;
      const now = deps.now();
      const id = `ws_${randomBytes(16).toString("base64url")}` as WorkspaceId;
      // Two instances seeing a new key at once both get here: the key's row decides, and the
      // workspace made by the loser is rolled back with its transaction.
      const won = await db.transaction().execute(async (tx) => {
        await tx.insertInto("workspaces").values({ id, created_at: now, time_zone: "UTC", watching: "off" }).execute();
        const linked = await tx
          .insertInto("workspace_keys")
          .values({ fingerprint: fp, workspace_id: id, key_hint: maskKey(apiKey), linked_at: now })
          .onConflict((oc) => oc.column("fingerprint").doNothing())
          .returning("fingerprint")
          .executeTakeFirst();
        if (!linked) await tx.deleteFrom("workspaces").where("id", "=", id).execute();
        return linked !== undefined;
      });
      const result = won ? await workspace(id) : await byFingerprint(fp);
      if (!result) throw new Error("the workspace of a key just linked could not be read back");
      return result;
    },

    workspace,

    /**
     * Links another key to `workspace`: signing in with it opens the same workspace. Linking a key
     * already linked here answers its existing link; one linked to another workspace is a conflict.
     * The caller has checked upstream that both keys work (they then belong to one workspace).
     */
    async linkKey(workspace: WorkspaceId, otherKey: string): Promise<LinkedKey> {
      await requireWorkspace(workspace);
      const fp = fingerprint(otherKey);
      await db
        .insertInto("workspace_keys")
        .values({ fingerprint: fp, workspace_id: workspace, key_hint: maskKey(otherKey), linked_at: deps.now() })
        .onConflict((oc) => oc.column("fingerprint").doNothing())
        .execute();
      const row = await db.selectFrom("workspace_keys").select(["workspace_id", "key_hint", "linked_at"]).where("fingerprint", "=", fp).executeTakeFirstOrThrow();
      if (row.workspace_id !== workspace) throw new StoreConflictError("this key already opens another workspace", "conflict", "apiKey");
      return { keyHint: row.key_hint, linkedAt: row.linked_at };
    },

    /** The keys linked to `workspace`, by their hints, oldest first. */
    async linkedKeys(workspace: WorkspaceId): Promise<LinkedKey[]> {
      const rows = await db
        .selectFrom("workspace_keys")
        .select(["key_hint", "linked_at"])
        .where("workspace_id", "=", workspace)
        .orderBy("linked_at")
        .orderBy("key_hint")
        .execute();
      return rows.map((r) => ({ keyHint: r.key_hint, linkedAt: r.linked_at }));
    },

    /** Sets the IANA zone of the workspace's days; an unknown zone is a StoreInputError naming `time_zone`. */
    async setTimeZone(workspace: WorkspaceId, timeZone: string): Promise<Workspace> {
      if (!isTimeZoneName(timeZone)) throw new StoreInputError(`time_zone must be an IANA time zone name, e.g. Europe/Berlin (got "${timeZone.slice(0, 64)}")`, "time_zone");
      await db.updateTable("workspaces").set({ time_zone: timeZone }).where("id", "=", workspace).execute();
      return requireWorkspace(workspace);
    },

    /**
     * Watching on: keeps `apiKey` sealed for the background jobs. The key must be one linked to
     * `workspace` (else a conflict: a key of another workspace is never kept here). Resumes a
     * paused workspace, with this key.
     */
    async setWatching(workspace: WorkspaceId, apiKey: string): Promise<Workspace> {
      const owner = await byFingerprint(fingerprint(apiKey));
      if (owner?.id !== workspace) throw new StoreConflictError("this key does not open this workspace: link it first");
      const sealed = deps.sealed.seal(SEALED.watchKey, workspace, apiKey);
      await db.updateTable("workspaces").set({ watching: "on", paused_reason: null, watch_key_sealed: sealed }).where("id", "=", workspace).execute();
      return requireWorkspace(workspace);
    },

    /** Watching off: the sealed key is deleted in the same statement. */
    async stopWatching(workspace: WorkspaceId): Promise<Workspace> {
      await db.updateTable("workspaces").set({ watching: "off", paused_reason: null, watch_key_sealed: null }).where("id", "=", workspace).execute();
      return requireWorkspace(workspace);
    },

    /**
     * Pauses watching (the upstream refused the key, say): jobs stop using the key, kept sealed until
     * watching is set again with a working key or stopped. A workspace not watched stays off.
     */
    async pauseWatching(workspace: WorkspaceId, reason: string): Promise<Workspace> {
      await db
        .updateTable("workspaces")
        .set({ watching: "paused", paused_reason: reason.slice(0, 500) })
        .where("id", "=", workspace)
        .where("watching", "!=", "off")
        .execute();
      return requireWorkspace(workspace);
    },

    /**
     * The key kept for watching `workspace`, while watching is on; undefined otherwise. A key sealed
     * under SESSION_SECRET_PREVIOUS is sealed again under SESSION_SECRET as it is read. One no
     * configured secret opens throws SealedUnreadableError and stays as it is, watching on: the
     * caller skips this round (only the upstream refusing the key pauses watching).
     */
    async watchingKey(workspace: WorkspaceId): Promise<string | undefined> {
      const row = await db.selectFrom("workspaces").select(["watching", "watch_key_sealed"]).where("id", "=", workspace).executeTakeFirst();
      if (row?.watching !== "on" || !row.watch_key_sealed) return undefined;
      return deps.sealed.open(SEALED.watchKey, workspace, row.watch_key_sealed);
    },

    /** The workspaces being watched (the background jobs' list), oldest first. */
    async watchedWorkspaces(): Promise<WorkspaceId[]> {
      const rows = await db.selectFrom("workspaces").select("id").where("watching", "=", "on").orderBy("created_at").orderBy("id").execute();
      return rows.map((r) => r.id);
    },
  };
}
