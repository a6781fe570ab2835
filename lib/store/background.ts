// The deployment's background jobs, and the scheduler that runs them in this process: started by
// Next's instrumentation hook (instrumentation.ts) in the process that serves requests, never while
// the app is being built, once per process (globalThis). Jobs reach the store, the clock and the
// upstream clients through the server context, so a test's context reaches them too.
// The jobs: housekeeping, the history collector (lib/history/jobs.ts, whose runs check alert rules
// after what they kept) and the weekly digest (lib/alerts/digest.ts); alerts' sender polls beside them.
import "server-only";
import { alertJobs } from "@/lib/alerts/digest";
import { alertsDeliverer, alertWatchingPaused, checkAfterSnapshot } from "@/lib/alerts/runtime";
import { serverCollectContext } from "@/lib/history/collect";
import { historyJobs } from "@/lib/history/jobs";
import { serverContext } from "@/lib/server/context";
import { getEnv } from "@/lib/server/env";
import { ACTIVITY_KEEP_DAYS } from "./activity";
import { createJobScheduler, dailySlotAt, DAY_MS, type JobDefinition, type JobScheduler } from "./scheduler";
import { isBuildPhase } from "./shared";
import type { Store } from "./store";

/**
 * Daily at 03:00 UTC: deletes finished job runs (done or failed) older than `keepDays`, alert checks
 * and sent events older than `alertsKeepDays`, and activity records older than ACTIVITY_KEEP_DAYS
 * (a workspace nobody changes keeps them otherwise: its list is trimmed only when it records).
 */
export function housekeepingJob(store: () => Promise<Store>, options: { keepDays: number; alertsKeepDays: number }): JobDefinition {
  return {
    name: "store.housekeeping",
    slotOf: dailySlotAt(3),
    catchUp: "latest",
    async run({ now }) {
      const s = await store();
      const before = now() - options.keepDays * DAY_MS;
      const deleted = await s.jobs.deleteFinished(before);
      const alerts = await s.alerts.prune(now() - options.alertsKeepDays * DAY_MS);
      const activity = await s.activity.prune(now() - ACTIVITY_KEEP_DAYS * DAY_MS);
      return `deleted ${deleted} finished job runs older than ${options.keepDays} days, ${alerts.checks} alert checks and ${alerts.events} sent alert events older than ${options.alertsKeepDays} days, ${activity} activity records older than ${ACTIVITY_KEEP_DAYS} days`;
    },
  };
}

/** Every background job of the deployment. */
function backgroundJobs(): JobDefinition[] {
  const store = () => serverContext().store();
  return [housekeepingJob(store, { keepDays: 30, alertsKeepDays: 90 }), ...historyJobs({ store, context: serverCollectContext, afterCollect: checkAfterSnapshot, onPaused: alertWatchingPaused }), ...alertJobs({ store })];
}

const g = globalThis as typeof globalThis & { __waBackgroundJobs?: JobScheduler };

/** Starts this process's scheduler (once); none during `next build`. */
export function startBackgroundJobs(): JobScheduler | undefined {
  if (isBuildPhase()) return undefined;
  if (!g.__waBackgroundJobs) {
    g.__waBackgroundJobs = createJobScheduler({
      jobs: async () => (await serverContext().store()).jobs,
      definitions: backgroundJobs(),
      now: () => serverContext().now(),
      tickMs: getEnv().jobsTickMs,
    });
    g.__waBackgroundJobs.start();
    alertsDeliverer(g.__waBackgroundJobs.instance).start();
  }
  return g.__waBackgroundJobs;
}
