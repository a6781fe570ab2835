// Alerts' refusals as the production build answers them (`npm start`, testing/system-setup.ts): bad
// fields of destinations, rules (added or changed), the digest and the lists a 400 naming the field,
// a rule's kind changed too; unknown ids a 404 (a rule or the digest naming an unknown destination
// names `destination_id`; its links through a share link not the workspace's a 400 naming
// `share_id`); the digest sent now while it goes nowhere a 409; a delivered test
// retried a 409; an 11th "Send a test" in a minute a 429 with Retry-After, sending nothing, and the
// digest's "Send now" in that minute too; a
// destination over the workspace's allowance per minute a 429 with Retry-After; the
// 51st rule a 422 `limit_reached`. None of them writes anything. The destinations' receiver is a real
// HTTP server on loopback (the layer's server allows private addresses for it). The bound of 20
// destinations takes two minutes to reach at that allowance: the store's and the routes' unit tests
// hold it, and its 422 is the same mapping as the rules'.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "@/testing/webhook-receiver";
import { ALERT_WRITE_LIMITS } from "@/lib/alerts/write-limit";
import { MANUAL_SENDS_PER_WINDOW, MAX_RULES } from "@/lib/store/alerts";
import type { ApiClient } from "@/testing/production";
import { expectRefusal, inParallel, signedIn, WORKSPACE_KEYS, type Refusal } from "@/testing/system";

type DestinationJson = { id: string; kind: string; name: string; url_hint: string };
type RuleJson = { id: string; kind: string; threshold: number | null; destination_id: string };
type AttemptJson = { id: string; status: string };

let api: ApiClient;
let receiver: Receiver;
let destination: DestinationJson;
let rule: RuleJson;

const addDestination = (name: string) => api.call<DestinationJson>("POST", "/api/alerts/destinations", { body: { kind: "webhook", name, url: receiver.url } });
const addRule = (threshold: number) =>
  api.call<RuleJson>("POST", "/api/alerts/rules", { body: { kind: "score_below", threshold, destination_id: destination.id } });
const destinations = async () => (await api.call<{ data: DestinationJson[] }>("GET", "/api/alerts/destinations")).body.data;
const rules = async () => (await api.call<{ data: RuleJson[] }>("GET", "/api/alerts/rules")).body.data;

beforeAll(async () => {
  receiver = await startReceiver();
  api = await signedIn(WORKSPACE_KEYS.alerts);
  const made = await addDestination("Ops");
  expect(made.status).toBe(201);
  destination = made.body;
  const added = await addRule(40);
  expect(added.status).toBe(201);
  rule = added.body;
});

afterAll(async () => {
  await receiver?.close();
});

const UNKNOWN = { destination: "dst_AAAAAAAAAAAAAAAA", rule: "rule_AAAAAAAAAAAAAAAA", delivery: "dlv_AAAAAAAAAAAAAAAA" };
const webhook = (fields: Record<string, unknown>) => ({ kind: "webhook", name: "Ops 2", url: "http://127.0.0.1:9/hook", ...fields });
const scoreBelow = (fields: Record<string, unknown>) => ({ kind: "score_below", threshold: 40, destination_id: destination.id, ...fields });

