// Alert events as made (once per `dedupe_key`), the sends made by hand (counted per workspace in a
// sliding minute, which every instance shares), and the pruning of what is kept only for a while.
import "server-only";
import type { ManualSendKind, WorkspaceId } from "../schema";
import { lockWorkspace } from "../workspace-lock";
import { MANUAL_SENDS_PER_WINDOW, MANUAL_SEND_WINDOW_MS, newId, type AlertsDeps } from "./shared";

export function eventQueries(deps: AlertsDeps) {
  const { db } = deps;

  return {
    /** Whether the event of `dedupeKey` was made (a digest already sent this week). */
    async eventExists(dedupeKey: string): Promise<boolean> {
      const row = await db.selectFrom("alert_events").select("id").where("dedupe_key", "=", dedupeKey).executeTakeFirst();
      return row !== undefined;
    },

    /** The event's body and type, as made. */
    async event(id: string): Promise<{ id: string; type: string; body: unknown; createdAt: number } | undefined> {
      const row = await db.selectFrom("alert_events").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? { id: row.id, type: row.type, body: JSON.parse(row.body) as unknown, createdAt: row.created_at } : undefined;
    },

    /** Which of `dedupeKeys` have their event made already (digests sent this week). */
    async eventsMade(dedupeKeys: string[]): Promise<Set<string>> {
      if (dedupeKeys.length === 0) return new Set();
      const rows = await db.selectFrom("alert_events").select("dedupe_key").where("dedupe_key", "in", dedupeKeys).execute();
      return new Set(rows.map((r) => r.dedupe_key));
    },

    /**
     * Counts a "Send a test" or a "Retry" by hand against the workspace's MANUAL_SENDS_PER_WINDOW in
     * the last MANUAL_SEND_WINDOW_MS (under the workspace's lock, so instances share the count):
     * allowed, and counted; or refused with how long until the oldest counted one leaves the window.
     */
    async takeManualSend(workspace: WorkspaceId, kind: ManualSendKind): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> {
      const now = deps.now();
      return db.transaction().execute(async (tx) => {
        await lockWorkspace(tx, workspace);
        await tx
          .deleteFrom("alert_manual_sends")
          .where("workspace_id", "=", workspace)
          .where("at", "<=", now - MANUAL_SEND_WINDOW_MS)
          .execute();
        const recent = await tx
          .selectFrom("alert_manual_sends")
          .select("at")
          .where("workspace_id", "=", workspace)
          .orderBy("at", "desc")
          .limit(MANUAL_SENDS_PER_WINDOW)
          .execute();
        if (recent.length >= MANUAL_SENDS_PER_WINDOW) return { allowed: false, retryAfterMs: Math.max(1, recent.at(-1)!.at + MANUAL_SEND_WINDOW_MS - now) };
        await tx
          .insertInto("alert_manual_sends")
          .values({ id: newId("ms"), workspace_id: workspace, kind, at: now })
          .execute();
        return { allowed: true };
      });
    },

    /**
     * Forgets checks, and events whose deliveries all ended (delivered or failed), older than
     * `before`, with their attempts. Returns how many checks and events went.
     */
    async prune(before: number): Promise<{ checks: number; events: number }> {
      const checks = await db.deleteFrom("alert_checks").where("at", "<", before).executeTakeFirst();
      // Manual sends count for a minute only; a workspace that stopped sending leaves a few rows.
      await db.deleteFrom("alert_manual_sends").where("at", "<", before).execute();
      const events = await db
        .deleteFrom("alert_events")
        .where("created_at", "<", before)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("alert_deliveries")
                .select("id")
                .whereRef("alert_deliveries.event_id", "=", "alert_events.id")
                .where("status", "in", ["pending", "sending"]),
            ),
          ),
        )
        .executeTakeFirst();
      return { checks: Number(checks.numDeletedRows), events: Number(events.numDeletedRows) };
    },
  };
}
