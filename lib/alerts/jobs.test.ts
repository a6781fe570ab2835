// Alerts from the background jobs, on both databases, against the sandbox over real HTTP and a real
// receiver, on fake time with two instances ticking: the hourly collector's snapshots are checked as
// they are kept and a rule that fires is delivered once whichever instance collected; the weekly digest
// goes out once, at the first tick after Monday 09:00 in the workspace's zone (not before), with the
// week's figures against the week before, and not at all for a workspace no longer watched.
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serverCollectContext } from "@/lib/history/collect";
import { onHistory } from "@/lib/history/events";
import { historyJobs } from "@/lib/history/jobs";
import { serverContextPerTest, TEST_NOW, upstreamForFile } from "@/testing/in-process";
import type { StoreKind } from "@/lib/store/database";
import { createJobScheduler, HOUR_MS, type JobScheduler } from "@/lib/store/scheduler";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import { DEMO_KEYS } from "@/sandbox/keys";
import { checkRules } from "./check";
import { createDeliverer, type Deliverer } from "./deliver";
import { DIGEST_JOB, digestJob } from "./digest";
import type { EventBody } from "./messages";
import { send } from "./send";
import { startReceiver, verifySignature, type Receiver } from "@/testing/webhook-receiver";

const T0 = Date.parse(TEST_NOW);
let now = T0;
const clock = () => now;
const sandbox = upstreamForFile({ clock });
const stores = storesForFile();
const overrideContext = serverContextPerTest();
const quiet = { info: () => {}, warn: () => {} };
let receiver: Receiver;

let unsubscribe: () => void;

beforeEach(async () => {
  receiver = await startReceiver();
  // As the server wires it: the rules are checked after what history keeps (on the test's clock).
  unsubscribe = onHistory("snapshotKept", "alerts", (st: Store, ws: WorkspaceId) =>
    checkRules({ store: st, now: clock, publicUrl: "https://analytics.example.com" }, ws, () => {}),
  );
});
afterEach(async () => {
  unsubscribe();
  await receiver.close();
});

type Instance = { scheduler: JobScheduler; deliverer: Deliverer };

function instance(store: Store, name: string, withHistory: boolean): Instance {
  const deliverer = createDeliverer({
    store: async () => store,
    now: clock,
    instance: name,
    send: (u, s, m, o) => send(u, s, m, { allowPrivate: true, now: clock, ...o }),
    log: () => {},
  });
  const definitions = [
    ...(withHistory ? historyJobs({ store: async () => store, context: serverCollectContext, log: () => {} }) : []),
    digestJob({ store: async () => store, publicUrl: () => "https://analytics.example.com", log: () => {} }),
  ];
  return { scheduler: createJobScheduler({ jobs: async () => store.jobs, definitions, now: clock, instance: name, log: quiet }), deliverer };
}

/** Moves the clock in 15-minute steps up to `until`; at each step every instance ticks, then sends what is due. */
async function runUntil(until: number, instances: Instance[]): Promise<void> {
  for (; now < until; now += 15 * 60_000) {
    for (const i of instances) await i.scheduler.tick();
    await Promise.all(instances.map((i) => i.deliverer.deliverDue()));
  }
}

async function twoInstances(kind: StoreKind, start: number, withHistory: boolean): Promise<{ a: Store; instances: Instance[] }> {
  now = start;
  const config = await stores.config(kind);
  const a = await stores.open(config, { now: clock });
  const b = kind === "postgres" ? await stores.open(config, { now: clock }) : a;
  overrideContext({ now: clock, store: async () => a });
  sandbox().reset();
  return { a, instances: [instance(a, "one", withHistory), instance(b, "two", withHistory)] };
}

async function watchedWithDestination(store: Store, key: string, tz = "UTC") {
  const workspace = (await store.workspaces.workspaceForKey(key)).id;
  await store.workspaces.setWatching(workspace, key);
  await store.workspaces.setTimeZone(workspace, tz);
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const destination = await store.alerts.createDestination(workspace, { kind: "webhook", name: "Receiver", url: receiver.url, urlHint: "…", secret });
  return { workspace, destination, secret };
}