describe("alerts: refusals from the production server", () => {
  it.each<[string, () => Parameters<ApiClient["call"]>, Refusal]>([
    [
      "a destination of an unknown kind",
      () => ["POST", "/api/alerts/destinations", { body: webhook({ kind: "sms" }) }],
      { status: 400, code: "invalid_parameter", param: "kind" },
    ],
    [
      "a destination without a name",
      () => ["POST", "/api/alerts/destinations", { body: webhook({ name: " " }) }],
      { status: 400, code: "invalid_parameter", param: "name" },
    ],
    [
      "a destination named on two lines",
      () => ["POST", "/api/alerts/destinations", { body: webhook({ name: "Ops\nteam" }) }],
      { status: 400, code: "invalid_parameter", param: "name" },
    ],
    [
      "a destination whose url is no address",
      () => ["POST", "/api/alerts/destinations", { body: webhook({ url: "not a url" }) }],
      { status: 400, code: "invalid_parameter", param: "url" },
    ],
    [
      "a destination over ftp",
      () => ["POST", "/api/alerts/destinations", { body: webhook({ url: "ftp://127.0.0.1/hook" }) }],
      { status: 400, code: "invalid_parameter", param: "url" },
    ],
    [
      "a destination with a #fragment",
      () => ["POST", "/api/alerts/destinations", { body: webhook({ url: "http://127.0.0.1:9/hook#x" }) }],
      { status: 400, code: "invalid_parameter", param: "url" },
    ],
    [
      "a destination without a url",
      () => ["POST", "/api/alerts/destinations", { body: { kind: "webhook", name: "Ops 2" } }],
      { status: 400, code: "invalid_parameter", param: "url" },
    ],
    [
      "a rule of an unknown kind",
      () => ["POST", "/api/alerts/rules", { body: scoreBelow({ kind: "score_up" }) }],
      { status: 400, code: "invalid_parameter", param: "kind" },
    ],
    [
      "a score_below threshold above 100",
      () => ["POST", "/api/alerts/rules", { body: scoreBelow({ threshold: 101 }) }],
      { status: 400, code: "invalid_parameter", param: "threshold" },
    ],
    [
      "a threshold written as text",
      () => ["POST", "/api/alerts/rules", { body: scoreBelow({ threshold: "40" }) }],
      { status: 400, code: "invalid_parameter", param: "threshold" },
    ],
    [
      "a count threshold that is not whole",
      () => ["POST", "/api/alerts/rules", { body: scoreBelow({ kind: "negative_mentions", threshold: 1.5 }) }],
      { status: 400, code: "invalid_parameter", param: "threshold" },
    ],
    [
      "a negative cooldown",
      () => ["POST", "/api/alerts/rules", { body: scoreBelow({ cooldown_minutes: -1 }) }],
      { status: 400, code: "invalid_parameter", param: "cooldown_minutes" },
    ],
    [
      "a cooldown over a week",
      () => ["POST", "/api/alerts/rules", { body: scoreBelow({ cooldown_minutes: 7 * 24 * 60 + 1 }) }],
      { status: 400, code: "invalid_parameter", param: "cooldown_minutes" },
    ],
    [
      "a rule without a destination",
      () => ["POST", "/api/alerts/rules", { body: { kind: "score_below", threshold: 40 } }],
      { status: 400, code: "invalid_parameter", param: "destination_id" },
    ],
    [
      "a rule for an unknown destination",
      () => ["POST", "/api/alerts/rules", { body: scoreBelow({ destination_id: UNKNOWN.destination }) }],
      { status: 404, code: "not_found", param: "destination_id" },
    ],
    [
      "the digest to an unknown destination",
      () => ["PUT", "/api/alerts/digest", { body: { destination_id: UNKNOWN.destination } }],
      { status: 404, code: "not_found", param: "destination_id" },
    ],
    [
      "the digest to a destination that is not an id",
      () => ["PUT", "/api/alerts/digest", { body: { destination_id: 5 } }],
      { status: 400, code: "invalid_parameter", param: "destination_id" },
    ],
    [
      "the digest's links through an unknown share link",
      () => ["PUT", "/api/alerts/digest", { body: { destination_id: destination.id, share_id: "shr_AAAAAAAAAAAAAAAAAAAAAA" } }],
      { status: 400, code: "invalid_parameter", param: "share_id" },
    ],
    [
      "the digest's links through a share link that is not an id",
      () => ["PUT", "/api/alerts/digest", { body: { destination_id: destination.id, share_id: 5 } }],
      { status: 400, code: "invalid_parameter", param: "share_id" },
    ],
    ["deleting an unknown destination", () => ["DELETE", `/api/alerts/destinations/${UNKNOWN.destination}`, {}], { status: 404, code: "not_found" }],
    ["deleting with an id that is no destination's", () => ["DELETE", `/api/alerts/destinations/${rule.id}`, {}], { status: 404, code: "not_found" }],
    ["a test to an unknown destination", () => ["POST", `/api/alerts/destinations/${UNKNOWN.destination}/test`, {}], { status: 404, code: "not_found" }],
    ["deleting an unknown rule", () => ["DELETE", `/api/alerts/rules/${UNKNOWN.rule}`, {}], { status: 404, code: "not_found" }],
    ["changing an unknown rule", () => ["PATCH", `/api/alerts/rules/${UNKNOWN.rule}`, { body: { threshold: 30 } }], { status: 404, code: "not_found" }],
    [
      "a rule's threshold changed to text",
      () => ["PATCH", `/api/alerts/rules/${rule.id}`, { body: { threshold: "30" } }],
      { status: 400, code: "invalid_parameter", param: "threshold" },
    ],
    [
      "a rule's threshold changed out of bounds",
      () => ["PATCH", `/api/alerts/rules/${rule.id}`, { body: { threshold: -1 } }],
      { status: 400, code: "invalid_parameter", param: "threshold" },
    ],
    [
      "a rule's cooldown changed to over a week",
      () => ["PATCH", `/api/alerts/rules/${rule.id}`, { body: { cooldown_minutes: 7 * 24 * 60 + 1 } }],
      { status: 400, code: "invalid_parameter", param: "cooldown_minutes" },
    ],
    [
      "a rule's kind changed",
      () => ["PATCH", `/api/alerts/rules/${rule.id}`, { body: { kind: "score_drop" } }],
      { status: 400, code: "invalid_parameter", param: "kind" },
    ],
    [
      "a rule sent to a destination that is not an id",
      () => ["PATCH", `/api/alerts/rules/${rule.id}`, { body: { destination_id: 7 } }],
      { status: 400, code: "invalid_parameter", param: "destination_id" },
    ],
    [
      "a rule sent to an unknown destination",
      () => ["PATCH", `/api/alerts/rules/${rule.id}`, { body: { destination_id: UNKNOWN.destination } }],
      { status: 404, code: "not_found", param: "destination_id" },
    ],
    [
      "a rule changed with a body that is not JSON",
      () => ["PATCH", `/api/alerts/rules/${rule.id}`, { rawBody: "threshold=30" }],
      { status: 400, code: "invalid_parameter", param: "body" },
    ],
    ["the digest sent now while it goes nowhere", () => ["POST", "/api/alerts/digest/send", {}], { status: 409, code: "digest_off" }],
    ["retrying an unknown delivery", () => ["POST", `/api/alerts/deliveries/${UNKNOWN.delivery}/retry`, {}], { status: 404, code: "not_found" }],
    ["deliveries, none per page", () => ["GET", "/api/alerts/deliveries?limit=0", {}], { status: 400, code: "invalid_parameter", param: "limit" }],
    ["deliveries, 500 per page", () => ["GET", "/api/alerts/deliveries?limit=500", {}], { status: 400, code: "invalid_parameter", param: "limit" }],
    ["a preview of an unknown kind", () => ["GET", "/api/alerts/rules/preview?kind=score_up", {}], { status: 400, code: "invalid_parameter", param: "kind" }],
    [
      "a preview with a threshold out of bounds",
      () => ["GET", "/api/alerts/rules/preview?kind=score_below&threshold=500", {}],
      { status: 400, code: "invalid_parameter", param: "threshold" },
    ],
    [
      "a preview with a cooldown that is no number",
      () => ["GET", "/api/alerts/rules/preview?kind=rank_passed&cooldown_minutes=soon", {}],
      { status: 400, code: "invalid_parameter", param: "cooldown_minutes" },
    ],
  ])("%s", async (label, request, expected) => {
    expectRefusal(await api.call(...request()), expected, label);
  });

  it("wrote nothing while refusing", async () => {
    expect((await destinations()).map((d) => d.id)).toEqual([destination.id]);
    expect((await rules()).map((r) => [r.id, r.threshold, r.destination_id])).toEqual([[rule.id, 40, destination.id]]);
    expect((await api.call<{ destination_id: string | null }>("GET", "/api/alerts/digest")).body.destination_id).toBeNull();
  });

  it("a test that was delivered cannot be retried: 409 not_retryable", async () => {
    const sent = await api.call<{ delivery_id: string }>("POST", `/api/alerts/destinations/${destination.id}/test`);
    expect(sent.status).toBe(202);
    await receiver.waitFor(1, 15_000);
    const deadline = Date.now() + 15_000;
    while (
      !(await api.call<{ data: AttemptJson[] }>("GET", "/api/alerts/deliveries")).body.data.some(
        (a) => a.id === sent.body.delivery_id && a.status === "delivered",
      )
    ) {
      if (Date.now() > deadline) throw new Error("the test delivery was not recorded as delivered within 15 s");
      await new Promise((r) => setTimeout(r, 200));
    }
    expectRefusal(await api.call("POST", `/api/alerts/deliveries/${sent.body.delivery_id}/retry`), { status: 409, code: "not_retryable" });
    expect(receiver.received).toHaveLength(1);
  });

  it(`"Send a test" past ${MANUAL_SENDS_PER_WINDOW} in a minute is a 429 with Retry-After, and sends nothing`, async () => {
    // The test of the case before counts (sent moments ago, unless a slow run let its minute pass).
    const accepted: number[] = [];
    let refused: Awaited<ReturnType<ApiClient["call"]>> | undefined;
    for (let i = 0; i <= MANUAL_SENDS_PER_WINDOW && !refused; i++) {
      const sent = await api.call("POST", `/api/alerts/destinations/${destination.id}/test`);
      if (sent.status === 202) accepted.push(i);
      else refused = sent;
    }
    expect(accepted.length).toBeGreaterThanOrEqual(MANUAL_SENDS_PER_WINDOW - 1);
    expect(accepted.length).toBeLessThanOrEqual(MANUAL_SENDS_PER_WINDOW);
    expectRefusal(refused!, { status: 429, code: "too_many_requests" });
    const retryAfter = Number(refused!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The digest's "Send now" counts in the same allowance: refused too, in the same minute.
    expect((await api.call("PUT", "/api/alerts/digest", { body: { destination_id: destination.id } })).status).toBe(200);
    const digestRefused = await api.call("POST", "/api/alerts/digest/send");
    expectRefusal(digestRefused, { status: 429, code: "too_many_requests" });
    expect(Number(digestRefused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await receiver.waitFor(1 + accepted.length, 30_000);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.received).toHaveLength(1 + accepted.length);
    expect(receiver.received.every((r) => (r.json as { type?: string }).type === "test")).toBe(true);
  });

  it(`a destination past ${ALERT_WRITE_LIMITS.destination.points} in a minute is a 429 with Retry-After, and is not kept`, async () => {
    const { points } = ALERT_WRITE_LIMITS.destination;
    // The one made before the table counts; the table's refused URLs were refused before counting.
    const more = await inParallel(points - 1, 4, (i) => addDestination(`Receiver ${i}`));
    expect(more.every((a) => a.status === 201)).toBe(true);
    const refused = await addDestination("One too many");
    expectRefusal(refused, { status: 429, code: "too_many_requests" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const kept = await destinations();
    expect(kept).toHaveLength(points);
    expect(kept.some((d) => d.name === "One too many")).toBe(false);
  });

  it(`the ${MAX_RULES + 1}st rule is a 422 limit_reached, and nothing is written`, async () => {
    const moreRules = await inParallel(MAX_RULES - 1, 8, (i) => addRule(i + 1));
    expect(moreRules.every((a) => a.status === 201)).toBe(true);
    expectRefusal(await addRule(99), { status: 422, code: "limit_reached" });
    const kept = await rules();
    expect(kept).toHaveLength(MAX_RULES);
    expect(kept.some((r) => r.threshold === 99)).toBe(false);
  });
});
