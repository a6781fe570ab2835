// Sending what is due: each instance runs one sender, which looks for due deliveries when told that
// some were made (right after a check or a "Send a test", so an alert leaves within moments of its
// snapshot) and every few seconds for retries and for runs another instance left behind. A delivery
// is claimed with a lease before it is sent (store/alerts.ts), so one instance sends it; a failed
// attempt is tried again after about 5 s, 1 min, 10 min, 1 h and 6 h (or later, when the receiver's
// Retry-After asks for longer), then fails for good; 410 Gone stops the destination. A destination
// whose address this instance cannot open (sealed under a secret it lacks: during a rolling restart,
// another instance may have it) is never a reason to fail: the attempt is kept saying so and the
// delivery waits as after a failed send, holding at the last wait. Every attempt is kept. The clock
// is injected and `deliverDue()` is one pass, which tests drive on fake time.
import "server-only";
import type { Delivery, OpenDestination } from "@/lib/store/alerts";
import { isSealedUnreadable } from "@/lib/store/sealed";
import type { Store } from "@/lib/store/store";
import { bodyFor, type EventBody } from "./messages";
import { send, type SendResult } from "./send";

/** Waits before the 2nd, 3rd... attempt: about 5 s, 1 min, 10 min, 1 h, 6 h. Six attempts in all. */
export const BACKOFF_MS = [5_000, 60_000, 600_000, 3_600_000, 21_600_000] as const;
/** The longest a Retry-After is followed: past it, the attempt is made then anyway. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
/** How long a claimed delivery is an instance's own: longer than a send's 10 s timeout. */
const LEASE_MS = 60_000;
/** How often the sender looks for due deliveries without being told. */
const POLL_MS = 5_000;
/** Sends at once per instance (a slow receiver does not hold up the others). */
const CONCURRENCY = 8;

export type Sender = (url: string, secret: string | null, message: { id: string; at: number; body: string }) => Promise<SendResult>;

export type DelivererOptions = {
  store: () => Promise<Store>;
  now: () => number;
  instance: string;
  /** POSTs a message (send.ts in the server; the same in tests, to a real receiver). */
  send: Sender;
  log?: (line: string) => void;
  pollMs?: number;
};

export type Deliverer = {
  /** One pass: sends every delivery due now (claimed by this instance). Resolves with the attempts made. */
  deliverDue(): Promise<number>;
  /** Something was made due: look soon (coalesced). */
  kick(): void;
  start(): void;
  stop(): Promise<void>;
};

/** What an attempt that could not open its destination says (Settings shows it). */
export const LACKS_SECRET =
  "Not sent: this server lacks the secret the destination's address was sealed under (SESSION_SECRET or SESSION_SECRET_PREVIOUS). It is tried again later, by this server or another.";

/** When a delivery whose destination could not be opened is tried again: never "no more". */
export function waitForSecretAt(attempt: number, now: number): number {
  return now + BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length) - 1]!;
}