describe.each(STORE_KINDS)("alerts from the background jobs (%s)", (kind) => {
  it("the hourly collector's snapshots are checked as they are kept: a firing rule is delivered once by two instances", async () => {
    const { a, instances } = await twoInstances(kind, T0, true);
    const { workspace, destination, secret } = await watchedWithDestination(a, DEMO_KEYS.pro);
    const rule = (await a.alerts.createRule(workspace, { kind: "score_below", threshold: 100, destinationId: destination.id, cooldownMs: 0 }))!;

    await runUntil(T0 + 26 * HOUR_MS, instances);

    // Two snapshots (20 and 21 November, the sandbox recomputing at midnight), each checked once.
    const scores = await a.snapshots.scoreHistory(workspace, { from: 0, to: now });
    expect(scores).toHaveLength(2);
    const checks = await a.alerts.checks(workspace, rule.id);
    expect(checks.map((c) => c.basis)).toEqual(scores.map((s) => `score:${s.at}`).reverse());
    // Firing from the first; sent once, when it first fired.
    expect(receiver.received).toHaveLength(1);
    expect(verifySignature(secret, receiver.received[0]!)).toBe(true);
    expect(receiver.received[0]!.json).toMatchObject({
      type: "alert.firing",
      data: { value: scores[0]!.score, url: expect.stringMatching(/^https:\/\/analytics\.example\.com\/intelligence\?/) },
    });
  });

  it("the weekly digest goes out once, at the first tick after Monday 09:00 in the workspace's zone, with the week against the one before", async () => {
    // Monday 23 November 2026, 12:00 UTC = 07:00 in New York; 09:00 there is 14:00 UTC.
    const monday = Date.parse("2026-11-23T12:00:00Z");
    const { a, instances } = await twoInstances(kind, monday, false);
    const { workspace, destination, secret } = await watchedWithDestination(a, DEMO_KEYS.pro, "America/New_York");
    await a.alerts.setDigest(workspace, destination.id);
    const scoreAt = (at: number, score: number) =>
      a.snapshots.recordScore(workspace, {
        at,
        score,
        direction: null,
        change: null,
        breakdown: { visibility: null, sentiment: null, authority: null, coverage: null },
      });
    await scoreAt(Date.parse("2026-11-15T00:00:00Z"), 70);
    await scoreAt(Date.parse("2026-11-22T00:00:00Z"), 66.5);
    await a.annotations.create(workspace, { date: "2026-11-18", text: "Webinar with partners" });
    // Another watched workspace without a digest, and one whose watching stopped: nothing for them.
    const stopped = await watchedWithDestination(a, DEMO_KEYS.free);
    await a.alerts.setDigest(stopped.workspace, stopped.destination.id);
    await a.workspaces.stopWatching(stopped.workspace);

    await runUntil(Date.parse("2026-11-23T14:00:00Z"), instances);
    expect(receiver.received).toHaveLength(0);
    await runUntil(Date.parse("2026-11-23T20:00:00Z"), instances);
    expect(receiver.received).toHaveLength(1);
    const [r] = receiver.received;
    expect(verifySignature(secret, r!)).toBe(true);
    expect(Number(r!.headers["webhook-timestamp"]) * 1000).toBe(Date.parse("2026-11-23T14:00:00Z"));
    const body = r!.json as EventBody;
    expect(body.type).toBe("digest.weekly");
    expect(body.data.message).toMatch(
      /^The week of 2026-11-16 to 2026-11-22 against the week before: [\d,]+ visitors \([+−]\d+\.\d%(, within normal variation)?\), [\d,]+ from AI platforms \([+−]\d+\.\d%(, within normal variation)?\), [\d,]+ conversions \([+−]\d+\.\d%(, within normal variation)?\); AI Positioning Score 66\.5, −3\.5 points on the week/,
    );
    expect(body.data.url).toBe("https://analytics.example.com/?from=2026-11-16&to=2026-11-22&tz=America%2FNew_York");
    expect(body.data.sections!.map((s) => s.title)).toEqual([
      "The week against the week before",
      "From mention to conversion, per platform",
      "Negative mentions",
      "Notes of the week",
    ]);
    // Each figure on a line with its change (and whether chance alone makes it), and a link to its page.
    const [week, platforms, , notes] = body.data.sections!;
    expect(week!.lines[0]).toMatch(/^Visitors: [\d,]+ against [\d,]+ \([+−]\d+\.\d%(, within normal variation)?\)$/);
    expect(week!.lines.slice(3)).toEqual(["AI Positioning Score: 66.5, −3.5 points on the week"]);
    const week_ = "?from=2026-11-16&to=2026-11-22&tz=America%2FNew_York";
    expect(week!.links).toEqual([
      { label: "Visitors", url: `https://analytics.example.com/${week_}` },
      { label: "From AI platforms", url: `https://analytics.example.com/platforms${week_}` },
      { label: "Conversions", url: `https://analytics.example.com/${week_}` },
      { label: "AI Positioning Score", url: `https://analytics.example.com/intelligence${week_}` },
    ]);
    expect(platforms!.lines).toHaveLength(4);
    expect(platforms!.links).toEqual([{ label: "AI platforms", url: `https://analytics.example.com/platforms${week_}` }]);
    expect(notes!.lines).toEqual(["2026-11-18: Webinar with partners"]);
    // The figures kept with the event for the e-mail's tables are not the webhook's.
    expect(body.data).not.toHaveProperty("figures");
    expect(r!.body).not.toContain('"figures"');

    // One run for the workspace, at 14:00 UTC: the later slots found its digest made and gave it none.
    const runs = await a.jobs.runs(DIGEST_JOB, { scope: workspace, limit: 100 });
    expect(runs).toEqual([
      expect.objectContaining({ slot: Date.parse("2026-11-23T14:00:00Z"), state: "done", attempts: 1, outcome: "digest of the week before 2026-11-23 made" }),
    ]);
    // The workspace no longer watched: its own run each hour of its digest's day (from 09:00 UTC), each once across the two instances, none sent.
    const skipped = await a.jobs.runs(DIGEST_JOB, { scope: stopped.workspace, limit: 100 });
    expect(skipped.map((run) => new Date(run.slot).getUTCHours()).sort((x, y) => x - y)).toEqual([12, 13, 14, 15, 16, 17, 18, 19]);
    expect(skipped.every((run) => run.outcome === "skipped (watching is off)")).toBe(true);
  });

  it("the scheduled digest through a share link: the shared page's figures link to it for the week, the others to nothing; one expired by Monday leaves no link", async () => {
    const monday = Date.parse("2026-11-23T08:30:00Z");
    const { a, instances } = await twoInstances(kind, monday, false);
    const shared = await watchedWithDestination(a, DEMO_KEYS.pro);
    const expired = await watchedWithDestination(a, DEMO_KEYS.free);
    const token = randomBytes(24).toString("base64url");
    const link = (workspace: WorkspaceId, expiresAt: number | null) =>
      a.shares.create(workspace, {
        name: "AI traffic",
        path: "/platforms",
        query: { range: "30d", platform: "chatgpt" },
        token: workspace === shared.workspace ? token : randomBytes(24).toString("base64url"),
        passwordHash: null,
        expiresAt,
      });
    expect(await a.alerts.setDigest(shared.workspace, shared.destination.id, (await link(shared.workspace, null)).id)).toBe("set");
    // Live when chosen, expired at 08:45, before the digest goes at 09:00.
    expect(await a.alerts.setDigest(expired.workspace, expired.destination.id, (await link(expired.workspace, monday + 15 * 60_000)).id)).toBe("set");

    await runUntil(Date.parse("2026-11-23T10:00:00Z"), instances);
    expect(receiver.received).toHaveLength(2);
    const bodyOf = (secret: string) => receiver.received.find((r) => verifySignature(secret, r))!.json as EventBody;

    const url = `https://analytics.example.com/s/${token}?platform=chatgpt&from=2026-11-16&to=2026-11-22&tz=UTC`;
    const through = bodyOf(shared.secret);
    expect(through.type).toBe("digest.weekly");
    expect(through.data.url).toBe(url);
    const [week, platforms, , notes] = through.data.sections!;
    expect(week!.links).toEqual([{ label: "From AI platforms", url }]);
    expect(platforms!.links).toEqual([{ label: "AI platforms", url }]);
    expect(notes).toBeUndefined();
    expect(JSON.stringify(through)).not.toMatch(/analytics\.example\.com\/(\?|platforms|intelligence)/);

    const none = bodyOf(expired.secret);
    expect(none.type).toBe("digest.weekly");
    expect(none.data).not.toHaveProperty("url");
    expect(none.data.sections!.every((s) => s.links === undefined)).toBe(true);
    expect(JSON.stringify(none)).not.toContain("https://");
  });
});
