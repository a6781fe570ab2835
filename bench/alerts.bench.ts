// Alerts: how long from a snapshot to the webhook's arrival, and how many deliveries per second one
// instance sends.
// 1. Snapshot to webhook, through the production server (`npm start` with its sandbox, embedded
//    store, WEBHOOK_ALLOW_PRIVATE=true) and a real receiver on loopback: each round makes a rule that
//    fires on its first check (score below 100), moves the sandbox clock a day (a new score
//    `updated_at`), reads the score through the BFF (which records the snapshot, checks the rules and
//    sends), and times from the read's start to the signed webhook's arrival. Goal: p50 < 2 s.
// 2. Deliveries per second, in this process: one sender (lib/alerts/deliver.ts) over the embedded
//    store sending 2,000 queued events to a receiver on loopback that answers at once, and the same
//    with half of them failing first (a retry each).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_SESSION_SECRET, benchBuild, benchChildMain, runBenchChild, signIn, startProductionServer } from "./support";

export const name = "alerts: snapshot to webhook (p50, goal < 2 s) and deliveries per second of one instance";

const ROUNDS = Number(process.env.BENCH_ALERT_ROUNDS ?? 20);
const QUEUED = Number(process.env.BENCH_ALERT_QUEUED ?? 2000);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function snapshotToWebhook(): Promise<void> {
  if (!benchBuild("snapshot to webhook skipped")) return;
  const { startReceiver, verifySignature } = await import("../lib/alerts/test-receiver");
  const receiver = await startReceiver();
  // The response cache off: each round's read reaches the sandbox (with it, a new `updated_at` is
  // seen at most one DATA_API_CACHE_TTL_MS later; what is timed here is what follows the snapshot).
  const server = await startProductionServer({ WEBHOOK_ALLOW_PRIVATE: "true", DATA_API_CACHE_TTL_MS: "0" });
  const clock = (body: object) => fetch(`${server.sandboxBase}/sandbox/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  try {
    const cookie = await signIn(server.base);
    const write = (method: string, url: string, body?: unknown) =>
      fetch(`${server.base}${url}`, { method, headers: { cookie, origin: server.base, "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const destination = (await (await write("POST", "/api/alerts/destinations", { kind: "webhook", name: "Bench", url: receiver.url })).json()) as { id: string; secret: string };
    const times: number[] = [];
    let verified = 0;
    let rule: string | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      if (rule) await write("DELETE", `/api/alerts/rules/${rule}`);
      rule = ((await (await write("POST", "/api/alerts/rules", { kind: "score_below", threshold: 100, destination_id: destination.id, cooldown_minutes: 0 })).json()) as { id: string }).id;
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
    console.log(`snapshot to webhook over ${ROUNDS} rounds: p50 ${pct(times, 50).toFixed(0)} ms, p90 ${pct(times, 90).toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms (goal p50 < 2000 ms); signatures verified ${verified}/${ROUNDS}`);
  } finally {
    server.stop();
    await receiver.close();
  }
}

/** In a child process (the server-only modules load under its react-server condition): the figures as lines. */
async function deliveriesPerSecond(): Promise<{ lines: string[] }> {
  const lines: string[] = [];
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  const { startReceiver } = await import("../lib/alerts/test-receiver");
  const { openStore } = await import("../lib/store/store");
  const { createDeliverer } = await import("../lib/alerts/deliver");
  const { send } = await import("../lib/alerts/send");
  let offset = 0;
  const clock = () => Date.now() + offset;
  for (const failingFirst of [0, 0.5]) {
    const dir = mkdtempSync(path.join(tmpdir(), "wa-bench-alerts-"));
    const receiver = await startReceiver();
    const store = await openStore({ dataDir: dir }, { secrets: () => ({ current: BENCH_SESSION_SECRET }), now: clock });
    try {
      const ws = (await store.workspaces.workspaceForKey("svc_sk_test_bench_alerts_0001")).id;
      const destination = await store.alerts.createDestination(ws, { kind: "webhook", name: "Bench", url: receiver.url, urlHint: "…", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" });
      receiver.answer(...Array.from({ length: Math.round(QUEUED * failingFirst) }, () => ({ status: 503 })));
      for (let i = 0; i < QUEUED; i++) {
        await store.alerts.enqueue(ws, { dedupeKey: `bench:${i}`, type: "alert.firing", body: { type: "alert.firing", timestamp: new Date().toISOString(), data: { message: `Bench event ${i}` } } }, [destination.id]);
      }
      const sender = createDeliverer({ store: async () => store, now: clock, instance: "bench", send: (u, s, m, o) => send(u, s, m, { allowPrivate: true, now: clock, ...o }), log: () => {} });
      const started = performance.now();
      let attempts = await sender.deliverDue();
      // The failed ones are due 5 s later: move this process's clock instead of waiting.
      offset += 5_000;
      attempts += await sender.deliverDue();
      const seconds = (performance.now() - started) / 1000;
      const delivered = (await store.alerts.attempts(ws, 200_000)).filter((a) => a.status === "delivered").length;
      lines.push(
        `one instance, embedded store, ${QUEUED} events${failingFirst ? `, ${failingFirst * 100}% failing once first` : ""}: ${attempts} attempts in ${seconds.toFixed(2)} s = ${(attempts / seconds).toFixed(0)} attempts/s, ${(delivered / seconds).toFixed(0)} deliveries/s; delivered ${delivered}/${QUEUED}, requests received ${receiver.received.length}`,
      );
    } finally {
      await store.close();
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { lines };
}

const SCENARIOS = [{ id: "throughput" }] as const;

export async function run(): Promise<void> {
  const { lines } = await runBenchChild<{ lines: string[] }>(fileURLToPath(import.meta.url), "throughput", { ALERTS_BENCH_CHILD: "1" });
  for (const line of lines) console.log(line);
  await snapshotToWebhook();
}

benchChildMain("ALERTS_BENCH_CHILD", SCENARIOS, () => deliveriesPerSecond());
