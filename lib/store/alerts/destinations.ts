// Alert destinations: where alerts go, their URL and signing secret sealed (sealed.ts) and opened only
// for sending; at most MAX_DESTINATIONS per workspace; a receiver that answers 410 stops its destination.
import "server-only";
import type { Selectable } from "kysely";
import { StoreLimitError } from "../errors";
import type { AlertDestinationsTable, DestinationKind, WorkspaceId } from "../schema";
import { SEALED } from "../sealed";
import { MAX_DESTINATIONS, newId, toDestination, clip, countLocked, type Destination, type OpenDestination, type AlertsDeps } from "./shared";

export function destinationQueries(deps: AlertsDeps) {
  const { db } = deps;

  async function open(row: Selectable<AlertDestinationsTable>): Promise<OpenDestination> {
    const url = await deps.sealed.open(SEALED.destinationUrl, row.id, row.url_sealed);
    const secret = row.secret_sealed === null ? null : await deps.sealed.open(SEALED.destinationSecret, row.id, row.secret_sealed);
    return { ...toDestination(row, deps.now()), workspaceId: row.workspace_id, url, secret };
  }

  return {
    async destinations(workspace: WorkspaceId): Promise<Destination[]> {
      const rows = await db.selectFrom("alert_destinations").selectAll().where("workspace_id", "=", workspace).orderBy("created_at").orderBy("id").execute();
      const now = deps.now();
      return rows.map((row) => toDestination(row, now));
    },

    async destination(workspace: WorkspaceId, id: string): Promise<Destination | undefined> {
      const row = await db.selectFrom("alert_destinations").selectAll().where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
      return row ? toDestination(row, deps.now()) : undefined;
    },

    /**
     * The destination with its URL and secret opened, for sending; undefined when it is gone. What
     * opened under SESSION_SECRET_PREVIOUS is sealed again under SESSION_SECRET. Throws
     * SealedUnreadableError when this instance has no secret that opens them (they are left as they
     * are: the delivery waits, see lib/alerts/deliver.ts).
     */
    async openDestination(id: string): Promise<OpenDestination | undefined> {
      const row = await db.selectFrom("alert_destinations").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? open(row) : undefined;
    },

    /** Keeps a destination, its URL and secret sealed; 422 at MAX_DESTINATIONS (counted under the workspace's lock). */
    async createDestination(
      workspace: WorkspaceId,
      input: { kind: DestinationKind; name: string; url: string; urlHint: string; secret: string | null },
    ): Promise<Destination> {
      const id = newId("dst");
      const values = {
        id,
        workspace_id: workspace,
        kind: input.kind,
        name: input.name,
        url_sealed: deps.sealed.seal(SEALED.destinationUrl, id, input.url),
        url_hint: input.urlHint,
        secret_sealed: input.secret === null ? null : deps.sealed.seal(SEALED.destinationSecret, id, input.secret),
        status: "active" as const,
        stopped_reason: null,
        created_at: deps.now(),
        inflight_by: null,
        inflight_delivery: null,
        inflight_until: null,
        last_claimed_at: null,
        timeouts_in_row: 0,
        resting_until: null,
      };
      const row = await db.transaction().execute(async (tx) => {
        if ((await countLocked(tx, "alert_destinations", workspace)) >= MAX_DESTINATIONS) {
          throw new StoreLimitError(`This workspace already has ${MAX_DESTINATIONS} alert destinations, the most it may. Delete one to add another.`);
        }
        return tx.insertInto("alert_destinations").values(values).returningAll().executeTakeFirstOrThrow();
      });
      return toDestination(row, deps.now());
    },

    /** Deletes a destination with its rules, deliveries and the digest going there; false when unknown. */
    async removeDestination(workspace: WorkspaceId, id: string): Promise<boolean> {
      const result = await db.deleteFrom("alert_destinations").where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * Stops a destination (its receiver answered 410 Gone): nothing more is sent there, and what was
     * waiting to be sent fails with the same reason.
     */
    async stopDestination(id: string, reason: string): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx
          .updateTable("alert_destinations")
          .set({ status: "stopped", stopped_reason: clip(reason, 500) })
          .where("id", "=", id)
          .execute();
        await tx
          .updateTable("alert_deliveries")
          .set({ status: "failed", next_attempt_at: null, lease_until: null, claimed_by: null })
          .where("destination_id", "=", id)
          .where("status", "=", "pending")
          .execute();
      });
    },
  };
}
