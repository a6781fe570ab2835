// The weekly digest: where each workspace's goes (one of its destinations, or nowhere).
import "server-only";
import type { WorkspaceId } from "../schema";
import type { AlertsDeps } from "./shared";

export function digestQueries(deps: AlertsDeps) {
  const { db } = deps;

  return {
    async digest(workspace: WorkspaceId): Promise<string | null> {
      const row = await db.selectFrom("alert_digests").select("destination_id").where("workspace_id", "=", workspace).executeTakeFirst();
      return row?.destination_id ?? null;
    },

    /** Sends the weekly digest to `destinationId` (of this workspace), or nowhere (null); false for an unknown destination. */
    async setDigest(workspace: WorkspaceId, destinationId: string | null): Promise<boolean> {
      if (destinationId === null) {
        await db.deleteFrom("alert_digests").where("workspace_id", "=", workspace).execute();
        return true;
      }
      const destination = await db
        .selectFrom("alert_destinations")
        .select("id")
        .where("workspace_id", "=", workspace)
        .where("id", "=", destinationId)
        .executeTakeFirst();
      if (!destination) return false;
      await db
        .insertInto("alert_digests")
        .values({ workspace_id: workspace, destination_id: destinationId, created_at: deps.now() })
        .onConflict((oc) => oc.column("workspace_id").doUpdateSet({ destination_id: destinationId }))
        .execute();
      return true;
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
