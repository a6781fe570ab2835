// The sender under slow and hanging receivers, as a discrete-event simulation on fake time over real
// I/O (lib/fake-time.ts): the store is real (both databases; two instances on PostgreSQL are two
// pools on one database), the receivers are real HTTP servers on loopback whose delays, like the
// senders' timeouts, polls and clocks, run on the fake clock. The clock moves only while nothing is
// on the wire or in the database, so minutes of receivers answering in 9-10 s take a second or two.
// - two instances, 50 deliveries to receivers answering in 9-10 s: each arrives exactly once, one
//   request at a time per receiver, every attempt kept (the sender this replaced claimed 50 under one
//   60 s lease and sent 8 at a time: its later waves started after the lease ran out, and the other
//   instance sent them again);
// - a workspace whose 20 receivers never answer does not delay another workspace's deliveries;
// - a destination that times out 5 times in a row rests 10 minutes, saying so, then is sent to again.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { onFakeTime } from "@/lib/fake-time";
import { REST_MS } from "@/lib/store/alerts";
import type { StoreKind } from "@/lib/store/database";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import { createDeliverer, type Deliverer, type DelivererOptions } from "./deliver";
import type { EventBody } from "./messages";
import { send, SEND_TIMEOUT_MS } from "./send";
import { startReceiver, type Receiver } from "@/testing/webhook-receiver";

const stores = storesForFile();
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/**
 * What is on the wire or in the database: the simulation's clock stands still while this is above 0.
 * Store calls are counted as they go (a proxy over `store.alerts`), requests from the send until the
 * receiver has read them, and answers from the receiver's write until the sender has read them.
 */
class Activity {
  storeCalls = 0;
  private sent = new Map<Receiver, number>();
  private answersRead = new Map<Receiver, number>();

  busy(): number {
    let n = this.storeCalls;
    for (const [receiver, sent] of this.sent) n += sent - receiver.received.length + receiver.answered() - (this.answersRead.get(receiver) ?? 0);
    return n;
  }

  /** `store` with every call of its alerts counted. */
  counted(store: Store): Store {
    const alerts = new Proxy(store.alerts, {
      get: (target, prop, receiver) => {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          this.storeCalls++;
          return Promise.resolve((value as (...a: unknown[]) => unknown).apply(target, args)).finally(() => this.storeCalls--);
        };
      },
    });
    return { ...store, alerts };
  }

  /** The real sender (send.ts), counted, with the most requests in flight at once per receiver. */
  sender(byUrl: Map<string, Receiver>, sendsAtOnce: Map<Receiver, { now: number; max: number }>): DelivererOptions["send"] {
    return async (url, secret, message, { timeoutMs }) => {
      const receiver = byUrl.get(url)!;
      const at = sendsAtOnce.get(receiver) ?? { now: 0, max: 0 };
      sendsAtOnce.set(receiver, { now: at.now + 1, max: Math.max(at.max, at.now + 1) });
      this.sent.set(receiver, (this.sent.get(receiver) ?? 0) + 1);
      const result = await send(url, secret, message, { allowPrivate: true, now: () => Date.now(), timeoutMs });
      if (result.status !== null) this.answersRead.set(receiver, (this.answersRead.get(receiver) ?? 0) + 1);
      sendsAtOnce.get(receiver)!.now--;
      return result;
    };
  }
}

/** Waits `ms` on the simulation's clock. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const body = (message: string): EventBody => ({ type: "alert.firing", timestamp: new Date().toISOString(), data: { message } });

type Setup = {
  activity: Activity;
  /** The instances' stores (one on the embedded database), counted. */
  instances: Store[];
  byUrl: Map<string, Receiver>;
  sendsAtOnce: Map<Receiver, { now: number; max: number }>;
  deliverers: Deliverer[];
};

async function setup(kind: StoreKind, instanceCount: number): Promise<Setup> {
  const activity = new Activity();
  const config = await stores.config(kind);
  const now = () => Date.now();
  const first = await stores.open(config, { now });
  const raw = [first];
  for (let i = 1; i < instanceCount; i++) raw.push(kind === "postgres" ? await stores.open(config, { now }) : first);
  return { activity, instances: raw.map((s) => activity.counted(s)), byUrl: new Map(), sendsAtOnce: new Map(), deliverers: [] };
}

async function receiverOf(s: Setup, store: Store, workspace: WorkspaceId, answers: { delayMs: number }[]) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  // A distinct path per destination: one receiver may stand for several.
  const url = `${receiver.url}/${randomBytes(4).toString("hex")}`;
  s.byUrl.set(url, receiver);
  receiver.answer(...answers.map((a) => ({ status: 200, delayMs: a.delayMs })));
  const destination = await store.alerts.createDestination(workspace, {
    kind: "webhook",
    name: "Receiver",
    url,
    urlHint: "…",
    secret: `whsec_${randomBytes(24).toString("base64")}`,
  });
  return { receiver, destination };
}

