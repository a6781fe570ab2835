// The per-key request budget: decides when the next upstream request may be sent so that the key
// stays under both the per-second and the per-minute limit of its plan. Pure bookkeeping with an
// injected clock, so the arithmetic is unit-tested without waiting; the scheduler does the waiting.
//
// Why rolling windows: the Data API counts in fixed windows whose alignment (and clock) we do not
// control. Never sending more than N requests within ANY span of the window's length keeps every
// fixed window, however aligned, at N or fewer. The margins absorb loopback/network jitter between
// our send time and the server's arrival time.
//
// Why an adaptive reserve: an export can spend a whole minute's budget in seconds (Free: 100 pages
// in 10 s), after which every dashboard request would wait for the window to pass. While the key
// is in interactive use (an interactive request within `interactiveWindowMs`), bulk requests leave
// a share of each window to interactive ones. With nobody at the dashboard, exports use it all.
import { DEFAULT_BUDGET, budgetForLimit, type PlanBudget, type RateLimitInfo } from "./rate-limit";

export type RateBudgetOptions = {
  budget?: PlanBudget;
  /**
   * Keep `budget` as configured instead of learning the plan from X-RateLimit-Limit: for a key
   * shared with other integrations (give this app a share) or a known custom plan.
   */
  fixed?: boolean;
  /** Extra width of the per-second window (ms): jitter allowance. */
  secondMarginMs?: number;
  /** Extra width of the per-minute window (ms). */
  minuteMarginMs?: number;
  /** How long after an interactive request the key counts as in interactive use (ms). */
  interactiveWindowMs?: number;
};

export type BudgetPriority = "interactive" | "bulk";

/** What bulk requests leave free, per window, while the key is in interactive use. */
export function interactiveReserve(plan: PlanBudget): { perSecond: number; perMinute: number } {
  return {
    perSecond: Math.min(plan.perSecond - 1, Math.max(1, Math.ceil(plan.perSecond * 0.2))),
    perMinute: Math.min(plan.perMinute - 1, Math.max(3, Math.ceil(plan.perMinute * 0.1))),
  };
}

export type BudgetSnapshot = PlanBudget & {
  learned: boolean;
  /** Requests sent within the last minute (rolling). */
  sentLastMinute: number;
  inFlight: number;
  /** The server's view of what is left in its window, when known. */
  serverRemaining?: number;
  pausedUntil?: number;
};

/** Longest pause a header may impose (a misread clock must not park a key for hours). */
const MAX_PAUSE_MS = 65_000;

export class RateBudget {
  private plan: PlanBudget;
  private learned = false;
  private readonly fixed: boolean;
  private readonly secondWindow: number;
  private readonly minuteWindow: number;
  /** Send times, ascending, pruned to the minute window. */
  private sends: number[] = [];
  /** Sequence numbers of requests sent and not yet answered, in send order. */
  private inFlight: number[] = [];
  private seq = 0;
  private pauseUntil = 0;
  /**
   * The server's Remaining as read from the newest-sent request answered so far (`seq`), minus the
   * requests sent after that one (which it had not counted yet).
   */
  private server: { remaining: number; resetAt: number; sentSince: number; seq: number } | null = null;
  private readonly interactiveWindow: number;
  private lastInteractive = -Infinity;

  constructor(options: RateBudgetOptions = {}) {
    this.plan = options.budget ?? DEFAULT_BUDGET;
    this.fixed = options.fixed ?? false;
    this.secondWindow = 1000 + (options.secondMarginMs ?? 100);
    this.minuteWindow = 60_000 + (options.minuteMarginMs ?? 500);
    this.interactiveWindow = options.interactiveWindowMs ?? 5 * 60_000;
  }

  /** Marks the key as in interactive use (a dashboard request was made at `now`). */
  noteInteractive(now: number): void {
    this.lastInteractive = Math.max(this.lastInteractive, now);
  }

  /** Milliseconds to wait before a request may be sent at `now` (0 = send now). */
  delay(now: number, priority: BudgetPriority = "interactive"): number {
    this.prune(now);
    const reserve =
      priority === "bulk" && now - this.lastInteractive < this.interactiveWindow
        ? interactiveReserve(this.plan)
        : { perSecond: 0, perMinute: 0 };
    let t = Math.max(now, this.pauseUntil);
    // Each constraint can only move t later; two passes settle the interplay of the windows.
    for (let pass = 0; pass < 3; pass++) {
      const before = t;
      t = this.windowFree(t, this.secondWindow, this.plan.perSecond - reserve.perSecond);
      t = this.windowFree(t, this.minuteWindow, this.plan.perMinute - reserve.perMinute);
      t = this.serverPacing(t, now, reserve.perMinute);
      if (t === before) break;
    }
    return Math.max(0, Math.ceil(t - now));
  }

