// The weekly digest: where each workspace's goes (one of its destinations, or nowhere), and the share
// link its links open (one of its share links, for recipients without a key), or none: its figures
// then link to the dashboard's pages. Revoking the share link drops the choice (the column is set
// null); one that expired stays chosen, and what that means is the digest's to say (lib/alerts).
import "server-only";
import type { WorkspaceId } from "../schema";
import type { AlertsDeps } from "./shared";

/** Where the digest goes, and the share link its links open (null: the dashboard's pages). */
export type DigestSetting = { destinationId: string; shareId: string | null };

/** A digest set, or which of its fields named nothing of the workspace's. */
type DigestSetResult = "set" | "unknown_destination" | "unknown_share";

export function digestQueries(deps: AlertsDeps) {
  const { db } = deps;

  return {
    /** The workspace's digest, or null when it goes nowhere; `shareId` as kept (a share link that expired is still named). */
    async digest(workspace: WorkspaceId): Promise<DigestSetting | null> {
      const row = await db.selectFrom("alert_digests").select(["destination_id", "share_id"]).where("workspace_id", "=", workspace).executeTakeFirst();
      return row ? { destinationId: row.destination_id, shareId: row.share_id } : null;
    },

    /**
     * Sends the weekly digest to `destinationId` (of this workspace), or nowhere (null). `shareId`: the
     * share link its links open, one of the workspace's that has not expired; null for none (the
     * dashboard's pages); left out, it stays as it is. An unknown destination or share link (another
     * workspace's, revoked, expired) changes nothing and is said.
     */
    async setDigest(workspace: WorkspaceId, destinationId: string | null, shareId?: string | null): Promise<DigestSetResult> {
      if (destinationId !== null) {
        const destination = await db
          .selectFrom("alert_destinations")
          .select("id")
          .where("workspace_id", "=", workspace)
          .where("id", "=", destinationId)
          .executeTakeFirst();
        if (!destination) return "unknown_destination";
      }
      if (typeof shareId === "string") {
        const now = deps.now();
        const share = await db
          .selectFrom("shares")
          .select("id")
          .where("workspace_id", "=", workspace)
          .where("id", "=", shareId)
          .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
          .executeTakeFirst();
        if (!share) return "unknown_share";
      }
      if (destinationId === null) {
        await db.deleteFrom("alert_digests").where("workspace_id", "=", workspace).execute();
        return "set";
      }
      await db
        .insertInto("alert_digests")
        .values({ workspace_id: workspace, destination_id: destinationId, share_id: shareId ?? null, created_at: deps.now() })
        .onConflict((oc) => oc.column("workspace_id").doUpdateSet({ destination_id: destinationId, ...(shareId !== undefined ? { share_id: shareId } : {}) }))
        .execute();
      return "set";
    },

    /** Workspaces with a digest, where it goes, and the workspace's time zone (when it is due). */
    async digests(): Promise<{ workspaceId: WorkspaceId; destinationId: string; timeZone: string }[]> {
      const rows = await db
        .selectFrom("alert_digests")
        .innerJoin("workspaces", "workspaces.id", "alert_digests.workspace_id")
        .select(["alert_digests.workspace_id", "alert_digests.destination_id", "workspaces.time_zone"])
        .orderBy("alert_digests.workspace_id")
        .execute();
      return rows.map((r) => ({ workspaceId: r.workspace_id, destinationId: r.destination_id, timeZone: r.time_zone }));
    },
  };
}
