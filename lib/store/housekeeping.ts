// The store's own upkeep, a background job like the domains' (wired by lib/server/background.ts):
// what the store keeps only for a while is deleted once its time is up.
import { ACTIVITY_KEEP_DAYS } from "./activity";
import { dailySlotAt, DAY_MS, type JobDefinition } from "./scheduler";
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
