// The per-key request budget: decides when the next upstream request may be sent so that the key
// stays under both the per-second and the per-minute limit of its plan. Pure bookkeeping with an
// injected clock, so the arithmetic is unit-tested without waiting; the scheduler does the waiting.
//
// Why rolling windows: the Data API counts in fixed windows whose alignment (and clock) we do not
// control. Never sending more than N requests within ANY span of the window's length keeps every
// fixed window, however aligned, at N or fewer.
//
// When a request counts: the server counts it when it arrives, and the only span we know holds that
// moment runs from admission (it may be written at once) to its answer (it has certainly arrived).
// So a request counts in every window from admission until its answer, and at the time of its answer
// after that. Recording the admission time instead undercounts whenever the write or the server's
// read comes late: a Next server busy with a flood of requests for a second admits ten, writes them
// only once it is free again, and by then the timers of the waiting requests fire together and find
// the ten "sent" a second ago, so ten more leave in the same upstream second (issue 9, finding 10).
// With the answer time, of any N+1 requests that reach one server window, the last one admitted
// found the other N in flight or answered within the window's length before it (each was answered
// after it arrived, in that window), so it was held back: however late the writes, the reads or the
// timers, no server window sees more than N. The margins are a further allowance (clock rates).
// A side effect worth having: at most the per-second budget of requests is ever in flight per key.
//
// Why the burst adapts: an upstream may never say its limits (no X-RateLimit-* headers), and a key may
// be shared with something this app cannot see (another integration, another deployment). Then the
// first sign that the assumed burst is too much is a 429, and keeping it would meet another 429 at
// every burst. So a 429 halves the per-second admission (the burst) and it grows back by a tenth of
// the plan's every `burstRecoveryMs` (10 s) without another: additive increase, multiplicative
// decrease, as TCP does with its window. Only a 429 to a request admitted under the current burst
// cuts it again, so the answers to one burst that all come back 429 cut it once.
//
// Why an adaptive reserve: an export can spend a whole minute's budget in seconds (Free: 100 pages
// in 10 s), after which every dashboard request would wait for the window to pass. While the key
// is in interactive use (an interactive request within `interactiveWindowMs`), bulk requests leave
// a share of each window to interactive ones. With nobody at the dashboard, exports use it all.
import { DEFAULT_BUDGET, MAX_RETRY_AFTER_SECONDS, budgetForLimit, type PlanBudget, type RateLimitInfo } from "./rate-limit";

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
  /** After a 429 halved the burst, it grows back by a tenth of the plan's per-second every this (ms). */
  burstRecoveryMs?: number;
};

export type BudgetPriority = "interactive" | "bulk";

/** What bulk requests leave free, per window, while the key is in interactive use. */
export function interactiveReserve(plan: PlanBudget): { perSecond: number; perMinute: number } {
  return {
    perSecond: Math.min(plan.perSecond - 1, Math.max(1, Math.ceil(plan.perSecond * 0.2))),
    perMinute: Math.min(plan.perMinute - 1, Math.max(3, Math.ceil(plan.perMinute * 0.1))),
  };
}

/** A burst cut by a 429: to `burst` at `at`, when `seq` was the newest request admitted. */
type BurstCut = { burst: number; at: number; seq: number };

/**
 * The per-second admission at `now`: the plan's, or after a 429 what it was cut to, grown by a tenth
 * of the plan's (at least 1) for every `recoveryMs` since, up to the plan's.
 */
function burstAt(perSecond: number, cut: BurstCut | null, now: number, recoveryMs: number): number {
  if (!cut) return perSecond;
  const step = Math.max(1, Math.ceil(perSecond / 10));
  return Math.min(perSecond, cut.burst + Math.floor(Math.max(0, now - cut.at) / recoveryMs) * step);
}

/** The burst after a 429 at `now`: half of what it is then, at least 1. */
function halvedBurst(current: number): number {
  return Math.max(1, Math.floor(current / 2));
}

export type BudgetSnapshot = PlanBudget & {
  /** The per-second admission now: `perSecond`, or less for a while after a 429. */
  burst: number;
  learned: boolean;
  /** Requests sent within the last minute (rolling). */
  sentLastMinute: number;
  inFlight: number;
  /** The server's view of what is left in its window, when known. */
  serverRemaining?: number;
  pausedUntil?: number;
  /** What bulk requests leave to interactive ones right now (zero while nobody uses the dashboard), of the burst. */
  reserved: { perSecond: number; perMinute: number };
  /**
   * Only while a shared budget cannot reach its store (Redis): the share of the plan this instance
   * keeps to on its own until it can again. The fields above are then this instance's own view.
   */
  localShare?: PlanBudget;
};

/** What admission answers: the request may go (it is recorded as admitted, `token` names it), or wait. */
export type Admission<Token> = { admitted: true; token: Token } | { admitted: false; waitMs: number };

