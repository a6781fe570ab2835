// The store's one scope (store-scope.ts, key-standing.ts), through the app's own route handlers with
// sessions checked against the sandbox over real HTTP, on fake time: a key revoked upstream keeps
// writing until its recheck is due (5 minutes), then its session ends (401 session_expired, cookie
// cleared, the cookie refused from then on); the key is asked upstream at most once per 5 minutes
// however many requests, routes and sessions use it; a check that cannot be made lets the request
// through and is not repeated before it lapses; a key refused the score (403) is refused the score's and
// the ranking's history in the live widgets' words, and reads the rest; and every route of the store
// (each route file under app/api with a method whose definition declares `store`) goes through the scope.
import { beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/lib/store/store";
import { storesForFile } from "@/testing/stores";
import { DEMO_KEYS, REVOKED_KEY } from "@/sandbox/keys";
import { serverContext } from "./context";
import { KEY_RECHECK_MS } from "./key-standing";
import { createMemoryKeyVerdictStore } from "@/lib/shared-state/key-verdicts";
import {
  call,
  callApi,
  ORIGIN,
  onServerFakeTime,
  serverContextPerTest,
  sessionCookie,
  upstreamForFile,
  type Called,
  type ErrorJson,
} from "@/testing/in-process";
import { apiRouteFiles, routeFileAt } from "@/testing/api-routes";
import { isMountedRoute } from "./route";

const views = await routeFileAt("views");
const rulePreview = await routeFileAt("alerts/rules/preview");
const alertRules = await routeFileAt("alerts/rules");
const workspaceRoute = await routeFileAt("workspace");

const sandbox = upstreamForFile({ visitors: 300 });
const stores = storesForFile();
const overrideContext = serverContextPerTest();

let store: Store;
beforeEach(async () => {
  store = await stores.open("embedded");
  // A fresh verdict store per test: no test finds a key already checked by another.
  overrideContext({
    store: async () => store,
    stores: { ...serverContext().stores, keyVerdicts: createMemoryKeyVerdictStore({ now: () => serverContext().now() }) },
  });
  sandbox().reset();
  sandbox().setFaults({});
});

type Handler = (req: Request, ctx: never) => Promise<Response>;

const write = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { origin: ORIGIN, "content-type": "application/json" },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

const saveView = (cookie: string, name: string) =>
  call<ErrorJson & { id: string }>(views.POST, "/api/views", { cookie, init: write("POST", { name, path: "/visitors", query: { source: "chatgpt" } }) });

/**
 * Requests the sandbox answered for `key` on `path` (its log names keys by their last 4 characters; a
 * refused key by none, so a test counting a revoked key's requests uses that key alone: `null`).
 */
const upstreamCalls = (key: string | null, apiPath: string) =>
  sandbox()
    .stats()
    .log.filter((e) => (key === null || e.key === `…${key.slice(-4)}`) && e.path === `/v1${apiPath}`).length;

/** Waits `ms` on the server's (fake) clock. */
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The Set-Cookie that ends the session: the cookie emptied, expired at once. */
const clearsCookie = (res: Called) => /^wa_session=;.*Max-Age=0/.test(res.headers.get("set-cookie") ?? "");

describe("a key revoked upstream", () => {
  it("keeps writing until its recheck is due, then the session ends: 401 session_expired, the cookie cleared and refused from then on", async () => {
    try {
      await onServerFakeTime(async () => {
        const cookie = await sessionCookie(DEMO_KEYS.free);
        expect((await saveView(cookie, "first")).status).toBe(201);
        expect(upstreamCalls(null, "/visitors")).toBe(1);

        // Someone deletes the key in the workspace's settings: the sandbox refuses it from now on.
        sandbox().revokeKey(DEMO_KEYS.free);
        // (A margin of seconds: the fake clock also moves on while a request awaits anything but the wire.)
        await wait(KEY_RECHECK_MS - 30_000);
        // Its verdict (4 min 30 s old) still stands: the write goes through, nothing asked upstream.
        expect((await saveView(cookie, "second")).status).toBe(201);
        expect(upstreamCalls(null, "/visitors")).toBe(1);

        await wait(30_000);
        const refused = await saveView(cookie, "third");
        expect(refused.status).toBe(401);
        expect(refused.body.error.code).toBe("session_expired");
        expect(clearsCookie(refused)).toBe(true);
        expect(upstreamCalls(null, "/visitors")).toBe(2);
        const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.free)).id;
        expect((await store.views.list(ws)).map((v) => v.name)).toEqual(["first", "second"]);

        // The session is over on the server too: a copy of the cookie kept elsewhere opens nothing,
        // even once the key works again.
        sandbox().revokeKey(DEMO_KEYS.free, false);
        const after = await call<ErrorJson>(views.GET, "/api/views", { cookie });
        expect(after.status).toBe(401);
        expect(after.body.error.code).toBe("unauthorized");
      });
    } finally {
      sandbox().revokeKey(DEMO_KEYS.free, false);
    }
  });

  it("another session of the same key ends at its next store request, without asking upstream again", async () => {
    try {
      await onServerFakeTime(async () => {
        const [mine, teammates] = [await sessionCookie(DEMO_KEYS.free), await sessionCookie(DEMO_KEYS.free)];
        expect((await saveView(mine, "mine")).status).toBe(201);
        sandbox().revokeKey(DEMO_KEYS.free);
        await wait(KEY_RECHECK_MS);
        expect((await saveView(mine, "mine again")).status).toBe(401);
        const calls = upstreamCalls(null, "/visitors");
        const theirs = await call<ErrorJson>(workspaceRoute.GET, "/api/workspace", { cookie: teammates });
        expect(theirs.status).toBe(401);
        expect(theirs.body.error.code).toBe("session_expired");
        expect(upstreamCalls(null, "/visitors")).toBe(calls);
      });
    } finally {
      sandbox().revokeKey(DEMO_KEYS.free, false);
    }
  });
});

