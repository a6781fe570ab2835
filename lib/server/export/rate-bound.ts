// The rate-limit bound of an export: the least time a plan allows for N upstream requests when no
// more than `perSecond` may fall in any one-second span and no more than `perMinute` in any
// one-minute span (bursts allowed). The export route sends it as its duration estimate and the
// benchmark measures exports against it.

export type PlanLimits = { perSecond: number; perMinute: number };

/**
 * Seconds from the first request to the last one under the plan, sending each as early as both
 * windows allow (the greedy schedule, which is the fastest). 1 request takes 0 s.
 */
export function minSecondsForRequests(requests: number, plan: PlanLimits): number {
  const n = Math.floor(requests);
  if (n <= 1) return 0;
  const b = Math.max(1, Math.floor(plan.perSecond));
  const m = Math.max(b, Math.floor(plan.perMinute));
  // Only the last `m` send times matter; a ring buffer keeps this O(n) time, O(m) memory.
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

/** Pages an export of `rows` rows takes (an empty export still asks for one page). */
export function pagesFor(rows: number, pageSize = 100): number {
  return Math.max(1, Math.ceil(rows / pageSize));
}
