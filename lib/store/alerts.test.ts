// The alerts' store on both databases (two instances on PostgreSQL: two pools on one database): a
// workspace's bounds (20 destinations, 50 rules) hold when creates race each other; sending is
// claimed one attempt at a time per destination (of many claimers, one holds it, until its attempt
// ends or its lease runs out; an attempt that ends after it lost its claim is still kept and changes
// nothing); workspaces are offered in turn; at most 100 deliveries wait per destination, also when
// enqueues race, the rest failed at once saying why; five timeouts in a row rest a destination; and
// "Send a test", "Retry" and the digest's "Send now" count 10 a minute per workspace across
// instances. A rule's threshold changed is judged again on the same basis, and a check judged under
// the old threshold (by an instance that read the rule before the change) is not kept.
import { describe, expect, it } from "vitest";
import { MANUAL_SEND_WINDOW_MS, MANUAL_SENDS_PER_WINDOW, MAX_DESTINATIONS, MAX_RULES, MAX_WAITING_PER_DESTINATION, REST_MS, type Delivery } from "./alerts";
import type { StoreKind } from "./database";
import { StoreLimitError } from "./errors";
import type { Store } from "./store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";

const stores = storesForFile();
const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);

/** Two instances of the deployment: on PostgreSQL two pools on one database, embedded one store. */
async function twoInstances(kind: StoreKind, now: () => number = () => T0): Promise<[Store, Store]> {
  const config = await stores.config(kind);
  const a = await stores.open(config, { now });
  return [a, kind === "postgres" ? await stores.open(config, { now }) : a];
}

const destinationInput = (i: number) => ({
  kind: "webhook" as const,
  name: `Receiver ${i}`,
  url: `https://hooks.example.com/${i}`,
  urlHint: "https://hooks.example.com/…",
  secret: null,
});

