// An export must not lock the dashboard out of its own key's rate limit. On the Free plan an
// export could spend the minute's 100 requests in ~10 s; this checks, over real HTTP, that a
// dashboard request made once the export has taken all it may still goes out at once. It runs on
// fake time (the scheduler's and the sandbox's clocks and waits): the export's pacing and the
// stall take no real time.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Sandbox } from "@/sandbox/server";
import { DEMO_KEYS } from "@/sandbox/keys";
import { onServerFakeTime, sessionCookie, startUpstream, ORIGIN } from "@/testing/in-process";
import { dataApiForKey } from "@/lib/server/upstream";
import { routeFileAt } from "@/testing/api-routes";

const { GET: exportVisitors } = await routeFileAt("export/visitors");

let sandbox: Sandbox;

beforeAll(async () => {
  // 20,000 visitors = 200 pages: twice the Free plan's minute budget.
  sandbox = await startUpstream({ visitors: 20_000 });
});

afterAll(async () => {
  await sandbox?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it("keeps dashboard requests flowing during a Free-plan export that exhausts the minute's budget", async () => {
  const cookie = await sessionCookie(DEMO_KEYS.free);
  await onServerFakeTime(async () => {
    const api = dataApiForKey(DEMO_KEYS.free);
    // The user is on the dashboard (interactive requests) and then starts an export.
    await api.get("/analytics/overview", { query: { period: "30d" } });

    const abort = new AbortController();
    const req = new Request(`${ORIGIN}/api/export/visitors?format=csv`, { headers: { cookie }, signal: abort.signal });
    const res = await exportVisitors(req, undefined);
    expect(res.status).toBe(200);
    // Read the download continuously, as a browser would (a paused reader would hold the export back).
    const reader = res.body!.getReader();
    let lastRowAt = Date.now();
    const pump = (async () => {
      for (;;) {
        const { done } = await reader.read().catch(() => ({ done: true }));
        if (done) return;
        lastRowAt = Date.now();
      }
    })();
    // Wait until the export has taken all the budget it may and stalls waiting for the next window.
    const exportRequests = () => sandbox.stats().log.filter((e) => e.path === "/v1/visitors" && e.status === 200).length;
    while (exportRequests() < 80 || Date.now() - lastRowAt < 2_000) await sleep(200);
    const sentByExport = exportRequests();
    expect(sentByExport).toBeGreaterThanOrEqual(85);
    expect(sentByExport).toBeLessThan(100);

    // A dashboard request now (new parameters, so no cache) must not wait for the next window.
    const started = Date.now();
    const page = await Promise.race([api.get("/visitors", { query: { source: "claude" } }), sleep(8_000).then(() => "waited" as const)]);
    expect(page, "the dashboard request waited for the export's rate-limit window").not.toBe("waited");
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(sandbox.stats().rateLimited).toBe(0);

    abort.abort();
    await reader.cancel().catch(() => undefined);
    await pump;
  });
});
