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
 */
export function minSecondsForRequests(requests: number, plan: PlanLimits): number {
  const n = Math.floor(requests);
  if (n <= 0) return 0;
  const step = 1 / Math.max(1, plan.perSecond);
  const m = Math.max(1, Math.floor(plan.perMinute));
  // Only the last `m` send times matter: a ring buffer keeps this O(n) time, O(m) memory.
  const times = new Float64Array(m);
  let last = -step;
  for (let i = 0; i < n; i++) {
    let t = last + step;
    if (i >= m) t = Math.max(t, times[i % m]! + 60);
    times[i % m] = t;
    last = t;
  }
  return round(last + step);
}

/** Seconds until the last of N requests is sent when each burst goes out at the start of its window (greedy). */
export function burstBoundSeconds(requests: number, plan: PlanLimits): number {
  const n = Math.floor(requests);
  if (n <= 1) return 0;
  const b = Math.max(1, Math.floor(plan.perSecond));
  const m = Math.max(b, Math.floor(plan.perMinute));
  const times = new Float64Array(m);
  let last = 0;
  for (let i = 0; i < n; i++) {
    let t = last;
    if (i >= b) t = Math.max(t, times[(i - b) % m]! + 1);
    if (i >= m) t = Math.max(t, times[i % m]! + 60);
    times[i % m] = t;
    last = t;
  }
  return last;
}

/** Float sums of 1/perSecond drift (0.1 * 3 !== 0.3); budgets are whole milliseconds at most. */
const round = (s: number) => Math.round(s * 1000) / 1000;

/** Pages an export of `rows` rows takes (an empty export still asks for one page). */
export function pagesFor(rows: number, pageSize = 100): number {
  return Math.max(1, Math.ceil(rows / pageSize));
}
