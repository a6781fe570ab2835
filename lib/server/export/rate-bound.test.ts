import { describe, expect, it } from "vitest";
import { minSecondsForRequests, pagesFor } from "./rate-bound";

const FREE = { perSecond: 10, perMinute: 100 };
const PRO = { perSecond: 50, perMinute: 1000 };

describe("minSecondsForRequests", () => {
  it("lets a burst of up to perSecond go at once", () => {
    expect(minSecondsForRequests(1, PRO)).toBe(0);
    expect(minSecondsForRequests(50, PRO)).toBe(0);
    expect(minSecondsForRequests(51, PRO)).toBe(1);
  });

  it("is bounded by the per-second budget while the minute budget lasts", () => {
    // 200 pages on Pro: bursts of 50 at 0, 1, 2 and 3 s.
    expect(minSecondsForRequests(200, PRO)).toBe(3);
    expect(minSecondsForRequests(100, FREE)).toBe(9);
  });

  it("waits for the minute window once perMinute requests are spent", () => {
    // 200 pages on Free: 100 in the first 9 s, the next 100 from 60 s on, 10 per second.
    expect(minSecondsForRequests(200, FREE)).toBe(69);
    expect(minSecondsForRequests(1000, PRO)).toBe(19);
    expect(minSecondsForRequests(1001, PRO)).toBe(60);
  });

  it("counts pages, one for an empty export", () => {
    expect(pagesFor(0)).toBe(1);
    expect(pagesFor(100)).toBe(1);
    expect(pagesFor(20_000)).toBe(200);
    expect(pagesFor(20_001)).toBe(201);
  });
});
