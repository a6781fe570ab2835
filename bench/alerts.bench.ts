// Alerts: how long from a snapshot to the webhook's arrival, and how many deliveries per second one
// instance sends to a fast receiver, alone and while another workspace's receivers hang.
// 1. Snapshot to webhook, through the production server (`npm start` with its sandbox, embedded
//    store, WEBHOOK_ALLOW_PRIVATE=true) and a real receiver on loopback: each round makes a rule that
//    fires on its first check (score below 100), moves the sandbox clock a day (a new score
//    `updated_at`), reads the score through the BFF (which records the snapshot, checks the rules and
//    sends), and times from the read's start to the signed webhook's arrival. Goal: p50 < 2 s.
// 2. Deliveries per second, in a child process: one sender (lib/alerts/deliver.ts, its defaults)
//    over the embedded store sending 2,000 queued events (100 to each of 20 destinations, the most
//    that may wait) of one workspace to a receiver on loopback that answers at once; then the same
//    while another workspace's 20 destinations, 2,000 deliveries queued before, go to a receiver that
//    never answers (each send waits out its 10 s timeout). Each twice, alternating, after a warm-up
//    run (the figures move with the machine's load; compare the ratio). Goal: the second rate within
//    20% of the first.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_SESSION_SECRET, benchBuild, benchChildMain, runBenchChild, signIn, startProductionServer } from "./support";

export const name =
  "alerts: snapshot to webhook (p50, goal < 2 s); deliveries per second of one instance to a fast receiver, alone and while another workspace's receivers hang (goal: within 20%)";

