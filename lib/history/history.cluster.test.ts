// Several instances sharing one PostgreSQL, for real: two production instances of the built app
// (testing/cluster.ts) with DATABASE_URL pointing at a PostgreSQL server this test starts on loopback
// (testing/postgres.ts), on one sandbox. A workspace watched before they start: the current
// hour's collection slot of that workspace runs once across both (one claim, one read of the score
// and the ranking), and stays run after both have ticked again; both instances answer the same
// /api/workspace. An alert rule set before they start fires on the first snapshot and reaches a real
// receiver once; a rule added through one instance fires once when both read the next day's score at
// the same moment. A receiver answering in 2 s, near the send's timeout, gets each of 8 deliveries
// (queued in the store, and "Send a test" through both instances) once, one request at a time, every
// attempt kept, while both senders poll four times a second (the sender before this put up to 11
// requests in flight at such a receiver, and sent some twice). The instances run with their
// background timings shortened (JOBS_TICK_MS, ALERTS_POLL_MS, ALERTS_SEND_TIMEOUT_MS: the same
// properties, seconds instead of minutes of waiting); the defaults' behaviour is the unit tests'.
// Run after the build (`npm run test:cluster`, part of `npm test`).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { startCluster, type Cluster } from "@/testing/cluster";
import { SERVER_SESSION_SECRET, signIn } from "@/testing/production";
import { HOURLY_JOB } from "@/lib/history/jobs";
import { hourlySlot } from "@/lib/store/scheduler";
import type { WorkspaceId } from "@/lib/store/schema";
import { openStore, type Store } from "@/lib/store/store";
import { startTestPostgres, type TestPostgres } from "@/testing/postgres";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { startReceiver, verifySignature, type Receiver } from "@/testing/webhook-receiver";
import { tmpdir } from "node:os";
import path from "node:path";

let postgres: TestPostgres;
let cluster: Cluster;
let store: Store;
let receiver: Receiver;
let secret: string;
let workspace: WorkspaceId;

/** The instances' timings (their defaults: 30 s, 5 s, 10 s). */
const TICK_MS = 2_000;
const POLL_MS = 250;
const SEND_TIMEOUT_MS = 3_500;
/** How long the slow receiver takes to answer: most of the timeout, many polls of both senders long. */
const SLOW_ANSWER_MS = 2_000;
const dataDir = mkdtempSync(path.join(tmpdir(), "wa-cluster-history-"));

