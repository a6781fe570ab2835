import { describe, expect, it } from "vitest";
import { RateBudget } from "./rate-budget";

const T0 = 1_800_000_000_000;

/** Sends as fast as the budget allows, on a simulated clock; returns the send times. */
function drain(budget: RateBudget, count: number, start = T0, priority: "interactive" | "bulk" = "interactive", until = Infinity): number[] {
  const times: number[] = [];
  let now = start;
  while (times.length < count && now < until) {
    const wait = budget.delay(now, priority);
    if (wait > 0) {
      now += wait;
      continue;
    }
    budget.recordSend(now);
    budget.recordResponse(now, 200, {});
    times.push(now);
  }
  return times;
}

const maxInAnyWindow = (times: number[], width: number) => {
  let best = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= width) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
};

describe("RateBudget", () => {
  it("lets bulk requests (exports) use the whole budget while nobody uses the dashboard", () => {
    const budget = new RateBudget({ budget: { perSecond: 10, perMinute: 100 } });
    const times = drain(budget, 100, T0, "bulk");
    expect(times).toHaveLength(100);
    expect(times[99]! - T0).toBeLessThan(10_500);
  });

  it("keeps a share of each window for the dashboard while it is in use, so its requests do not wait for an export", () => {
    const budget = new RateBudget({ budget: { perSecond: 10, perMinute: 100 } });
    budget.noteInteractive(T0 - 30_000);
    // An export drains as fast as it may for 30 s: it stops short of the minute's budget...
    const bulk = drain(budget, 1000, T0, "bulk", T0 + 30_000);
    expect(bulk.length).toBe(90);
    expect(maxInAnyWindow(bulk, 1000)).toBeLessThanOrEqual(8);
    // ...so a dashboard request made meanwhile is sent at once, not after the window.
    expect(budget.delay(T0 + 30_000, "interactive")).toBe(0);
    // Once the key has not been used interactively for the window, exports take the whole budget again.
    const later = new RateBudget({ budget: { perSecond: 10, perMinute: 100 }, interactiveWindowMs: 60_000 });
    later.noteInteractive(T0 - 61_000);
    expect(drain(later, 1000, T0, "bulk", T0 + 30_000)).toHaveLength(100);
  });

  it("keeps the server-reported Remaining's last requests for the dashboard too", () => {
    const budget = new RateBudget({ budget: { perSecond: 10, perMinute: 100 } });
    budget.noteInteractive(T0);
    budget.recordSend(T0);
    budget.recordResponse(T0, 200, { limit: 100, remaining: 10, resetAt: T0 + 20_000 });
    // 10 left and 10 reserved: an export waits for the reset, the dashboard does not.
    expect(budget.delay(T0 + 10, "bulk")).toBeGreaterThanOrEqual(19_990);
    expect(budget.delay(T0 + 10, "interactive")).toBeLessThan(1000);
  });

  it("keeps the Free plan under 10 per second and 100 per minute in every window", () => {
    const times = drain(new RateBudget({ budget: { perSecond: 10, perMinute: 100 } }), 250);
    expect(maxInAnyWindow(times, 1000)).toBeLessThanOrEqual(10);
    expect(maxInAnyWindow(times, 60_000)).toBeLessThanOrEqual(100);
    // ...and is not needlessly slow: 100 within the first ~10 s, the next 100 one minute later.
    expect(times[99]! - T0).toBeLessThan(10_500);
    expect(times[199]! - T0).toBeLessThan(72_000);
  });

  it("counts a request from its admission until its answer, and at the answer's time after that", () => {
    const budget = new RateBudget({ budget: { perSecond: 10, perMinute: 100 } });
    const seqs = Array.from({ length: 10 }, () => budget.recordSend(T0));
    // The ten were admitted at T0 but not yet answered (a stalled loop has not even written them):
    // the server may count them at any moment, so the second's budget is still spent 1.2 s later.
    expect(budget.delay(T0 + 1200)).toBeGreaterThan(0);
    // Answered at T0 + 1200: they may have arrived as late as that, so the next go 1.1 s after it.
    for (const seq of seqs) budget.recordResponse(T0 + 1200, 200, {}, seq);
    expect(budget.delay(T0 + 1200)).toBe(1100);
    expect(budget.delay(T0 + 2300)).toBe(0);
    // A request that failed without an answer may still have arrived: it keeps its place too.
    const other = new RateBudget({ budget: { perSecond: 1, perMinute: 100 } });
    other.recordFailure(T0 + 500, other.recordSend(T0));
    expect(other.delay(T0 + 1000)).toBe(600);
  });

  it("learns the Pro plan from X-RateLimit-Limit", () => {
    const budget = new RateBudget();
    budget.recordSend(T0);
    budget.recordResponse(T0, 200, { limit: 1000, remaining: 999, resetAt: T0 + 60_000 });
    expect(budget.snapshot(T0)).toMatchObject({ perSecond: 50, perMinute: 1000, learned: true });
    const times = drain(budget, 120, T0 + 1);
    expect(maxInAnyWindow([T0, ...times], 1000)).toBeLessThanOrEqual(50);
  });

  it("keeps a fixed budget (DATA_API_RATE_BUDGET) whatever the headers say", () => {
    const budget = new RateBudget({ budget: { perSecond: 2, perMinute: 30 }, fixed: true });
    budget.recordSend(T0);
    budget.recordResponse(T0, 200, { limit: 1000, remaining: 999, resetAt: T0 + 60_000 });
    expect(budget.snapshot(T0)).toMatchObject({ perSecond: 2, perMinute: 30, learned: false });
  });

  it("waits out Retry-After after a 429", () => {
    const budget = new RateBudget();
    budget.recordSend(T0);
    budget.recordResponse(T0, 429, { retryAfter: 3 });
    expect(budget.delay(T0)).toBe(3000);
    expect(budget.delay(T0 + 3000)).toBe(0);
  });

  it("halves the burst after a 429 (once per burst) and grows it back by a tenth of the plan every 10 s", () => {
    const budget = new RateBudget();
    // A burst of 10 in flight; the upstream (which says nothing of its limits) refuses three of them.
    const burst = Array.from({ length: 10 }, () => budget.recordSend(T0));
    for (const seq of burst.slice(0, 7)) budget.recordResponse(T0 + 5, 200, {}, seq);
    for (const seq of burst.slice(7)) budget.recordResponse(T0 + 5, 429, { retryAfter: 1 }, seq);
    // Cut once for the three: 5 a second from now on.
    expect(budget.snapshot(T0 + 5)).toMatchObject({ perSecond: 10, burst: 5 });
    const after = drain(budget, 20, T0 + 1005);
    expect(maxInAnyWindow(after, 1000)).toBe(5);
    expect(after[19]! - after[0]!).toBeGreaterThan(3000);
    // A 429 to a request sent under the cut burst cuts it again.
    const seq = budget.recordSend(T0 + 6000);
    budget.recordResponse(T0 + 6000, 429, {}, seq);
    expect(budget.snapshot(T0 + 6000).burst).toBe(2);
    // Additive increase: +1 (a tenth of Free's 10) every 10 s without a 429, up to the plan's.
    expect([16_000, 25_999, 26_000, 86_000, 600_000].map((t) => budget.snapshot(T0 + t).burst)).toEqual([3, 3, 4, 10, 10]);
    // Bulk requests keep the interactive reserve of the burst as it is, not of the plan.
    budget.noteInteractive(T0 + 16_000);
    expect(budget.snapshot(T0 + 16_000).reserved.perSecond).toBe(1);
  });

  it("grows a Pro key's halved burst by 5 every 10 s, and a burst of 1 leaves bulk requests their one", () => {
    const pro = new RateBudget({ budget: { perSecond: 50, perMinute: 1000 } });
    pro.recordResponse(T0, 429, {}, pro.recordSend(T0));
    expect([0, 10_000, 50_000].map((t) => pro.snapshot(T0 + t).burst)).toEqual([25, 30, 50]);
    const tiny = new RateBudget({ budget: { perSecond: 2, perMinute: 100 } });
    tiny.noteInteractive(T0);
    tiny.recordResponse(T0, 429, {}, tiny.recordSend(T0));
    expect(tiny.snapshot(T0)).toMatchObject({ burst: 1, reserved: { perSecond: 0 } });
    expect(tiny.delay(T0 + 1200, "bulk")).toBe(0);
  });

  it("stops until the reset when the server says nothing remains", () => {
    const budget = new RateBudget({ budget: { perSecond: 10, perMinute: 100 } });
    budget.recordSend(T0);
    budget.recordResponse(T0, 200, { limit: 100, remaining: 0, resetAt: T0 + 20_000 });
    expect(budget.delay(T0 + 10)).toBeGreaterThanOrEqual(19_990);
  });

  it("slows down as Remaining nears 0", () => {
    const budget = new RateBudget({ budget: { perSecond: 10, perMinute: 100 } });
    budget.recordSend(T0);
    budget.recordResponse(T0, 200, { limit: 100, remaining: 3, resetAt: T0 + 40_000 });
    // Three requests left: spaced evenly (1/perSecond) instead of sent in one burst.
    expect(budget.delay(T0)).toBe(100);
    budget.recordSend(T0 + 100);
    expect(budget.delay(T0 + 100)).toBe(100);
  });

  it("reads Remaining right when answers come back out of order, so a long run does not idle before the reset", () => {
    // A Pro key, 8 requests in flight, answers in a shuffled order; the server counts each request
    // when it arrives (send order) and its window resets at T0 + 60 s.
    const limit = 1000;
    const budget = new RateBudget({ budget: { perSecond: 50, perMinute: limit } });
    const resetAt = T0 + 60_000;
    let rng = 7;
    const random = () => (rng = (rng * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    // Each request in flight: its arrival number at the server and the budget's token for it.
    const inFlight: { arrival: number; token: number }[] = [];
    let now = T0;
    let sent = 0;
    while (sent < limit && now < resetAt) {
      const wait = inFlight.length < 8 ? budget.delay(now, "bulk") : Infinity;
      if (wait === 0) {
        inFlight.push({ arrival: ++sent, token: budget.recordSend(now) });
        continue;
      }
      if (inFlight.length > 0) {
        const { arrival, token } = inFlight.splice(Math.floor(random() * inFlight.length), 1)[0]!;
        now += 3;
        // The server had counted requests 1..arrival when this one arrived.
        budget.recordResponse(now, 200, { limit, remaining: limit - arrival, resetAt }, token);
      } else {
        now += Math.min(wait, 1000);
      }
    }
    expect(sent).toBe(limit);
    // 1000 requests at 50/s take ~22 s; idling until the reset would take 60 s.
    expect(now - T0).toBeLessThan(30_000);
    // ...and once the window's budget is spent, nothing more goes out before the reset.
    expect(budget.delay(now, "bulk")).toBeGreaterThan(resetAt - now - 100);
  });

  it("reserves requests still in flight when reading Remaining", () => {
    const budget = new RateBudget({ budget: { perSecond: 100, perMinute: 1000 } });
    for (let i = 0; i < 5; i++) budget.recordSend(T0);
    // One answer says 4 remain, but 4 others are still in flight: nothing is left.
    budget.recordResponse(T0, 200, { limit: 1000, remaining: 4, resetAt: T0 + 30_000 });
    expect(budget.snapshot(T0).serverRemaining).toBe(0);
    expect(budget.delay(T0)).toBeGreaterThan(29_000);
  });

  it("caps a pause from a misread reset time", () => {
    const budget = new RateBudget();
    budget.recordSend(T0);
    budget.recordResponse(T0, 429, { retryAfter: 86_400 });
    expect(budget.delay(T0)).toBeLessThanOrEqual(65_000);
  });
});
