// Checking rules after snapshots, on both databases, on fake time, delivered to a real receiver: a
// rule is checked once per snapshot, notified only when its state changes, with the workspace's notes
// of those days named and a link into the dashboard; a change inside the cooldown is kept but sent
// only after it; two instances checking the same snapshot at once make one check and one event; a
// day's kept figures set off a daily rule; the preview counts from kept history what the rule would
// have sent; watching paused is said once to every destination.
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_NOW } from "@/testing/in-process";
import type { StoreKind } from "@/lib/store/database";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import { checkRules, notifyPaused, previewRule } from "./check";
import { createDeliverer } from "./deliver";
import type { EventBody } from "./messages";
import { send } from "./send";
import { startReceiver, verifySignature, type Receiver } from "@/testing/webhook-receiver";

const T0 = Date.parse(TEST_NOW);
const MIN = 60_000;
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

const PUBLIC = "https://analytics.example.com";

async function setup(kind: StoreKind, store?: Store) {
  const s = store ?? (await stores.open(kind, { now: clock }));
  const workspace = (await s.workspaces.workspaceForKey(`svc_sk_test_check_${randomBytes(6).toString("hex")}`)).id;
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const destination = await s.alerts.createDestination(workspace, { kind: "webhook", name: "Receiver", url: receiver.url, urlHint: "…", secret });
  return { store: s, workspace, destination, secret };
}

const check = (store: Store, workspace: WorkspaceId) => checkRules({ store, now: clock, publicUrl: PUBLIC }, workspace, () => {});
const deliver = (store: Store) =>
  createDeliverer({
    store: async () => store,
    now: clock,
    instance: "one",
    send: (u, s, m, o) => send(u, s, m, { allowPrivate: true, now: clock, ...o }),
    log: () => {},
  }).deliverDue();
const recordScore = (store: Store, workspace: WorkspaceId, at: number, score: number) =>
  store.snapshots.recordScore(workspace, {
    at,
    score,
    direction: null,
    change: null,
    breakdown: { visibility: null, sentiment: null, authority: null, coverage: null },
  });