describe("the recheck's cost", () => {
  it("asks upstream at most once per 5 minutes per key, whatever the requests, routes and sessions", async () => {
    await onServerFakeTime(async () => {
      const sessions = [await sessionCookie(DEMO_KEYS.pro), await sessionCookie(DEMO_KEYS.pro)];
      const reads = (cookie: string) => [
        call(views.GET, "/api/views", { cookie }),
        call(alertRules.GET, "/api/alerts/rules", { cookie }),
        call(workspaceRoute.GET, "/api/workspace", { cookie }),
        callApi("/api/annotations", { cookie }),
      ];
      // 12 minutes, a burst of 8 concurrent requests every minute: due at 0, 5 and 10 minutes.
      for (let minute = 0; minute < 12; minute++) {
        const answers = await Promise.all(sessions.flatMap(reads));
        expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
        expect(upstreamCalls(DEMO_KEYS.pro, "/visitors")).toBe(Math.floor(minute / 5) + 1);
        await wait(60_000);
      }
      // Another key has its own verdict.
      expect((await call(views.GET, "/api/views", { cookie: await sessionCookie(DEMO_KEYS.free) })).status).toBe(200);
      expect(upstreamCalls(DEMO_KEYS.free, "/visitors")).toBe(1);
    });
  });

  it("a check that cannot be made (the Data API failing) lets the request through, and is not repeated before it lapses", async () => {
    sandbox().setFaults({ errorRate: 1, paths: ["/visitors"], keys: [DEMO_KEYS.pro] });
    await onServerFakeTime(async () => {
      const cookie = await sessionCookie(DEMO_KEYS.pro);
      expect((await saveView(cookie, "while it fails")).status).toBe(201);
      const tried = upstreamCalls(DEMO_KEYS.pro, "/visitors");
      // The scheduler's retries of the one check, all answered 500.
      expect(tried).toBeGreaterThanOrEqual(1);
      await wait(KEY_RECHECK_MS - 30_000);
      expect((await saveView(cookie, "still failing")).status).toBe(201);
      expect(upstreamCalls(DEMO_KEYS.pro, "/visitors")).toBe(tried);
      sandbox().setFaults({});
      await wait(30_000);
      expect((await saveView(cookie, "checked again")).status).toBe(201);
      expect(upstreamCalls(DEMO_KEYS.pro, "/visitors")).toBe(tried + 1);
    });
  });
});