beforeAll(async () => {
  postgres = await startTestPostgres();
  const databaseUrl = await postgres.createDatabase();
  // The deployment's store, as the instances will open it (same SESSION_SECRET: the sealed key opens there).
  store = await openStore({ dataDir, databaseUrl }, { secrets: () => ({ current: SERVER_SESSION_SECRET }) });
  const ws = await store.workspaces.workspaceForKey(DEMO_KEYS.pro);
  workspace = ws.id;
  await store.workspaces.setWatching(ws.id, DEMO_KEYS.pro);
  receiver = await startReceiver();
  secret = `whsec_${randomBytes(24).toString("base64")}`;
  const destination = await store.alerts.createDestination(ws.id, { kind: "webhook", name: "Receiver", url: receiver.url, urlHint: "…", secret });
  await store.alerts.createRule(ws.id, { kind: "score_below", threshold: 100, destinationId: destination.id, cooldownMs: 0 });
  // The response cache off: a read after the sandbox's clock moved is the new score at once.
  cluster = await startCluster({
    instances: 2,
    redis: false,
    env: {
      DATABASE_URL: databaseUrl,
      WEBHOOK_ALLOW_PRIVATE: "true",
      DATA_API_CACHE_TTL_MS: "0",
      JOBS_TICK_MS: String(TICK_MS),
      ALERTS_POLL_MS: String(POLL_MS),
      ALERTS_SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS),
    },
  });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
  await receiver?.close();
  await store?.close();
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe("two instances sharing one PostgreSQL", () => {
  it("run the watched workspace's hourly collection once per slot across both", async () => {
    const slot = hourlySlot(Date.now());
    // The workspace's own slot (scope: its id).
    const runsOf = () => store.jobs.runs(HOURLY_JOB, { scope: workspace });
    const run = await until("the hourly slot to be run", async () => (await runsOf()).find((r) => r.slot >= slot && r.state === "done"), 40_000);
    expect(run.outcome).toMatch(/^hourly: 2 kept/);
    // After two more ticks of both instances the slot is still run once.
    await new Promise((r) => setTimeout(r, 2 * TICK_MS + 1_000));
    const runs = (await runsOf()).filter((r) => r.slot === run.slot);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.attempts).toBe(1);
    const stats = await cluster.sandbox.stats();
    // Each instance's catch-up ran the slot's collection at most once between them (a slot crossing
    // an hour while the test waits would be a second slot, and a second row, not a second read).
    const slots = (await runsOf()).length;
    expect(stats.byPath["/intelligence/score"]).toBe(slots);
    expect(stats.byPath["/intelligence/ranking"]).toBe(slots);
    expect(stats.rateLimited).toBe(0);
  }, 90_000);

  it("both answer the same /api/workspace", async () => {
    const [a, b] = cluster.instances.map((i) => i.base) as [string, string];
    const answers = await Promise.all(
      [a, b].map(async (base) => {
        const cookie = await signIn(base, { apiKey: DEMO_KEYS.pro });
        const res = await fetch(`${base}/api/workspace`, { headers: { cookie } });
        expect(res.status).toBe(200);
        return (await res.json()) as { watching: string; history_since: string | null; linked_keys: unknown[] };
      }),
    );
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toMatchObject({ watching: "on", history_since: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
  });

  it("deliver an alert once: the rule set before they started, then a rule added through one instance when both read the new score at once", async () => {
    await receiver.waitFor(1, 40_000);
    const [a, b] = cluster.instances.map((i) => i.base) as [string, string];
    const cookie = await signIn(a, { apiKey: DEMO_KEYS.pro });
    const destinations = (await (await fetch(`${a}/api/alerts/destinations`, { headers: { cookie } })).json()) as { data: { id: string }[] };
    const added = await fetch(`${a}/api/alerts/rules`, {
      method: "POST",
      headers: { cookie, origin: a, "content-type": "application/json" },
      body: JSON.stringify({ kind: "score_below", threshold: 100, destination_id: destinations.data[0]!.id, cooldown_minutes: 0 }),
    });
    expect(added.status).toBe(201);
    const moved = await fetch(`${cluster.sandbox.baseUrl.replace(/\/v1$/, "")}/sandbox/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_ms: 86_400_000 }),
    });
    expect(moved.status).toBe(200);
    const reads = await Promise.all([a, b].map((base) => fetch(`${base}/api/intelligence/score`, { headers: { cookie } })));
    expect(reads.map((r) => r.status)).toEqual([200, 200]);
    await receiver.waitFor(2, 20_000);
    // After a dozen polls of both senders, still one delivery of each event.
    await new Promise((r) => setTimeout(r, 12 * POLL_MS));
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received.every((r) => verifySignature(secret, r))).toBe(true);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(2);
    expect(receiver.received.map((r) => (r.json as { type: string }).type)).toEqual(["alert.firing", "alert.firing"]);
  }, 90_000);

  it("send to a receiver answering near the timeout one request at a time: each delivery once, every attempt kept", async () => {
    const slow = await startReceiver();
    try {
      const count = 8;
      slow.answer(...Array.from({ length: count }, () => ({ status: 200, delayMs: SLOW_ANSWER_MS })));
      const destination = await store.alerts.createDestination(workspace, { kind: "webhook", name: "Slow receiver", url: slow.url, urlHint: "…", secret });
      // Five queued in the store (both instances' senders find them), three tests through both instances.
      for (let i = 0; i < count - 3; i++) {
        await store.alerts.enqueue(
          workspace,
          { dedupeKey: `slow:${i}`, type: "alert.firing", body: { type: "alert.firing", timestamp: new Date().toISOString(), data: { message: `slow ${i}` } } },
          [destination.id],
        );
      }
      const [a, b] = cluster.instances.map((i) => i.base) as [string, string];
      const cookie = await signIn(a, { apiKey: DEMO_KEYS.pro });
      for (const base of [a, b, a]) {
        const sent = await fetch(`${base}/api/alerts/destinations/${destination.id}/test`, { method: "POST", headers: { cookie, origin: base } });
        expect(sent.status).toBe(202);
      }
      await slow.waitFor(count, 60_000);
      // The last answer, then more than a send's timeout of polls by both senders: nothing is sent again.
      await new Promise((r) => setTimeout(r, SEND_TIMEOUT_MS + 8 * POLL_MS));
      expect(slow.received).toHaveLength(count);
      expect(new Set(slow.received.map((r) => r.headers["webhook-id"])).size).toBe(count);
      expect(slow.received.every((r) => verifySignature(secret, r))).toBe(true);
      expect(slow.maxInFlight()).toBe(1);
      const attempts = (await store.alerts.attempts(workspace, 200)).filter((x) => x.destinationId === destination.id);
      expect(attempts).toHaveLength(count);
      expect(attempts.every((x) => x.status === "delivered" && x.attempt === 1 && x.responseStatus === 200)).toBe(true);
    } finally {
      await slow.close();
    }
  }, 120_000);
});
