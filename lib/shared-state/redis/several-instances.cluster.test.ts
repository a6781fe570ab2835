// Several instances behind a load balancer, for real: a redis-server and two production instances of
// the built app (testing/cluster.ts) on one sandbox, over HTTP. What must hold with REDIS_URL: one
// key's rate budget shared (together the instances stay under the key's limit: no upstream 429),
// identical requests made once across instances, a sign-out seen by every instance, an export's
// progress and cancel reachable from any instance, and Redis going away and coming back without a
// 5xx or a lost session. Run after the build (`npm run test:cluster`, part of `npm test`).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { CLUSTER_NOW, startCluster, type Cluster } from "@/testing/cluster";
import { signIn } from "@/testing/production";
import { processSandbox, type SandboxProcess } from "@/testing/sandbox-process";

let cluster: Cluster;
/** A second sandbox with the same seed and date: the Data API's own answers, to check ours against. */
let reference: SandboxProcess;
let a: string;
let b: string;

beforeAll(async () => {
  [cluster, reference] = await Promise.all([startCluster({ instances: 2 }), processSandbox(20_000, CLUSTER_NOW)]);
  [a, b] = cluster.instances.map((i) => i.base) as [string, string];
}, 180_000);

afterAll(async () => {
  await Promise.all([cluster?.stop(), reference?.close()]);
});

type VisitorPage = { data: Array<{ id: string }>; meta: { total: number } };

async function get(base: string, path: string, cookie: string): Promise<Response> {
  return fetch(`${base}${path}`, { headers: { cookie } });
}

/** The reference sandbox's answer (waiting out its Pro key's 50/s when this test asks faster). */
async function referenceGet<T>(path: string): Promise<T> {
  for (;;) {
    const res = await fetch(`${reference.baseUrl}${path}`, { headers: { Authorization: `Bearer ${DEMO_KEYS.pro}` } });
    if (res.status !== 429) {
      expect(res.status, path).toBe(200);
      return (await res.json()) as T;
    }
    await new Promise((r) => setTimeout(r, Number(res.headers.get("retry-after") ?? 1) * 1000));
  }
}

const upstreamLog = async () => (await cluster.sandbox.stats()).log;

