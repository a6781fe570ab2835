// Rate limits through the BFF, against the sandbox's real limits over real HTTP. Every test runs on
// fake time (onServerFakeTime: the scheduler's clock and waits and the sandbox's clock are faked, the
// HTTP is real): the Free-plan floods need two and three of the plan's one-minute windows, and the
// storms wait out Retry-After and backoff, yet each takes about a second or less.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import type { Sandbox } from "@/sandbox/server";
import { SESSION_COOKIE, unsealSession } from "./session";
import { apiRoute, call, onServerFakeTime, sessionCookie, startUpstream, type ErrorJson } from "@/testing/in-process";

let sandbox: Sandbox;
/** Called at every read of the sandbox's clock, i.e. when a request arrives (tests block the loop here). */
let onClockRead: (() => void) | undefined;

beforeAll(async () => {
  sandbox = await startUpstream({
    clock: () => {
      onClockRead?.();
      return Date.now();
    },
  });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => {
  sandbox.setFaults({});
  sandbox.reset();
  onClockRead = undefined;
});

/**
 * A session cookie unsealed once already, as after a first request, so that every request of a flood
 * reaches the scheduler at the same fake instant. Otherwise each starts with its own first unseal
 * (WebCrypto, on the thread pool): those end at different real times, the fake clock may move on
 * meanwhile, and the outcome would depend on how loaded the machine is.
 */
async function unsealedCookie(apiKey: string): Promise<string> {
  const cookie = await sessionCookie(apiKey);
  await unsealSession(cookie.slice(SESSION_COOKIE.length + 1));
  return cookie;
}

const maxPerBucket = (times: number[], width: number) => {
  const counts = new Map<number, number>();
  for (const t of times) counts.set(Math.floor(t / width), (counts.get(Math.floor(t / width)) ?? 0) + 1);
  return Math.max(0, ...counts.values());
};

/** 200 distinct requests (no single-flight or cache can merge them) over several routes. */
function requests(n: number): { handler: Parameters<typeof call>[0]; path: string; params?: Record<string, string> }[] {
  return Array.from({ length: n }, (_, i) => {
    if (i % 4 === 1) return { handler: apiRoute, path: `/api/mentions?limit=1&offset=${i}` };
    if (i % 4 === 2) return { handler: apiRoute, path: `/api/visitors?limit=2&offset=${i}&converted=false` };
    return { handler: apiRoute, path: `/api/visitors?limit=1&offset=${i}` };
  });
}

/** The sandbox's log of the Free key's /v1 requests: `t` is its clock when it answered. */
const freeKeyLog = () => sandbox.stats().log.filter((l) => l.path.startsWith("/v1/") && DEMO_KEYS.free.endsWith(l.key.replace("…", "")));

describe("the per-key scheduler keeps the BFF within the plan", () => {
  it("200 concurrent requests with the Free key: no 429 or 503 to the caller; <= 10/s and <= 100/min upstream", async () => {
    const cookie = await unsealedCookie(DEMO_KEYS.free);
    const results = await onServerFakeTime(() => Promise.all(requests(200).map((r) => call(r.handler, r.path, { cookie }))));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    const mine = freeKeyLog();
    expect(mine).toHaveLength(200);
    expect(sandbox.stats().rateLimited).toBe(0);
    expect(
      maxPerBucket(
        mine.map((l) => l.t),
        1000,
      ),
    ).toBeLessThanOrEqual(10);
    expect(
      maxPerBucket(
        mine.map((l) => l.t),
        60_000,
      ),
    ).toBeLessThanOrEqual(100);
    // Not needlessly slow either: the second hundred go out as soon as the first minute has passed.
    const times = mine.map((l) => l.t);
    expect(Math.max(...times) - Math.min(...times)).toBeLessThan(75_000);
  });

  it("300 concurrent requests with the Free key while the event loop stalls for 1.2 s: no upstream 429, <= 10 arrivals in any second", async () => {
    const cookie = await unsealedCookie(DEMO_KEYS.free);
    // The loop blocks for 1.2 s while the first batch is on its way: right when the first request
    // reaches the sandbox, before it has read the others (it shares this process's loop, like a
    // Next server busy with a flood). The timers due meanwhile all fire once it is over.
    let stalled = false;
    onClockRead = () => {
      if (stalled) return;
      stalled = true;
      vi.advanceTimersByTime(1200);
    };
    const results = await onServerFakeTime(() => Promise.all(requests(300).map((r) => call<ErrorJson>(r.handler, r.path, { cookie }))));
    expect(stalled).toBe(true);

    const mine = freeKeyLog();
    expect(sandbox.stats().rateLimited, "upstream 429s").toBe(0);
    expect(
      maxPerBucket(
        mine.map((l) => l.t),
        1000,
      ),
      "most arrivals in one sandbox second",
    ).toBeLessThanOrEqual(10);
    expect(
      maxPerBucket(
        mine.map((l) => l.t),
        60_000,
      ),
      "most arrivals in one sandbox minute",
    ).toBeLessThanOrEqual(100);
    // Two minutes' budget is answered; the rest would wait longer than 90 s for the third minute's
    // and is refused by the BFF itself, as a 503 that says when to come back.
    expect(results.filter((r) => r.status === 200).length).toBe(200);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.length).toBe(100);
    for (const r of refused) {
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe("rate_limited");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
  });

  it("rides out a 429 storm hitting 20 concurrent requests", async () => {
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    sandbox.setFaults({ rateLimitStorm: 8 });
    const results = await onServerFakeTime(() => Promise.all(requests(20).map((r) => call(r.handler, r.path, { cookie }))));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(sandbox.stats().rateLimited).toBe(8);
  });

  it("rides out a burst of 500s hitting 20 concurrent requests", async () => {
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    sandbox.setFaults({ errorCount: 15 });
    const results = await onServerFakeTime(() => Promise.all(requests(20).map((r) => call(r.handler, r.path.replace("limit=", "limit=3&x="), { cookie }))));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(sandbox.stats().log.filter((l) => l.status === 500)).toHaveLength(15);
  });
});