describe("a key refused a resource upstream (403)", () => {
  it("is refused the score's and the ranking's history in the live widgets' words, and reads the overview's history and the notes", async () => {
    // The limited key opens the demo workspace, whose score history another key kept.
    const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    await store.workspaces.linkKey(ws, DEMO_KEYS.limited);
    await store.snapshots.recordScore(ws, {
      at: Date.UTC(2026, 10, 18),
      score: 61,
      direction: "up",
      change: 2,
      breakdown: { visibility: 60, sentiment: 62, authority: 59, coverage: 63 },
    });
    const [limited, pro] = [await sessionCookie(DEMO_KEYS.limited), await sessionCookie(DEMO_KEYS.pro)];
    const range = "from=2026-11-01&to=2026-11-20&tz=UTC";

    for (const [history, live] of [
      ["/api/history/score", "/api/intelligence/score"],
      ["/api/history/ranking", "/api/intelligence/ranking"],
    ] as const) {
      const refused = await callApi<ErrorJson>(`${history}?${range}`, { cookie: limited });
      const widget = await callApi<ErrorJson>(live, { cookie: limited });
      expect(refused.status).toBe(403);
      expect(widget.status).toBe(403);
      expect(refused.body.error.code).toBe("forbidden");
      expect(refused.body.error.message).toBe(widget.body.error.message);
      // Refused one resource, the key still works: the session goes on, no cookie cleared.
      expect(refused.headers.get("set-cookie")).toBeNull();
    }
    expect((await callApi<ErrorJson>(`/api/history/score?${range}`, { cookie: limited })).body.error.message).toBe(
      "This API key has no access to the AI Positioning Score.",
    );
    const kept = await callApi<{ data: Array<{ score: number }> }>(`/api/history/score?${range}`, { cookie: pro });
    expect(kept.status).toBe(200);
    expect(kept.body.data.map((d) => d.score)).toContain(61);

    expect((await callApi(`/api/history/overview?${range}`, { cookie: limited })).status).toBe(200);
    expect((await callApi(`/api/annotations?${range}`, { cookie: limited })).status).toBe(200);
    // A rule's preview replays the kept history of its kind: the score's is refused, the mentions' is not.
    const preview = (kind: string) => call<ErrorJson>(rulePreview.GET, `/api/alerts/rules/preview?kind=${kind}&threshold=5`, { cookie: limited });
    expect((await preview("score_drop")).status).toBe(403);
    expect((await preview("rank_passed")).status).toBe(403);
    expect((await preview("negative_mentions")).status).toBe(200);
    // A question asked wrongly is answered as such whoever asks: the 400 names the field, before any refusal.
    const badThreshold = await call<ErrorJson>(rulePreview.GET, "/api/alerts/rules/preview?kind=score_drop&threshold=1000", { cookie: limited });
    expect(badThreshold.status).toBe(400);
    expect(badThreshold.body.error.param).toBe("threshold");
  });

  it("the resource is asked once per 5 minutes too, and that one request also rechecks the key", async () => {
    await onServerFakeTime(async () => {
      const cookie = await sessionCookie(DEMO_KEYS.limited);
      for (let i = 0; i < 5; i++) expect((await callApi(`/api/history/score?from=2026-11-01&to=2026-11-20`, { cookie })).status).toBe(403);
      // One check of the score, whose refusal stops the route before its own read of the current score.
      const scoreCalls = upstreamCalls(DEMO_KEYS.limited, "/intelligence/score");
      expect(scoreCalls).toBe(1);
      expect(upstreamCalls(DEMO_KEYS.limited, "/visitors")).toBe(0);
      // A write of the same session: the key's verdict came with the score's.
      expect((await saveView(cookie, "limited")).status).toBe(201);
      expect(upstreamCalls(DEMO_KEYS.limited, "/visitors")).toBe(0);
    });
  });
});

/** The route files under app/api with a method declared in the store's scope (`store` in its definition), as "views/[id]". */
async function storeRouteFiles(): Promise<string[]> {
  const found: string[] = [];
  for (const route of apiRouteFiles()) {
    const handlers = Object.values(await routeFileAt(route.segments.join("/")));
    if (handlers.some((h) => isMountedRoute(h) && h.definition.store)) found.push(route.segments.join("/"));
  }
  return found;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** A plausible id for a `[id]` segment: the scope comes before any id is looked at. */
const idFor = (route: string) =>
  route.includes("destinations")
    ? "dst_AAAAAAAAAAAAAAAA"
    : route.includes("rules")
      ? "rule_AAAAAAAAAAAAAAAA"
      : route.includes("deliveries")
        ? "dlv_AAAAAAAAAAAAAAAA"
        : route.includes("annotations")
          ? "ann_AAAA"
          : route.includes("keys")
            ? "lk_AAAAAAAAAAAAAAAAAAAAAA"
            : "view_AAAAAAAAAAAAAAAAAAAAAA";

describe("every route of the store goes through the one scope", () => {
  it("finds the store's route files (the test covers what app/api holds)", async () => {
    const files = await storeRouteFiles();
    expect(files).toEqual(
      expect.arrayContaining([
        "alerts/destinations",
        "alerts/rules/preview",
        "views/[id]",
        "workspace",
        "workspace/keys",
        "workspace/watch",
        "workspace/activity",
        "history/score",
        "history/ranking",
        "history/overview",
        "annotations",
        "annotations/[id]",
      ]),
    );
  });

  it("a session of a key the Data API refuses is a 401 session_expired, its cookie cleared, on each of them", async () => {
    const refusedOn: string[] = [];
    for (const route of await storeRouteFiles()) {
      const handlers = (await routeFileAt(route)) as Partial<Record<(typeof METHODS)[number], Handler>>;
      for (const method of METHODS) {
        const handler = handlers[method];
        if (!handler) continue;
        const url = `/api/${route.replace("[id]", idFor(route))}${method === "GET" && route.endsWith("preview") ? "?kind=score_drop" : ""}`;
        const res = await call<ErrorJson>(handler, url, {
          cookie: await sessionCookie(REVOKED_KEY),
          init:
            method === "GET"
              ? {}
              : write(method, {
                  name: "x",
                  apiKey: DEMO_KEYS.free,
                  destination_id: null,
                  date: "2026-11-01",
                  text: "x",
                  updated_at: "2026-11-01T00:00:00.000Z",
                }),
          params: { id: idFor(route) },
        });
        expect(`${method} ${url} ${res.status} ${res.body.error?.code}`).toBe(`${method} ${url} 401 session_expired`);
        expect(clearsCookie(res)).toBe(true);
        refusedOn.push(`${method} /api/${route}`);
      }
    }
    // The route files' handlers as counted today (alerts 12, views 4, workspace 6, history 3, notes 4): a file that lost its handlers would shrink it.
    expect(refusedOn.length).toBeGreaterThanOrEqual(29);
  });
});
