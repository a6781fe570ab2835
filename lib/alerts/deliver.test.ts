// Delivering alerts, on both databases, to a real HTTP receiver on loopback, on fake time: a signed
// webhook arrives once with Standard Webhooks headers the library verifies; failures are tried again
// after 5 s, 1 min, 10 min, 1 h and 6 h and then fail for good (a retry by hand sends it again); a
// longer Retry-After is honoured; 410 Gone stops the destination; a redirect is not followed; a
// receiver that does not answer in time is a failed attempt; a private address is refused when
// sending unless allowed; two instances sending the same due deliveries at once send each once,
// including one whose first instance died mid-send; and a send that could not end within its claim's
// lease is not started.
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_NOW } from "@/testing/in-process";
import type { StoreKind } from "@/lib/store/database";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import { BACKOFF_MS, createDeliverer, inTurn, LEASE_MARGIN_MS, type Deliverer } from "./deliver";
import type { EventBody } from "./messages";
import { send } from "./send";
import { startReceiver, verifySignature, type Receiver } from "@/testing/webhook-receiver";

const T0 = Date.parse(TEST_NOW);
let now = T0;
const clock = () => now;
const stores = storesForFile();
let receiver: Receiver;

beforeEach(async () => {
  now = T0;
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
});

const quiet = () => {};

function deliverer(store: Store, instance: string, options: { allowPrivate?: boolean; timeoutMs?: number } = {}): Deliverer {
  return createDeliverer({
    store: async () => store,
    now: clock,
    instance,
    send: (url, secret, message, { timeoutMs }) => send(url, secret, message, { allowPrivate: options.allowPrivate ?? true, now: clock, timeoutMs }),
    log: quiet,
    ...(options.timeoutMs ? { sendTimeoutMs: options.timeoutMs } : {}),
  });
}

async function setup(kind: StoreKind, store?: Store) {
  const s = store ?? (await stores.open(kind, { now: clock }));
  const workspace = (await s.workspaces.workspaceForKey(`svc_sk_test_alerts_${randomBytes(6).toString("hex")}`)).id;
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const destination = await s.alerts.createDestination(workspace, {
    kind: "webhook",
    name: "Receiver",
    url: receiver.url,
    urlHint: "http://127.0.0.1/…",
    secret,
  });
  return { store: s, workspace, destination, secret };
}

const body = (message: string): EventBody => ({ type: "alert.firing", timestamp: new Date(now).toISOString(), data: { message, value: 61.5, previous: 70 } });

