// Alert destinations through a rotation of SESSION_SECRET, on both databases, to a real receiver on
// loopback, on fake time: once the store has swept (as at start) the previous secret can be removed and
// alerts still arrive, signed with the destination's original whsec_ secret; a destination sealed under
// a secret this instance lacks (an instance of another rollout sealed it) is never a reason to fail
// the delivery: each attempt waits, saying why, past the six tries a failing receiver gets, and the
// delivery arrives once the instance has the secret.
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_NOW } from "@/testing/in-process";
import type { SealingSecrets } from "@/lib/store/secrets";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import { BACKOFF_MS, createDeliverer, LACKS_SECRET } from "./deliver";
import { send } from "./send";
import { startReceiver, verifySignature, type Receiver } from "@/testing/webhook-receiver";

const T0 = Date.parse(TEST_NOW);
let now = T0;
const clock = () => now;
const stores = storesForFile();
let receiver: Receiver;

const A = "alerts-rotation-secret-A-0123456789abcdefgh";
const B = "alerts-rotation-secret-B-0123456789abcdefgh";
const ELSEWHERE = "alerts-rotation-secret-of-another-rollout-01";

beforeEach(async () => {
  now = T0;
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
});

describe.each(STORE_KINDS)("alert destinations through a rotation (%s)", (kind) => {
  async function setup(first: SealingSecrets) {
    let secrets = first;
    const store = await stores.open(kind, { now: clock, secrets: () => secrets });
    const workspace = (await store.workspaces.workspaceForKey(`svc_sk_test_rotation_${randomBytes(6).toString("hex")}`)).id;
    const secret = `whsec_${randomBytes(24).toString("base64")}`;
    const destination = await store.alerts.createDestination(workspace, {
      kind: "webhook",
      name: "Receiver",
      url: receiver.url,
      urlHint: "http://127.0.0.1/…",
      secret,
    });
    const sender = createDeliverer({
      store: async () => store,
      now: clock,
      instance: "one",
      send: (url, s, message) => send(url, s, message, { allowPrivate: true, now: clock }),
      log: () => {},
    });
    const enqueue = (key: string) =>
      store.alerts.enqueue(
        workspace,
        { dedupeKey: key, type: "alert.firing", body: { type: "alert.firing", timestamp: new Date(now).toISOString(), data: { message: key } } },
        [destination.id],
      );
    return { store, workspace, destination, secret, sender, enqueue, use: (next: SealingSecrets) => void (secrets = next) };
  }

  it("after the sweep the previous secret can go: alerts still arrive, signed with the destination's original secret", async () => {
    const { store, secret, sender, enqueue, use } = await setup({ current: A });
    use({ current: B, previous: A });
    expect(await store.sealed.sweep()).toMatchObject({ resealed: 2, underPrevious: 0, unreadable: 0 });
    use({ current: B });

    await enqueue("after-rotation");
    expect(await sender.deliverDue()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(verifySignature(secret, receiver.received[0]!)).toBe(true);
    expect(receiver.received[0]!.json).toMatchObject({ data: { message: "after-rotation" } });
  });

  it("a destination this instance cannot open: the delivery waits, saying why, past six tries; it arrives once the instance has the secret", async () => {
    const { store, workspace, destination, secret, sender, enqueue, use } = await setup({ current: ELSEWHERE });
    use({ current: B, previous: A });
    const [delivery] = (await enqueue("while-lacking"))!;

    expect(await sender.deliverDue()).toBe(1);
    const [first] = await store.alerts.attempts(workspace);
    expect(first).toMatchObject({
      attempt: 1,
      status: "retrying",
      responseStatus: null,
      error: LACKS_SECRET,
      retryable: false,
      nextAttemptAt: now + BACKOFF_MS[0],
    });
    // Waits as after a failed send, then holds at the longest wait: never failed for good.
    for (let attempt = 2; attempt <= 8; attempt++) {
      now += BACKOFF_MS[Math.min(attempt - 1, BACKOFF_MS.length) - 1]!;
      expect(await sender.deliverDue()).toBe(1);
      expect(await store.alerts.delivery(delivery!.id)).toMatchObject({ status: "pending", attempts: attempt });
    }
    expect((await store.alerts.attempts(workspace)).every((a) => a.status === "retrying" && a.error === LACKS_SECRET)).toBe(true);
    expect(receiver.received).toHaveLength(0);
    expect((await store.alerts.destination(workspace, destination.id))!.status).toBe("active");

    // This instance is given the secret (as the previous one): the next attempt delivers.
    use({ current: B, previous: ELSEWHERE });
    now += BACKOFF_MS[4];
    expect(await sender.deliverDue()).toBe(1);
    expect(await store.alerts.delivery(delivery!.id)).toMatchObject({ status: "delivered" });
    expect(receiver.received).toHaveLength(1);
    expect(verifySignature(secret, receiver.received[0]!)).toBe(true);
  });
});
