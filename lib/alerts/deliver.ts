// Sending what is due: each instance runs one sender, which looks for due deliveries when told that
// some were made (right after a check or a "Send a test", so an alert leaves within moments of its
// snapshot), whenever one of its sends ends, and every few seconds for retries and for runs another
// instance left behind. Each delivery is claimed just before it is sent, for that one attempt
// (store/alerts.ts `claimNext`: a lease of the send's timeout plus a margin, and the destination held
// meanwhile, so one request at a time is in flight to a destination across instances); a send that
// could no longer finish within its lease is not started. Destinations are offered workspace by
// workspace in turn, and one workspace holds at most `perWorkspace` of the instance's `concurrency`
// sends, so one workspace's slow or failing receivers never hold back another's. A failed attempt is
// tried again after about 5 s, 1 min, 10 min, 1 h and 6 h (or later, when the receiver's Retry-After
// asks for longer), then fails for good; 410 Gone stops the destination; a destination that times out
// again and again rests (the store counts it). A destination whose address this instance cannot open
// (sealed under a secret it lacks: during a rolling restart, another instance may have it) is never a
// reason to fail: the attempt is kept saying so and the delivery waits as after a failed send, holding
// at the last wait. Every attempt is kept. The clock is injected and `deliverDue()` runs until nothing
// more can be sent now, which tests drive on fake time.
import "server-only";
import type { Delivery, OpenDestination } from "@/lib/store/alerts";
import type { WorkspaceId } from "@/lib/store/schema";
import { isSealedUnreadable } from "@/lib/store/sealed";
import type { Store } from "@/lib/store/store";
import { bodyFor, type EventBody } from "./messages";
import { resolveShareMarks } from "./share-marks";
import { send, SEND_TIMEOUT_MS, type SendResult } from "./send";

/** Waits before the 2nd, 3rd... attempt: about 5 s, 1 min, 10 min, 1 h, 6 h. Six attempts in all. */
export const BACKOFF_MS = [5_000, 60_000, 600_000, 3_600_000, 21_600_000] as const;
/** The longest a Retry-After is followed: past it, the attempt is made then anyway. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
/**
 * A claim's lease is the send's timeout plus this: room for reading the destination before the send
 * and keeping its outcome after it. Past the lease another instance may claim the delivery again.
 */
export const LEASE_MARGIN_MS = 10_000;
/** How often the sender looks for due deliveries without being told (ALERTS_POLL_MS in the server). */
export const POLL_MS = 5_000;
/** Sends at once per instance: requests waiting on receivers cost little, so many may. */
export const CONCURRENCY = 32;
/** Of those, the most one workspace may hold: the rest stay for the others. */
export const PER_WORKSPACE = 4;
/** Destinations read per look (more than the free sends, as some are skipped for their workspace's share). */
const CANDIDATES = 200;

export type Sender = (
  url: string,
  secret: string | null,
  message: { id: string; at: number; body: string },
  options: { timeoutMs: number },
) => Promise<SendResult>;

/**
 * Sends an event to an e-mail destination (email.ts through SMTP_URL in the server, the loopback
 * server in tests): `addressRefused` when the mail server refused the address for good.
 */
export type MailSender = (destination: OpenDestination, event: { id: string; body: EventBody }) => Promise<SendResult & { addressRefused: boolean }>;

/** What an attempt to an e-mail destination says on a server without SMTP_URL. */
export const NO_SMTP = "Not sent: this server has no SMTP_URL (the mail server of e-mail destinations). It is tried again later, by this server or another.";

export type DelivererOptions = {
  store: () => Promise<Store>;
  now: () => number;
  instance: string;
  /** POSTs a message within `timeoutMs` (send.ts in the server; the same in tests, to a real receiver). */
  send: Sender;
  /** Sends to e-mail destinations; without it (no SMTP_URL) their deliveries wait, saying why. */
  sendMail?: MailSender;
  log?: (line: string) => void;
  pollMs?: number;
  /** A send's timeout (default SEND_TIMEOUT_MS); the lease of each claim is this plus LEASE_MARGIN_MS. */
  sendTimeoutMs?: number;
  concurrency?: number;
  perWorkspace?: number;
};