describe.each(STORE_KINDS)("alert delivery (%s)", (kind) => {
  it("an event reaches a real receiver once, signed the Standard Webhooks way; the attempt is kept", async () => {
    const { store, workspace, destination, secret } = await setup(kind);
    const made = await store.alerts.enqueue(workspace, { dedupeKey: "k1", type: "alert.firing", body: body("The score fell") }, [destination.id]);
    expect(made).toHaveLength(1);
    // The same dedupe key again makes nothing.
    expect(await store.alerts.enqueue(workspace, { dedupeKey: "k1", type: "alert.firing", body: body("again") }, [destination.id])).toBeNull();

    expect(await deliverer(store, "one").deliverDue()).toBe(1);
    expect(await deliverer(store, "one").deliverDue()).toBe(0);
    expect(receiver.received).toHaveLength(1);
    const [r] = receiver.received;
    expect(verifySignature(secret, r!)).toBe(true);
    expect(verifySignature(`whsec_${randomBytes(24).toString("base64")}`, r!)).toBe(false);
    expect(r!.headers["webhook-id"]).toBe(made![0]!.eventId);
    expect(Number(r!.headers["webhook-timestamp"])).toBe(Math.floor(now / 1000));
    expect(r!.headers["content-type"]).toBe("application/json");
    expect(r!.json).toEqual(body("The score fell"));

    const attempts = await store.alerts.attempts(workspace);
    expect(attempts).toEqual([
      expect.objectContaining({
        deliveryId: made![0]!.id,
        attempt: 1,
        status: "delivered",
        responseStatus: 200,
        error: null,
        retryable: false,
        nextAttemptAt: null,
        type: "alert.firing",
        destinationName: "Receiver",
      }),
    ]);
  });

  it("failures are tried again after 5 s, 1 min, 10 min, 1 h and 6 h, then fail for good; a retry by hand sends it again", async () => {
    const { store, workspace, destination } = await setup(kind);
    receiver.answer(...Array.from({ length: 6 }, () => ({ status: 500 })));
    const [delivery] = (await store.alerts.enqueue(workspace, { dedupeKey: "k", type: "alert.firing", body: body("x") }, [destination.id]))!;
    const sender = deliverer(store, "one");
    expect(await sender.deliverDue()).toBe(1);
    for (const wait of BACKOFF_MS) {
      now += wait - 1;
      expect(await sender.deliverDue()).toBe(0);
      now += 1;
      expect(await sender.deliverDue()).toBe(1);
    }
    now += 48 * 3_600_000;
    expect(await sender.deliverDue()).toBe(0);
    expect(receiver.received).toHaveLength(6);
    // One webhook-id on every attempt: a receiver can tell a repeat.
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);

    const attempts = await store.alerts.attempts(workspace);
    expect(attempts.map((a) => [a.attempt, a.status, a.responseStatus])).toEqual([
      [6, "failed", 500],
      [5, "retrying", 500],
      [4, "retrying", 500],
      [3, "retrying", 500],
      [2, "retrying", 500],
      [1, "retrying", 500],
    ]);
    expect(attempts[0]!.retryable).toBe(true);
    expect(attempts.slice(1).every((a) => !a.retryable)).toBe(true);
    expect((await store.alerts.delivery(delivery!.id))!.status).toBe("failed");

    expect(await store.alerts.retry(workspace, delivery!.id)).toBe("retrying");
    expect(await sender.deliverDue()).toBe(1);
    expect(receiver.received).toHaveLength(7);
    expect((await store.alerts.delivery(delivery!.id))!.status).toBe("delivered");
    expect(await store.alerts.retry(workspace, delivery!.id)).toBe("not_retryable");
    // Another workspace's delivery is not known here.
    const other = (await store.workspaces.workspaceForKey("svc_sk_test_other_workspace_1")).id;
    expect(await store.alerts.retry(other, delivery!.id)).toBe("unknown");
  });

  it("a Retry-After longer than the backoff is honoured (seconds or a date); a shorter one does not hurry it", async () => {
    const { store, workspace, destination } = await setup(kind);
    receiver.answer(
      { status: 429, headers: { "retry-after": "120" } },
      { status: 503, headers: { "retry-after": new Date(now + 120_000 + 3_600_000).toUTCString() } },
      { status: 503, headers: { "retry-after": "1" } },
    );
    await store.alerts.enqueue(workspace, { dedupeKey: "k", type: "alert.firing", body: body("x") }, [destination.id]);
    const sender = deliverer(store, "one");
    await sender.deliverDue();
    now += 60_000;
    expect(await sender.deliverDue()).toBe(0);
    now += 60_000;
    expect(await sender.deliverDue()).toBe(1);
    // The date asked for one hour from the second attempt's clock: not the 1 min backoff.
    now += 60_000;
    expect(await sender.deliverDue()).toBe(0);
    now += 3_600_000 - 60_000;
    expect(await sender.deliverDue()).toBe(1);
    // Retry-After: 1 s is less than the third backoff (10 min): the backoff stands.
    now += 1_000;
    expect(await sender.deliverDue()).toBe(0);
    now += 600_000;
    expect(await sender.deliverDue()).toBe(1);
    expect(receiver.received).toHaveLength(4);
  });

  it("410 Gone stops the destination: nothing more is made or sent for it, and it says why", async () => {
    const { store, workspace, destination } = await setup(kind);
    receiver.answer({ status: 410 });
    const [first] = (await store.alerts.enqueue(workspace, { dedupeKey: "a", type: "alert.firing", body: body("x") }, [destination.id]))!;
    await deliverer(store, "one").deliverDue();
    const stopped = await store.alerts.destination(workspace, destination.id);
    expect(stopped).toMatchObject({ status: "stopped", stoppedReason: expect.stringMatching(/410 Gone/) });
    expect(await store.alerts.enqueue(workspace, { dedupeKey: "b", type: "alert.firing", body: body("y") }, [destination.id])).toEqual([]);
    expect(await store.alerts.retry(workspace, first!.id)).toBe("not_retryable");
    now += 7 * 3_600_000;
    expect(await deliverer(store, "one").deliverDue()).toBe(0);
    expect(receiver.received).toHaveLength(1);
    expect((await store.alerts.attempts(workspace))[0]).toMatchObject({ status: "failed", responseStatus: 410, retryable: false });
  });

  it("a redirect is not followed; a receiver silent past the timeout is a failed attempt; a private address is refused when sending", async () => {
    const { store, workspace, destination } = await setup(kind);
    const elsewhere = await startReceiver();
    try {
      receiver.answer({ status: 307, headers: { location: elsewhere.url } }, { status: 200, delayMs: 1_500 });
      await store.alerts.enqueue(workspace, { dedupeKey: "a", type: "alert.firing", body: body("x") }, [destination.id]);
      const sender = deliverer(store, "one", { timeoutMs: 300 });
      await sender.deliverDue();
      expect(elsewhere.received).toHaveLength(0);
      now += BACKOFF_MS[0];
      await sender.deliverDue();
      const attempts = await store.alerts.attempts(workspace);
      expect(attempts.map((a) => [a.status, a.responseStatus])).toEqual([
        ["retrying", null],
        ["retrying", 307],
      ]);
      expect(attempts[1]!.error).toMatch(/redirect.*not followed/);
      expect(attempts[0]!.error).toMatch(/no answer within/);

      // With private addresses not allowed, a loopback receiver is refused before any connection:
      // written as an address, or as a name that resolves to one (checked as the socket connects).
      now += BACKOFF_MS[1];
      await deliverer(store, "one", { allowPrivate: false }).deliverDue();
      expect(receiver.received).toHaveLength(2);
      expect((await store.alerts.attempts(workspace))[0]!.error).toMatch(/https/);
      const port = new URL(receiver.url).port;
      for (const url of [`https://127.0.0.1:${port}/x`, `https://[::ffff:127.0.0.1]:${port}/x`, `https://localhost:${port}/x`]) {
        const result = await send(url, null, { id: "evt_x", at: now, body: "{}" }, { allowPrivate: false, now: clock });
        expect(result).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/private, loopback or otherwise reserved/) });
      }
      expect(receiver.received).toHaveLength(2);
    } finally {
      await elsewhere.close();
    }
  });

  it("two instances sending the same due deliveries at once send each once; a send left by a dead instance is taken over after its lease", async () => {
    const config = await stores.config(kind);
    const a = await stores.open(config, { now: clock });
    // The embedded database belongs to one process: its two senders share it.
    const b = kind === "postgres" ? await stores.open(config, { now: clock }) : a;
    const { workspace, destination } = await setup(kind, a);
    for (let i = 0; i < 20; i++) await a.alerts.enqueue(workspace, { dedupeKey: `e${i}`, type: "alert.firing", body: body(`event ${i}`) }, [destination.id]);
    const [sentA, sentB] = await Promise.all([deliverer(a, "one").deliverDue(), deliverer(b, "two").deliverDue()]);
    expect(sentA + sentB).toBe(20);
    expect(receiver.received).toHaveLength(20);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(20);

    // An instance claims a delivery and dies before sending: the other sends it once the lease runs out.
    const [orphan] = (await a.alerts.enqueue(workspace, { dedupeKey: "orphan", type: "alert.firing", body: body("orphan") }, [destination.id]))!;
    expect(await a.alerts.claimNext(destination.id, "dead", now, now + 20_000)).toMatchObject({ id: orphan!.id, attempts: 1 });
    expect(await deliverer(b, "two").deliverDue()).toBe(0);
    now += 20_001;
    expect(await deliverer(b, "two").deliverDue()).toBe(1);
    expect(receiver.received).toHaveLength(21);
    expect((await b.alerts.attempts(workspace))[0]).toMatchObject({ deliveryId: orphan!.id, attempt: 2, status: "delivered" });
  });

  it("a send that could not end within its claim's lease is not started: the delivery waits, as it was, for the next look", async () => {
    const { store, workspace, destination } = await setup(kind);
    const [made] = (await store.alerts.enqueue(workspace, { dedupeKey: "slow-store", type: "alert.firing", body: body("x") }, [destination.id]))!;
    // Reading the destination takes longer than the lease's margin (a stalled database, a paused process).
    const stalled: Store = {
      ...store,
      alerts: {
        ...store.alerts,
        openDestination: async (id: string) => {
          const opened = await store.alerts.openDestination(id);
          now += LEASE_MARGIN_MS + 1;
          return opened;
        },
      },
    };
    const lines: string[] = [];
    const sender = createDeliverer({
      store: async () => stalled,
      now: clock,
      instance: "one",
      send: (u, s, m, o) => send(u, s, m, { allowPrivate: true, now: clock, ...o }),
      log: (l) => lines.push(l),
    });
    expect(await sender.deliverDue()).toBe(0);
    expect(receiver.received).toHaveLength(0);
    expect(lines).toEqual([expect.stringMatching(/its claim would run out before the send could end/)]);
    expect(await store.alerts.delivery(made!.id)).toMatchObject({ status: "pending", attempts: 0 });
    expect(await store.alerts.attempts(workspace)).toEqual([]);
    expect(await deliverer(store, "two").deliverDue()).toBe(1);
    expect((await store.alerts.attempts(workspace))[0]).toMatchObject({ attempt: 1, status: "delivered" });
  });
});

describe("taking turns", () => {
  it("lists one workspace's items at a time, in the order the workspaces first appear", () => {
    const item = (workspaceId: string, n: number) => ({ workspaceId: workspaceId as WorkspaceId, n });
    const listed = inTurn([item("a", 1), item("a", 2), item("a", 3), item("b", 1), item("c", 1), item("b", 2)]);
    expect(listed.map((i) => `${i.workspaceId}${i.n}`)).toEqual(["a1", "b1", "c1", "a2", "b2", "a3"]);
    expect(inTurn([])).toEqual([]);
  });
});