/**
 * A key's request budget as the scheduler uses it. RateBudget below is the in-process one; the shared
 * one (lib/shared-state/redis/budget.ts) keeps one budget for every instance of the app on a key, so its
 * admission is a round trip (async). `token` names an admitted request in its answer. The recording
 * methods may return a promise, which never rejects: the scheduler does not wait for them (a store
 * that is away is the budget's own business, see the shared one's fallback).
 */
export interface KeyBudget<Token = unknown> {
  /**
   * May a request of this priority go at `now`? If so it is recorded as admitted in the same step
   * (nobody else can take its place in between) and counts in every window until its answer.
   */
  admit(now: number, priority: BudgetPriority): Admission<Token> | Promise<Admission<Token>>;
  /** The answer to an admitted request and what its headers said (see RateBudget.recordResponse). */
  recordResponse(now: number, status: number, info: RateLimitInfo, token: Token): void | Promise<void>;
  /** An admitted request that ended without an answer (see RateBudget.recordFailure). */
  recordFailure(now: number, token: Token): void | Promise<void>;
  /** Marks the key as in interactive use (a dashboard request was made at `now`). */
  noteInteractive(now: number): void;
  snapshot(now: number): BudgetSnapshot;
}

const NO_RESERVE = { perSecond: 0, perMinute: 0 } as const;

/** Longest pause a header may impose (a misread clock must not park a key for hours). */
const MAX_PAUSE_MS = MAX_RETRY_AFTER_SECONDS * 1000;

/** The widths (ms) of the two windows with their margins, how long interactive use lasts, and the burst's recovery step. */
export function budgetWindows(options: RateBudgetOptions): { secondWindow: number; minuteWindow: number; interactiveWindow: number; burstRecovery: number } {
  return {
    secondWindow: 1000 + (options.secondMarginMs ?? 100),
    minuteWindow: 60_000 + (options.minuteMarginMs ?? 500),
    interactiveWindow: options.interactiveWindowMs ?? 5 * 60_000,
    burstRecovery: options.burstRecoveryMs ?? 10_000,
  };
}

/** Until when a 429 answered at `now` pauses the key: its Retry-After, else its reset, else a second (capped). */
export function pauseAfter429(now: number, info: RateLimitInfo): number {
  const waitMs = info.retryAfter !== undefined ? info.retryAfter * 1000 : info.resetAt !== undefined && info.resetAt > now ? info.resetAt - now : 1000;
  return now + Math.min(Math.max(waitMs, 250), MAX_PAUSE_MS);
}

export class RateBudget implements KeyBudget<number> {
  private plan: PlanBudget;
  private learned = false;
  private readonly fixed: boolean;
  private readonly secondWindow: number;
  private readonly minuteWindow: number;
  /** When answered requests were answered (their place in the windows), ascending, pruned to the minute window. */
  private answered: number[] = [];
  /** Sequence numbers of requests admitted and not yet answered, in admission order: they count in every window. */
  private inFlight: number[] = [];
  /** When the newest request was admitted (the spacing near Remaining 0 counts from it). */
  private lastSent = -Infinity;
  private seq = 0;
  private pauseUntil = 0;
  /**
   * The server's Remaining as read from the newest-sent request answered so far (`seq`), minus the
   * requests sent after that one (which it had not counted yet).
   */
  private server: { remaining: number; resetAt: number; sentSince: number; seq: number } | null = null;
  private readonly interactiveWindow: number;
  private lastInteractive = -Infinity;
  private readonly burstRecovery: number;
  /** The burst as the last 429 cut it (null: never cut). */
  private cut: BurstCut | null = null;

  constructor(options: RateBudgetOptions = {}) {
    this.plan = options.budget ?? DEFAULT_BUDGET;
    this.fixed = options.fixed ?? false;
    ({
      secondWindow: this.secondWindow,
      minuteWindow: this.minuteWindow,
      interactiveWindow: this.interactiveWindow,
      burstRecovery: this.burstRecovery,
    } = budgetWindows(options));
  }

  /** The plan with its per-second admission as it stands at `now` (cut after a 429). */
  private current(now: number): PlanBudget {
    return { perSecond: burstAt(this.plan.perSecond, this.cut, now, this.burstRecovery), perMinute: this.plan.perMinute };
  }

  /** Marks the key as in interactive use (a dashboard request was made at `now`). */
  noteInteractive(now: number): void {
    this.lastInteractive = Math.max(this.lastInteractive, now);
  }

  /** Milliseconds to wait before a request may be sent at `now` (0 = send now). */
  delay(now: number, priority: BudgetPriority = "interactive"): number {
    this.prune(now);
    const plan = this.current(now);
    const reserve = priority === "bulk" ? this.bulkReserve(now) : NO_RESERVE;
    let t = Math.max(now, this.pauseUntil);
    // Each constraint can only move t later; two passes settle the interplay of the windows.
    for (let pass = 0; pass < 3; pass++) {
      const before = t;
      t = this.windowFree(t, now, this.secondWindow, plan.perSecond - reserve.perSecond);
      t = this.windowFree(t, now, this.minuteWindow, plan.perMinute - reserve.perMinute);
      t = this.serverPacing(t, now, plan.perSecond, reserve.perMinute);
      if (t === before) break;
    }
    return Math.max(0, Math.ceil(t - now));
  }

