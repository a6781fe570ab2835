// The activity list on both databases, through the app's own route handlers with sessions checked
// against the sandbox over real HTTP: every kind of change (watching on and off, a key linked, a
// destination added and deleted, a rule added and deleted, the digest set and stopped) is recorded with
// the hint of the key whose session made it, newest first; a refused write, a read and a key linked
// again record nothing; another workspace sees none of it; the answer holds no key; at most 1,000.
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, ORIGIN, serverStoresForFile, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import { ACTIVITY_MAX } from "@/lib/store/activity";
import { STORE_KINDS } from "@/testing/stores";
import { DEMO_KEYS } from "@/sandbox/keys";
import type { ActivityJson } from "./actions";
import { routeFileAt } from "@/testing/api-routes";

const activity = await routeFileAt("workspace/activity");
const destinationById = await routeFileAt("alerts/destinations/[id]");
const destinations = await routeFileAt("alerts/destinations");
const digest = await routeFileAt("alerts/digest");
const ruleById = await routeFileAt("alerts/rules/[id]");
const rules = await routeFileAt("alerts/rules");
const keys = await routeFileAt("workspace/keys");
const watch = await routeFileAt("workspace/watch");

upstreamForFile({ visitors: 300 });
const storeFor = serverStoresForFile();

afterEach(() => {
  vi.unstubAllEnvs();
});

type Handler = (req: Request, ctx: never) => Promise<Response>;

async function as<T = Record<string, unknown>>(key: string, handler: Handler, method: string, path: string, body?: unknown, id?: string) {
  const init: RequestInit = {
    method,
    headers: method === "GET" ? {} : { origin: ORIGIN, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
  return call<T & Partial<ErrorJson>>(handler, path, { cookie: await sessionCookie(key), init, ...(id ? { params: { id } } : {}) });
}

const listed = async (key: string) => as<{ data: ActivityJson[] }>(key, activity.GET as Handler, "GET", "/api/workspace/activity");

const PRO = "svc_sk_test_…9d1f";
const FREE = "svc_sk_test_…5b2d";

describe.each(STORE_KINDS)("activity routes (%s)", (kind) => {
  it("records every kind of change with the key hint that made it, newest first; refused writes, reads and a repeated link record nothing", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    await storeFor(kind);
    expect((await listed(DEMO_KEYS.pro)).body).toEqual({ data: [] });

    expect((await as(DEMO_KEYS.pro, watch.PUT as Handler, "PUT", "/api/workspace/watch")).status).toBe(200);
    expect((await as(DEMO_KEYS.pro, keys.POST as Handler, "POST", "/api/workspace/keys", { apiKey: DEMO_KEYS.free })).status).toBe(201);
    expect((await as(DEMO_KEYS.pro, keys.POST as Handler, "POST", "/api/workspace/keys", { apiKey: DEMO_KEYS.free })).status).toBe(201);

    // The free key, linked, now opens the same workspace: its changes are its own.
    const destination = await as<{ id: string; url_hint: string }>(DEMO_KEYS.free, destinations.POST as Handler, "POST", "/api/alerts/destinations", {
      kind: "webhook",
      name: "Ops",
      url: "http://127.0.0.1:9/hooks/ops-1234",
    });
    expect(destination.status).toBe(201);
    const rule = await as<{ id: string }>(DEMO_KEYS.free, rules.POST as Handler, "POST", "/api/alerts/rules", {
      kind: "score_below",
      threshold: 40,
      destination_id: destination.body.id,
    });
    expect(rule.status).toBe(201);
    expect((await as(DEMO_KEYS.free, digest.PUT as Handler, "PUT", "/api/alerts/digest", { destination_id: destination.body.id })).status).toBe(200);

    // Refused, and reads: nothing recorded.
    expect(
      (await as(DEMO_KEYS.free, rules.POST as Handler, "POST", "/api/alerts/rules", { kind: "score_fell", threshold: 5, destination_id: destination.body.id }))
        .status,
    ).toBe(400);
    expect(
      (await as(DEMO_KEYS.free, ruleById.DELETE as Handler, "DELETE", "/api/alerts/rules/rule_AAAAAAAAAAAAAAAA", undefined, "rule_AAAAAAAAAAAAAAAA")).status,
    ).toBe(404);
    expect((await as(DEMO_KEYS.free, digest.PUT as Handler, "PUT", "/api/alerts/digest", { destination_id: "dst_AAAAAAAAAAAAAAAA" })).status).toBe(404);
    expect((await as(DEMO_KEYS.free, destinations.GET as Handler, "GET", "/api/alerts/destinations")).status).toBe(200);

    expect((await as(DEMO_KEYS.pro, digest.PUT as Handler, "PUT", "/api/alerts/digest", { destination_id: null })).status).toBe(200);
    expect((await as(DEMO_KEYS.pro, ruleById.DELETE as Handler, "DELETE", `/api/alerts/rules/${rule.body.id}`, undefined, rule.body.id)).status).toBe(204);
    expect(
      (await as(DEMO_KEYS.pro, destinationById.DELETE as Handler, "DELETE", `/api/alerts/destinations/${destination.body.id}`, undefined, destination.body.id))
        .status,
    ).toBe(204);
    expect((await as(DEMO_KEYS.pro, watch.DELETE as Handler, "DELETE", "/api/workspace/watch")).status).toBe(200);

    const ops = `Ops (${destination.body.url_hint})`;
    const answer = await listed(DEMO_KEYS.free);
    expect(answer.status).toBe(200);
    expect(answer.body.data.map(({ key_hint, action, subject }) => [key_hint, action, subject])).toEqual([
      [PRO, "watching.stopped", ""],
      [PRO, "destination.deleted", ops],
      [PRO, "rule.deleted", "The score is below 40 → Ops"],
      [PRO, "digest.stopped", ""],
      [FREE, "digest.set", ops],
      [FREE, "rule.added", "The score is below 40 → Ops"],
      [FREE, "destination.added", ops],
      [PRO, "key.linked", FREE],
      [PRO, "watching.started", ""],
    ]);
    const times = answer.body.data.map((r) => Date.parse(r.at));
    expect(times.every((t, i) => i === 0 || t < times[i - 1]!)).toBe(true);
    expect(answer.body.data[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const key of Object.values(DEMO_KEYS)) expect(answer.text).not.toContain(key);
    expect((await listed(DEMO_KEYS.pro)).body).toEqual(answer.body);

    // Another workspace's list is its own.
    expect((await listed(DEMO_KEYS.empty)).body).toEqual({ data: [] });
    expect((await call<ErrorJson>(activity.GET as Handler, "/api/workspace/activity")).status).toBe(401);
  });

  it(`answers at most ${ACTIVITY_MAX}, the newest`, async () => {
    const store = await storeFor(kind);
    const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    for (let i = 0; i < ACTIVITY_MAX + 3; i++) await store.activity.record(ws, { keyHint: PRO, action: "rule.added", subject: `rule ${i}` });
    const { body } = await listed(DEMO_KEYS.pro);
    expect(body.data).toHaveLength(ACTIVITY_MAX);
    expect(body.data[0]!.subject).toBe(`rule ${ACTIVITY_MAX + 2}`);
    expect(body.data.at(-1)!.subject).toBe("rule 3");
  });
});
