// The history collector's background jobs, run by the store's job scheduler (lib/store/scheduler.ts)
// in every instance, one run per watched workspace and slot, each claimed in the database so exactly
// one instance runs it, a few at once per instance (so one slow workspace holds back none of the
// others, and instances share the workspaces):
// - `history.hourly`, every hour on the hour (UTC): the workspace's score and ranking;
// - `history.daily`, at 01:00 UTC: the overview of each period and the closed days' insights figures.
// After a downtime each runs its latest slot only (a snapshot of now is worth more than one of then;
// the daily collector itself looks back for closed days not kept). Each workspace is collected with
// its own kept key; a paused or stopped workspace is not collected (its key is no longer handed out).
// What was kept, and a watching that paused, are told to history's listeners (events.ts).
import "server-only";
import { DAY_MS, dailySlotAt, HOUR_MS, hourlySlot, type JobDefinition } from "@/lib/store/scheduler";
import type { WorkspaceId } from "@/lib/store/schema";
import { isSealedUnreadable } from "@/lib/store/sealed";
import type { Store } from "@/lib/store/store";
import { collectWorkspace, type CollectContext, type CollectKind, type CollectResult } from "./collect";
import { snapshotKept, watchingPaused } from "./events";

export type HistoryJobsDeps = {
  store: () => Promise<Store>;
  /** The collector's context for one run (its signal aborts when the run's lease is lost). */
  context: (store: Store, signal: AbortSignal) => CollectContext;
  log?: (line: string) => void;
};

/** Workspaces collected at once per instance: enough that a slow one holds back no other, few enough for the upstream. */
export const COLLECT_CONCURRENCY = 4;

/** The run's outcome as kept in the jobs table: counts, never a key. */
function summary(kind: CollectKind, result: CollectResult): string {
  return [
    `${kind}: ${result.recorded.length} kept`,
    `${result.known.length} already known`,
    `${result.skipped.length} skipped (403)`,
    `${result.failed.length} failed`,
    ...(result.paused ? ["paused (401)"] : []),
  ].join(", ");
}

function collectionJob(name: string, kind: CollectKind, slotOf: (t: number) => number, deps: HistoryJobsDeps): JobDefinition {
  const log = deps.log ?? ((line: string) => console.warn(line));
  return {
    name,
    slotOf,
    catchUp: "latest",
    concurrency: COLLECT_CONCURRENCY,
    scopes: async () => (await deps.store()).workspaces.watchedWorkspaces(),
    async run({ scope, signal }) {
      const store = await deps.store();
      // A scope is only ever what `scopes` listed: a workspace id the store made.
      const id = scope as WorkspaceId;
      try {
        // Undefined when watching stopped or paused since the list was read.
        const key = await store.workspaces.watchingKey(id);
        if (!key) return `${kind}: not watched any more`;
        const result = await collectWorkspace(deps.context(store, signal), id, key, kind);
        if (result.paused) {
          log(`[history] workspace ${id}: the Data API refused its kept key (401); watching paused`);
          await watchingPaused(store, id, result.paused);
        }
        if (result.recorded.length > 0) await snapshotKept(store, id);
        return summary(kind, result);
      } catch (error) {
        if (!signal.aborted) log(`[history] workspace ${id}: ${kind} collection failed: ${error instanceof Error ? error.message : String(error)}`);
        // A kept key sealed under a secret this instance lacks is not this run's failure: another
        // instance (or this one, given the secret) collects it; watching stays on.
        if (isSealedUnreadable(error)) return `${kind}: skipped (the kept key cannot be opened by this instance)`;
        throw error;
      }
    },
  };
}

export const HOURLY_JOB = "history.hourly";
export const DAILY_JOB = "history.daily";

/** Each collection's slots: the latest at or before an instant, and how far apart they are. */
const COLLECTION_SLOTS: Record<CollectKind, { slotOf: (t: number) => number; every: number }> = {
  hourly: { slotOf: hourlySlot, every: HOUR_MS },
  daily: { slotOf: dailySlotAt(1), every: DAY_MS },
};

/** When a watched workspace's `kind` collection next runs after `now` (the start of its next slot). */
export const nextCollectionAt = (kind: CollectKind, now: number): number => COLLECTION_SLOTS[kind].slotOf(now) + COLLECTION_SLOTS[kind].every;

/** The collector's jobs. */
export function historyJobs(deps: HistoryJobsDeps): JobDefinition[] {
  return [collectionJob(HOURLY_JOB, "hourly", COLLECTION_SLOTS.hourly.slotOf, deps), collectionJob(DAILY_JOB, "daily", COLLECTION_SLOTS.daily.slotOf, deps)];
}
