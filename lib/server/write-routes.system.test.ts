// Every write route of /api, as the production build answers it (`npm start`,
// testing/system-setup.ts): started by another site (a foreign or `null` Origin, or a browser's
// `Sec-Fetch-Site: cross-site|same-site`) it is a 403 that changes nothing, and signed out it is a 401.
// The routes come from the source (each route file's POST, PUT, PATCH and DELETE; the catch-all takes
// no write of its own), so a route added later is held to both without touching this file. Each
// request names a real resource of the workspace and, where the route takes one, a body that would
// be accepted: a refusal is the only thing standing between it and a change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnnotationJson } from "@/lib/annotations/limits";
import { startReceiver, type Receiver } from "@/testing/webhook-receiver";
import { DEMO_KEYS } from "@/sandbox/keys";
import { apiRouteFiles, isCatchAll, WRITE_METHODS } from "@/testing/api-routes";
import type { ApiClient, ErrorBody } from "@/testing/production";
import { expectRefusal, OTHER_SITE, signedIn, signedOut, WORKSPACE_KEYS } from "@/testing/system";
import type { SavedViewBody } from "@/lib/views/routes";

/** The write route other sites may start (lib/alerts/mail-routes.ts); lib/alerts/mail-routes.test.ts tests it. */
const ONE_CLICK_UNSUBSCRIBE = "POST /api/mail/unsubscribe/[token]";

type WriteRoute = { method: (typeof WRITE_METHODS)[number]; template: string };

/** Every write route, from the route files' folders: "/api/views/[id]". */
function writeRoutes(): WriteRoute[] {
  return apiRouteFiles().flatMap(({ segments, methods }) =>
    segments.some(isCatchAll) ? [] : WRITE_METHODS.filter((m) => methods.includes(m)).map((method) => ({ method, template: `/api/${segments.join("/")}` })),
  );
}

let api: ApiClient;
let receiver: Receiver;
const ids: Record<string, string> = {};
let note: AnnotationJson;

/** The URL of a route, its id parameter the resource of the collection before it (a route of a new collection gets an id of none). */
const urlOf = (template: string) =>
  template
    .split("/")
    .map((segment, i, all) => (/^\[id\]$/.test(segment) ? (ids[all[i - 1]!] ?? "none_0000000000000000") : segment))
    .join("/");

/** A body each route would accept, for those that take one. */
const bodies: Record<string, () => unknown> = {
  "POST /api/session": () => ({ apiKey: DEMO_KEYS.pro }),
  "POST /api/views": () => ({ name: "From elsewhere", path: "/visitors", query: {} }),
  "PATCH /api/views/[id]": () => ({ name: "Renamed from elsewhere" }),
  "POST /api/annotations": () => ({ date: "2026-11-10", text: "From elsewhere" }),
  "PATCH /api/annotations/[id]": () => ({ updated_at: note.updated_at, text: "Changed from elsewhere" }),
  "POST /api/alerts/destinations": () => ({ kind: "webhook", name: "Elsewhere", url: receiver.url }),
  "POST /api/alerts/rules": () => ({ kind: "score_below", threshold: 10, destination_id: ids.destinations }),
  "PUT /api/alerts/digest": () => ({ destination_id: ids.destinations }),
  "POST /api/workspace/keys": () => ({ apiKey: WORKSPACE_KEYS.writeRoutes }),
};

const send = (client: ApiClient, route: WriteRoute, headers: Record<string, string> = {}) => {
  const body = bodies[`${route.method} ${route.template}`];
  return client.call<ErrorBody>(route.method, urlOf(route.template), { ...(body ? { body: body() } : {}), headers });
};

/** Everything the workspace keeps that a write could change, and the session itself. */
async function kept() {
  const read = async (path: string) => {
    const answer = await api.call("GET", path);
    expect(answer.status, path).toBe(200);
    return answer.body;
  };
  const deliveries = (await read("/api/alerts/deliveries")) as { data: { id: string }[] };
  return {
    views: await read("/api/views"),
    notes: await read("/api/annotations?from=2026-11-01&to=2026-11-30"),
    destinations: await read("/api/alerts/destinations"),
    rules: await read("/api/alerts/rules"),
    digest: await read("/api/alerts/digest"),
    deliveries: [...new Set(deliveries.data.map((d) => d.id))],
    workspace: await read("/api/workspace"),
    session: await read("/api/session"),
  };
}

