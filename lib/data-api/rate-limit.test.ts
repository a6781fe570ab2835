import { describe, expect, it } from "vitest";
import { MAX_RETRY_AFTER_SECONDS, budgetForLimit, parseRateLimitHeaders, parseResetHeader, parseRetryAfter } from "./rate-limit";

const NOW = Date.UTC(2026, 10, 20, 12, 0, 30);

describe("parseResetHeader: the three forms of X-RateLimit-Reset", () => {
  it("reads epoch seconds as an absolute time", () => {
    expect(parseResetHeader("1795176060", NOW)).toBe(1795176060_000);
  });
  it("reads a small number as seconds to the reset", () => {
    expect(parseResetHeader("30", NOW)).toBe(NOW + 30_000);
    expect(parseResetHeader("0", NOW)).toBe(NOW);
  });
  it("reads an HTTP date", () => {
    expect(parseResetHeader("Fri, 20 Nov 2026 12:01:00 GMT", NOW)).toBe(Date.UTC(2026, 10, 20, 12, 1, 0));
  });
  it("reads epoch milliseconds without multiplying them again", () => {
    expect(parseResetHeader(String(NOW + 5000), NOW)).toBe(NOW + 5000);
  });
  it("ignores junk", () => {
    for (const v of ["", "soon", "-5", "1.5", "12abc", null]) expect(parseResetHeader(v, NOW)).toBeUndefined();
  });
});

describe("parseRetryAfter", () => {
  it("reads delay-seconds and HTTP dates", () => {
    expect(parseRetryAfter("1", NOW)).toBe(1);
    expect(parseRetryAfter("Fri, 20 Nov 2026 12:00:40 GMT", NOW)).toBe(10);
    expect(parseRetryAfter("Fri, 20 Nov 2026 11:00:00 GMT", NOW)).toBe(0);
    expect(parseRetryAfter("later", NOW)).toBeUndefined();
  });
  it("caps a huge wait, in either form, at the longest pause the client takes", () => {
    expect(MAX_RETRY_AFTER_SECONDS).toBe(65);
    expect(parseRetryAfter("999999999", NOW)).toBe(MAX_RETRY_AFTER_SECONDS);
    expect(parseRetryAfter("999999999999999", NOW)).toBe(MAX_RETRY_AFTER_SECONDS);
    expect(parseRetryAfter("Fri, 01 Jan 2100 00:00:00 GMT", NOW)).toBe(MAX_RETRY_AFTER_SECONDS);
    expect(parseRetryAfter("65", NOW)).toBe(65);
    expect(parseRetryAfter("30", NOW)).toBe(30);
    expect(parseRateLimitHeaders(new Headers({ "Retry-After": "999999999" }), NOW)).toEqual({ retryAfter: MAX_RETRY_AFTER_SECONDS });
  });
});

describe("parseRateLimitHeaders", () => {
  it("collects limit, remaining, reset and Retry-After", () => {
    const h = new Headers({ "X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "7", "X-RateLimit-Reset": "1795176060", "Retry-After": "2" });
    expect(parseRateLimitHeaders(h, NOW)).toEqual({ limit: 100, remaining: 7, resetAt: 1795176060_000, retryAfter: 2 });
  });
  it("leaves out absent or invalid values", () => {
    expect(parseRateLimitHeaders(new Headers({ "X-RateLimit-Limit": "0", "X-RateLimit-Remaining": "x" }), NOW)).toEqual({});
  });
});

describe("budgetForLimit: the plan from X-RateLimit-Limit", () => {
  it("maps the documented plans", () => {
    expect(budgetForLimit(100)).toEqual({ perSecond: 10, perMinute: 100 });
    expect(budgetForLimit(1000)).toEqual({ perSecond: 50, perMinute: 1000 });
  });
  it("uses the stricter documented burst ratio for custom plans", () => {
    expect(budgetForLimit(5000)).toEqual({ perSecond: 250, perMinute: 5000 });
    expect(budgetForLimit(10)).toEqual({ perSecond: 1, perMinute: 10 });
  });
});
