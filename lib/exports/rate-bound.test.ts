import { describe, expect, it } from "vitest";
import { burstBoundSeconds, minSecondsForRequests, pagesFor } from "./rate-bound";

const FREE = { perSecond: 10, perMinute: 100 };
const PRO = { perSecond: 50, perMinute: 1000 };

describe("minSecondsForRequests (rate bound)", () => {
  it("spends 1/perSecond of a second per request while the minute budget lasts", () => {
    expect(minSecondsForRequests(0, PRO)).toBe(0);
    expect(minSecondsForRequests(1, PRO)).toBe(0.02);
    expect(minSecondsForRequests(200, PRO)).toBe(4);
    expect(minSecondsForRequests(1000, PRO)).toBe(20);
    expect(minSecondsForRequests(100, FREE)).toBe(10);
  });

  it("waits for the minute window once perMinute requests are spent", () => {
    // 200 pages on Free: 100 in the first 10 s, the next 100 from 60 s on.
    expect(minSecondsForRequests(200, FREE)).toBe(70);
    expect(minSecondsForRequests(101, FREE)).toBe(60.1);
    expect(minSecondsForRequests(1001, PRO)).toBe(60.02);
  });
});

describe("burstBoundSeconds", () => {
  it("lets a burst of up to perSecond go at once", () => {
    expect(burstBoundSeconds(1, PRO)).toBe(0);
    expect(burstBoundSeconds(50, PRO)).toBe(0);
    expect(burstBoundSeconds(51, PRO)).toBe(1);
    expect(burstBoundSeconds(200, PRO)).toBe(3);
  });

  it("waits for the minute window once perMinute requests are spent", () => {
    expect(burstBoundSeconds(200, FREE)).toBe(69);
    expect(burstBoundSeconds(1001, PRO)).toBe(60);
  });
});

describe("pagesFor", () => {
  it("counts pages, one for an empty export", () => {
    expect(pagesFor(0)).toBe(1);
    expect(pagesFor(100)).toBe(1);
    expect(pagesFor(20_000)).toBe(200);
    expect(pagesFor(20_001)).toBe(201);
  });
});

/** The step-by-step simulations the closed forms replace (the definitions, written out). */
function simulatedMinSeconds(n: number, plan: { perSecond: number; perMinute: number }): number {
  if (n <= 0) return 0;
  const step = 1 / Math.max(1, plan.perSecond);
  const m = Math.max(1, Math.floor(plan.perMinute));
  const times: number[] = [];
  let last = -step;
  for (let i = 0; i < n; i++) {
    let t = last + step;
    if (i >= m) t = Math.max(t, times[i - m]! + 60);
    times.push(t);
    last = t;
  }
  return Math.round((last + step) * 1000) / 1000;
}

function simulatedBurst(n: number, plan: { perSecond: number; perMinute: number }): number {
  if (n <= 1) return 0;
  const b = Math.max(1, Math.floor(plan.perSecond));
  const m = Math.max(b, Math.floor(plan.perMinute));
  const times: number[] = [];
  let last = 0;
  for (let i = 0; i < n; i++) {
    let t = last;
    if (i >= b) t = Math.max(t, times[i - b]! + 1);
    if (i >= m) t = Math.max(t, times[i - m]! + 60);
    times.push(t);
    last = t;
  }
  return last;
}

describe("closed forms agree with the step-by-step definitions", () => {
  const plans = [
    FREE,
    PRO,
    { perSecond: 3, perMinute: 10 },
    { perSecond: 7, perMinute: 100 },
    { perSecond: 1, perMinute: 1 },
    { perSecond: 2, perMinute: 500 },
    { perSecond: 50, perMinute: 3000 },
    { perSecond: 50, perMinute: 3001 },
    { perSecond: 4, perMinute: 241 },
  ];
  const counts = [0, 1, 2, 9, 10, 11, 99, 100, 101, 199, 200, 201, 999, 1000, 1001, 2500, 7777];
  it.each(plans)("plan %o", (plan) => {
    for (const n of counts) {
      expect(minSecondsForRequests(n, plan), `min n=${n}`).toBeCloseTo(simulatedMinSeconds(n, plan), 6);
      expect(burstBoundSeconds(n, plan), `burst n=${n}`).toBe(simulatedBurst(n, plan));
    }
  });

  it("answers at once for an absurd request count (1e9 pages of an upstream total of 1e11)", () => {
    // The old step-by-step loop would run a billion iterations here (the test would time out).
    expect(minSecondsForRequests(1e9, PRO)).toBe(60 * (1e6 - 1) + 20);
    expect(burstBoundSeconds(1e9, FREE)).toBe(60 * (1e7 - 1) + 9);
  });
});