  /** delay() and, when it is 0, recordSend() in one step: the scheduler's admission. */
  admit(now: number, priority: BudgetPriority = "interactive"): Admission<number> {
    const waitMs = this.delay(now, priority);
    return waitMs === 0 ? { admitted: true, token: this.recordSend(now) } : { admitted: false, waitMs };
  }

  /**
   * Records a request as admitted (call when delay() returned 0, right before it is sent); returns
   * its sequence number. It counts in every window until recordResponse / recordFailure.
   */
  recordSend(now: number): number {
    this.lastSent = now;
    const seq = ++this.seq;
    this.inFlight.push(seq);
    if (this.server) this.server.sentSince++;
    return seq;
  }

  /**
   * Moves a request from those in flight (the oldest one when no sequence number is given) to the
   * answered ones, placed at `now`. Answering twice does nothing the second time.
   */
  private settle(now: number, seq: number | undefined): number {
    const i = seq === undefined ? 0 : this.inFlight.indexOf(seq);
    if (i < 0 || this.inFlight.length === 0) return seq ?? this.seq;
    // Kept ascending even if the clock stepped back: insert from the end (answers come in time order).
    let at = this.answered.length;
    while (at > 0 && this.answered[at - 1]! > now) at--;
    this.answered.splice(at, 0, now);
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
    const answered = this.settle(now, seq);
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
      this.pauseUntil = Math.max(this.pauseUntil, pauseAfter429(now, info));
      // Admitted before the last cut: that burst was already answered for.
      if (!this.cut || answered > this.cut.seq) this.cut = { burst: halvedBurst(this.current(now).perSecond), at: now, seq: this.seq };
    }
  }

  /**
   * Records a request that ended without a response (network error, timeout, abort). It may still
   * have reached the server, so it keeps its place in the windows, at `now`.
   */
  recordFailure(now: number, seq?: number): void {
    this.settle(now, seq);
  }

  /** What bulk requests leave free at `now`: the interactive reserve (of the burst) while the key is in interactive use. */
  private bulkReserve(now: number): { perSecond: number; perMinute: number } {
    return now - this.lastInteractive < this.interactiveWindow ? interactiveReserve(this.current(now)) : NO_RESERVE;
  }

  snapshot(now: number): BudgetSnapshot {
    this.prune(now);
    return {
      ...this.plan,
      burst: this.current(now).perSecond,
      reserved: this.bulkReserve(now),
      learned: this.learned,
      sentLastMinute: this.answered.length + this.inFlight.length,
      inFlight: this.inFlight.length,
      ...(this.server && now < this.server.resetAt ? { serverRemaining: this.server.remaining - this.server.sentSince } : {}),
      ...(this.pauseUntil > now ? { pausedUntil: this.pauseUntil } : {}),
    };
  }

  private prune(now: number): void {
    const cutoff = now - this.minuteWindow;
    let drop = 0;
    while (drop < this.answered.length && this.answered[drop]! <= cutoff) drop++;
    if (drop) this.answered = this.answered.slice(drop);
    if (this.server && now >= this.server.resetAt) this.server = null;
  }

  /**
   * Earliest time >= t at which fewer than `cap` requests count within the trailing `width` ms:
   * those answered within it, and all those in flight.
   */
  private windowFree(t: number, now: number, width: number, cap: number): number {
    const open = this.inFlight.length;
    // Answered times are ascending; count those in (t - width, t].
    let first = this.answered.length;
    while (first > 0 && this.answered[first - 1]! > t - width) first--;
    if (this.answered.length - first + open < cap) return t;
    // Requests in flight leave the window no sooner than `width` after an answer that could come
    // now: a lower bound, re-checked by the scheduler once they are answered.
    if (open >= cap) return Math.max(t, now + width);
    // The oldest answered request that must leave the window for one more to fit.
    const leaving = this.answered[this.answered.length - (cap - open)]!;
    return Math.max(t, leaving + width);
  }

  /**
   * Slows down as the server's Remaining nears 0 (requests are spaced evenly instead of sent in a
   * burst, so in-flight ones are counted before more go out), and stops until its reset at 0.
   */
  private serverPacing(t: number, now: number, perSecond: number, reserved: number): number {
    const s = this.server;
    if (!s || t >= s.resetAt) return t;
    const left = s.remaining - s.sentSince - reserved;
    if (left <= 0) return Math.max(t, Math.min(s.resetAt + 50, now + MAX_PAUSE_MS));
    if (left >= perSecond) return t;
    return Math.max(t, this.lastSent + 1000 / perSecond);
  }
}