/** When the next attempt after `attempt` failed attempts is due, or null when there is none. */
export function nextAttemptAt(attempt: number, now: number, retryAfterMs: number | null): number | null {
  const wait = BACKOFF_MS[attempt - 1];
  if (wait === undefined) return null;
  return now + Math.max(wait, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}

export function createDeliverer(options: DelivererOptions): Deliverer {
  const log = options.log ?? ((line: string) => console.warn(line));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let kicked: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let pass: Promise<number> | undefined;
  let again = false;

  async function attemptOne(store: Store, delivery: Delivery): Promise<void> {
    const attempt = delivery.attempts + 1;
    const claimed = { ...delivery, attempts: attempt };
    const started = options.now();
    const finish = (status: "delivered" | "retrying" | "failed", result: Pick<SendResult, "status" | "error">, next: number | null) =>
      store.alerts.finishAttempt(claimed, options.instance, { at: started, status, responseStatus: result.status, error: result.error, durationMs: options.now() - started, nextAttemptAt: next });

    let destination: OpenDestination | undefined;
    try {
      destination = await store.alerts.openDestination(delivery.destinationId);
    } catch (error) {
      if (!isSealedUnreadable(error)) throw error;
      await finish("retrying", { status: null, error: LACKS_SECRET }, waitForSecretAt(attempt, options.now()));
      log(`[alerts] delivery ${delivery.id}: ${error.message}; it waits`);
      return;
    }
    const event = await store.alerts.event(delivery.eventId);
    if (!destination || !event) {
      await finish("failed", { status: null, error: "the destination or the event was deleted" }, null);
      return;
    }
    if (destination.status === "stopped") {
      await finish("failed", { status: null, error: destination.stoppedReason ?? "the destination is stopped" }, null);
      return;
    }
    const result = await options.send(destination.url, destination.secret, { id: event.id, at: started, body: bodyFor(destination.kind, event.body as EventBody) });
    if (result.ok) {
      await finish("delivered", result, null);
      return;
    }
    if (result.status === 410) {
      await finish("failed", result, null);
      const on = new Date(options.now()).toISOString().slice(0, 16).replace("T", " ");
      await store.alerts.stopDestination(destination.id, `The receiver answered 410 Gone on ${on} UTC: nothing more is sent there. Delete this destination and add its new address.`);
      log(`[alerts] destination ${destination.id} answered 410 Gone: stopped`);
      return;
    }
    const next = nextAttemptAt(attempt, options.now(), result.retryAfterMs);
    await finish(next === null ? "failed" : "retrying", result, next);
  }

  async function onePass(): Promise<number> {
    const store = await options.store();
    let attempts = 0;
    // Pages of due deliveries until none is left that this instance can claim.
    for (;;) {
      const now = options.now();
      const due = await store.alerts.due(now, 50);
      if (due.length === 0) break;
      const mine: Delivery[] = [];
      for (const delivery of due) if (await store.alerts.claim(delivery, options.instance, now, now + LEASE_MS)) mine.push(delivery);
      if (mine.length === 0) break;
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(CONCURRENCY, mine.length) }, async () => {
          while (next < mine.length) {
            const delivery = mine[next++]!;
            try {
              await attemptOne(store, delivery);
              attempts++;
            } catch (error) {
              // The claim's lease runs out and the delivery is tried again (by any instance).
              log(`[alerts] delivery ${delivery.id} failed to run: ${error instanceof Error ? error.message : String(error)}`);
            }
          }
        }),
      );
      if (stopped) break;
    }
    return attempts;
  }

  /** One pass at a time per instance; a pass asked for while one runs follows it. */
  function deliverDue(): Promise<number> {
    if (pass) {
      again = true;
      return pass;
    }
    pass = onePass().finally(() => {
      pass = undefined;
      if (again && !stopped) {
        again = false;
        void deliverDue().catch((error: unknown) => log(`[alerts] sending failed: ${error instanceof Error ? error.message : String(error)}`));
      }
    });
    return pass;
  }

  function loop(): void {
    if (stopped) return;
    void deliverDue()
      .catch((error: unknown) => log(`[alerts] sending failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(loop, options.pollMs ?? POLL_MS);
        timer.unref?.();
      });
  }

  return {
    deliverDue,
    kick() {
      if (stopped || kicked !== undefined) return;
      kicked = setTimeout(() => {
        kicked = undefined;
        void deliverDue().catch((error: unknown) => log(`[alerts] sending failed: ${error instanceof Error ? error.message : String(error)}`));
      }, 0);
    },
    start() {
      if (timer === undefined && !stopped) loop();
    },
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      if (kicked !== undefined) clearTimeout(kicked);
      await pass?.catch(() => undefined);
    },
  };
}

/** The sender of the running server: send.ts with the deployment's private-address rule. */
export function httpSender(allowPrivate: boolean, now: () => number): Sender {
  return (url, secret, message) => send(url, secret, message, { allowPrivate, now });
}
