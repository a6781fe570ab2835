// A flood of requests on one Free key while the event loop stalls, on fake time. This is what a
// busy Next server does to the scheduler: 300 requests arrive at once, the first ten are admitted,
// and the loop is then busy for over a second before those ten are even written to their sockets.
// When it frees up, the timers of the waiting requests fire all at once. The upstream here is the
// sandbox's own rate limiter (fixed windows aligned to epoch seconds and minutes, counting a request
// when it arrives), reached through turns of the real event loop, so the writes really happen later
// than the admission.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RateLimiter } from "@/sandbox/rate-limit";
import { DataApiError } from "./errors";
import { createScheduler, type AttemptContext } from "./scheduler";

/** Mid-second, so that both the stall and the pacing cross epoch-second boundaries. */
const T0 = Date.UTC(2026, 10, 20, 12, 0, 0) + 300;
const STALL_MS = 1200;

/** One turn of the real event loop (setImmediate is not faked): where sockets are written and read. */
const ioTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const maxPerEpochWindow = (times: number[], width: number) => {
  const counts = new Map<number, number>();
  for (const t of times) counts.set(Math.floor(t / width), (counts.get(Math.floor(t / width)) ?? 0) + 1);
  return Math.max(0, ...counts.values());
};

beforeEach(() => {
  vi.useFakeTimers({ now: T0, toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the scheduler under a flood with a stalled event loop", () => {
  it("300 requests on a Free key: no upstream 429 and <= 10 arrivals in any second after a 1.2 s stall", async () => {
    const scheduler = createScheduler({ now: () => Date.now() });
    const limiter = new RateLimiter();
    const arrivals: number[] = [];
    let rejected = 0;
    let admitted = 0;

    async function attempt(ctx: AttemptContext): Promise<string> {
      // The loop blocks right after the first batch was admitted, before any of it was written:
      // time moves on, and the timers due meanwhile all fire when it is over.
      if (++admitted === 10) vi.advanceTimersByTime(STALL_MS);
      await ioTurn();
      const at = Date.now();
      const decision = limiter.hit("free", "Free", at);
      arrivals.push(at);
      await ioTurn();
      const info = { limit: decision.limit, remaining: decision.remaining, resetAt: decision.reset * 1000 };
      if (decision.allowed) {
        ctx.observe(200, info);
        return "ok";
      }
      rejected++;
      ctx.observe(429, { ...info, retryAfter: decision.retryAfter });
      throw new DataApiError({ status: 429, code: "rate_limit_exceeded", message: "rate limited", retryAfter: decision.retryAfter });
    }

    let settled = false;
    const all = Promise.allSettled(Array.from({ length: 300 }, () => scheduler.schedule(attempt))).finally(() => {
      settled = true;
    });
    // Discrete-event time: requests in flight finish on turns of the loop; when none is in flight,
    // the clock jumps to the next timer.
    while (!settled) {
      if (scheduler.snapshot().inFlight === 0) vi.advanceTimersToNextTimer();
      await ioTurn();
    }
    const results = await all;

    expect(rejected, "upstream 429s").toBe(0);
    expect(maxPerEpochWindow(arrivals, 1000), "most arrivals in one epoch second").toBeLessThanOrEqual(10);
    expect(maxPerEpochWindow(arrivals, 60_000), "most arrivals in one epoch minute").toBeLessThanOrEqual(100);
    // Every request either got its answer or was refused by the scheduler itself (it would have
    // waited more than 90 s for the third minute's budget): never an upstream 429.
    const outcomes = results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as DataApiError).code));
    expect(new Set(outcomes)).toEqual(new Set(["ok", "rate_limited"]));
    expect(outcomes.filter((o) => o === "ok").length).toBeGreaterThanOrEqual(200);
  });
});
