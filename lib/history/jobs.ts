// The history collector's background jobs, run by the store's job scheduler (lib/store/scheduler.ts)
// in every instance, each slot claimed in the database so exactly one instance runs it:
// - `history.hourly`, every hour on the hour (UTC): score and ranking of every watched workspace;
// - `history.daily`, at 01:00 UTC: the overview of each period and the closed days' insights figures.
// After a downtime each runs its latest slot only (a snapshot of now is worth more than one of then;
// the daily collector itself looks back for closed days not kept). Workspaces are collected one after
// another, each with its own kept key; a paused or stopped workspace is not collected (its key is no
// longer handed out), and one workspace's failure does not stop the others.
import "server-only";
import { dailySlotAt, hourlySlot, type JobDefinition } from "@/lib/store/scheduler";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { collectWorkspace, type CollectContext, type CollectKind, type CollectResult } from "./collect";

export type HistoryJobsDeps = {
  store: () => Promise<Store>;
  /** Checks the workspace's alert rules after something new was kept for it. */
  afterCollect?: (store: Store, workspace: WorkspaceId) => Promise<unknown>;
  /** Tells the workspace's alert destinations that watching paused (once, when it happens). */
  onPaused?: (store: Store, workspace: WorkspaceId, reason: string) => Promise<unknown>;
  /** The collector's context for one run (its signal aborts when the run's lease is lost). */
  context: (store: Store, signal: AbortSignal) => CollectContext;
  log?: (line: string) => void;
};

/** The run's outcome as kept in the jobs table: counts, never a key. */
function summary(kind: CollectKind, results: CollectResult[], failedWorkspaces: number): string {
  const count = (pick: (r: CollectResult) => number) => results.reduce((n, r) => n + pick(r), 0);
  return [
    `${kind}: ${results.length} watched workspaces collected`,
    `${count((r) => r.recorded.length)} kept`,
    `${count((r) => r.known.length)} already known`,
    `${count((r) => r.skipped.length)} skipped (403)`,
    `${count((r) => r.failed.length)} failed`,
    `${results.filter((r) => r.paused).length} paused (401)`,
    ...(failedWorkspaces > 0 ? [`${failedWorkspaces} workspaces not collected (store error)`] : []),
  ].join(", ");
}

function collectionJob(name: string, kind: CollectKind, slotOf: (t: number) => number, deps: HistoryJobsDeps): JobDefinition {
  const log = deps.log ?? ((line: string) => console.warn(line));
  return {
    name,
    slotOf,
    catchUp: "latest",
    async run({ signal }) {
      const store = await deps.store();
      const ctx = deps.context(store, signal);
      const results: CollectResult[] = [];
      let failedWorkspaces = 0;
      for (const id of await store.workspaces.watchedWorkspaces()) {
        if (signal.aborted) break;
        try {
          const key = await store.workspaces.watchingKey(id);
          if (!key) continue;
          const result = await collectWorkspace(ctx, id, key, kind);
          if (result.paused) {
            log(`[history] workspace ${id}: the Data API refused its kept key (401); watching paused`);
            await deps.onPaused?.(store, id, result.paused);
          }
          results.push(result);
          if (result.recorded.length > 0) await deps.afterCollect?.(store, id);
        } catch (error) {
          if (signal.aborted) break;
          failedWorkspaces++;
          log(`[history] workspace ${id}: ${kind} collection failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return summary(kind, results, failedWorkspaces);
    },
  };
}

export const HOURLY_JOB = "history.hourly";
export const DAILY_JOB = "history.daily";

/** The collector's jobs. */
export function historyJobs(deps: HistoryJobsDeps): JobDefinition[] {
  return [collectionJob(HOURLY_JOB, "hourly", hourlySlot, deps), collectionJob(DAILY_JOB, "daily", dailySlotAt(1), deps)];
}