  /** Records a request as sent (call when delay() returned 0); returns its sequence number. */
  recordSend(now: number): number {
    this.sends.push(now);
    const seq = ++this.seq;
    this.inFlight.push(seq);
    if (this.server) this.server.sentSince++;
    return seq;
  }

  /** Removes a request from those in flight (the oldest one when no sequence number is given). */
  private settle(seq: number | undefined): number {
    const i = seq === undefined ? 0 : this.inFlight.indexOf(seq);
    if (i < 0 || this.inFlight.length === 0) return seq ?? this.seq;
    return this.inFlight.splice(i, 1)[0]!;
  }

  /**
   * Records the end of request `seq` (from recordSend) and what its response said about the limit.
   *
   * Why the sequence numbers: the server counts a request when it arrives, so a response's Remaining
   * already includes every request sent before it, but not those sent after it. Subtracting all
   * requests in flight instead would count answered-out-of-order ones twice, and taking the minimum
   * across responses would let that undercount pile up until the key idles for the rest of the window.
   */
  recordResponse(now: number, status: number, info: RateLimitInfo, seq?: number): void {
    const answered = this.settle(seq);
    if (info.limit !== undefined && !this.fixed) {
      const next = budgetForLimit(info.limit);
      if (next.perMinute !== this.plan.perMinute || next.perSecond !== this.plan.perSecond) this.plan = next;
      this.learned = true;
    }
    if (info.remaining !== undefined && info.resetAt !== undefined && info.resetAt > now) {
      const sameWindow = this.server !== null && Math.abs(this.server.resetAt - info.resetAt) < 1500;
      // An answer to a request sent before the one last read is older news in the same window.
      if (!sameWindow || answered > this.server!.seq) {
        const sentAfter = this.inFlight.filter((s) => s > answered).length;
        this.server = { remaining: info.remaining - sentAfter, resetAt: info.resetAt, sentSince: 0, seq: answered };
      }
    }
    if (status === 429) {
      const waitMs =
        info.retryAfter !== undefined
          ? info.retryAfter * 1000
          : info.resetAt !== undefined && info.resetAt > now
            ? info.resetAt - now
            : 1000;
      this.pauseUntil = Math.max(this.pauseUntil, now + Math.min(Math.max(waitMs, 250), MAX_PAUSE_MS));
    }
  }

  /** Records a request that ended without a response (network error, timeout, abort). */
  recordFailure(seq?: number): void {
    this.settle(seq);
  }

  snapshot(now: number): BudgetSnapshot {
    this.prune(now);
    return {
      ...this.plan,
      learned: this.learned,
      sentLastMinute: this.sends.length,
      inFlight: this.inFlight.length,
      ...(this.server && now < this.server.resetAt ? { serverRemaining: this.server.remaining - this.server.sentSince } : {}),
      ...(this.pauseUntil > now ? { pausedUntil: this.pauseUntil } : {}),
    };
  }

  private prune(now: number): void {
    const cutoff = now - this.minuteWindow;
    let drop = 0;
    while (drop < this.sends.length && this.sends[drop]! <= cutoff) drop++;
    if (drop) this.sends = this.sends.slice(drop);
    if (this.server && now >= this.server.resetAt) this.server = null;
  }

  /** Earliest time >= t at which fewer than `cap` sends fall within the trailing `width` ms. */
  private windowFree(t: number, width: number, cap: number): number {
    // Sends are ascending; count those in (t - width, t].
    let first = this.sends.length;
    while (first > 0 && this.sends[first - 1]! > t - width) first--;
    const inWindow = this.sends.length - first;
    if (inWindow < cap) return t;
    // The oldest send that must leave the window for one more to fit.
    const leaving = this.sends[this.sends.length - cap]!;
    return Math.max(t, leaving + width);
  }

  /**
   * Slows down as the server's Remaining nears 0 (requests are spaced evenly instead of sent in a
   * burst, so in-flight ones are counted before more go out), and stops until its reset at 0.
   */
  private serverPacing(t: number, now: number, reserved = 0): number {
    const s = this.server;
    if (!s || t >= s.resetAt) return t;
    const left = s.remaining - s.sentSince - reserved;
    if (left <= 0) return Math.max(t, Math.min(s.resetAt + 50, now + MAX_PAUSE_MS));
    if (left >= this.plan.perSecond) return t;
    const last = this.sends[this.sends.length - 1] ?? -Infinity;
    return Math.max(t, last + 1000 / this.plan.perSecond);
  }
}
