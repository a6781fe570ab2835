// The alerts' routes on both databases, through the app's own route handlers with sessions checked
// against the sandbox over real HTTP: a destination's URL checked (private, loopback and link-local
// addresses refused unless allowed; https required), sealed at rest, answered only as a hint, its
// signing secret once; a Slack destination only at Slack's incoming webhooks; at most 10 destinations
// added a minute per workspace (429 with Retry-After); "Send a test" reaching a real receiver with a
// valid signature and showing as a delivery; rules validated per kind; the preview; a retry only of a
// failed delivery; "Send a test" and "Retry" 10 a minute per workspace (429 with Retry-After); the
// digest's destination; deleting a destination takes its rules and digest along; every id of another
// workspace a 404; a write from another site a 403 that changes nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as deliveryRetry from "@/app/api/alerts/deliveries/[id]/retry/route";
import * as deliveries from "@/app/api/alerts/deliveries/route";
import * as destinationById from "@/app/api/alerts/destinations/[id]/route";
import * as destinationTest from "@/app/api/alerts/destinations/[id]/test/route";
import * as destinations from "@/app/api/alerts/destinations/route";
import * as digest from "@/app/api/alerts/digest/route";
import * as ruleById from "@/app/api/alerts/rules/[id]/route";
import * as rulePreview from "@/app/api/alerts/rules/preview/route";
import * as rules from "@/app/api/alerts/rules/route";
import { call, ORIGIN, serverContextPerTest, sessionCookie, TEST_NOW, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import type { StoreKind } from "@/lib/store/database";
import type { Store } from "@/lib/store/store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import { DEMO_KEYS } from "@/sandbox/keys";
import { createNameResolver, setDestinationResolver } from "./resolve-name";
import { startDnsServer } from "@/testing/name-server";
import { startReceiver, verifySignature, type Receiver } from "@/testing/webhook-receiver";

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
type DestinationJson = { id: string; kind: string; name: string; url_hint: string; status: string; stopped_reason: string | null; created_at: string; secret?: string };
type RuleJson = { id: string; kind: string; threshold: number | null; destination_id: string; cooldown_minutes: number; state: string };
type AttemptJson = { id: string; destination_id: string; type: string; attempt: number; status: string; response_status: number | null; retryable: boolean };

async function request<T = Record<string, unknown>>(handler: Handler, method: string, path: string, body?: unknown, options: { key?: string; id?: string; headers?: Record<string, string> } = {}) {
  const init: RequestInit = {
    method,
    headers: { ...(method === "GET" ? {} : { origin: ORIGIN, "content-type": "application/json" }), ...options.headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
  return call<T & Partial<ErrorJson>>(handler, path, { cookie: await sessionCookie(options.key ?? DEMO_KEYS.pro), init, ...(options.id ? { params: { id: options.id } } : {}) });
}

const addDestination = (body: unknown, key?: string) => request<DestinationJson>(destinations.POST, "POST", "/api/alerts/destinations", body, key ? { key } : {});

describe.each(STORE_KINDS)("alert routes (%s)", (kind) => {
  it("a destination's URL is checked: private, loopback and link-local addresses and clear text are refused unless allowed", async () => {
    await storeFor(kind);
    for (const url of ["http://127.0.0.1:9/x", "https://127.0.0.1/x", "https://10.1.2.3/x", "https://169.254.169.254/latest/meta-data", "https://[::1]/x", "https://[fd00::1]/x", "https://[::7f00:1]/x", "https://[::ffff:127.0.0.1]/x", "https://localhost/x", "http://hooks.example.com/x", "ftp://example.com/", "not a url", ""]) {
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
      expect(notSlack.body.error).toMatchObject({ code: "invalid_parameter", param: "url", message: expect.stringContaining("https://hooks.slack.com/services/") });
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
    expect(refused.body.error).toMatchObject({ code: "too_many_requests", message: expect.stringMatching(/^This workspace added 10 destinations in the last minute/) });
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

    const test = await request<{ delivery_id: string }>(destinationTest.POST, "POST", `/api/alerts/destinations/${created.body.id}/test`, undefined, { id: created.body.id });
    expect(test.status).toBe(202);
    const [received] = await receiver.waitFor(1);
    expect(received!.path).toBe("/hooks/analytics?token=s3cr3t-path-token");
    expect(verifySignature(secret, received!)).toBe(true);
    expect(received!.json).toMatchObject({ type: "test", data: { message: expect.stringMatching(/^A test from Workspace Analytics to “Ops receiver”/) } });

    await vi.waitFor(async () => {
      const list = await request<{ data: AttemptJson[] }>(deliveries.GET, "GET", "/api/alerts/deliveries");
      expect(list.body.data).toEqual([expect.objectContaining({ id: test.body.delivery_id, destination_id: created.body.id, type: "test", attempt: 1, status: "delivered", response_status: 200, retryable: false })]);
    });
    // Delivered: nothing to retry. Unknown: not found.
    expect((await request(deliveryRetry.POST, "POST", `/api/alerts/deliveries/${test.body.delivery_id}/retry`, undefined, { id: test.body.delivery_id })).body.error?.code).toBe("not_retryable");
    expect((await request(deliveryRetry.POST, "POST", "/api/alerts/deliveries/dlv_AAAAAAAAAAAAAAAA/retry", undefined, { id: "dlv_AAAAAAAAAAAAAAAA" })).status).toBe(404);
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
      await store.alerts.enqueue(workspace, { dedupeKey: `failed:${i}`, type: "test", body: { type: "test", timestamp: TEST_NOW, data: { message: "x" } } }, [destination.id]);
      const claimed = (await store.alerts.claimNext(destination.id, "test", now, now + 20_000))!;
      await store.alerts.finishAttempt(claimed, "test", { at: now, status: "failed", responseStatus: 500, error: "the receiver answered 500", durationMs: 1, nextAttemptAt: null });
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
    expect(refused.body).toEqual({ error: { code: "too_many_requests", message: '"Send a test" and "Retry" can be used 10 times a minute in a workspace; try again in 45 s.' } });
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
    expect((await request<{ data: RuleJson[] }>(rules.GET, "GET", "/api/alerts/rules")).body.data.map((r) => r.id).sort()).toEqual([rule.body.id, drop.body.id].sort());

    const preview = await request(rulePreview.GET, "GET", "/api/alerts/rules/preview?kind=score_below&threshold=50");
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({ days: 30, fired: expect.any(Number), checks: expect.any(Number), history_since: null, firings: expect.any(Array) });
    expect((await request(rulePreview.GET, "GET", "/api/alerts/rules/preview?kind=score_below&threshold=abc")).body.error?.param).toBe("threshold");
    expect((await request(rulePreview.GET, "GET", "/api/alerts/rules/preview?kind=nope")).body.error?.param).toBe("kind");

    // Another workspace: nothing listed, every id a 404.
    const free = { key: DEMO_KEYS.free };
    expect((await request<{ data: RuleJson[] }>(rules.GET, "GET", "/api/alerts/rules", undefined, free)).body.data).toEqual([]);
    expect((await request(ruleById.DELETE, "DELETE", `/api/alerts/rules/${rule.body.id}`, undefined, { ...free, id: rule.body.id })).status).toBe(404);
    expect((await request(destinationById.DELETE, "DELETE", `/api/alerts/destinations/${destination.id}`, undefined, { ...free, id: destination.id })).status).toBe(404);
    expect((await request(destinationTest.POST, "POST", `/api/alerts/destinations/${destination.id}/test`, undefined, { ...free, id: destination.id })).status).toBe(404);
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
    expect((await request(digest.GET, "GET", "/api/alerts/digest")).body).toEqual({ destination_id: null, next_at: null, time_zone: "UTC" });
    const set = await request<{ destination_id: string | null; next_at: string | null }>(digest.PUT, "PUT", "/api/alerts/digest", { destination_id: destination.id });
    expect(set.status).toBe(200);
    expect(set.body.destination_id).toBe(destination.id);
    // Monday 09:00 in the workspace's zone (UTC here): the next one after the test clock's Friday 20 November 2026.
    expect(set.body.next_at).toBe("2026-11-23T09:00:00.000Z");
    expect((await request(digest.PUT, "PUT", "/api/alerts/digest", { destination_id: 42 })).body.error?.param).toBe("destination_id");

    expect((await request(destinationById.DELETE, "DELETE", `/api/alerts/destinations/${destination.id}`, undefined, { id: destination.id })).status).toBe(204);
    expect((await request<{ data: unknown[] }>(rules.GET, "GET", "/api/alerts/rules")).body.data).toEqual([]);
    expect((await request(digest.GET, "GET", "/api/alerts/digest")).body).toMatchObject({ destination_id: null });
  });

  it("a write from another site is refused with 403 and changes nothing", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    await storeFor(kind);
    const refused = await request(destinations.POST, "POST", "/api/alerts/destinations", { kind: "webhook", name: "X", url: receiver.url }, { headers: { origin: "https://evil.example" } });
    expect(refused.status).toBe(403);
    expect((await request<{ data: unknown[] }>(destinations.GET, "GET", "/api/alerts/destinations")).body.data).toEqual([]);
  });
});