describe.each(STORE_KINDS)("alerts store (%s)", (kind) => {
  it("60 destinations and then 60 rules created at once, from two instances, keep the workspace's bounds (20 and 50)", async () => {
    const [a, b] = await twoInstances(kind);
    const workspace = (await a.workspaces.workspaceForKey("svc_sk_test_alert_bounds_0001")).id;
    const other = (await a.workspaces.workspaceForKey("svc_sk_test_alert_bounds_0002")).id;

    const destinations = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).alerts.createDestination(workspace, destinationInput(i))),
    );
    expect(destinations.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_DESTINATIONS);
    const refused = destinations.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as unknown);
    expect(refused).toHaveLength(60 - MAX_DESTINATIONS);
    expect(refused.every((e) => e instanceof StoreLimitError && e.code === "limit_reached")).toBe(true);
    expect(await a.alerts.destinations(workspace)).toHaveLength(MAX_DESTINATIONS);
    // Another workspace's bound is its own.
    expect(await a.alerts.createDestination(other, destinationInput(0))).toMatchObject({ status: "active", restingUntil: null });

    const [target] = await a.alerts.destinations(workspace);
    const rules = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? a : b).alerts.createRule(workspace, { kind: "score_below", threshold: i, destinationId: target!.id, cooldownMs: 0 }),
      ),
    );
    expect(rules.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_RULES);
    expect(rules.filter((r) => r.status === "rejected" && r.reason instanceof StoreLimitError)).toHaveLength(60 - MAX_RULES);
    expect(await a.alerts.rules(workspace)).toHaveLength(MAX_RULES);
    // A destination of another workspace is not found (undefined: the route's 404), however full this one is.
    const foreign = (await a.alerts.destinations(other))[0]!;
    expect(await a.alerts.createRule(workspace, { kind: "score_below", threshold: 1, destinationId: foreign.id, cooldownMs: 0 })).toBeUndefined();
  });

  it("of many claimers of one destination at once, one holds it for one attempt; the next goes when that attempt ends or its lease runs out", async () => {
    let now = T0;
    const [a, b] = await twoInstances(kind, () => now);
    const workspace = (await a.workspaces.workspaceForKey("svc_sk_test_alert_claims_01")).id;
    const destination = await a.alerts.createDestination(workspace, destinationInput(1));
    const made: Delivery[] = [];
    for (let i = 0; i < 3; i++) {
      made.push((await a.alerts.enqueue(workspace, { dedupeKey: `c${i}`, type: "test", body: {} }, [destination.id]))![0]!);
      now += 1;
    }
    expect(await a.alerts.dueDestinations(now, 10)).toEqual([{ destinationId: destination.id, workspaceId: workspace }]);

    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).alerts.claimNext(destination.id, `i${i}`, now, now + 20_000)));
    const won = claims.filter((c) => c !== undefined);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ id: made[0]!.id, status: "sending", attempts: 1 });
    const holder = `i${claims.findIndex((c) => c !== undefined)}`;
    // Held: not offered, not claimable, though two more are due.
    expect(await a.alerts.dueDestinations(now + 1, 10)).toEqual([]);
    expect(await b.alerts.claimNext(destination.id, "late", now + 1, now + 20_001)).toBeUndefined();

    expect(
      await a.alerts.finishAttempt(won[0]!, holder, { at: now, status: "delivered", responseStatus: 200, error: null, durationMs: 10, nextAttemptAt: null }),
    ).toEqual({ current: true, restingUntil: null });
    const second = await b.alerts.claimNext(destination.id, "j", now, now + 20_000);
    expect(second).toMatchObject({ id: made[1]!.id, attempts: 1 });

    // Its instance stalls past the lease: the destination is offered again, and the same delivery is
    // claimed as its second attempt.
    now += 20_001;
    const retaken = await a.alerts.claimNext(destination.id, "k", now, now + 20_000);
    expect(retaken).toMatchObject({ id: made[1]!.id, attempts: 2 });
    // The stalled attempt ends late: it is kept, and neither moves the delivery nor frees the destination.
    expect(
      await b.alerts.finishAttempt(second!, "j", {
        at: now - 20_001,
        status: "delivered",
        responseStatus: 200,
        error: null,
        durationMs: 20_500,
        nextAttemptAt: null,
      }),
    ).toEqual({ current: false, restingUntil: null });
    expect(await a.alerts.delivery(made[1]!.id)).toMatchObject({ status: "sending", attempts: 2 });
    expect(await a.alerts.dueDestinations(now, 10)).toEqual([]);
    await a.alerts.finishAttempt(retaken!, "k", { at: now, status: "delivered", responseStatus: 200, error: null, durationMs: 10, nextAttemptAt: null });
    const attempts = await a.alerts.attempts(workspace);
    expect(
      attempts
        .filter((x) => x.deliveryId === made[1]!.id)
        .map((x) => x.attempt)
        .sort(),
    ).toEqual([1, 2]);

    // A claim given back unsent leaves the delivery as it was.
    const third = await a.alerts.claimNext(destination.id, "m", now, now + 20_000);
    expect(third).toMatchObject({ id: made[2]!.id, attempts: 1 });
    expect(await a.alerts.release(third!, "m")).toBe(true);
    expect(await a.alerts.delivery(made[2]!.id)).toMatchObject({ status: "pending", attempts: 0 });
    expect(await a.alerts.claimNext(destination.id, "n", now, now + 20_000)).toMatchObject({ id: made[2]!.id, attempts: 1 });
  });

  it("offers workspaces in turn: the one with fewer sends going on, then the one served longest ago, whenever its deliveries were made", async () => {
    let now = T0;
    const store = await stores.open(kind, { now: () => now });
    const ws = async (key: string) => (await store.workspaces.workspaceForKey(key)).id;
    const [busy, idle, late] = [await ws("svc_sk_test_alert_turns_001"), await ws("svc_sk_test_alert_turns_002"), await ws("svc_sk_test_alert_turns_003")];
    const busyDestinations = [await store.alerts.createDestination(busy, destinationInput(1)), await store.alerts.createDestination(busy, destinationInput(2))];
    const idleDestination = await store.alerts.createDestination(idle, destinationInput(3));
    for (const d of busyDestinations)
      for (let i = 0; i < 3; i++) await store.alerts.enqueue(busy, { dedupeKey: `b${d.id}${i}`, type: "test", body: {} }, [d.id]);
    now += 60_000;
    await store.alerts.enqueue(idle, { dedupeKey: "i0", type: "test", body: {} }, [idleDestination.id]);
    // `busy` has one send going on: `idle`, whose delivery is a minute younger, goes first.
    await store.alerts.claimNext(busyDestinations[0]!.id, "x", now, now + 20_000);
    expect((await store.alerts.dueDestinations(now, 10)).map((d) => d.workspaceId)).toEqual([idle, busy]);

    // Nothing going on anywhere (busy's lease ran out): the workspace served longest ago goes first.
    now += 30_000;
    const sent = (await store.alerts.claimNext(idleDestination.id, "x", now, now + 20_000))!;
    await store.alerts.finishAttempt(sent, "x", { at: now, status: "delivered", responseStatus: 200, error: null, durationMs: 5, nextAttemptAt: null });
    await store.alerts.enqueue(idle, { dedupeKey: "i1", type: "test", body: {} }, [idleDestination.id]);
    const lateDestination = await store.alerts.createDestination(late, destinationInput(4));
    await store.alerts.enqueue(late, { dedupeKey: "l0", type: "test", body: {} }, [lateDestination.id]);
    now += 1_000;
    const order = await store.alerts.dueDestinations(now, 10);
    expect(order.map((d) => d.workspaceId)).toEqual([late, busy, busy, idle]);
    // Within a workspace, its destination served longest ago first.
    expect(order.slice(1, 3).map((d) => d.destinationId)).toEqual([busyDestinations[1]!.id, busyDestinations[0]!.id]);
    expect(await store.alerts.dueDestinations(now, 2)).toHaveLength(2);
  });

  it("at most 100 deliveries wait per destination, also when enqueues race: the rest are failed at once, saying why; a retry waits for room", async () => {
    const now = T0;
    const [a, b] = await twoInstances(kind);
    const workspace = (await a.workspaces.workspaceForKey("svc_sk_test_alert_waiting_1")).id;
    const destination = await a.alerts.createDestination(workspace, destinationInput(1));
    const other = await a.alerts.createDestination(workspace, destinationInput(2));
    const made = await Promise.all(
      Array.from({ length: MAX_WAITING_PER_DESTINATION + 30 }, (_, i) =>
        (i % 2 ? a : b).alerts.enqueue(workspace, { dedupeKey: `w${i}`, type: "alert.firing", body: {} }, [destination.id, other.id]),
      ),
    );
    const toDestination = made.map((m) => m!.find((d) => d.destinationId === destination.id)!);
    expect(toDestination.filter((d) => d.status === "pending")).toHaveLength(MAX_WAITING_PER_DESTINATION);
    const refused = toDestination.filter((d) => d.status === "failed");
    expect(refused).toHaveLength(30);
    // The same for the other destination, each counted on its own.
    expect(made.filter((m) => m!.find((d) => d.destinationId === other.id)!.status === "pending")).toHaveLength(MAX_WAITING_PER_DESTINATION);
    const attempts = await a.alerts.attempts(workspace, 1_000);
    const said = attempts.filter((x) => x.deliveryId === refused[0]!.id);
    expect(said).toEqual([
      expect.objectContaining({
        attempt: 1,
        status: "failed",
        responseStatus: null,
        retryable: true,
        error: "not sent: 100 deliveries were already waiting for this destination (its receiver answers slowly or not at all), the most that may wait",
      }),
    ]);
    expect(await a.alerts.retry(workspace, refused[0]!.id)).toBe("queue_full");

    // One goes out: there is room for one retry, not two.
    const sent = (await a.alerts.claimNext(destination.id, "x", now, now + 20_000))!;
    await a.alerts.finishAttempt(sent, "x", { at: now, status: "delivered", responseStatus: 200, error: null, durationMs: 5, nextAttemptAt: null });
    const retries = await Promise.all(refused.slice(0, 2).map((d, i) => (i ? a : b).alerts.retry(workspace, d.id)));
    expect(retries.sort()).toEqual(["queue_full", "retrying"]);
  });

  it("five timeouts in a row rest a destination 10 minutes; any other outcome starts the count again", async () => {
    let now = T0;
    const store = await stores.open(kind, { now: () => now });
    const workspace = (await store.workspaces.workspaceForKey("svc_sk_test_alert_resting_1")).id;
    const destination = await store.alerts.createDestination(workspace, destinationInput(1));
    for (let i = 0; i < 12; i++) await store.alerts.enqueue(workspace, { dedupeKey: `r${i}`, type: "alert.firing", body: {} }, [destination.id]);
    const attempt = async (timedOut: boolean) => {
      const claimed = (await store.alerts.claimNext(destination.id, "x", now, now + 20_000))!;
      expect(claimed).toBeDefined();
      const outcome = timedOut
        ? {
            at: now,
            status: "retrying" as const,
            responseStatus: null,
            error: "no answer within 10 s",
            durationMs: 10_000,
            nextAttemptAt: now + 5_000,
            timedOut,
          }
        : { at: now, status: "retrying" as const, responseStatus: 500, error: "the receiver answered 500", durationMs: 10, nextAttemptAt: now + 5_000 };
      now += 10_000;
      return store.alerts.finishAttempt(claimed, "x", outcome);
    };
    for (let i = 0; i < 4; i++) expect((await attempt(true)).restingUntil).toBeNull();
    await attempt(false);
    for (let i = 0; i < 4; i++) expect((await attempt(true)).restingUntil).toBeNull();
    const fifth = await attempt(true);
    expect(fifth).toEqual({ current: true, restingUntil: now + REST_MS });
    expect((await store.alerts.destination(workspace, destination.id))!.restingUntil).toBe(now + REST_MS);
    const [latest] = await store.alerts.attempts(workspace);
    expect(latest!.error).toMatch(
      /^5 timeouts in a row: nothing is sent to this destination for 10 minutes, until 2026-11-20 12:\d\d UTC \(no answer within 10 s\)$/,
    );
    // The attempt that rested it is next tried when the rest ends, not after its backoff.
    expect(latest!.nextAttemptAt).toBe(now + REST_MS);

    expect(await store.alerts.dueDestinations(now + REST_MS - 1, 10)).toEqual([]);
    expect(await store.alerts.claimNext(destination.id, "x", now + REST_MS - 1, now + REST_MS + 20_000)).toBeUndefined();
    now += REST_MS;
    expect((await store.alerts.destination(workspace, destination.id))!.restingUntil).toBeNull();
    expect(await store.alerts.dueDestinations(now, 10)).toHaveLength(1);
    // Rested, it counts from none again.
    for (let i = 0; i < 4; i++) expect((await attempt(true)).restingUntil).toBeNull();
  });

  it('"Send a test" and "Retry" count 10 a minute per workspace, across instances; the 11th is told when there is room', async () => {
    let now = T0;
    const [a, b] = await twoInstances(kind, () => now);
    const workspace = (await a.workspaces.workspaceForKey("svc_sk_test_alert_manual_01")).id;
    const other = (await a.workspaces.workspaceForKey("svc_sk_test_alert_manual_02")).id;
    const first = await a.alerts.takeManualSend(workspace, "test");
    expect(first).toEqual({ allowed: true });
    now += 20_000;
    const raced = await Promise.all(Array.from({ length: 14 }, (_, i) => (i % 2 ? a : b).alerts.takeManualSend(workspace, i % 3 ? "test" : "retry")));
    expect(raced.filter((r) => r.allowed)).toHaveLength(MANUAL_SENDS_PER_WINDOW - 1);
    // Room again when the first leaves the window: 40 s from now.
    expect(raced.filter((r) => !r.allowed)).toEqual(Array.from({ length: 5 }, () => ({ allowed: false, retryAfterMs: MANUAL_SEND_WINDOW_MS - 20_000 })));
    expect(await b.alerts.takeManualSend(other, "test")).toEqual({ allowed: true });
    now += MANUAL_SEND_WINDOW_MS - 20_000 - 1;
    expect(await a.alerts.takeManualSend(workspace, "retry")).toMatchObject({ allowed: false, retryAfterMs: 1 });
    now += 1;
    expect(await a.alerts.takeManualSend(workspace, "retry")).toEqual({ allowed: true });
    expect(await a.alerts.takeManualSend(workspace, "retry")).toMatchObject({ allowed: false });
  });

  it("a check of a rule deleted since it was read keeps nothing and fails nothing (the collection that judged it goes on)", async () => {
    const [a, b] = await twoInstances(kind);
    const workspace = (await a.workspaces.workspaceForKey("svc_sk_test_alert_gone_0001")).id;
    const destination = await a.alerts.createDestination(workspace, destinationInput(1));
    const rule = (await a.alerts.createRule(workspace, { kind: "score_below", threshold: 60, destinationId: destination.id, cooldownMs: 0 }))!;
    const read = (await b.alerts.rule(workspace, rule.id))!;
    expect(await a.alerts.removeRule(workspace, rule.id)).toBe(true);
    await expect(b.alerts.recordCheck(read, { basis: "day:2026-11-28", at: T0, state: "firing", value: 1, message: "x" }, null)).resolves.toBe(false);
  });

  it("a rule's threshold changed is checked again on the same snapshot; a check of the old threshold, made meanwhile, keeps nothing", async () => {
    const [a, b] = await twoInstances(kind);
    const workspace = (await a.workspaces.workspaceForKey("svc_sk_test_alert_edit_0001")).id;
    const destination = await a.alerts.createDestination(workspace, destinationInput(1));
    const other = await a.alerts.createDestination(workspace, destinationInput(2));
    const rule = (await a.alerts.createRule(workspace, { kind: "score_below", threshold: 60, destinationId: destination.id, cooldownMs: 0 }))!;
    const check = (state: "ok" | "firing") => ({ basis: "score:1", at: T0, state, value: 53, message: "x" });
    expect(await a.alerts.recordCheck(rule, check("firing"), null)).toBe(true);
    expect(await b.alerts.recordCheck(rule, check("firing"), null)).toBe(false);

    // Read by instance b before the change; changed on a: its judgement of threshold 60 is not kept.
    const stale = (await b.alerts.rule(workspace, rule.id))!;
    const changed = await a.alerts.updateRule(workspace, rule.id, { threshold: 40, cooldownMs: 60_000 });
    expect(changed).toMatchObject({
      before: { threshold: 60, revision: 0 },
      after: { threshold: 40, cooldownMs: 60_000, revision: 1, state: "firing", lastCheckedAt: null },
    });
    expect(await b.alerts.recordCheck(stale, { ...check("firing"), basis: "score:2" }, null)).toBe(false);
    expect(await a.alerts.checks(workspace, rule.id)).toHaveLength(1);

    // The new threshold is judged on the snapshot already judged under the old one, once.
    const edited = (await a.alerts.rule(workspace, rule.id))!;
    expect(await a.alerts.recordCheck(edited, check("ok"), null)).toBe(true);
    expect(await b.alerts.recordCheck(edited, check("ok"), null)).toBe(false);
    expect(await a.alerts.rule(workspace, rule.id)).toMatchObject({ state: "ok", lastCheckedAt: T0, lastChangedAt: T0, revision: 1 });
    expect((await a.alerts.checks(workspace, rule.id)).map((c) => c.basis).sort()).toEqual(["score:1", "score:1#1"]);

    // Only what changes is written: the same threshold again is no new revision; another destination is checked to be this workspace's.
    expect(await a.alerts.updateRule(workspace, rule.id, { threshold: 40, destinationId: other.id })).toMatchObject({
      after: { revision: 1, destinationId: other.id },
    });
    const foreign = await a.alerts.createDestination((await a.workspaces.workspaceForKey("svc_sk_test_alert_edit_0002")).id, destinationInput(3));
    expect(await a.alerts.updateRule(workspace, rule.id, { destinationId: foreign.id })).toBe("destination");
    expect(await a.alerts.updateRule(workspace, "rule_AAAAAAAAAAAAAAAA", { threshold: 1 })).toBeUndefined();
  });

  it("the digest's Send now counts with tests and retries", async () => {
    const [a, b] = await twoInstances(kind);
    const workspace = (await a.workspaces.workspaceForKey("svc_sk_test_alert_sends_0001")).id;
    for (let i = 0; i < MANUAL_SENDS_PER_WINDOW; i++)
      expect((await (i % 2 ? a : b).alerts.takeManualSend(workspace, i % 3 === 0 ? "digest" : "test")).allowed).toBe(true);
    expect(await a.alerts.takeManualSend(workspace, "digest")).toEqual({ allowed: false, retryAfterMs: MANUAL_SEND_WINDOW_MS });
  });

  it("the digest keeps the share link its links open: only one of the workspace's that has not expired; left out it stays; revoking it drops the choice", async () => {
    let t = T0;
    const store = await stores.open(kind, { now: () => t });
    const workspace = (await store.workspaces.workspaceForKey("svc_sk_test_alert_share_0001")).id;
    const other = (await store.workspaces.workspaceForKey("svc_sk_test_alert_share_0002")).id;
    const destination = await store.alerts.createDestination(workspace, destinationInput(1));
    const share = (token: string, on: typeof workspace = workspace, expiresAt: number | null = null) =>
      store.shares.create(on, { name: token, path: "/platforms", query: {}, token: token.padEnd(32, "x"), passwordHash: null, expiresAt });
    const platforms = await share("platforms");
    const foreign = await share("foreign", other);
    const expiring = await share("expiring", workspace, T0 + 60_000);

    // Set without one: none.
    expect(await store.alerts.setDigest(workspace, destination.id)).toBe("set");
    expect(await store.alerts.digest(workspace)).toEqual({ destinationId: destination.id, shareId: null });
    expect(await store.alerts.setDigest(workspace, destination.id, platforms.id)).toBe("set");
    expect(await store.alerts.digest(workspace)).toEqual({ destinationId: destination.id, shareId: platforms.id });
    // Left out, it stays; null, none.
    expect(await store.alerts.setDigest(workspace, destination.id)).toBe("set");
    expect(await store.alerts.digest(workspace)).toEqual({ destinationId: destination.id, shareId: platforms.id });
    expect(await store.alerts.setDigest(workspace, destination.id, null)).toBe("set");
    expect(await store.alerts.digest(workspace)).toEqual({ destinationId: destination.id, shareId: null });

    // Another workspace's, an unknown one, and one that expired change nothing.
    for (const id of [foreign.id, "shr_AAAAAAAAAAAAAAAAAAAAAA"]) expect(await store.alerts.setDigest(workspace, destination.id, id)).toBe("unknown_share");
    expect(await store.alerts.setDigest(workspace, destination.id, expiring.id)).toBe("set");
    t = T0 + 60_000;
    expect(await store.alerts.setDigest(workspace, destination.id, null)).toBe("set");
    expect(await store.alerts.setDigest(workspace, destination.id, expiring.id)).toBe("unknown_share");
    expect(await store.alerts.setDigest(workspace, "dst_AAAAAAAAAAAAAAAA", platforms.id)).toBe("unknown_destination");
    expect(await store.alerts.digest(workspace)).toEqual({ destinationId: destination.id, shareId: null });

    // Chosen, then it expires: still named (what that means is the digest's to say).
    const later = await share("later", workspace, T0 + 120_000);
    expect(await store.alerts.setDigest(workspace, destination.id, later.id)).toBe("set");
    t = T0 + 120_000;
    expect(await store.alerts.digest(workspace)).toEqual({ destinationId: destination.id, shareId: later.id });
    expect(await store.alerts.setDigest(workspace, destination.id, platforms.id)).toBe("set");
    // Revoked: the choice goes, the digest stays.
    expect(await store.shares.remove(workspace, platforms.id)).toBe(true);
    expect(await store.alerts.digest(workspace)).toEqual({ destinationId: destination.id, shareId: null });
    // Off, the choice goes with the digest.
    const again = await share("again");
    expect(await store.alerts.setDigest(workspace, destination.id, again.id)).toBe("set");
    expect(await store.alerts.setDigest(workspace, null)).toBe("set");
    expect(await store.alerts.digest(workspace)).toBeNull();
    expect(await store.alerts.setDigest(workspace, null, foreign.id)).toBe("unknown_share");
  });
});

