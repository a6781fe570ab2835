// The rate-limit bound of an export: the least time a plan allows for N upstream requests, with no
// more than `perSecond` in any one-second span and no more than `perMinute` in any one-minute span.
// The export route sends it as its duration estimate and the benchmark measures exports against it.
//
// Two readings of "the least time", both reported by the benchmark:
// - the rate bound (the target's reference): each request uses 1/perSecond of a second of budget,
//   so 200 requests at 50/s take 4 s; a spent per-minute budget waits for its window.
// - the burst bound: every burst sent at the very start of its window with zero processing time, so
//   200 requests at 50/s end at 3 s (bursts at 0, 1, 2, 3 s). Not reachable by a real client.

export type PlanLimits = { perSecond: number; perMinute: number };

/**
 * Seconds from the first request to the end of the last one's share of the budget, sending at the
 * per-second rate and waiting whenever `perMinute` requests fell within the last minute.
 * 200 requests: Pro (50/s, 1000/min) 4 s; Free (10/s, 100/min) 70 s (100 in 10 s, the rest from 60 s).
 *
 * Closed form, O(1) whatever `requests` is: an absurd upstream total (1e11 rows) must not turn an
 * estimate into a billion-step loop that freezes the server. Request i leaves at i/perSecond while a
 * minute's budget lasts; when `perMinute` requests take under a minute, every block of `perMinute`
 * requests starts one minute after the previous one (rate-bound.test.ts checks this against the
 * step-by-step simulation).
 */
export function minSecondsForRequests(requests: number, plan: PlanLimits): number {
  const n = Math.floor(requests);
  if (!(n > 0)) return 0;
  const r = Math.max(1, plan.perSecond);
  const m = Math.max(1, Math.floor(plan.perMinute));
  const i = n - 1;
  if (m / r > 60) return round((i + 1) / r);
  const block = Math.floor(i / m);
  return round(block * 60 + ((i % m) + 1) / r);
}

/**
 * Seconds until the last of N requests is sent when each burst goes out at the start of its window
 * (greedy). Closed form like minSecondsForRequests: bursts of `perSecond` one second apart, and a
 * block of `perMinute` requests per minute when they fit in one.
 */
export function burstBoundSeconds(requests: number, plan: PlanLimits): number {
  const n = Math.floor(requests);
  if (!(n > 1)) return 0;
  const b = Math.max(1, Math.floor(plan.perSecond));
  const m = Math.max(b, Math.floor(plan.perMinute));
  const i = n - 1;
  if (Math.floor((m - 1) / b) >= 60) return Math.floor(i / b);
  return Math.floor(i / m) * 60 + Math.floor((i % m) / b);
}

/** Float sums of 1/perSecond drift (0.1 * 3 !== 0.3); budgets are whole milliseconds at most. */
const round = (s: number) => Math.round(s * 1000) / 1000;

/** Pages an export of `rows` rows takes (an empty export still asks for one page). */
export function pagesFor(rows: number, pageSize = 100): number {
  return Math.max(1, Math.ceil(rows / pageSize));
}
