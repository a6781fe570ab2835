// Alerts in the running server: the process's one sender (deliver.ts; its polling loop is started
// with the background jobs) and the check run after a snapshot or a day's figures were kept, or of
// one rule just added or changed. Both
// reach the store and the clock through the server context, so a test's context reaches them too.
import "server-only";
import { serverContext } from "@/lib/server/context";
import { getEnv } from "@/lib/server/env";
import { newInstanceId } from "@/lib/store/scheduler";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { checkRule, checkRules, notifyPaused, type CheckOutcome } from "./check";
import { createDeliverer, httpSender, NO_SMTP, type Deliverer } from "./deliver";
import { createMailer, emailSender, type Mailer } from "./email";

const g = globalThis as typeof globalThis & { __waAlertsDeliverer?: Deliverer; __waMailer?: { smtpUrl: string; from: string; mailer: Mailer } };

/** This process's mailer on SMTP_URL (one pooled transport; made again if the configuration changed), or undefined without it. */
export function processMailer(): Mailer | undefined {
  const { mail, alerts } = getEnv();
  if (!mail) return undefined;
  const held = g.__waMailer;
  if (held && held.smtpUrl === mail.smtpUrl && held.from === mail.from) return held.mailer;
  held?.mailer.close();
  const mailer = createMailer({ smtpUrl: mail.smtpUrl, from: mail.from, timeoutMs: alerts.sendTimeoutMs });
  g.__waMailer = { ...mail, mailer };
  return mailer;
}

/** This process's sender (made on first use; its loop runs once `start()` is called). */
export function alertsDeliverer(instance?: string): Deliverer {
  return (g.__waAlertsDeliverer ??= createDeliverer({
    store: () => serverContext().store(),
    now: () => serverContext().now(),
    instance: instance ?? newInstanceId(),
    pollMs: getEnv().alerts.pollMs,
    sendTimeoutMs: getEnv().alerts.sendTimeoutMs,
    send: (url, secret, message, sendOptions) => httpSender(getEnv().webhookAllowPrivate, () => serverContext().now())(url, secret, message, sendOptions),
    // E-mail destinations are made only with SMTP_URL set; a server without it leaves their deliveries waiting, saying why.
    sendMail: (destination, event) => {
      const mailer = processMailer();
      return mailer
        ? emailSender(mailer, getEnv().publicUrl)(destination, event)
        : Promise.resolve({ status: null, ok: false, retryAfterMs: null, error: NO_SMTP, timedOut: false, addressRefused: false });
    },
  }));
}

function checkDeps(store: Store) {
  const publicUrl = getEnv().publicUrl;
  return { store, now: () => serverContext().now(), ...(publicUrl ? { publicUrl } : {}), delivered: () => alertsDeliverer().kick() };
}

/** Checks `workspace`'s rules now (after a snapshot or a day's figures), and sends what they made at once. */
export function checkAfterSnapshot(store: Store, workspace: WorkspaceId): Promise<CheckOutcome> {
  return checkRules(checkDeps(store), workspace);
}

/** Checks one rule of `workspace` now (just added, or given a new threshold), and sends what it made at once. */
export function checkRuleNow(store: Store, workspace: WorkspaceId, ruleId: string): Promise<CheckOutcome> {
  return checkRule(checkDeps(store), workspace, ruleId);
}

/** Tells the workspace's destinations, once, that its watching paused. */
export function alertWatchingPaused(store: Store, workspace: WorkspaceId, reason: string): Promise<number> {
  return notifyPaused(checkDeps(store), workspace, reason);
}
