// The server process's background work, wired once per process where the server starts (Next's
// instrumentation hook, instrumentation.ts; never while the app is being built): the domains'
// subscriptions (history tells alerts of what it kept, lib/history/events.ts) and the job scheduler
// with every job of the deployment: the store's housekeeping, the history collector
// (lib/history/jobs.ts) and the weekly digest (lib/alerts/digest.ts); alerts' sender polls beside
// them. The one module of lib/server that names domains: it composes them, and none imports it.
// Jobs reach the store, the clock and the upstream clients through the server context, so a
// test's context reaches them too.
import "server-only";
import { alertJobs } from "@/lib/alerts/digest";
import { alertsDeliverer, alertWatchingPaused, checkAfterSnapshot } from "@/lib/alerts/runtime";
import { serverCollectContext } from "@/lib/history/collect";
import { onHistory } from "@/lib/history/events";
import { historyJobs } from "@/lib/history/jobs";
import { housekeepingJob } from "@/lib/store/housekeeping";
import { createJobScheduler, type JobDefinition, type JobScheduler } from "@/lib/store/scheduler";
import { isBuildPhase } from "@/lib/store/shared";
import { serverContext } from "./context";
import { getEnv } from "./env";

/** Who listens to whom: alert rules are checked after each snapshot or day history keeps, and told when watching pauses. */
export function subscribeDomains(): void {
  onHistory("snapshotKept", "alerts", checkAfterSnapshot);
  onHistory("watchingPaused", "alerts", alertWatchingPaused);
}

/** Every background job of the deployment. */
function backgroundJobs(): JobDefinition[] {
  const store = () => serverContext().store();
  return [housekeepingJob(store, { keepDays: 30, alertsKeepDays: 90 }), ...historyJobs({ store, context: serverCollectContext }), ...alertJobs({ store })];
}

const g = globalThis as typeof globalThis & { __waBackgroundJobs?: JobScheduler };

/** Wires the domains and starts this process's scheduler (once); neither during `next build`. */
export function startBackgroundJobs(): JobScheduler | undefined {
  if (isBuildPhase()) return undefined;
  subscribeDomains();
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