describe.each(STORE_KINDS)("alert checks (%s)", (kind) => {
  it("a rule is checked once per snapshot and sent only when its state changes, naming the notes of those days", async () => {
    const { store, workspace, destination, secret } = await setup(kind);
    const rule = (await store.alerts.createRule(workspace, { kind: "score_below", threshold: 60, destinationId: destination.id, cooldownMs: 0 }))!;
    await store.annotations.create(workspace, { date: "2026-11-19", text: "Pricing page <b>relaunched</b>" });

    await recordScore(store, workspace, T0 - 60 * MIN, 64);
    expect(await check(store, workspace)).toEqual({ checked: 1, sent: 0 });
    // Nothing new: the same snapshot is not checked twice.
    expect(await check(store, workspace)).toEqual({ checked: 0, sent: 0 });

    now += 10 * MIN;
    await recordScore(store, workspace, now, 57.5);
    expect(await check(store, workspace)).toEqual({ checked: 1, sent: 1 });
    await deliver(store);
    expect(receiver.received).toHaveLength(1);
    expect(verifySignature(secret, receiver.received[0]!)).toBe(true);
    const body = receiver.received[0]!.json as EventBody;
    expect(body).toMatchObject({
      type: "alert.firing",
      data: {
        rule: { id: rule.id, kind: "score_below", threshold: 60 },
        value: 57.5,
        previous: 60,
        url: `${PUBLIC}/intelligence?from=2026-11-14&to=2026-11-20&tz=UTC`,
      },
    });
    expect(body.data.message).toBe(
      "The AI Positioning Score is 57.5, below 60.0 (2.5 points under the line you set). Notes of those days: “Pricing page <b>relaunched</b>” (2026-11-19).",
    );

    // Still below: checked, not sent again.
    now += 10 * MIN;
    await recordScore(store, workspace, now, 55);
    expect(await check(store, workspace)).toEqual({ checked: 1, sent: 0 });
    now += 10 * MIN;
    await recordScore(store, workspace, now, 61);
    expect(await check(store, workspace)).toEqual({ checked: 1, sent: 1 });
    await deliver(store);
    expect(receiver.received[1]!.json as EventBody).toMatchObject({
      type: "alert.resolved",
      data: { value: 61, message: expect.stringMatching(/^Resolved: The AI Positioning Score is 61\.0, at or above 60\.0/) },
    });

    const checks = await store.alerts.checks(workspace, rule.id);
    expect(checks.map((c) => [c.state, c.value])).toEqual([
      ["ok", 61],
      ["firing", 55],
      ["firing", 57.5],
      ["ok", 64],
    ]);
    expect(await store.alerts.rule(workspace, rule.id)).toMatchObject({ state: "ok", lastCheckedAt: now, lastChangedAt: now, notifiedState: "ok" });
  });

  it("a change inside the cooldown is kept as the state but sent only at the first check after it", async () => {
    const { store, workspace, destination } = await setup(kind);
    await store.alerts.createRule(workspace, { kind: "score_below", threshold: 60, destinationId: destination.id, cooldownMs: 60 * MIN });
    const steps: [number, number][] = [
      [0, 55], // firing: sent
      [10, 65], // ok inside the cooldown: kept, not sent
      [20, 55], // firing again: the state last sent, nothing to send
      [30, 65], // ok, still inside
      [70, 66], // ok after the cooldown: sent
    ];
    const sent: number[] = [];
    for (const [minutes, value] of steps) {
      now = T0 + minutes * MIN;
      await recordScore(store, workspace, now, value);
      sent.push((await check(store, workspace)).sent);
    }
    expect(sent).toEqual([1, 0, 0, 0, 1]);
    await deliver(store);
    // Sent side by side, they may arrive in either order; by the time each was made:
    const bodies = receiver.received.map((r) => r.json as EventBody).sort((x, y) => x.timestamp.localeCompare(y.timestamp));
    expect(bodies.map((b) => [b.type, b.timestamp])).toEqual([
      ["alert.firing", new Date(T0).toISOString()],
      ["alert.resolved", new Date(T0 + 70 * MIN).toISOString()],
    ]);
  });

  it("two instances checking the same new snapshot at once keep one check and make one event", async () => {
    const config = await stores.config(kind);
    const a = await stores.open(config, { now: clock });
    const b = kind === "postgres" ? await stores.open(config, { now: clock }) : a;
    const { workspace, destination } = await setup(kind, a);
    await a.alerts.createRule(workspace, { kind: "score_drop", threshold: 3, destinationId: destination.id, cooldownMs: 0 });
    await recordScore(a, workspace, T0 - MIN, 70);
    await recordScore(a, workspace, T0, 60);
    const outcomes = await Promise.all([check(a, workspace), check(b, workspace), check(a, workspace), check(b, workspace)]);
    expect(outcomes.reduce((n, o) => n + o.checked, 0)).toBe(1);
    expect(outcomes.reduce((n, o) => n + o.sent, 0)).toBe(1);
    await deliver(a);
    expect(receiver.received).toHaveLength(1);
  });

  it("a day's kept figures set off a daily rule; the preview counts from kept history what a rule would have sent", async () => {
    const { store, workspace, destination } = await setup(kind);
    const platforms = (negative: number, visitors: number) => ({
      data: [
        { platform: "chatgpt", mentions: 20, visitors, conversions: 2, sentiment: { positive: 5, neutral: 5, negative } },
        { platform: "claude", mentions: "odd", visitors: null, sentiment: null },
      ],
    });
    // 30 closed days: negative mentions 2 a day, 12 on two of them.
    for (let i = 30; i >= 1; i--) {
      const date = new Date(T0 - i * 86_400_000).toISOString().slice(0, 10);
      await store.snapshots.putDailyFigures(workspace, { kind: "platforms", date, tz: "UTC", data: platforms(i === 10 || i === 1 ? 12 : 2, 100) });
    }
    const preview = await previewRule(store, workspace, { kind: "negative_mentions", threshold: 10, cooldownMs: 0 }, now);
    expect(preview).toMatchObject({ days: 30, fired: 2, checks: 30 });
    expect(preview.firings.map((f) => f.message)).toEqual([
      `12 negative mentions by AI platforms on ${new Date(T0 - 10 * 86_400_000).toISOString().slice(0, 10)}, at or above the 10 you set.`,
      `12 negative mentions by AI platforms on 2026-11-19, at or above the 10 you set.`,
    ]);
    expect((await previewRule(store, workspace, { kind: "negative_mentions", threshold: 13, cooldownMs: 0 }, now)).fired).toBe(0);
    // Too little history to judge a drop: no checks, said as such.
    expect(await previewRule(store, workspace, { kind: "conversions_drop", threshold: 10, cooldownMs: 0 }, now)).toMatchObject({ fired: 0, checks: 0 });

    await store.alerts.createRule(workspace, { kind: "negative_mentions", threshold: 10, destinationId: destination.id, cooldownMs: 0 });
    expect(await check(store, workspace)).toEqual({ checked: 1, sent: 1 });
    await deliver(store);
    expect(receiver.received[0]!.json).toMatchObject({
      type: "alert.firing",
      data: { value: 12, url: `${PUBLIC}/mentions?sentiment=negative&from=2026-11-19&to=2026-11-19&tz=UTC` },
    });
  });

  it("watching paused is said once to every active destination", async () => {
    const { store, workspace } = await setup(kind);
    const other = await startReceiver();
    try {
      await store.alerts.createDestination(workspace, { kind: "slack", name: "Team", url: other.url, urlHint: "…", secret: null });
      expect(await notifyPaused({ store, now: clock }, workspace, "The Data API refused the kept key.")).toBe(2);
      expect(await notifyPaused({ store, now: clock }, workspace, "The Data API refused the kept key.")).toBe(0);
      await deliver(store);
      expect(receiver.received).toHaveLength(1);
      expect(other.received).toHaveLength(1);
      // Slack gets its own text and blocks, no signature headers.
      expect(other.received[0]!.headers["webhook-signature"]).toBeUndefined();
      expect(other.received[0]!.json).toMatchObject({
        text: expect.stringMatching(/^Alert: Watching paused/),
        blocks: expect.arrayContaining([expect.objectContaining({ type: "section" })]),
      });
    } finally {
      await other.close();
    }
  });
});
