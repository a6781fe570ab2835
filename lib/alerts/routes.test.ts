// The alerts' routes on both databases, through the app's own route handlers with sessions checked
// against the sandbox over real HTTP: a destination's URL checked (private, loopback and link-local
// addresses refused unless allowed; https required), sealed at rest, answered only as a hint, its
// signing secret once; a Slack destination only at Slack's incoming webhooks; at most 10 destinations
// added a minute per workspace (429 with Retry-After); "Send a test" reaching a real receiver with a
// valid signature and showing as a delivery; rules validated per kind; the preview; a retry only of a
// failed delivery; "Send a test" and "Retry" 10 a minute per workspace (429 with Retry-After); the
// digest's destination; deleting a destination takes its rules and digest along; every id of another
// workspace a 404; a write from another site a 403 that changes nothing. A rule is checked at once
// when added (and when its threshold changes) against the latest kept snapshot, and says when it is
// next read otherwise; rules are changed in place (each field checked, the kind kept, the change in
// the activity list); the digest's preview is the text its receivers read and a self-contained HTML,
// and "Send now" delivers exactly that text once, signed, within the manual sends' allowance.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call, ORIGIN, serverContextPerTest, sessionCookie, TEST_NOW, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import type { StoreKind } from "@/lib/store/database";
import type { Store } from "@/lib/store/store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import { DEMO_KEYS } from "@/sandbox/keys";
import { createNameResolver, setDestinationResolver } from "./resolve-name";
import { startDnsServer } from "@/testing/name-server";
import { eventText, type EventBody } from "./messages";
import { resolveShareMarks } from "./share-marks";
import { startReceiver, verifySignature, type Receiver } from "@/testing/webhook-receiver";
import { routeFileAt } from "@/testing/api-routes";

const deliveryRetry = await routeFileAt("alerts/deliveries/[id]/retry");
const deliveries = await routeFileAt("alerts/deliveries");
const destinationById = await routeFileAt("alerts/destinations/[id]");
const destinationTest = await routeFileAt("alerts/destinations/[id]/test");
const destinations = await routeFileAt("alerts/destinations");
const digestPreview = await routeFileAt("alerts/digest/preview");
const digest = await routeFileAt("alerts/digest");
const digestSend = await routeFileAt("alerts/digest/send");
const activity = await routeFileAt("workspace/activity");
const ruleById = await routeFileAt("alerts/rules/[id]");
const rulePreview = await routeFileAt("alerts/rules/preview");
const rules = await routeFileAt("alerts/rules");

upstreamForFile();
const stores = storesForFile();
const overrideContext = serverContextPerTest();
let receiver: Receiver;

beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await receiver.close();
});

async function storeFor(kind: StoreKind): Promise<Store> {
  // The test clock (Friday 20 November 2026, 12:00 UTC) for the server and its store: the digest's next Monday is known.
  const now = () => Date.parse(TEST_NOW);
  const store = await stores.open(kind, { now });
  overrideContext({ store: async () => store, now });
  return store;
}

type Handler = (req: Request, ctx: never) => Promise<Response>;
type DestinationJson = {
  id: string;
  kind: string;
  name: string;
  url_hint: string;
  status: string;
  stopped_reason: string | null;
  created_at: string;
  secret?: string;
};
type RuleJson = {
  id: string;
  kind: string;
  threshold: number | null;
  destination_id: string;
  cooldown_minutes: number;
  state: string;
  last_checked_at: string | null;
  last_changed_at: string | null;
  next_check_at: string | null;
};
type PreviewJson = { subject: string; text: string; html: string; week: { from: string; to: string }; time_zone: string; sends_at: string | null };
type AttemptJson = { id: string; destination_id: string; type: string; attempt: number; status: string; response_status: number | null; retryable: boolean };

