// Per-key rate limits with fixed windows aligned to epoch seconds (burst) and epoch minutes.
import { PLAN_LIMITS, type Plan } from "./keys";

export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix epoch seconds at which the current minute window ends. */
  reset: number;
  /** Whole seconds to wait when not allowed (>= 1). */
  retryAfter: number;
};

type Counter = { minute: number; minuteCount: number; second: number; secondCount: number };

export class RateLimiter {
  private counters = new Map<string, Counter>();

  /** Counts one request for `key` at `nowMs` and says whether it is within both limits. */
  hit(key: string, plan: Plan, nowMs: number): RateDecision {
    const { perMinute, perSecond } = PLAN_LIMITS[plan];
    const minute = Math.floor(nowMs / 60_000);
    const second = Math.floor(nowMs / 1000);
    let c = this.counters.get(key);
    if (!c) {
      c = { minute, minuteCount: 0, second, secondCount: 0 };
      this.counters.set(key, c);
    }
    if (c.minute !== minute) {
      c.minute = minute;
      c.minuteCount = 0;
    }
    if (c.second !== second) {
      c.second = second;
      c.secondCount = 0;
    }
    c.minuteCount++;
    c.secondCount++;
    const reset = (minute + 1) * 60;
    const overMinute = c.minuteCount > perMinute;
    const overSecond = c.secondCount > perSecond;
    const retryAfter = overMinute
      ? Math.max(1, Math.ceil(((minute + 1) * 60_000 - nowMs) / 1000))
      : overSecond
        ? Math.max(1, Math.ceil(((second + 1) * 1000 - nowMs) / 1000))
        : 0;
    return {
      allowed: !overMinute && !overSecond,
      limit: perMinute,
      remaining: Math.max(0, perMinute - c.minuteCount),
      reset,
      retryAfter,
    };
  }

  /** Headers for a request that is not counted (no valid key): the plan's full budget. */
  static idle(plan: Plan, nowMs: number): RateDecision {
    const perMinute = PLAN_LIMITS[plan].perMinute;
    return { allowed: true, limit: perMinute, remaining: perMinute, reset: (Math.floor(nowMs / 60_000) + 1) * 60, retryAfter: 0 };
  }

  clear(): void {
    this.counters.clear();
  }
}