export type Deliverer = {
  /** Sends until nothing more can be sent now (by this instance). Resolves with the attempts made. */
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

/** `items` one workspace at a time, in the order the workspaces first appear: a, b, c, a, b, a… */
export function inTurn<T extends { workspaceId: WorkspaceId }>(items: readonly T[]): T[] {
  const queues = new Map<WorkspaceId, T[]>();
  for (const item of items) {
    const queue = queues.get(item.workspaceId);
    if (queue) queue.push(item);
    else queues.set(item.workspaceId, [item]);
  }
  const out: T[] = [];
  for (let round = 0; out.length < items.length; round++) {
    for (const queue of queues.values()) if (round < queue.length) out.push(queue[round]!);
  }
  return out;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createDeliverer(options: DelivererOptions): Deliverer {
  const log = options.log ?? ((line: string) => console.warn(line));
  const timeoutMs = options.sendTimeoutMs ?? SEND_TIMEOUT_MS;
  const leaseMs = timeoutMs + LEASE_MARGIN_MS;
  const concurrency = options.concurrency ?? CONCURRENCY;
  const perWorkspace = options.perWorkspace ?? PER_WORKSPACE;
  const pollMs = options.pollMs ?? POLL_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let kicked: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let pass: Promise<number> | undefined;

  /** This instance's sends going on: by destination (one each), and how many per workspace. */
  const sending = new Map<string, WorkspaceId>();
  const perWorkspaceSending = new Map<WorkspaceId, number>();
  /** Attempts kept by the current pass. */
  const attempts = { count: 0 };

  // The pass waits here for a reason to look again: a send ended, a kick, or the poll interval.
  let woken = false;
  let wakeWaiter: (() => void) | undefined;
  function wakeUp(): void {
    woken = true;
    wakeWaiter?.();
  }
  async function nextWake(): Promise<void> {
    if (!woken) {
      let poll: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        wakeWaiter = resolve;
        poll = setTimeout(resolve, pollMs);
        poll.unref?.();
      });
      clearTimeout(poll);
      wakeWaiter = undefined;
    }
    woken = false;
  }

  /** One attempt of a delivery this instance claimed until `leaseUntil`: kept, or given back unsent. */
  async function attemptOne(store: Store, delivery: Delivery, leaseUntil: number): Promise<"kept" | "given back"> {
    const attempt = delivery.attempts;
    const started = options.now();
    const finish = (status: "delivered" | "retrying" | "failed", result: Pick<SendResult, "status" | "error"> & { timedOut?: boolean }, next: number | null) =>
      store.alerts.finishAttempt(delivery, options.instance, {
        at: started,
        status,
        responseStatus: result.status,
        error: result.error,
        durationMs: options.now() - started,
        nextAttemptAt: next,
        timedOut: result.timedOut ?? false,
      });

    let destination: OpenDestination | undefined;
    try {
      destination = await store.alerts.openDestination(delivery.destinationId);
    } catch (error) {
      if (!isSealedUnreadable(error)) throw error;
      await finish("retrying", { status: null, error: LACKS_SECRET }, waitForSecretAt(attempt, options.now()));
      log(`[alerts] delivery ${delivery.id}: ${error.message}; it waits`);
      return "kept";
    }
    const event = await store.alerts.event(delivery.eventId);
    if (!destination || !event) {
      await finish("failed", { status: null, error: "the destination or the event was deleted" }, null);
      return "kept";
    }
    if (destination.status !== "active") {
      await finish("failed", { status: null, error: destination.stoppedReason ?? `the destination is ${destination.status}` }, null);
      return "kept";
    }
    if (destination.kind === "email" && !options.sendMail) {
      await finish("retrying", { status: null, error: NO_SMTP }, waitForSecretAt(attempt, options.now()));
      return "kept";
    }
    // A share link's token goes in now (kept as a mark: share-marks.ts).
    const body = await resolveShareMarks(store, destination.workspaceId, event.body as EventBody, options.now());
    // Sent only if the whole send fits in the lease: past it another instance may claim it again.
    if (options.now() + timeoutMs > leaseUntil) {
      await store.alerts.release(delivery, options.instance);
      log(`[alerts] delivery ${delivery.id}: its claim would run out before the send could end; left for the next look`);
      return "given back";
    }
    const result =
      destination.kind === "email"
        ? await options.sendMail!(destination, { id: event.id, body })
        : await options.send(destination.url, destination.secret, { id: event.id, at: started, body: bodyFor(destination.kind, body) }, { timeoutMs });
    if (result.ok) {
      await finish("delivered", result, null);
      return "kept";
    }
    if ("addressRefused" in result && result.addressRefused) {
      await finish("failed", result, null);
      const on = new Date(options.now()).toISOString().slice(0, 16).replace("T", " ");
      await store.alerts.stopDestination(
        destination.id,
        `The mail server refused the address on ${on} UTC (${result.status}): nothing more is sent there. Delete this destination and add the right address.`,
      );
      log(`[alerts] destination ${destination.id}: the mail server refused its address; stopped`);
      return "kept";
    }
    if (result.status === 410) {
      await finish("failed", result, null);
      const on = new Date(options.now()).toISOString().slice(0, 16).replace("T", " ");
      await store.alerts.stopDestination(
        destination.id,
        `The receiver answered 410 Gone on ${on} UTC: nothing more is sent there. Delete this destination and add its new address.`,
      );
      log(`[alerts] destination ${destination.id} answered 410 Gone: stopped`);
      return "kept";
    }
    const next = nextAttemptAt(attempt, options.now(), result.retryAfterMs);
    const { restingUntil } = await finish(next === null ? "failed" : "retrying", result, next);
    if (restingUntil !== null) log(`[alerts] destination ${destination.id} timed out again and again: resting until ${new Date(restingUntil).toISOString()}`);
    return "kept";
  }

  /**
   * Claims and starts what this instance may send now; resolves with how many it started. A
   * destination whose claim was given back unsent (`givenBack`) waits for the next pass: claiming it
   * again at once would only give it back again.
   */
  async function fill(store: Store, started: (attempt: Promise<void>) => void, givenBack: Set<string>): Promise<number> {
    if (sending.size >= concurrency) return 0;
    const candidates = inTurn(await store.alerts.dueDestinations(options.now(), CANDIDATES));
    let launched = 0;
    for (const { destinationId, workspaceId } of candidates) {
      if (stopped || sending.size >= concurrency) break;
      if (sending.has(destinationId) || givenBack.has(destinationId) || (perWorkspaceSending.get(workspaceId) ?? 0) >= perWorkspace) continue;
      const at = options.now();
      const delivery = await store.alerts.claimNext(destinationId, options.instance, at, at + leaseMs);
      if (!delivery) continue;
      sending.set(destinationId, workspaceId);
      perWorkspaceSending.set(workspaceId, (perWorkspaceSending.get(workspaceId) ?? 0) + 1);
      launched++;
      started(
        attemptOne(store, delivery, at + leaseMs)
          .then(
            (outcome) => {
              if (outcome === "kept") attempts.count++;
              else givenBack.add(destinationId);
            },
            // The claim's lease runs out and the delivery is tried again (by any instance).
            (error: unknown) => log(`[alerts] delivery ${delivery.id} failed to run: ${describe(error)}`),
          )
          .finally(() => {
            sending.delete(destinationId);
            const left = (perWorkspaceSending.get(workspaceId) ?? 1) - 1;
            if (left > 0) perWorkspaceSending.set(workspaceId, left);
            else perWorkspaceSending.delete(workspaceId);
            wakeUp();
          }),
      );
    }
    return launched;
  }

  async function onePass(): Promise<number> {
    attempts.count = 0;
    const inFlight = new Set<Promise<void>>();
    const givenBack = new Set<string>();
    const track = (p: Promise<void>) => {
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    try {
      const store = await options.store();
      for (;;) {
        woken = false;
        const launched = stopped ? 0 : await fill(store, track, givenBack);
        if (inFlight.size === 0 && launched === 0 && !woken) break;
        await nextWake();
      }
    } finally {
      await Promise.allSettled([...inFlight]);
    }
    // Said here, in the turn that decided it: a deliverDue() from now on starts a new pass.
    pass = undefined;
    return attempts.count;
  }

  /** One pass at a time per instance; asked for while one runs, it looks again before ending. */
  function deliverDue(): Promise<number> {
    if (pass) {
      wakeUp();
      return pass;
    }
    const current = onePass().catch((error: unknown) => {
      if (pass === current) pass = undefined;
      throw error;
    });
    pass = current;
    return current;
  }

  function loop(): void {
    if (stopped) return;
    void deliverDue()
      .catch((error: unknown) => log(`[alerts] sending failed: ${describe(error)}`))
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(loop, pollMs);
        timer.unref?.();
      });
  }

  return {
    deliverDue,
    kick() {
      if (stopped || kicked !== undefined) return;
      kicked = setTimeout(() => {
        kicked = undefined;
        void deliverDue().catch((error: unknown) => log(`[alerts] sending failed: ${describe(error)}`));
      }, 0);
    },
    start() {
      if (timer === undefined && !stopped) loop();
    },
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      if (kicked !== undefined) clearTimeout(kicked);
      wakeUp();
      await pass?.catch(() => undefined);
    },
  };
}

/** The sender of the running server: send.ts with the deployment's private-address rule. */
export function httpSender(allowPrivate: boolean, now: () => number): Sender {
  return (url, secret, message, { timeoutMs }) => send(url, secret, message, { allowPrivate, now, timeoutMs });
}