beforeAll(async () => {
  receiver = await startReceiver();
  api = await signedIn(WORKSPACE_KEYS.writeRoutes);
  const view = await api.call<SavedViewBody>("POST", "/api/views", { body: { name: "Kept", path: "/visitors", query: {} } });
  const made = await api.call<AnnotationJson>("POST", "/api/annotations", { body: { date: "2026-11-05", text: "Kept" } });
  const destination = await api.call<{ id: string }>("POST", "/api/alerts/destinations", { body: { kind: "webhook", name: "Kept", url: receiver.url } });
  expect([view.status, made.status, destination.status]).toEqual([201, 201, 201]);
  const rule = await api.call<{ id: string }>("POST", "/api/alerts/rules", {
    body: { kind: "score_below", threshold: 10, destination_id: destination.body.id },
  });
  const test = await api.call<{ delivery_id: string }>("POST", `/api/alerts/destinations/${destination.body.id}/test`);
  expect([rule.status, test.status]).toEqual([201, 202]);
  await receiver.waitFor(1, 15_000);
  // The attempt is recorded once the receiver's answer is read: wait until the delivery lists it, so
  // what is kept is settled before the tests compare it (on PostgreSQL it could still be on its way).
  // (expect.poll belongs inside a test, so beforeAll polls by hand.)
  const listed = async () => ((await api.call<{ data: { id: string }[] }>("GET", "/api/alerts/deliveries")).body.data ?? []).map((d) => d.id);
  const until = Date.now() + 15_000;
  while (!(await listed()).includes(test.body.delivery_id)) {
    if (Date.now() > until) throw new Error(`delivery ${test.body.delivery_id} was never listed`);
    await new Promise((r) => setTimeout(r, 100));
  }
  note = made.body;
  Object.assign(ids, { views: view.body.id, annotations: note.id, destinations: destination.body.id, rules: rule.body.id, deliveries: test.body.delivery_id });
});

afterAll(async () => {
  await receiver?.close();
});

describe("write routes of /api from the production server", () => {
  it("come from the source: the route files' writes and the catch-all's table", () => {
    const labels = writeRoutes().map((r) => `${r.method} ${r.template}`);
    for (const expected of [
      "POST /api/session",
      "DELETE /api/session",
      "POST /api/views",
      "PATCH /api/views/[id]",
      "POST /api/annotations",
      "PATCH /api/annotations/[id]",
      "DELETE /api/annotations/[id]",
      "POST /api/alerts/destinations/[id]/test",
      "PUT /api/alerts/digest",
      "POST /api/workspace/keys",
      "PUT /api/workspace/watch",
    ]) {
      expect(labels).toContain(expected);
    }
    expect(new Set(labels).size).toBe(labels.length);
  });

  it.each([
    ["another site's Origin", { origin: OTHER_SITE }],
    ["a null Origin (a sandboxed frame, a redirect)", { origin: "null" }],
    ["Sec-Fetch-Site: cross-site with this app's Origin", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site (a sibling subdomain)", { "sec-fetch-site": "same-site" }],
  ])("started by %s: 403 on every write route, and nothing changes", async (_what, headers) => {
    const before = await kept();
    for (const route of writeRoutes()) {
      const answer = await send(api, route, headers);
      // The one declared exception (route-types.ts `crossSite`): RFC 8058's one-click POST comes from a
      // mail client's site; it acts on its token alone, so a token of nobody is a 404 that changes nothing.
      if (`${route.method} ${route.template}` === ONE_CLICK_UNSUBSCRIBE) {
        expectRefusal(answer, { status: 404, code: "not_found" }, ONE_CLICK_UNSUBSCRIBE);
        continue;
      }
      const label = `${route.method} ${route.template}`;
      expect(answer.status, label).toBe(403);
      expect(["csrf_rejected", "cross_site_rejected"], label).toContain(answer.body?.error.code);
      expect(answer.headers.get("set-cookie"), label).toBeNull();
    }
    expect(await kept()).toEqual(before);
    expect(receiver.received).toHaveLength(1);
  });

  it("signed out: 401 on every write route but signing in and out, and nothing changes", async () => {
    const before = await kept();
    const anonymous = signedOut();
    // A share link's viewers have no session: their unlock is refused by its link (lib/shares/routes.system.test.ts);
    // an e-mail's links neither: they are refused by their token (lib/alerts/mail-routes.test.ts).
    for (const route of writeRoutes().filter(
      (r) => r.template !== "/api/session" && !r.template.startsWith("/api/shared/") && !r.template.startsWith("/api/mail/"),
    )) {
      expectRefusal(await send(anonymous, route), { status: 401, code: "unauthorized" }, `${route.method} ${route.template}`);
    }
    expect(await kept()).toEqual(before);
  });
});