describe("two instances with REDIS_URL on one Free key (100/min, 10/s)", () => {
  it("300 concurrent requests over both: no upstream 429, every answer as the Data API's, identical ones made once", async () => {
    const cookie = await signIn(a, { apiKey: DEMO_KEYS.free });
    const before = (await upstreamLog()).length;
    // 60 different pages of visitors, each asked 5 times, alternately on A and B, all at once.
    const pages = Array.from({ length: 60 }, (_, i) => `/api/visitors?limit=20&offset=${i * 20}`);
    const requests = Array.from({ length: 300 }, (_, i) => ({ path: pages[i % 60]!, base: i % 2 ? b : a }));
    const answers = await Promise.all(
      requests.map(async ({ path, base }) => {
        const res = await get(base, path, cookie);
        return { path, status: res.status, body: (await res.json()) as VisitorPage };
      }),
    );
    expect(answers.filter((x) => x.status !== 200).map((x) => `${x.path} ${x.status}`)).toEqual([]);

    const log = (await upstreamLog()).slice(before);
    expect(log.filter((e) => e.status === 429)).toEqual([]);
    // Every distinct page reached the Data API once (a few more only if a cached answer expired meanwhile).
    const visitorCalls = log.filter((e) => e.path === "/v1/visitors").length;
    expect(visitorCalls).toBeGreaterThanOrEqual(60);
    expect(visitorCalls).toBeLessThanOrEqual(66);

    for (const path of pages.slice(0, 60)) {
      const expected = await referenceGet<VisitorPage>(path.replace("/api", ""));
      for (const answer of answers.filter((x) => x.path === path)) {
        expect(
          answer.body.data.map((v) => v.id),
          path,
        ).toEqual(expected.data.map((v) => v.id));
        expect(answer.body.meta.total, path).toBe(expected.meta.total);
      }
    }
  }, 120_000);

  it("a response fetched on A is a cache hit on B", async () => {
    const cookie = await signIn(b, { apiKey: DEMO_KEYS.free });
    const path = "/api/analytics/overview?period=7d";
    const count = async () => (await upstreamLog()).filter((e) => e.path === "/v1/analytics/overview").length;
    const before = await count();
    expect((await get(a, path, cookie)).status).toBe(200);
    expect(await count()).toBe(before + 1);
    const onB = await get(b, path, cookie);
    expect(onB.status).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it("a sign-out on A makes the same cookie fail on B", async () => {
    const cookie = await signIn(a, { apiKey: DEMO_KEYS.free });
    expect(await (await get(b, "/api/session", cookie)).json()).toMatchObject({ signedIn: true });
    const out = await fetch(`${a}/api/session`, { method: "DELETE", headers: { cookie, Origin: a } });
    expect(out.status).toBe(200);
    expect(await (await get(b, "/api/session", cookie)).json()).toMatchObject({ signedIn: false });
    expect((await get(b, "/api/visitors?limit=1", cookie)).status).toBe(401);
  });
});

describe("two instances with REDIS_URL on one Pro key", () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await signIn(a, { apiKey: DEMO_KEYS.pro });
  });

  it("an export started on A shows its progress on B, and a cancel sent to B stops it on A", async () => {
    const id = `exp_${randomBytes(16).toString("base64url")}`;
    const download = await fetch(`${a}/api/export/visitors?format=csv&id=${id}`, { headers: { cookie, "sec-fetch-site": "same-origin" } });
    expect(download.status).toBe(200);
    const reader = download.body!.getReader();
    // Reads as a slow browser would: enough for the export to be under way.
    let bytes = 0;
    while (bytes < 50_000) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the export ended before it could be watched");
      bytes += value.byteLength;
    }
    let seen: { state: string; rows_written: number; total: number | null } | undefined;
    for (let i = 0; i < 50 && !(seen && seen.rows_written > 0); i++) {
      const res = await get(b, `/api/export/status?id=${id}`, cookie);
      if (res.status === 200) seen = (await res.json()) as typeof seen;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen?.state).toMatch(/^(running|waiting)$/);
    expect(seen!.rows_written).toBeGreaterThan(0);
    expect(seen!.total).toBeGreaterThan(seen!.rows_written);

    const cancel = await fetch(`${b}/api/export/cancel?id=${id}`, { method: "POST", headers: { cookie, Origin: b } });
    expect(cancel.status).toBe(202);
    // The download on A ends as failed (aborted), not as a complete file.
    const ended = await (async () => {
      try {
        for (;;) {
          const { done } = await reader.read();
          if (done) return "complete";
        }
      } catch {
        return "aborted";
      }
    })();
    expect(ended).toBe("aborted");
    const final = (await (await get(a, `/api/export/status?id=${id}`, cookie)).json()) as { state: string };
    expect(final.state).toBe("cancelled");
  }, 60_000);

  it("Redis going away and coming back: no 5xx, sessions kept, the instances say so and rejoin", async () => {
    const statuses: number[] = [];
    let running = true;
    const load = (async () => {
      for (let i = 0; running; i++) {
        const base = i % 2 ? b : a;
        try {
          const res = await get(base, `/api/visitors?limit=5&offset=${(i % 40) * 5}`, cookie);
          await res.arrayBuffer();
          statuses.push(res.status);
        } catch {
          statuses.push(0); // no answer at all: as bad as a 5xx
        }
      }
    })();
    const health = async (base: string) => (await (await fetch(`${base}/api/health`)).json()) as { redis: string; degraded?: boolean };

    try {
      await new Promise((r) => setTimeout(r, 500));
      await cluster.redis!.stop({ abrupt: true });
      const unavailable = async () => (await health(a)).redis === "unavailable" && (await health(b)).redis === "unavailable";
      for (let i = 0; i < 50 && !(await unavailable()); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await health(a)).toMatchObject({ redis: "unavailable", degraded: true });
      await new Promise((r) => setTimeout(r, 1500));
      // A sign-in while Redis is away works too.
      const during = await signIn(b, { apiKey: DEMO_KEYS.pro });
      expect((await get(a, "/api/visitors?limit=1", during)).status).toBe(200);

      await cluster.redis!.start();
      const connected = async () => (await health(a)).redis === "connected" && (await health(b)).redis === "connected";
      for (let i = 0; i < 100 && !(await connected()); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await connected()).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      running = false;
      await load;
    }

    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s >= 500 || s === 0)).toEqual([]);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect((await get(b, "/api/session", cookie)).status).toBe(200);
    expect(await (await get(b, "/api/session", cookie)).json()).toMatchObject({ signedIn: true });
  }, 60_000);
});
