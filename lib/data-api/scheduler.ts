// The per-key scheduler: every upstream request of one API key goes through it. It admits requests
// one at a time in priority order (p-queue: interactive ahead of bulk export pages), holds each one
// until the key's budget allows it (a KeyBudget: the in-process RateBudget by default, or one shared
// by several instances through Redis), and retries 429 / 5xx / network failures with bounded
// exponential backoff and jitter (p-retry), waiting out Retry-After on 429 for the whole key.
// p-queue and p-retry are used for the standard parts (priority queue, retry policy); the budget
// accounting is the project's own (rate-budget.ts) because it needs two windows and header learning.
import PQueue from "p-queue";
import pRetry from "p-retry";
import { DataApiError, isDataApiError } from "./errors";
import { RateBudget, type Admission, type BudgetPriority, type BudgetSnapshot, type KeyBudget, type RateBudgetOptions } from "./rate-budget";
import type { RateLimitInfo } from "./rate-limit";

/**
 * interactive: a person waits (the dashboard); bulk: exports; background: the history collector,
 * which nobody waits for: admitted after everything else, and held to the bulk share of the budget
 * (the interactive reserve stays free while someone uses the dashboard).
 */
export type Priority = "interactive" | "bulk" | "background";

export type SchedulerOptions = RateBudgetOptions & {
  /** Retries after the first attempt (429, 5xx, network errors). */
  retries?: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Give up retrying once this much time has passed since the first attempt. */
  maxRetryTimeMs?: number;
  /** Longest a request may wait for the rate budget before failing with 503 (ms). */
  maxQueueWaitMs?: number;
  now?: () => number;
  /**
   * The key's budget when it is kept elsewhere (several instances: lib/shared-state/redis/budget.ts). By
   * default an in-process RateBudget made from the options above (`budget`, `fixed`, the margins).
   */
  keyBudget?: KeyBudget;
};

/** What an attempt reports back: the rate-limit headers of its response. */
export type AttemptContext = {
  signal: AbortSignal | undefined;
  observe(status: number, info: RateLimitInfo): void;
};

export type ScheduleOptions = {
  priority?: Priority;
  signal?: AbortSignal;
  /**
   * Told while the request waits for the key's rate budget (a used-up window, a 429's Retry-After):
   * the milliseconds until it may go, again at least every second of the wait, and 0 once it is
   * sent after a wait. Exports show this as "waiting 38 s for the rate limit".
   */
  onWait?: (ms: number) => void;
};

export interface Scheduler {
  /**
   * Runs `attempt` (once per try) within the key's budget. An attempt throws DataApiError on
   * failure; retryable ones (429, 5xx, network) are tried again within the bounds.
   */
  schedule<T>(attempt: (ctx: AttemptContext) => Promise<T>, options?: ScheduleOptions): Promise<T>;
  snapshot(): BudgetSnapshot & { queued: number };
}

const PRIORITY: Record<Priority, number> = { interactive: 1, bulk: 0, background: -1 };

/** What the budget is asked for: background requests count as bulk there (no reserve of their own). */
const budgetPriority = (priority: Priority): BudgetPriority => (priority === "interactive" ? "interactive" : "bulk");

/** Codes this app raises itself for conditions another try would not fix. */
const FINAL_CODES = new Set(["rate_limited", "unexpected_response", "upstream_timeout", "redirect_rejected"]);

export const isRetryable = (e: unknown): boolean =>
  isDataApiError(e) && !FINAL_CODES.has(e.code) && (e.status === 429 || e.code === "network_error" || (e.status >= 500 && e.status !== 501));

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException("The operation was aborted.", "AbortError");
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function createScheduler(options: SchedulerOptions = {}): Scheduler {
  // Read Date at each call rather than keep the function: a scheduler made before a test fakes Date follows it.
  const now = options.now ?? (() => Date.now());
  const budget: KeyBudget = options.keyBudget ?? new RateBudget(options);
  // Admission only (concurrency 1): the request itself runs outside the queue, so a slow upstream
  // call never blocks the admission of the next one; the budget bounds the rate. Waiting for the
  // budget also happens outside the queue (see admit).
  const admission = new PQueue({ concurrency: 1 });
  const retries = options.retries ?? 4;
  const maxQueueWaitMs = options.maxQueueWaitMs ?? 90_000;
  const maxRetryTimeMs = options.maxRetryTimeMs ?? 30_000;

  /**
   * One admission (in the queue's slot). An in-process budget answers at once; a shared one after a
   * round trip, during which the caller may give up: p-queue then rejects at once, and a request
   * admitted meanwhile is given back as a failure (it counts, but cannot hold a place in flight).
   */
  function admitOnce(priority: Priority, signal: AbortSignal | undefined): Admission<unknown> | Promise<Admission<unknown>> {
    const result = budget.admit(now(), budgetPriority(priority));
    if (!(result instanceof Promise)) return result;
    return result.then((admitted) => {
      if (admitted.admitted && signal?.aborted) void budget.recordFailure(now(), admitted.token);
      return admitted;
    });
  }

  /**
   * Waits until the budget lets a request of this priority go, then records it as admitted (it
   * counts against the budget from now until its answer, see rate-budget.ts). A request
   * that must wait gives its place in the queue back while it sleeps, so one waiting export page
   * never holds up a dashboard request that the budget (with its interactive reserve) would allow.
   */
  async function admit(priority: Priority, signal: AbortSignal | undefined, deadline: number, onWait?: (ms: number) => void): Promise<unknown> {
    let waited = false;
    for (;;) {
      const admitted = await admission.add(() => admitOnce(priority, signal), { priority: PRIORITY[priority], signal });
      if (admitted.admitted) {
        if (waited) onWait?.(0);
        return admitted.token;
      }
      const wait = admitted.waitMs;
      if (now() + wait > deadline) {
        throw new DataApiError({
          status: 503,
          code: "rate_limited",
          message: "The Data API rate limit for this key is used up; try again shortly.",
          retryAfter: Math.max(1, Math.ceil(wait / 1000)),
        });
      }
      waited = true;
      onWait?.(wait);
      // Re-check at least every second: a response may have changed the budget meanwhile (an answer
      // places a request that was in flight, headers teach the plan or a pause).
      await sleep(Math.min(wait, 1000), signal);
    }
  }

  return {
    async schedule<T>(attempt: (ctx: AttemptContext) => Promise<T>, opts: ScheduleOptions = {}): Promise<T> {
      const priority = opts.priority ?? "interactive";
      const signal = opts.signal;
      const deadline = now() + maxQueueWaitMs;
      if (priority === "interactive") budget.noteInteractive(now());
      // The retry time bound counts from the first send, not from joining the queue: a request
      // that waited out a used-up minute budget still gets its retries.
      let firstSent: number | undefined;
      return pRetry(
        async () => {
          const token = await admit(priority, signal, deadline, opts.onWait);
          firstSent ??= now();
          let observed = false;
          try {
            return await attempt({
              signal,
              observe(status, info) {
                if (observed) return;
                observed = true;
                void budget.recordResponse(now(), status, info, token);
              },
            });
          } finally {
            if (!observed) void budget.recordFailure(now(), token);
          }
        },
        {
          retries,
          factor: 2,
          minTimeout: options.minBackoffMs ?? 200,
          maxTimeout: options.maxBackoffMs ?? 4000,
          randomize: true,
          signal,
          shouldRetry: ({ error }) => isRetryable(error) && now() - (firstSent ?? now()) < maxRetryTimeMs,
        },
      );
    },
    snapshot() {
      return { ...budget.snapshot(now()), queued: admission.size + admission.pending };
    },
  };
}
