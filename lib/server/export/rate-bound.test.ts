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
