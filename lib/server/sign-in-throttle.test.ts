import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSignInThrottle } from "./sign-in-throttle";

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2026-11-20T12:00:00Z"));
});
afterEach(() => vi.useRealTimers());

describe("sign-in throttle", () => {
  it("allows 10 failed attempts a minute per client, then says how long to wait", async () => {
    const throttle = createSignInThrottle();
    for (let i = 0; i < 10; i++) expect(await throttle.begin("198.51.100.1")).toBe(0);
    const wait = await throttle.begin("198.51.100.1");
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    // Another client is not affected: no global cap.
    expect(await throttle.begin("198.51.100.2")).toBe(0);
    vi.advanceTimersByTime(60_001);
    expect(await throttle.begin("198.51.100.1")).toBe(0);
  });

  it("successful attempts do not count", async () => {
    const throttle = createSignInThrottle();
    for (let i = 0; i < 50; i++) {
      expect(await throttle.begin("198.51.100.3")).toBe(0);
      await throttle.succeeded("198.51.100.3");
    }
  });

  it("parallel attempts reserve their point up front: a burst cannot exceed the limit", async () => {
    const throttle = createSignInThrottle();
    const waits = await Promise.all(Array.from({ length: 30 }, () => throttle.begin("198.51.100.4")));
    expect(waits.filter((w) => w === 0)).toHaveLength(10);
  });

  it("many clients never lock out one more (no global cap), and memory stays bounded", async () => {
    const throttle = createSignInThrottle({ maxClients: 1000 });
    for (let c = 0; c < 5000; c++) for (let i = 0; i < 3; i++) await throttle.begin(`10.${c >> 8}.${c & 255}.1`);
    expect(throttle.trackedClients()).toBeLessThanOrEqual(1000);
    expect(await throttle.begin("203.0.113.50")).toBe(0);
  });
});
