// Workspaces: what a key opens. The Data API names no workspace, so the store knows a workspace by
// the keys linked to it, each by its fingerprint (HMAC-SHA256 under the store's own secret, kept in
// store_meta: a change of SESSION_SECRET keeps every workspace reachable). The first sign-in with a
// key makes its workspace; another key of the same workspace can be linked to it (the route layer
// checks upstream that both keys work and answer the same workspace), so rotating keys keeps the
// workspace's history. A key that had already opened a workspace of its own brings it along: the two
// become one (workspace-data.ts moves every table's rows), and both keys open it. A linked key other
// than one's own can be unlinked (it opens a workspace of its own again, made on its next use), and a
// workspace can be deleted with everything kept for it.
// Watching: the owner may let the dashboard keep the key, sealed (sealed.ts), so background jobs
// can use it while nobody is signed in; stopping deletes it at once; a key the upstream refuses
// pauses it with the reason (and nothing else does: a kept key this instance cannot open is left
// as it is, since an instance of another rollout may hold the secret that opens it).
// Every function but the listing of watched workspaces takes the workspace first; no query here
// reads or writes a row without it.
import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import { sql, type Kysely, type Selectable, type Transaction } from "kysely";
import { maskKey } from "@/lib/data-api/redact";
import { isTimeZoneName } from "@/lib/data-api/params";
import { StoreConflictError, StoreInputError, workspaceGone } from "./errors";
import type { StoreTables, WatchingState, WorkspaceId, WorkspacesTable } from "./schema";
import { SEALED, isSealedUnreadable, type SealedValues } from "./sealed";
import { deleteWorkspaceRows, lockWorkspaces, moveWorkspaceRows } from "./workspace-data";

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

export type LinkedKey = {
  /**
   * The link's id, as pages and URLs name it: a keyed hash of the fingerprint (`lk_` and 22
   * characters), stable for as long as the store, and nothing a reader can look a key or a
   * workspace up with, nor test a guessed key against without the store's secret.
   */
  id: string;
  keyHint: string;
  linkedAt: number;
};

/** A link made: `merged` when the key had opened a workspace of its own, which is now this one. */
export type LinkOutcome = LinkedKey & { merged: boolean };

/** What a workspace keeps, counted (what deleting it would delete). */
export type KeptSummary = {
  /** Instants with a score or ranking snapshot. */
  snapshots: number;
  notes: number;
  views: number;
  alertDestinations: number;
  alertRules: number;
  /** Share links (which stop opening). */
  shares: number;
  /** Whether a key is kept for watching (on, or paused with its key). */
  keptKey: boolean;
  /** Records of the activity list (who changed what). */
  activity: number;
  /** Figures of closed days kept for the insights (a dimension's day, or a count). */
  keptDays: number;
  /** Access tokens (lib/store/tokens.ts). */
  tokens: number;
};