describe.each(STORE_KINDS)("e-mail destinations (%s)", (kind) => {
  const email = { name: "Maria", to: "maria.lopez@example.org", toHint: "m…@example.org" };

  it("are kept unconfirmed, the address and the unsubscribe token sealed, the tokens kept only as hashes; nothing is queued for them until confirmed", async () => {
    const store = await stores.open(kind);
    const workspace = (await store.workspaces.workspaceForKey("svc_sk_test_email_dest_0001")).id;
    const { destination, confirmToken, unsubscribeToken } = await store.alerts.createEmailDestination(workspace, email);
    expect(destination).toMatchObject({ kind: "email", name: "Maria", urlHint: "m…@example.org", status: "unconfirmed", confirmedAt: null });
    expect(confirmToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(unsubscribeToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(confirmToken).not.toBe(unsubscribeToken);
    // What the screen reads says neither the address nor a token.
    const listed = JSON.stringify(await store.alerts.destinations(workspace));
    for (const secret of [email.to, confirmToken, unsubscribeToken]) expect(listed).not.toContain(secret);
    expect(await store.alerts.openDestination(destination.id)).toMatchObject({ url: email.to, secret: unsubscribeToken, status: "unconfirmed" });

    // Unconfirmed: an alert or a digest for it makes no delivery.
    const body = { type: "test", timestamp: new Date(T0).toISOString(), data: { message: "x" } };
    expect(await store.alerts.enqueue(workspace, { dedupeKey: `${kind}:e1`, type: "test", body }, [destination.id])).toEqual([]);
    await store.close();
  });

  it("a confirmation token confirms once (a wrong or spent one confirms nothing), and an unsubscribe token stops it, failing what waited", async () => {
    const now = { t: T0 };
    const store = await stores.open(kind, { now: () => now.t });
    const workspace = (await store.workspaces.workspaceForKey("svc_sk_test_email_dest_0002")).id;
    const { destination, confirmToken, unsubscribeToken } = await store.alerts.createEmailDestination(workspace, email);

    expect(await store.alerts.destinationByToken("confirm", confirmToken)).toMatchObject({ id: destination.id, status: "unconfirmed" });
    expect(await store.alerts.destinationByToken("confirm", unsubscribeToken)).toBeUndefined();
    expect(await store.alerts.destinationByToken("confirm", destination.id)).toBeUndefined();
    expect(await store.alerts.confirmEmail(unsubscribeToken)).toBeUndefined();
    expect(await store.alerts.confirmEmail("not a token")).toBeUndefined();
    now.t = T0 + 60_000;
    expect(await store.alerts.confirmEmail(confirmToken)).toMatchObject({ id: destination.id, status: "active", confirmedAt: T0 + 60_000 });
    expect(await store.alerts.confirmEmail(confirmToken)).toBeUndefined();
    expect(await store.alerts.destinationByToken("confirm", confirmToken)).toBeUndefined();

    const body = { type: "test", timestamp: new Date(T0).toISOString(), data: { message: "x" } };
    const [delivery] = (await store.alerts.enqueue(workspace, { dedupeKey: `${kind}:e2`, type: "test", body }, [destination.id]))!;
    expect(delivery).toMatchObject({ status: "pending" });

    expect(await store.alerts.unsubscribeEmail(confirmToken)).toBeUndefined();
    expect(await store.alerts.unsubscribeEmail(unsubscribeToken)).toMatchObject({ id: destination.id, status: "unsubscribed" });
    expect(await store.alerts.unsubscribeEmail(unsubscribeToken)).toMatchObject({ status: "unsubscribed" });
    expect(await store.alerts.destination(workspace, destination.id)).toMatchObject({
      status: "unsubscribed",
      stoppedReason: expect.stringContaining("unsubscribed"),
    });
    expect(await store.alerts.delivery(delivery!.id)).toMatchObject({ status: "failed" });
    // Nothing new is queued for it.
    expect(await store.alerts.enqueue(workspace, { dedupeKey: `${kind}:e3`, type: "test", body }, [destination.id])).toEqual([]);
    await store.close();
  });
});

describe("migration 0010 (e-mail destinations) on SQLite", () => {
  it("keeps every destination and everything under it (rules, checks, deliveries, attempts, the digest) while it admits the new kind and statuses", async () => {
    const { default: Database } = await import("better-sqlite3");
    const { Kysely, SqliteDialect } = await import("kysely");
    const { migrateUpTo } = await import("./migrations");
    const sqlite = new Database(":memory:");
    sqlite.pragma("foreign_keys = ON");
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    await migrateUpTo(db, "0008_shares");
    sqlite.exec(`
      insert into workspaces (id, created_at) select 'ws_1', 1 where not exists (select 1 from workspaces);
    `);
    const ws = (sqlite.prepare("select id from workspaces limit 1").get() as { id: string }).id;
    sqlite
      .prepare(
        "insert into alert_destinations (id, workspace_id, kind, name, url_sealed, url_hint, status, created_at) values ('dst_1', ?, 'webhook', 'Ops', 'sealed', 'hint', 'active', 1)",
      )
      .run(ws);
    sqlite
      .prepare(
        "insert into alert_rules (id, workspace_id, kind, threshold, destination_id, cooldown_ms, state, created_at) values ('rule_1', ?, 'score_below', 50, 'dst_1', 0, 'ok', 1)",
      )
      .run(ws);
    sqlite.prepare("insert into alert_checks (rule_id, basis, at, state, message) values ('rule_1', 'b1', 1, 'ok', 'fine')").run();
    sqlite.prepare("insert into alert_events (id, workspace_id, dedupe_key, type, body, created_at) values ('evt_1', ?, 'k1', 'test', '{}', 1)").run(ws);
    sqlite
      .prepare(
        "insert into alert_deliveries (id, workspace_id, event_id, destination_id, status, created_at) values ('dlv_1', ?, 'evt_1', 'dst_1', 'delivered', 1)",
      )
      .run(ws);
    sqlite
      .prepare("insert into alert_attempts (delivery_id, attempt, workspace_id, at, status, duration_ms) values ('dlv_1', 1, ?, 1, 'delivered', 5)")
      .run(ws);
    sqlite.prepare("insert into alert_digests (workspace_id, destination_id, created_at) values (?, 'dst_1', 1)").run(ws);

    await migrateUpTo(db, "0010_email_destinations");
    const count = (table: string) => (sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    expect(["alert_destinations", "alert_rules", "alert_checks", "alert_deliveries", "alert_attempts", "alert_digests"].map(count)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(sqlite.prepare("select name from sqlite_master where name like '%_0009'").all()).toEqual([]);
    expect(sqlite.pragma("foreign_key_check")).toEqual([]);
    // The digest kept has no share link chosen.
    expect(sqlite.prepare("select destination_id, share_id from alert_digests").all()).toEqual([{ destination_id: "dst_1", share_id: null }]);
    sqlite
      .prepare(
        "insert into alert_destinations (id, workspace_id, kind, name, url_sealed, url_hint, status, created_at) values ('dst_2', ?, 'email', 'M', 's', 'h', 'unconfirmed', 1)",
      )
      .run(ws);
    expect(() => sqlite.prepare("update alert_destinations set status = 'paused' where id = 'dst_2'").run()).toThrow(/CHECK/);
    // Deleting the destination still takes what is under it.
    sqlite.prepare("delete from alert_destinations where id = 'dst_1'").run();
    expect(["alert_rules", "alert_checks", "alert_deliveries", "alert_attempts", "alert_digests"].map(count)).toEqual([0, 0, 0, 0, 0]);
    await db.destroy();
  });
});