async function request<T = Record<string, unknown>>(
  handler: Handler,
  method: string,
  path: string,
  body?: unknown,
  options: { key?: string; id?: string; headers?: Record<string, string> } = {},
) {
  const init: RequestInit = {
    method,
    headers: { ...(method === "GET" ? {} : { origin: ORIGIN, "content-type": "application/json" }), ...options.headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
  return call<T & Partial<ErrorJson>>(handler, path, {
    cookie: await sessionCookie(options.key ?? DEMO_KEYS.pro),
    init,
    ...(options.id ? { params: { id: options.id } } : {}),
  });
}

const addDestination = (body: unknown, key?: string) =>
  request<DestinationJson>(destinations.POST, "POST", "/api/alerts/destinations", body, key ? { key } : {});

describe.each(STORE_KINDS)("alert routes (%s)", (kind) => {
  it("a destination's URL is checked: private, loopback and link-local addresses and clear text are refused unless allowed", async () => {
    await storeFor(kind);
    for (const url of [
      "http://127.0.0.1:9/x",
      "https://127.0.0.1/x",
      "https://10.1.2.3/x",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/x",
      "https://[fd00::1]/x",
      "https://[::7f00:1]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://localhost/x",
      "http://hooks.example.com/x",
      "ftp://example.com/",
      "not a url",
      "",
    ]) {
      const refused = await addDestination({ kind: "webhook", name: "X", url });
      expect(refused.status, url).toBe(400);
      expect(refused.body.error).toMatchObject({ code: "invalid_parameter", param: "url" });
    }
    expect((await addDestination({ kind: "teams", name: "X", url: "https://example.com" })).body.error?.param).toBe("kind");
    expect((await addDestination({ kind: "slack", name: "  ", url: "https://example.com" })).body.error?.param).toBe("name");
    expect((await request<{ data: DestinationJson[] }>(destinations.GET, "GET", "/api/alerts/destinations")).body.data).toEqual([]);

    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    expect((await addDestination({ kind: "webhook", name: "Local", url: receiver.url })).status).toBe(201);
    // Allowed private addresses do not make any address a Slack webhook.
    for (const url of [receiver.url, "https://example.com/services/T0001/B0002/XXXX", "https://hooks.slack.com/workflows/T0001/A0002/1/x"]) {
      const notSlack = await addDestination({ kind: "slack", name: "Team", url });
      expect(notSlack.status, url).toBe(400);
      expect(notSlack.body.error).toMatchObject({
        code: "invalid_parameter",
        param: "url",
        message: expect.stringContaining("https://hooks.slack.com/services/"),
      });
    }
    expect((await request<{ data: DestinationJson[] }>(destinations.GET, "GET", "/api/alerts/destinations")).body.data.map((d) => d.kind)).toEqual(["webhook"]);
  });

  it("a Slack incoming webhook is added without a signing secret, its name resolved by the destinations' resolver", async () => {
    await storeFor(kind);
    const dns = await startDnsServer({ "hooks.slack.com": { A: ["52.1.2.3"] } });
    const restore = setDestinationResolver(createNameResolver({ servers: [dns.address], hostsFile: null }));
    try {
      const created = await addDestination({ kind: "slack", name: "Team", url: "https://hooks.slack.com/services/T0001/B0002/XXXXXXXXXXXXXXXXXXXXx9Q2" });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ kind: "slack", name: "Team", url_hint: "https://hooks.slack.com/…x9Q2", status: "active" });
      expect(created.body.secret).toBeUndefined();
      expect(dns.questions.map((q) => q.name)).toContain("hooks.slack.com");
    } finally {
      restore();
      await dns.close();
    }
  });

  it("a workspace adds at most 10 destinations a minute: the 11th is a 429 with Retry-After and keeps nothing; another workspace is not held back", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    await storeFor(kind);
    for (let i = 1; i <= 10; i++) expect((await addDestination({ kind: "webhook", name: `Receiver ${i}`, url: receiver.url })).status).toBe(201);
    const refused = await addDestination({ kind: "webhook", name: "Receiver 11", url: receiver.url });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      code: "too_many_requests",
      message: expect.stringMatching(/^This workspace added 10 destinations in the last minute/),
    });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await request<{ data: DestinationJson[] }>(destinations.GET, "GET", "/api/alerts/destinations")).body.data).toHaveLength(10);
    // A refused URL's syntax costs no lookup and is not counted; it is still refused as such.
    expect((await addDestination({ kind: "webhook", name: "X", url: "ftp://example.com/" })).status).toBe(400);
    expect((await addDestination({ kind: "webhook", name: "Other", url: receiver.url }, DEMO_KEYS.free)).status).toBe(201);
  });

  it("a webhook's URL is sealed and shown as a hint; its secret is answered once; a test reaches a real receiver, signed, and shows as a delivery", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    const store = await storeFor(kind);
    const url = `${receiver.url}?token=s3cr3t-path-token`;
    const created = await addDestination({ kind: "webhook", name: "  Ops receiver ", url });
    expect(created.status).toBe(201);
    const secret = created.body.secret!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created.body).toMatchObject({ kind: "webhook", name: "Ops receiver", status: "active", stopped_reason: null, resting_until: null });
    expect(created.body.url_hint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…oken$/);
    expect(created.body.url_hint).not.toContain("s3cr3t");

    const listed = await request<{ data: DestinationJson[] }>(destinations.GET, "GET", "/api/alerts/destinations");
    expect(listed.text).not.toContain("s3cr3t");
    expect(listed.text).not.toContain(secret);
    expect(listed.body.data).toEqual([{ ...created.body, secret: undefined }].map(({ secret: _s, ...d }) => d));
    // At rest: neither the URL nor the secret is readable without the session secret.
    const raw = await store.alerts.openDestination(created.body.id);
    expect(raw).toMatchObject({ url, secret });

    const test = await request<{ delivery_id: string }>(destinationTest.POST, "POST", `/api/alerts/destinations/${created.body.id}/test`, undefined, {
      id: created.body.id,
    });
    expect(test.status).toBe(202);
    const [received] = await receiver.waitFor(1);
    expect(received!.path).toBe("/hooks/analytics?token=s3cr3t-path-token");
    expect(verifySignature(secret, received!)).toBe(true);
    expect(received!.json).toMatchObject({ type: "test", data: { message: expect.stringMatching(/^A test from Workspace Analytics to “Ops receiver”/) } });

    await vi.waitFor(async () => {
      const list = await request<{ data: AttemptJson[] }>(deliveries.GET, "GET", "/api/alerts/deliveries");
      expect(list.body.data).toEqual([
        expect.objectContaining({
          id: test.body.delivery_id,
          destination_id: created.body.id,
          type: "test",
          attempt: 1,
          status: "delivered",
          response_status: 200,
          retryable: false,
        }),
      ]);
    });
    // Delivered: nothing to retry. Unknown: not found.
    expect(
      (await request(deliveryRetry.POST, "POST", `/api/alerts/deliveries/${test.body.delivery_id}/retry`, undefined, { id: test.body.delivery_id })).body.error
        ?.code,
    ).toBe("not_retryable");
    expect(
      (await request(deliveryRetry.POST, "POST", "/api/alerts/deliveries/dlv_AAAAAAAAAAAAAAAA/retry", undefined, { id: "dlv_AAAAAAAAAAAAAAAA" })).status,
    ).toBe(404);
    expect((await request(deliveries.GET, "GET", "/api/alerts/deliveries?limit=0")).body.error?.param).toBe("limit");
  });

  it('"Send a test" and "Retry" that would send are 10 a minute per workspace: the 11th is a 429 with Retry-After, in the error shape', async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    let now = Date.parse(TEST_NOW);
    const store = await stores.open(kind, { now: () => now });
    overrideContext({ store: async () => store, now: () => now });
    const destination = (await addDestination({ kind: "webhook", name: "Receiver", url: receiver.url })).body;
    const workspace = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    // Deliveries that failed for good, to retry by hand.
    const failed: string[] = [];
    for (let i = 0; i < 5; i++) {
      await store.alerts.enqueue(workspace, { dedupeKey: `failed:${i}`, type: "test", body: { type: "test", timestamp: TEST_NOW, data: { message: "x" } } }, [
        destination.id,
      ]);
      const claimed = (await store.alerts.claimNext(destination.id, "test", now, now + 20_000))!;
      await store.alerts.finishAttempt(claimed, "test", {
        at: now,
        status: "failed",
        responseStatus: 500,
        error: "the receiver answered 500",
        durationMs: 1,
        nextAttemptAt: null,
      });
      failed.push(claimed.id);
    }
    const test = () => request(destinationTest.POST, "POST", `/api/alerts/destinations/${destination.id}/test`, undefined, { id: destination.id });
    const retry = (id: string) => request(deliveryRetry.POST, "POST", `/api/alerts/deliveries/${id}/retry`, undefined, { id });

    for (let i = 0; i < 6; i++) expect((await test()).status).toBe(202);
    now += 15_000;
    for (const id of failed.slice(0, 4)) expect((await retry(id)).status).toBe(202);
    // A retry that would not send is refused for what it is, and not counted.
    expect((await retry(failed[0]!)).body.error?.code).toBe("not_retryable");

    const refused = await test();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("45");
    expect(refused.body).toEqual({
      error: {
        code: "too_many_requests",
        message: '"Send a test", "Retry" and the digest\'s "Send now" can be used 10 times a minute in a workspace together; try again in 45 s.',
      },
    });
    expect((await retry(failed[4]!)).status).toBe(429);
    expect((await store.alerts.delivery(failed[4]!))!.status).toBe("failed");

    now += 45_000;
    expect((await retry(failed[4]!)).status).toBe(202);
    expect((await test()).status).toBe(202);
  });

  it("rules are validated per kind, listed with their state, previewed, and deleted; another workspace sees none of it", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    await storeFor(kind);
    const destination = (await addDestination({ kind: "webhook", name: "Team", url: receiver.url })).body;
    const add = (body: unknown) => request<RuleJson>(rules.POST, "POST", "/api/alerts/rules", body);

    expect((await add({ kind: "score_fell", threshold: 5, destination_id: destination.id })).body.error?.param).toBe("kind");
    expect((await add({ kind: "score_drop", threshold: "5", destination_id: destination.id })).body.error?.param).toBe("threshold");
    expect((await add({ kind: "negative_mentions", threshold: 2.5, destination_id: destination.id })).body.error?.param).toBe("threshold");
    expect((await add({ kind: "score_drop", threshold: 5, destination_id: destination.id, cooldown_minutes: -1 })).body.error?.param).toBe("cooldown_minutes");
    const unknown = await add({ kind: "score_drop", threshold: 5, destination_id: "dst_AAAAAAAAAAAAAAAA" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.param).toBe("destination_id");

    const rule = await add({ kind: "rank_passed", threshold: 3, destination_id: destination.id });
    expect(rule.status).toBe(201);
    expect(rule.body).toMatchObject({ kind: "rank_passed", threshold: null, cooldown_minutes: 60, state: "ok", last_checked_at: null, last_changed_at: null });
    const drop = await add({ kind: "ai_visitors_drop", threshold: 30, destination_id: destination.id, cooldown_minutes: 0 });
    expect(drop.body).toMatchObject({ threshold: 30, cooldown_minutes: 0 });
    expect((await request<{ data: RuleJson[] }>(rules.GET, "GET", "/api/alerts/rules")).body.data.map((r) => r.id).sort()).toEqual(
      [rule.body.id, drop.body.id].sort(),
    );

    const preview = await request(rulePreview.GET, "GET", "/api/alerts/rules/preview?kind=score_below&threshold=50");
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      days: 30,
      fired: expect.any(Number),
      checks: expect.any(Number),
      held_back: 0,
      history_since: null,
      firings: expect.any(Array),
    });
    expect((await request(rulePreview.GET, "GET", "/api/alerts/rules/preview?kind=score_below&threshold=abc")).body.error?.param).toBe("threshold");
    expect((await request(rulePreview.GET, "GET", "/api/alerts/rules/preview?kind=nope")).body.error?.param).toBe("kind");

    // Another workspace: nothing listed, every id a 404.
    const free = { key: DEMO_KEYS.free };
    expect((await request<{ data: RuleJson[] }>(rules.GET, "GET", "/api/alerts/rules", undefined, free)).body.data).toEqual([]);
    expect((await request(ruleById.DELETE, "DELETE", `/api/alerts/rules/${rule.body.id}`, undefined, { ...free, id: rule.body.id })).status).toBe(404);
    expect(
      (await request(destinationById.DELETE, "DELETE", `/api/alerts/destinations/${destination.id}`, undefined, { ...free, id: destination.id })).status,
    ).toBe(404);
    expect(
      (await request(destinationTest.POST, "POST", `/api/alerts/destinations/${destination.id}/test`, undefined, { ...free, id: destination.id })).status,
    ).toBe(404);
    expect((await request(digest.PUT, "PUT", "/api/alerts/digest", { destination_id: destination.id }, free)).status).toBe(404);

    expect((await request(ruleById.DELETE, "DELETE", `/api/alerts/rules/${rule.body.id}`, undefined, { id: rule.body.id })).status).toBe(204);
    expect((await request(ruleById.DELETE, "DELETE", `/api/alerts/rules/${rule.body.id}`, undefined, { id: rule.body.id })).status).toBe(404);
    expect((await request(ruleById.DELETE, "DELETE", "/api/alerts/rules/'; drop table x", undefined, { id: "'; drop table x" })).status).toBe(404);
  });

  it("the digest goes to one destination or none; deleting the destination takes its rules and the digest along", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    await storeFor(kind);
    const destination = (await addDestination({ kind: "webhook", name: "Digest", url: receiver.url })).body;
    await request(rules.POST, "POST", "/api/alerts/rules", { kind: "score_below", threshold: 40, destination_id: destination.id });
    expect((await request(digest.GET, "GET", "/api/alerts/digest")).body).toEqual({ destination_id: null, share_id: null, next_at: null, time_zone: "UTC" });
    const set = await request<{ destination_id: string | null; next_at: string | null }>(digest.PUT, "PUT", "/api/alerts/digest", {
      destination_id: destination.id,
    });
    expect(set.status).toBe(200);
    expect(set.body.destination_id).toBe(destination.id);
    // Monday 09:00 in the workspace's zone (UTC here): the next one after the test clock's Friday 20 November 2026.
    expect(set.body.next_at).toBe("2026-11-23T09:00:00.000Z");
    expect((await request(digest.PUT, "PUT", "/api/alerts/digest", { destination_id: 42 })).body.error?.param).toBe("destination_id");
    // Set up from Berlin: Monday 09:00 is Berlin's from now on (08:00 UTC in winter).
    const berlin = await request<{ next_at: string | null; time_zone: string }>(digest.PUT, "PUT", "/api/alerts/digest", {
      destination_id: destination.id,
      time_zone: "Europe/Berlin",
    });
    expect(berlin.body).toMatchObject({ time_zone: "Europe/Berlin", next_at: "2026-11-23T08:00:00.000Z" });
    expect((await request(digest.GET, "GET", "/api/alerts/digest")).body).toMatchObject({ time_zone: "Europe/Berlin" });
    const badZone = await request(digest.PUT, "PUT", "/api/alerts/digest", { destination_id: destination.id, time_zone: "Mars/Olympus" });
    expect([badZone.status, badZone.body.error?.param]).toEqual([400, "time_zone"]);
    expect((await request(digest.GET, "GET", "/api/alerts/digest")).body).toMatchObject({ time_zone: "Europe/Berlin" });

    expect((await request(destinationById.DELETE, "DELETE", `/api/alerts/destinations/${destination.id}`, undefined, { id: destination.id })).status).toBe(204);
    expect((await request<{ data: unknown[] }>(rules.GET, "GET", "/api/alerts/rules")).body.data).toEqual([]);
    expect((await request(digest.GET, "GET", "/api/alerts/digest")).body).toMatchObject({ destination_id: null });
  });

  it("the digest's links may open one of the workspace's share links: another workspace's, a revoked, an expired or an unknown one is a 400 naming share_id", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    let now = Date.parse(TEST_NOW);
    const store = await stores.open(kind, { now: () => now });
    overrideContext({ store: async () => store, now: () => now });
    const workspace = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    const other = (await store.workspaces.workspaceForKey(DEMO_KEYS.free)).id;
    const share = (on: typeof workspace, name: string, expiresAt: number | null = null) =>
      store.shares.create(on, { name, path: "/platforms", query: { platform: "chatgpt" }, token: name.padEnd(32, "0"), passwordHash: null, expiresAt });
    const traffic = await share(workspace, "AI traffic");
    const foreign = await share(other, "Theirs");
    const revoked = await share(workspace, "Revoked");
    await store.shares.remove(workspace, revoked.id);
    const expired = await share(workspace, "Expired", now - 1);
    const destination = (await addDestination({ kind: "webhook", name: "Digest", url: receiver.url })).body;
    const put = (body: unknown) => request<{ destination_id: string | null; share_id: string | null }>(digest.PUT, "PUT", "/api/alerts/digest", body);
    const get = async () => (await request<{ destination_id: string | null; share_id: string | null }>(digest.GET, "GET", "/api/alerts/digest")).body;
    const activityOf = async () => (await request<{ data: { action: string; subject: string }[] }>(activity.GET, "GET", "/api/workspace/activity")).body.data;

    expect((await put({ destination_id: destination.id })).body).toMatchObject({ destination_id: destination.id, share_id: null });
    const lines = (await activityOf()).length;
    for (const shareId of [foreign.id, revoked.id, expired.id, "shr_AAAAAAAAAAAAAAAAAAAAAA", "nope", 42]) {
      const refused = await put({ destination_id: destination.id, share_id: shareId });
      expect([refused.status, refused.body.error?.code, refused.body.error?.param]).toEqual([400, "invalid_parameter", "share_id"]);
    }
    // Nothing written, nothing recorded.
    expect(await get()).toMatchObject({ destination_id: destination.id, share_id: null });
    expect(await activityOf()).toHaveLength(lines);

    const set = await put({ destination_id: destination.id, share_id: traffic.id });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ destination_id: destination.id, share_id: traffic.id, next_at: "2026-11-23T09:00:00.000Z" });
    expect(await get()).toMatchObject({ share_id: traffic.id });
    expect((await activityOf()).slice(0, 2)).toMatchObject([
      { action: "digest.links", subject: "Share link: AI traffic (/platforms)" },
      { action: "digest.set", subject: expect.stringMatching(/^Digest /) },
    ]);
    // Left out, it stays (and no line says it changed); null, the dashboard's pages.
    expect((await put({ destination_id: destination.id })).body).toMatchObject({ share_id: traffic.id });
    expect((await activityOf())[0]).toMatchObject({ action: "digest.set" });
    expect((await put({ destination_id: destination.id, share_id: null })).body).toMatchObject({ share_id: null });
    expect((await activityOf())[0]).toMatchObject({ action: "digest.links", subject: "Dashboard pages" });

    // One that expires after it was chosen: answered as none.
    const soon = await share(workspace, "Soon", now + 60_000);
    expect((await put({ destination_id: destination.id, share_id: soon.id })).body).toMatchObject({ share_id: soon.id });
    now += 60_000;
    expect(await get()).toMatchObject({ destination_id: destination.id, share_id: null });
    // Revoked after it was chosen: the choice goes, the digest stays.
    expect((await put({ destination_id: destination.id, share_id: traffic.id })).body).toMatchObject({ share_id: traffic.id });
    await store.shares.remove(workspace, traffic.id);
    expect(await get()).toMatchObject({ destination_id: destination.id, share_id: null });
  });

  it("a write from another site is refused with 403 and changes nothing", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    await storeFor(kind);
    const refused = await request(
      destinations.POST,
      "POST",
      "/api/alerts/destinations",
      { kind: "webhook", name: "X", url: receiver.url },
      { headers: { origin: "https://evil.example" } },
    );
    expect(refused.status).toBe(403);
    expect((await request<{ data: unknown[] }>(destinations.GET, "GET", "/api/alerts/destinations")).body.data).toEqual([]);
  });

  it("a rule is checked at once against the latest kept score, and says when the score is next read otherwise", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    const store = await storeFor(kind);
    const destination = (await addDestination({ kind: "webhook", name: "Team", url: receiver.url })).body;
    const workspace = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    const add = (body: Record<string, unknown>) =>
      request<RuleJson>(rules.POST, "POST", "/api/alerts/rules", { destination_id: destination.id, cooldown_minutes: 0, ...body });

    // Nothing kept yet, not watched: not checked, and nothing reads the score on its own.
    const early = await add({ kind: "score_below", threshold: 60 });
    expect(early.body).toMatchObject({ state: "ok", last_checked_at: null, next_check_at: null });
    await store.workspaces.setWatching(workspace, DEMO_KEYS.pro);
    const listed = (await request<{ data: RuleJson[] }>(rules.GET, "GET", "/api/alerts/rules")).body.data;
    // Watched: the score at the next hourly collection (the test clock is 12:00 UTC), the days' figures at 01:00 UTC.
    expect(listed[0]!.next_check_at).toBe("2026-11-20T13:00:00.000Z");
    expect((await add({ kind: "negative_mentions", threshold: 5 })).body).toMatchObject({ last_checked_at: null, next_check_at: "2026-11-21T01:00:00.000Z" });

    // Two scores kept: a rule added now is judged on the latest at once, and its firing is sent.
    const at = (iso: string) => Date.parse(iso);
    const breakdown = { visibility: null, sentiment: null, authority: null, coverage: null };
    await store.snapshots.recordScore(workspace, { at: at("2026-11-19T00:00:00Z"), score: 70, direction: null, change: null, breakdown });
    await store.snapshots.recordScore(workspace, { at: at("2026-11-20T00:00:00Z"), score: 53, direction: null, change: null, breakdown });
    const firing = await add({ kind: "score_below", threshold: 60 });
    expect(firing.status).toBe(201);
    expect(firing.body).toMatchObject({ state: "firing", last_checked_at: TEST_NOW.replace("Z", ".000Z"), last_changed_at: TEST_NOW.replace("Z", ".000Z") });
    const [sent] = await receiver.waitFor(1);
    expect(sent!.json).toMatchObject({ type: "alert.firing", data: { rule: { id: firing.body.id }, value: 53 } });
    const fall = await add({ kind: "score_drop", threshold: 5 });
    expect(fall.body).toMatchObject({ state: "firing", last_checked_at: expect.any(String) });
    // The rule added before the scores were kept is checked with the next snapshot, as ever: the store holds its check once.
    expect(await store.alerts.checks(workspace, firing.body.id)).toEqual([
      expect.objectContaining({ basis: `score:${at("2026-11-20T00:00:00Z")}`, state: "firing", value: 53 }),
    ]);
  });

  it("a rule is changed in place: each field checked, the kind kept, a new threshold judged at once, the change in the activity list", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    const store = await storeFor(kind);
    const team = (await addDestination({ kind: "webhook", name: "Team", url: receiver.url })).body;
    const ops = (await addDestination({ kind: "webhook", name: "Ops", url: receiver.url })).body;
    const workspace = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    await store.snapshots.recordScore(workspace, {
      at: Date.parse("2026-11-20T00:00:00Z"),
      score: 53,
      direction: null,
      change: null,
      breakdown: { visibility: null, sentiment: null, authority: null, coverage: null },
    });
    const rule = (
      await request<RuleJson>(rules.POST, "POST", "/api/alerts/rules", { kind: "score_below", threshold: 60, destination_id: team.id, cooldown_minutes: 0 })
    ).body;
    expect(rule.state).toBe("firing");
    await receiver.waitFor(1);
    const patch = (body: unknown, options: { key?: string; id?: string; headers?: Record<string, string> } = {}) =>
      request<RuleJson>(ruleById.PATCH, "PATCH", `/api/alerts/rules/${options.id ?? rule.id}`, body, { id: rule.id, ...options });

    // Refused, each naming its field, and nothing changed.
    for (const [body, param] of [
      [{ threshold: "40" }, "threshold"],
      [{ threshold: 101 }, "threshold"],
      [{ cooldown_minutes: -1 }, "cooldown_minutes"],
      [{ cooldown_minutes: 1.5 }, "cooldown_minutes"],
      [{ destination_id: 5 }, "destination_id"],
      [{ kind: "score_drop" }, "kind"],
    ] as const) {
      const refused = await patch(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error).toMatchObject({ code: "invalid_parameter", param });
    }
    const unknownDestination = await patch({ destination_id: "dst_AAAAAAAAAAAAAAAA" });
    expect(unknownDestination.status).toBe(404);
    expect(unknownDestination.body.error?.param).toBe("destination_id");
    expect((await patch({ threshold: 40 }, { id: "rule_AAAAAAAAAAAAAAAA" })).status).toBe(404);
    expect((await patch({ threshold: 40 }, { key: DEMO_KEYS.free })).status).toBe(404);
    expect((await patch({ threshold: 40 }, { headers: { origin: "https://evil.example" } })).status).toBe(403);
    expect(await store.alerts.rule(workspace, rule.id)).toMatchObject({ threshold: 60, destinationId: team.id, cooldownMs: 0, state: "firing", revision: 0 });

    // The same values again: nothing to change, nothing recorded.
    const activityOf = async () => (await request<{ data: { action: string; subject: string }[] }>(activity.GET, "GET", "/api/workspace/activity")).body.data;
    const lines = (await activityOf()).length;
    expect((await patch({ kind: "score_below", threshold: 60 })).body).toMatchObject({ threshold: 60, state: "firing" });
    expect(await activityOf()).toHaveLength(lines);

    // A new threshold: judged at once on the same kept score, resolved and said so (the cooldown is 0).
    const lowered = await patch({ threshold: 40 });
    expect(lowered.status).toBe(200);
    expect(lowered.body).toMatchObject({ id: rule.id, kind: "score_below", threshold: 40, state: "ok", last_checked_at: expect.any(String) });
    const [, resolved] = await receiver.waitFor(2);
    expect(resolved!.json).toMatchObject({ type: "alert.resolved", data: { rule: { id: rule.id, threshold: 40 }, value: 53 } });
    expect((await activityOf())[0]).toMatchObject({ action: "rule.changed", subject: "The score is below 40 → Team (threshold 60 → 40)" });

    // Where it goes and its cooldown: no new judgement (the threshold stays), the change listed and recorded.
    const moved = await patch({ cooldown_minutes: 90, destination_id: ops.id });
    expect(moved.body).toEqual({ ...lowered.body, cooldown_minutes: 90, destination_id: ops.id });
    expect((await request<{ data: RuleJson[] }>(rules.GET, "GET", "/api/alerts/rules")).body.data).toEqual([moved.body]);
    expect((await activityOf())[0]).toMatchObject({
      action: "rule.changed",
      subject: "The score is below 40 → Ops (cooldown 0 min → 90 min; sent to Team → Ops)",
    });
    expect(await store.alerts.checks(workspace, rule.id)).toHaveLength(2);

    // A rule without a threshold keeps none.
    const passed = (await request<RuleJson>(rules.POST, "POST", "/api/alerts/rules", { kind: "rank_passed", threshold: null, destination_id: team.id })).body;
    expect((await patch({ threshold: 5, cooldown_minutes: 30 }, { id: passed.id })).body).toMatchObject({ threshold: null, cooldown_minutes: 30 });
  });

  it("the digest's preview is its text and a self-contained HTML of the latest full week; Send now delivers that text once, signed", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    vi.stubEnv("PUBLIC_URL", "https://analytics.example.com");
    const store = await storeFor(kind);
    const workspace = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    await store.annotations.create(workspace, { date: "2026-11-12", text: "<script>alert(1)</script> & launch" });

    // Off: the preview still shows what it would say; Send now has nowhere to go.
    const off = await request<PreviewJson>(digestPreview.GET, "GET", "/api/alerts/digest/preview");
    expect(off.status).toBe(200);
    // The test clock's Friday 20 November: the latest full week is Monday 9 to Sunday 15 November.
    expect(off.body).toMatchObject({
      week: { from: "2026-11-09", to: "2026-11-15" },
      time_zone: "UTC",
      sends_at: null,
      subject: expect.stringMatching(/^Weekly digest, 9 Nov – 15 Nov 2026: [\d,]+ visitors \([+−]\d+\.\d%\)$/),
    });
    const refusedOff = await request(digestSend.POST, "POST", "/api/alerts/digest/send");
    expect(refusedOff.status).toBe(409);
    expect(refusedOff.body.error?.code).toBe("digest_off");

    const created = (await addDestination({ kind: "webhook", name: "Digest", url: receiver.url })).body;
    await request(digest.PUT, "PUT", "/api/alerts/digest", { destination_id: created.id });
    const preview = await request<PreviewJson>(digestPreview.GET, "GET", "/api/alerts/digest/preview");
    expect(preview.body.sends_at).toBe("2026-11-23T09:00:00.000Z");
    const { text, html } = preview.body;
    expect(text).toMatch(/^Weekly digest · Workspace Analytics\n\nThe week of 2026-11-09 to 2026-11-15 against the week before: [\d,]+ visitors/);
    expect(text).toContain("\n\nFrom mention to conversion, per platform\n• ChatGPT: ");
    expect(text).toContain("\n\nNotes of the week\n• 2026-11-12: <script>alert(1)</script> & launch");
    expect(text).toMatch(/\n\nOpen in the dashboard: https:\/\/analytics\.example\.com\/\?from=2026-11-09&to=2026-11-15&tz=UTC$/);
    // The HTML: a whole document, figures as data tables, people's text escaped, nothing fetched.
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    expect(html).toContain("@media (prefers-color-scheme: dark)");
    expect(html).toContain("<h1");
    expect(html).toContain("9 Nov – 15 Nov 2026");
    expect(html.match(/<caption/g)).toHaveLength(2);
    expect(html).toContain('<th scope="col"');
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; launch");
    expect(html).not.toMatch(/<script|<img|<link|src=|url\(/i);
    expect(html).toContain('href="https://analytics.example.com/?from=2026-11-09&amp;to=2026-11-15&amp;tz=UTC"');

    const sent = await request<{ delivery_id: string; week: { from: string; to: string } }>(digestSend.POST, "POST", "/api/alerts/digest/send");
    expect(sent.status).toBe(202);
    expect(sent.body.week).toEqual({ from: "2026-11-09", to: "2026-11-15" });
    const [received] = await receiver.waitFor(1);
    expect(verifySignature(created.secret!, received!)).toBe(true);
    const body = received!.json as EventBody;
    expect(body.type).toBe("digest.weekly");
    // What the receiver reads is what the preview showed.
    expect(eventText(body)).toBe(text);
    await vi.waitFor(async () => {
      const list = await request<{ data: AttemptJson[] }>(deliveries.GET, "GET", "/api/alerts/deliveries");
      expect(list.body.data).toEqual([
        expect.objectContaining({
          id: sent.body.delivery_id,
          destination_id: created.id,
          type: "digest.weekly",
          attempt: 1,
          status: "delivered",
          response_status: 200,
        }),
      ]);
    });
    // One delivery, and the scheduled digest is still to come.
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toHaveLength(1);
    expect((await request(digest.GET, "GET", "/api/alerts/digest")).body).toMatchObject({ destination_id: created.id, next_at: "2026-11-23T09:00:00.000Z" });
  });

  it("through a share link the preview and Send now link the shared page's figures to it for the week, and no other; once it expired, nothing links", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    vi.stubEnv("PUBLIC_URL", "https://analytics.example.com");
    let now = Date.parse(TEST_NOW);
    const store = await stores.open(kind, { now: () => now });
    overrideContext({ store: async () => store, now: () => now });
    const workspace = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    const token = "AbCdEfGhIjKlMnOpQrStUvWxYz012345";
    const traffic = await store.shares.create(workspace, {
      name: "AI traffic",
      path: "/platforms",
      query: { range: "90d", tz: "Asia/Tokyo", platform: "chatgpt" },
      token,
      passwordHash: null,
      expiresAt: now + 3_600_000,
    });
    const created = (await addDestination({ kind: "webhook", name: "Digest", url: receiver.url })).body;
    await request(digest.PUT, "PUT", "/api/alerts/digest", { destination_id: created.id, share_id: traffic.id });

    const link = `https://analytics.example.com/s/${token}?platform=chatgpt&from=2026-11-09&to=2026-11-15&tz=UTC`;
    const { text, html } = (await request<PreviewJson>(digestPreview.GET, "GET", "/api/alerts/digest/preview")).body;
    expect(text).toContain(`  From AI platforms: ${link}\n`);
    expect(text).toContain(`  AI platforms: ${link}\n`);
    expect(text).toMatch(new RegExp(`\n\nOpen in the dashboard: ${link.replace(/[?.]/g, "\\$&")}$`));
    // No figure of another page links anywhere (its recipients have no key).
    expect([...text.matchAll(/https:\/\/\S+/g)].map((m) => m[0])).toEqual([link, link, link]);
    expect([...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"))).toEqual([link, link, link]);

    expect((await request(digestSend.POST, "POST", "/api/alerts/digest/send")).status).toBe(202);
    const [received] = await receiver.waitFor(1);
    expect(eventText(received!.json as EventBody)).toBe(text);
    // Kept, the event holds the link's mark, never its token (put in as it is sent).
    const kept = JSON.stringify((await store.alerts.event(String(received!.headers["webhook-id"])))!.body);
    expect(kept).not.toContain(token);
    expect(kept).toContain(`/s/~share.${traffic.id}~?platform=chatgpt`);

    // Made while the link opened, sent after it was revoked: its links open the one "expired" page.
    const revoked = await store.shares.create(workspace, {
      name: "Soon revoked",
      path: "/platforms",
      query: {},
      token: "R".repeat(32),
      passwordHash: null,
      expiresAt: null,
    });
    const madeBody = {
      type: "digest.weekly",
      timestamp: TEST_NOW,
      data: { message: "Week", url: `https://analytics.example.com/s/~share.${revoked.id}~?from=2026-11-09` },
    };
    expect(await resolveShareMarks(store, workspace, madeBody, now)).toEqual({
      ...madeBody,
      data: { ...madeBody.data, url: `https://analytics.example.com/s/${"R".repeat(32)}?from=2026-11-09` },
    });
    await store.shares.remove(workspace, revoked.id);
    expect(await resolveShareMarks(store, workspace, madeBody, now)).toEqual({
      ...madeBody,
      data: { ...madeBody.data, url: "https://analytics.example.com/s/expired?from=2026-11-09" },
    });

    // Expired by the time it is read: no links at all (the dashboard's would ask for a key).
    now += 3_600_000;
    const bare = (await request<PreviewJson>(digestPreview.GET, "GET", "/api/alerts/digest/preview")).body;
    expect(bare.text).not.toContain("https://");
    expect(bare.text).not.toContain("Open in the dashboard");
    expect(bare.html).not.toContain("href=");
    expect((await request(digestSend.POST, "POST", "/api/alerts/digest/send")).status).toBe(202);
    await receiver.waitFor(2);
    expect(eventText(receiver.received[1]!.json as EventBody)).toBe(bare.text);
    // Both attempts kept before the test's store closes.
    await vi.waitFor(async () => {
      const list = await request<{ data: AttemptJson[] }>(deliveries.GET, "GET", "/api/alerts/deliveries");
      expect(list.body.data.map((a) => a.status)).toEqual(["delivered", "delivered"]);
    });
  });

  it("Send now counts against the 10 sends by hand a minute, is refused from another site and to a stopped destination, and sends nothing then", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    const store = await storeFor(kind);
    const workspace = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    const created = (await addDestination({ kind: "webhook", name: "Digest", url: receiver.url })).body;
    await request(digest.PUT, "PUT", "/api/alerts/digest", { destination_id: created.id });
    const send = (headers?: Record<string, string>) => request(digestSend.POST, "POST", "/api/alerts/digest/send", undefined, headers ? { headers } : {});

    expect((await send({ origin: "https://evil.example" })).status).toBe(403);
    for (let i = 0; i < 9; i++) expect((await store.alerts.takeManualSend(workspace, "test")).allowed).toBe(true);
    expect((await send()).status).toBe(202);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe("too_many_requests");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await receiver.waitFor(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toHaveLength(1);

    await store.alerts.stopDestination(created.id, "The receiver answered 410 Gone.");
    const stopped = await send();
    expect(stopped.status).toBe(409);
    expect(stopped.body.error?.code).toBe("destination_stopped");
  });
});