/** A sender instance; `sent` counts the requests it made. */
function deliverer(s: Setup, store: Store, instance: string, options: Partial<DelivererOptions> = {}): Deliverer & { sent: () => number } {
  const counted = s.activity.sender(s.byUrl, s.sendsAtOnce);
  let sent = 0;
  const d = createDeliverer({
    store: async () => store,
    now: () => Date.now(),
    instance,
    send: (...args) => (sent++, counted(...args)),
    log: () => {},
    ...options,
  });
  s.deliverers.push(d);
  return { ...d, sent: () => sent };
}

/** Polls (on the fake clock, every `stepMs`) until `done` says so, at most `withinMs`. */
async function until(done: () => Promise<boolean>, withinMs: number, stepMs = 1_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not done within ${withinMs} ms of simulated time`);
    await sleep(stepMs);
  }
}

async function statuses(store: Store, workspace: WorkspaceId) {
  return (await store.alerts.attempts(workspace, 1_000)).map((a) => a.status);
}

describe.each(STORE_KINDS)("sending under slow receivers, simulated (%s)", (kind) => {
  it("two instances, 50 deliveries to receivers answering in 9-10 s: each arrives exactly once, one request at a time per receiver, every attempt kept", async () => {
    const s = await setup(kind, 2);
    const [a, b] = s.instances as [Store, Store];
    const workspaces = [await a.workspaces.workspaceForKey("svc_sk_test_sim_slow_0001"), await a.workspaces.workspaceForKey("svc_sk_test_sim_slow_0002")].map(
      (w) => w.id,
    );
    // Five receivers (three in one workspace, two in the other), ten deliveries each.
    const answers = Array.from({ length: 10 }, (_, i) => ({ delayMs: 9_000 + ((i * 337) % 1_000) }));
    const destinations = [];
    for (let i = 0; i < 5; i++) destinations.push(await receiverOf(s, a, workspaces[i % 2]!, answers));
    const events: string[] = [];
    for (let e = 0; e < 10; e++) {
      for (const [i, { destination }] of destinations.entries()) {
        const made = await a.alerts.enqueue(workspaces[i % 2]!, { dedupeKey: `sim:${e}:${i}`, type: "alert.firing", body: body(`event ${e} to ${i}`) }, [
          destination.id,
        ]);
        events.push(made![0]!.eventId);
      }
    }
    expect(events).toHaveLength(50);

    // Two sends at once per workspace and instance: the first instance cannot take all five receivers
    // before the second looks, so both send from the start.
    const instances = [a, b].map((store, i) => deliverer(s, store, `instance-${i}`, { perWorkspace: 2 }));
    const started = await onFakeTime(
      async () => {
        const t0 = Date.now();
        for (const d of instances) d.start();
        await until(async () => (await statuses(a, workspaces[0]!)).length + (await statuses(a, workspaces[1]!)).length >= 50, 600_000);
        const took = Date.now() - t0;
        // Two more minutes: long past every lease, so a delivery claimed twice would be sent again now.
        await sleep(120_000);
        await Promise.all(s.deliverers.map((d) => d.stop()));
        return took;
      },
      () => s.activity.busy(),
    );

    const received = [...new Set(s.byUrl.values())].flatMap((r) => r.received);
    expect(received).toHaveLength(50);
    expect(received.map((r) => r.headers["webhook-id"]).sort()).toEqual([...events].sort());
    for (const receiver of s.byUrl.values()) {
      expect(receiver.maxInFlight()).toBe(1);
      expect(s.sendsAtOnce.get(receiver)!.max).toBe(1);
    }
    const attempts = [...(await a.alerts.attempts(workspaces[0]!, 1_000)), ...(await a.alerts.attempts(workspaces[1]!, 1_000))];
    expect(attempts).toHaveLength(50);
    expect(attempts.every((x) => x.status === "delivered" && x.attempt === 1 && x.responseStatus === 200)).toBe(true);
    // The five receivers were served side by side: ten answers of 9-10 s each, one after another.
    expect(started).toBeGreaterThanOrEqual(90_000);
    expect(started).toBeLessThan(110_000);
    expect(instances.map((d) => d.sent() > 0)).toEqual([true, true]);
    expect(instances[0]!.sent() + instances[1]!.sent()).toBe(50);
  });

  it("a workspace whose 20 receivers never answer does not delay another workspace's deliveries", async () => {
    const s = await setup(kind, 1);
    const [store] = s.instances as [Store];
    const slow = (await store.workspaces.workspaceForKey("svc_sk_test_sim_hang_0001")).id;
    const fast = (await store.workspaces.workspaceForKey("svc_sk_test_sim_fast_0001")).id;
    const hanging = [];
    for (let i = 0; i < 20; i++)
      hanging.push(
        await receiverOf(
          s,
          store,
          slow,
          Array.from({ length: 5 }, () => ({ delayMs: 3_600_000 })),
        ),
      );
    for (let e = 0; e < 5; e++)
      for (const [i, { destination }] of hanging.entries())
        await store.alerts.enqueue(slow, { dedupeKey: `hang:${e}:${i}`, type: "alert.firing", body: body("x") }, [destination.id]);
    const quick = await receiverOf(
      s,
      store,
      fast,
      Array.from({ length: 10 }, () => ({ delayMs: 20 })),
    );

    const arrivedAfter = await onFakeTime(
      async () => {
        // Eight sends at once, four of them at most for one workspace: without the share, the hanging
        // workspace would take all eight before the other's deliveries are made, for 10 s at a time.
        const sender = deliverer(s, store, "one", { concurrency: 8, perWorkspace: 4 });
        sender.start();
        await sleep(1_000);
        const t0 = Date.now();
        for (let e = 0; e < 10; e++)
          await store.alerts.enqueue(fast, { dedupeKey: `fast:${e}`, type: "alert.firing", body: body("y") }, [quick.destination.id]);
        sender.kick();
        await until(async () => quick.receiver.received.length >= 10, 600_000, 100);
        const took = Date.now() - t0;
        await Promise.all(s.deliverers.map((d) => d.stop()));
        return took;
      },
      () => s.activity.busy(),
    );

    // Ten answers of 20 ms, one after another: done long before the first hanging send times out.
    expect(arrivedAfter).toBeLessThan(SEND_TIMEOUT_MS - 1_000);
    expect(quick.receiver.maxInFlight()).toBe(1);
    expect((await statuses(store, fast)).filter((x) => x === "delivered")).toHaveLength(10);
    // Meanwhile the hanging workspace had its share in flight, and no more.
    const held = hanging.filter((h) => h.receiver.received.length > 0);
    expect(held.length).toBe(4);
  });

  it("a destination that times out 5 times in a row rests 10 minutes, saying so, and is sent to again after", async () => {
    const s = await setup(kind, 1);
    const [store] = s.instances as [Store];
    const workspace = (await store.workspaces.workspaceForKey("svc_sk_test_sim_rest_0001")).id;
    // Five answers too late, then prompt ones.
    const { receiver, destination } = await receiverOf(s, store, workspace, [
      ...Array.from({ length: 5 }, () => ({ delayMs: 3_600_000 })),
      ...Array.from({ length: 10 }, () => ({ delayMs: 10 })),
    ]);
    for (let e = 0; e < 8; e++) await store.alerts.enqueue(workspace, { dedupeKey: `rest:${e}`, type: "alert.firing", body: body("z") }, [destination.id]);

    const seen = await onFakeTime(
      async () => {
        const t0 = Date.now();
        deliverer(s, store, "one").start();
        await until(async () => receiver.received.length >= 5, 120_000);
        // The fifth timed out at about 50 s: the destination rests until about 10 min 50 s.
        await until(async () => (await store.alerts.attempts(workspace)).length >= 5, 60_000);
        const resting = await store.alerts.destination(workspace, destination.id);
        await sleep(REST_MS - 60_000);
        const duringRest = receiver.received.length;
        await until(async () => (await statuses(store, workspace)).filter((x) => x === "delivered").length >= 8, REST_MS);
        await Promise.all(s.deliverers.map((d) => d.stop()));
        return { resting, duringRest, elapsed: Date.now() - t0 };
      },
      () => s.activity.busy(),
    );

    const restingUntil = seen.resting!.restingUntil!;
    expect(restingUntil).toEqual(expect.any(Number));
    expect(seen.duringRest).toBe(5);
    // The first request after the rest was made when it ended, not before.
    const firstAfter = Number(receiver.received[5]!.headers["webhook-timestamp"]) * 1000;
    expect(firstAfter).toBeGreaterThanOrEqual(restingUntil - 1_000);
    expect(firstAfter).toBeLessThan(restingUntil + 10_000);
    const attempts = await store.alerts.attempts(workspace, 100);
    const timeouts = attempts.filter((x) => x.error !== null);
    expect(timeouts).toHaveLength(5);
    expect(timeouts.every((x) => x.responseStatus === null && /no answer within 10 s/.test(x.error!))).toBe(true);
    // The fifth says that the destination rests, and until when.
    expect(timeouts[0]!.error).toMatch(/^5 timeouts in a row: nothing is sent to this destination for 10 minutes, until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(timeouts.slice(1).every((x) => !/timeouts in a row/.test(x.error!))).toBe(true);
    expect(receiver.received).toHaveLength(5 + 8);
    expect(receiver.maxInFlight()).toBe(1);
  });
});