const ROUNDS = Number(process.env.BENCH_ALERT_ROUNDS ?? 20);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function snapshotToWebhook(): Promise<void> {
  if (!benchBuild("snapshot to webhook skipped")) return;
  const { startReceiver, verifySignature } = await import("../testing/webhook-receiver");
  const receiver = await startReceiver();
  // The response cache off: each round's read reaches the sandbox (with it, a new `updated_at` is
  // seen at most one DATA_API_CACHE_TTL_MS later; what is timed here is what follows the snapshot).
  const server = await startProductionServer({ WEBHOOK_ALLOW_PRIVATE: "true", DATA_API_CACHE_TTL_MS: "0" });
  const clock = (body: object) =>
    fetch(`${server.sandboxBase}/sandbox/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  try {
    const cookie = await signIn(server.base);
    const write = (method: string, url: string, body?: unknown) =>
      fetch(`${server.base}${url}`, {
        method,
        headers: { cookie, origin: server.base, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const destination = (await (await write("POST", "/api/alerts/destinations", { kind: "webhook", name: "Bench", url: receiver.url })).json()) as {
      id: string;
      secret: string;
    };
    const times: number[] = [];
    let verified = 0;
    let rule: string | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      if (rule) await write("DELETE", `/api/alerts/rules/${rule}`);
      rule = (
        (await (
          await write("POST", "/api/alerts/rules", { kind: "score_below", threshold: 100, destination_id: destination.id, cooldown_minutes: 0 })
        ).json()) as { id: string }
      ).id;
      await clock({ advance_ms: 86_400_000 });
      const before = receiver.received.length;
      const started = performance.now();
      const read = await fetch(`${server.base}/api/intelligence/score`, { headers: { cookie } });
      await read.arrayBuffer();
      const [arrived] = (await receiver.waitFor(before + 1, 10_000)).slice(before);
      times.push(performance.now() - started);
      if (verifySignature(destination.secret, arrived!)) verified++;
    }
    await clock({ reset: true });
    times.sort((a, b) => a - b);
    console.log(
      `snapshot to webhook over ${ROUNDS} rounds: p50 ${pct(times, 50).toFixed(0)} ms, p90 ${pct(times, 90).toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms (goal p50 < 2000 ms); signatures verified ${verified}/${ROUNDS}`,
    );
  } finally {
    server.stop();
    await receiver.close();
  }
}

/** In a child process (the server-only modules load under its react-server condition): the figures as lines. */
async function deliveriesPerSecond(): Promise<{ lines: string[] }> {
  const lines: string[] = [];
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  const { startReceiver } = await import("../testing/webhook-receiver");
  const { openStore } = await import("../lib/store/store");
  const { createDeliverer } = await import("../lib/alerts/deliver");
  const { send } = await import("../lib/alerts/send");
  const { MAX_DESTINATIONS, MAX_WAITING_PER_DESTINATION } = await import("../lib/store/alerts");
  const clock = () => Date.now();
  const rates: Record<"alone" | "hanging", number[]> = { alone: [], hanging: [] };
  for (const [round, hanging] of [false, false, true, false, true].entries()) {
    const dir = mkdtempSync(path.join(tmpdir(), "wa-bench-alerts-"));
    const fast = await startReceiver();
    const silent = await startReceiver();
    silent.answer(...Array.from({ length: MAX_DESTINATIONS * MAX_WAITING_PER_DESTINATION }, () => ({ status: 200, delayMs: 3_600_000 })));
    const store = await openStore({ dataDir: dir }, { secrets: () => ({ current: BENCH_SESSION_SECRET }), now: clock });
    const sender = createDeliverer({
      store: async () => store,
      now: clock,
      instance: "bench",
      send: (u, s, m, o) => send(u, s, m, { allowPrivate: true, now: clock, ...o }),
      log: () => {},
    });
    try {
      /** A workspace with 20 destinations to `receiver`, 100 deliveries queued to each. */
      const queue = async (key: string, receiver: typeof fast) => {
        const ws = (await store.workspaces.workspaceForKey(key)).id;
        const destinations = [];
        for (let d = 0; d < MAX_DESTINATIONS; d++)
          destinations.push(
            (
              await store.alerts.createDestination(ws, {
                kind: "webhook",
                name: `Bench ${d}`,
                url: `${receiver.url}/${d}`,
                urlHint: "…",
                secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
              })
            ).id,
          );
        for (let i = 0; i < MAX_WAITING_PER_DESTINATION; i++) {
          for (const [d, id] of destinations.entries()) {
            await store.alerts.enqueue(
              ws,
              {
                dedupeKey: `${key}:${d}:${i}`,
                type: "alert.firing",
                body: { type: "alert.firing", timestamp: new Date().toISOString(), data: { message: `Bench event ${i}` } },
              },
              [id],
            );
          }
        }
        return ws;
      };
      if (hanging) await queue("svc_sk_test_bench_alerts_hang", silent);
      const ws = await queue("svc_sk_test_bench_alerts_fast", fast);
      const queued = MAX_DESTINATIONS * MAX_WAITING_PER_DESTINATION;
      const started = performance.now();
      sender.start();
      await fast.waitFor(queued, 120_000);
      // Until the last answer is kept, not only sent.
      const delivered = async () => (await store.alerts.attempts(ws, queued + 1)).filter((a) => a.status === "delivered").length;
      while ((await delivered()) < queued) await new Promise((r) => setTimeout(r, 5));
      const seconds = (performance.now() - started) / 1000;
      const rate = queued / seconds;
      if (round === 0) continue;
      rates[hanging ? "hanging" : "alone"].push(rate);
      const held = hanging ? ` (meanwhile the hanging workspace held ${silent.maxInFlight()} requests open at once, ${silent.received.length} in all)` : "";
      lines.push(
        `one instance, embedded store, ${queued} deliveries of one workspace to a fast receiver${hanging ? ", while another workspace's 20 receivers never answer" : ", alone"}: ${seconds.toFixed(2)} s = ${rate.toFixed(0)} deliveries/s${held}`,
      );
    } finally {
      await sender.stop();
      await store.close();
      await fast.close();
      await silent.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [alone, withHanging] = [mean(rates.alone), mean(rates.hanging)];
  lines.push(
    `deliveries per second to the fast receiver with another workspace's receivers hanging: ${withHanging.toFixed(0)} against ${alone.toFixed(0)} alone (means of two runs each) = ${((withHanging / alone) * 100).toFixed(0)}% (goal: at least 80%)`,
  );
  return { lines };
}

const SCENARIOS = [{ id: "throughput" }] as const;

export async function run(): Promise<void> {
  const { lines } = await runBenchChild<{ lines: string[] }>(fileURLToPath(import.meta.url), "throughput", { ALERTS_BENCH_CHILD: "1" });
  for (const line of lines) console.log(line);
  await snapshotToWebhook();
}

benchChildMain("ALERTS_BENCH_CHILD", SCENARIOS, () => deliveriesPerSecond());
