// Rate limits through the BFF, against the sandbox's real limits over real HTTP. The 200-request
// Free-plan test is the suite's one deliberately long test (~70 s): 200 requests need two of the
// plan's one-minute windows.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import type { Sandbox } from "@/sandbox/server";
import * as routes from "./data-routes";
import { call, sessionCookie, startUpstream } from "./test-support";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startUpstream();
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => {
  sandbox.setFaults({});
  sandbox.reset();
});

const maxPerBucket = (times: number[], width: number) => {
  const counts = new Map<number, number>();
  for (const t of times) counts.set(Math.floor(t / width), (counts.get(Math.floor(t / width)) ?? 0) + 1);
  return Math.max(0, ...counts.values());
};

/** 200 distinct requests (no single-flight or cache can merge them) over several routes. */
function requests(n: number): { handler: Parameters<typeof call>[0]; path: string; params?: Record<string, string> }[] {
  return Array.from({ length: n }, (_, i) => {
    if (i % 4 === 1) return { handler: routes.listMentions, path: `/api/mentions?limit=1&offset=${i}` };
    if (i % 4 === 2) return { handler: routes.listVisitors, path: `/api/visitors?limit=2&offset=${i}&converted=false` };
    return { handler: routes.listVisitors, path: `/api/visitors?limit=1&offset=${i}` };
  });
}

describe("the per-key scheduler keeps the BFF within the plan", () => {
  it("200 concurrent requests with the Free key: no 429 or 503 to the caller; <= 10/s and <= 100/min upstream", async () => {
    const cookie = await sessionCookie(DEMO_KEYS.free);
    const results = await Promise.all(requests(200).map((r) => call(r.handler, r.path, { cookie })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    const stats = sandbox.stats();
    const mine = stats.log.filter((l) => l.path.startsWith("/v1/") && DEMO_KEYS.free.endsWith(l.key.replace("…", "")));
    expect(mine).toHaveLength(200);
    expect(stats.rateLimited).toBe(0);
    expect(maxPerBucket(mine.map((l) => l.t), 1000)).toBeLessThanOrEqual(10);
    expect(maxPerBucket(mine.map((l) => l.t), 60_000)).toBeLessThanOrEqual(100);
  }, 150_000);

  it("rides out a 429 storm hitting 20 concurrent requests", async () => {
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    sandbox.setFaults({ rateLimitStorm: 8 });
    const results = await Promise.all(requests(20).map((r) => call(r.handler, r.path, { cookie })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(sandbox.stats().rateLimited).toBe(8);
  });

  it("rides out a burst of 500s hitting 20 concurrent requests", async () => {
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    sandbox.setFaults({ errorCount: 15 });
    const results = await Promise.all(requests(20).map((r) => call(r.handler, r.path.replace("limit=", "limit=3&x=") , { cookie })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(sandbox.stats().log.filter((l) => l.status === 500)).toHaveLength(15);
  });
});