export type WorkspacesDeps = {
  db: Kysely<StoreTables>;
  /** The database is PostgreSQL (row locks taken as such), else the embedded one. */
  postgres: boolean;
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

  /** The public id of the link of the key with fingerprint `fp` (see LinkedKey.id). */
  const linkId = (fp: string) => `lk_${createHmac("sha256", deps.fingerprintSecret).update(`linked key\n${fp}`).digest("base64url").slice(0, 22)}`;

  const toLinkedKey = (row: { fingerprint: string; key_hint: string; linked_at: number }): LinkedKey => ({
    id: linkId(row.fingerprint),
    keyHint: row.key_hint,
    linkedAt: row.linked_at,
  });

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
     * already linked here answers its existing link. A key that opens a workspace of its own (someone
     * signed in with it first) brings it along: its rows move here (workspace-data.ts: a snapshot at
     * an `at` held here is kept once, a taken view name gets " (2)"), this workspace's settings stay
     * (zone, watching; the other's kept key is taken only when this one keeps none), history begins at
     * the earlier of the two, and both keys open this one. All in one transaction, with both
     * workspaces locked. The caller has checked upstream that both keys work and answer one workspace.
     */
    async linkKey(workspace: WorkspaceId, otherKey: string): Promise<LinkOutcome> {
      const fp = fingerprint(otherKey);
      // The other key's workspace is read before the lock and checked again under it: a key signed in
      // with (or linked elsewhere) meanwhile makes the attempt start again with what is there now.
      for (let attempt = 0; attempt < 5; attempt++) {
        const before = await db.selectFrom("workspace_keys").select("workspace_id").where("fingerprint", "=", fp).executeTakeFirst();
        const outcome = await db.transaction().execute(async (tx): Promise<LinkOutcome | "again"> => {
          const other = before?.workspace_id;
          const locked = await lockWorkspaces(tx, deps.postgres, other && other !== workspace ? [workspace, other] : [workspace]);
          if (!locked.has(workspace)) throw workspaceGone();
          const row = await tx
            .selectFrom("workspace_keys")
            .select(["fingerprint", "workspace_id", "key_hint", "linked_at"])
            .where("fingerprint", "=", fp)
            .executeTakeFirst();
          if (row?.workspace_id !== other) return "again";
          if (!row) {
            const inserted = await tx
              .insertInto("workspace_keys")
              .values({ fingerprint: fp, workspace_id: workspace, key_hint: maskKey(otherKey), linked_at: deps.now() })
              .onConflict((oc) => oc.column("fingerprint").doNothing())
              .returning(["fingerprint", "key_hint", "linked_at"])
              .executeTakeFirst();
            return inserted ? { ...toLinkedKey(inserted), merged: false } : "again";
          }
          if (row.workspace_id === workspace) return { ...toLinkedKey(row), merged: false };
          if (!locked.has(row.workspace_id)) return "again";
          const now = deps.now();
          await mergeInto(tx, row.workspace_id, workspace, now);
          return { ...toLinkedKey({ ...row, linked_at: now }), merged: true };
        });
        if (outcome !== "again") return outcome;
      }
      throw new StoreConflictError("The key's workspace kept changing while it was being linked. Try again.");
    },

    /** The keys linked to `workspace`, by their hints, oldest first. */
    async linkedKeys(workspace: WorkspaceId): Promise<LinkedKey[]> {
      const rows = await db
        .selectFrom("workspace_keys")
        .select(["fingerprint", "key_hint", "linked_at"])
        .where("workspace_id", "=", workspace)
        .orderBy("linked_at")
        .orderBy("key_hint")
        .execute();
      return rows.map(toLinkedKey);
    },

    /** The id of `apiKey`'s link (LinkedKey.id), whether it is linked or not: what its sessions are ended by. */
    linkIdOf: (apiKey: string) => linkId(fingerprint(apiKey)),

    /**
     * Unlinks the key with link id `id` from `workspace`: it opens a workspace of its own again (a
     * fresh one, on its next use). Undefined when the workspace has no such key; the key `ownKey`
     * (the caller's session's) is a conflict: a session cannot cut the branch it sits on.
     */
    async unlinkKey(workspace: WorkspaceId, id: string, ownKey: string): Promise<LinkedKey | undefined> {
      const rows = await db.selectFrom("workspace_keys").select(["fingerprint", "key_hint", "linked_at"]).where("workspace_id", "=", workspace).execute();
      const row = rows.find((r) => linkId(r.fingerprint) === id);
      if (!row) return undefined;
      if (row.fingerprint === fingerprint(ownKey)) {
        throw new StoreConflictError(
          "This is the key you are signed in with: it cannot be unlinked here. Sign in with another key of this workspace to unlink it.",
        );
      }
      const { numDeletedRows } = await db
        .deleteFrom("workspace_keys")
        .where("workspace_id", "=", workspace)
        .where("fingerprint", "=", row.fingerprint)
        .executeTakeFirst();
      return numDeletedRows > 0n ? toLinkedKey(row) : undefined;
    },

    /**
     * Deletes `workspace` and everything kept for it (every per-workspace table, its sealed key, its
     * keys' links), in one transaction. Answers the links it had (whose sessions the caller ends), or
     * undefined when it was already gone.
     */
    async deleteWorkspace(workspace: WorkspaceId): Promise<LinkedKey[] | undefined> {
      return db.transaction().execute(async (tx) => {
        const locked = await lockWorkspaces(tx, deps.postgres, [workspace]);
        if (!locked.has(workspace)) return undefined;
        const keys = await tx.selectFrom("workspace_keys").select(["fingerprint", "key_hint", "linked_at"]).where("workspace_id", "=", workspace).execute();
        await deleteWorkspaceRows(tx, workspace);
        return keys.map(toLinkedKey);
      });
    },

    /** What `workspace` keeps, counted: what deleting it would delete. */
    async keptSummary(workspace: WorkspaceId): Promise<KeptSummary> {
      const count = async (table: "annotations" | "saved_views" | "alert_destinations" | "alert_rules" | "activity" | "kept_days" | "shares" | "tokens") => {
        const { n } = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where("workspace_id", "=", workspace)
          .executeTakeFirstOrThrow();
        return Number(n);
      };
      // A score and a ranking read at one instant are one snapshot to a reader.
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from (
        select at from score_snapshots where workspace_id = ${workspace}
        union select at from ranking_snapshots where workspace_id = ${workspace}) as instants`.execute(db);
      const [notes, views, alertDestinations, alertRules, activity, keptDays, shares, tokens, row] = await Promise.all([
        count("annotations"),
        count("saved_views"),
        count("alert_destinations"),
        count("alert_rules"),
        count("activity"),
        count("kept_days"),
        count("shares"),
        count("tokens"),
        db.selectFrom("workspaces").select("watch_key_sealed").where("id", "=", workspace).executeTakeFirst(),
      ]);
      return {
        snapshots: Number(rows[0]?.n ?? 0),
        notes,
        views,
        alertDestinations,
        alertRules,
        shares,
        keptKey: Boolean(row?.watch_key_sealed),
        activity,
        keptDays,
        tokens,
      };
    },

    /** Sets the IANA zone of the workspace's days; an unknown zone is a StoreInputError naming `time_zone`. */
    async setTimeZone(workspace: WorkspaceId, timeZone: string): Promise<Workspace> {
      if (!isTimeZoneName(timeZone))
        throw new StoreInputError(`time_zone must be an IANA time zone name, e.g. Europe/Berlin (got "${timeZone.slice(0, 64)}")`, "time_zone");
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

  /**
   * Makes `from` part of `into` inside `tx` (both locked): every table's rows move, then the
   * workspace's own settings are joined, then `from` is deleted with what did not move.
   */
  async function mergeInto(tx: Transaction<StoreTables>, from: WorkspaceId, into: WorkspaceId, now: number): Promise<void> {
    const [absorbed, kept] = await Promise.all(
      [from, into].map((id) => tx.selectFrom("workspaces").select(WORKSPACE_COLUMNS).where("id", "=", id).executeTakeFirstOrThrow()),
    );
    // The keys coming along are linked to this workspace now (what Settings says of them).
    await tx.updateTable("workspace_keys").set({ linked_at: now }).where("workspace_id", "=", from).execute();
    await moveWorkspaceRows(tx, from, into);
    const since = [absorbed!.history_since, kept!.history_since].filter((v): v is number => v !== null);
    await tx
      .updateTable("workspaces")
      .set({ history_since: since.length > 0 ? Math.min(...since) : null, ...watchingTaken(absorbed!, kept!) })
      .where("id", "=", into)
      .execute();
    await deleteWorkspaceRows(tx, from);
  }

  /**
   * Watching after a merge: the workspace kept keeps its own state; when only the absorbed one was
   * watched, its key comes along, sealed again for the kept workspace (a sealed key opens for its
   * own workspace only). One that no configured secret opens cannot come along (sealed for a
   * workspace that is about to go, it could never be opened here, whatever secret another instance
   * holds): watching is then paused, saying so, until someone sets it again.
   */
  function watchingTaken(absorbed: Selectable<WorkspacesTable>, kept: Selectable<WorkspacesTable>): Partial<Selectable<WorkspacesTable>> {
    if (kept.watching !== "off" || absorbed.watching === "off" || !absorbed.watch_key_sealed) return {};
    try {
      const moved = deps.sealed.moved(SEALED.watchKey, absorbed.id, kept.id, absorbed.watch_key_sealed);
      return { watching: absorbed.watching, paused_reason: absorbed.paused_reason, watch_key_sealed: moved };
    } catch (error) {
      if (!isSealedUnreadable(error)) throw error;
      return {
        watching: "paused",
        paused_reason: "The key kept for watching the linked key's workspace could not be read by this server (its secret changed): set watching again.",
        watch_key_sealed: null,
      };
    }
  }
}
