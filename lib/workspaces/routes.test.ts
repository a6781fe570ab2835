// The workspace routes on both databases, through their route handlers against the sandbox over real
// HTTP: what GET /api/workspace answers (the session's workspace only, keys as hints with their links'
// ids, what it keeps); watching on keeps the key sealed (never in clear in the database's bytes or
// rows) and off deletes it at once; linking a key of the same workspace (201, and signing in with it
// opens that workspace), one that was used first (the two workspaces become one: both keys see the
// notes and views) and refusing one of another workspace, a revoked one, and bad bodies (400 naming
// the field); unlinking a key (204, its cookie refused; not the session's own: 409; unknown: 404);
// deleting everything kept (204, the session ended, signing in again finds nothing); writes from
// another site refused with 403, changing nothing.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, REVOKED_KEY } from "@/sandbox/keys";
import type { StoreConfig, StoreKind } from "@/lib/store/database";
import type { Store } from "@/lib/store/store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import { serverContext } from "@/lib/server/context";
import { createSignInThrottle } from "@/lib/server/sign-in-throttle";
import { createMemoryRevocationStore } from "@/lib/shared-state/revocations";
import { call, callApi, ORIGIN, serverContextPerTest, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import type { LinkBody, WorkspaceBody } from "./routes";
import { routeFileAt } from "@/testing/api-routes";

const { DELETE: workspaceDelete, GET: workspaceGet } = await routeFileAt("workspace");
const { POST: keysPost } = await routeFileAt("workspace/keys");
const { DELETE: keyDelete } = await routeFileAt("workspace/keys/[id]");
const { GET: viewsGet } = await routeFileAt("views");
const { GET: sessionGet } = await routeFileAt("session");
const { DELETE: watchDelete, PUT: watchPut } = await routeFileAt("workspace/watch");

upstreamForFile();
const stores = storesForFile();
const overrideContext = serverContextPerTest();

/** How far the server's clock is moved ahead of the real one (sessions made after an unlink start later than it). */
let clockAhead = 0;

async function storeFor(kind: StoreKind): Promise<{ store: Store; config: StoreConfig }> {
  const config = await stores.config(kind);
  const store = await stores.open(config);
  clockAhead = 0;
  // Each test's own revocations (a key's sessions ended in one test end nothing in the next) and
  // sign-in throttle (linking attempts count against it).
  overrideContext({
    store: async () => store,
    now: () => Date.now() + clockAhead,
    stores: { ...serverContext().stores, revocations: createMemoryRevocationStore(), signInThrottle: createSignInThrottle() },
  });
  return { store, config };
}

/** A moment later on the server's clock. */
const later = () => {
  clockAhead += 1000;
};

const NOTHING_KEPT = {
  snapshots: 0,
  notes: 0,
  views: 0,
  alert_destinations: 0,
  alert_rules: 0,
  shares: 0,
  kept_key: false,
  activity: 0,
  kept_days: 0,
  tokens: 0,
};

const write = (method: string, headers: Record<string, string> = {}, body?: string): RequestInit => ({
  method,
  headers: { origin: ORIGIN, "content-type": "application/json", ...headers },
  ...(body !== undefined ? { body } : {}),
});

const readWorkspace = async (key: string) => call<WorkspaceBody>(workspaceGet, "/api/workspace", { cookie: await sessionCookie(key) });
const link = async (sessionKey: string, body: string, headers: Record<string, string> = {}) =>
  call<LinkBody & Partial<ErrorJson>>(keysPost, "/api/workspace/keys", { cookie: await sessionCookie(sessionKey), init: write("POST", headers, body) });
const unlink = (cookie: string, id: string, headers: Record<string, string> = {}) =>
  call<ErrorJson>(keyDelete, `/api/workspace/keys/${id}`, { cookie, init: write("DELETE", headers), params: { id } });
const deleteAll = (cookie: string, body: string, headers: Record<string, string> = {}) =>
  call<ErrorJson>(workspaceDelete, "/api/workspace", { cookie, init: write("DELETE", headers, body) });
const viewNames = async (cookie: string) => (await call<{ data: { name: string }[] }>(viewsGet, "/api/views", { cookie })).body.data.map((v) => v.name).sort();
const noteTexts = async (cookie: string) =>
  (await callApi<{ data: { text: string }[] }>("/api/annotations?from=2026-10-01&to=2026-11-30", { cookie })).body.data.map((n) => n.text).sort();

/** The sealed key as the database holds it (PostgreSQL), and every byte of the embedded store's files checked for the key in clear. */
async function keptKey(kind: StoreKind, config: StoreConfig, key: string): Promise<string | null | undefined> {
  const secretPart = key.replace(/^svc_sk_(live|test)_/, "");
  if (kind === "postgres") {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ row: string; sealed: string | null }>("select w::text as row, w.watch_key_sealed as sealed from workspaces w");
      expect(rows.map((r) => r.row).join("\n")).not.toContain(secretPart);
      const sealed = rows.map((r) => r.sealed).filter((s) => s !== null);
      return sealed.length === 0 ? null : sealed[0];
    } finally {
      await client.end();
    }
  }
  const files = readdirSync(config.dataDir).filter((f) => f.startsWith("store.db"));
  expect(files).toContain("store.db");
  for (const f of files) expect(readFileSync(path.join(config.dataDir, f)).includes(Buffer.from(secretPart))).toBe(false);
  return undefined;
}

describe.each(STORE_KINDS)("workspace routes (%s)", (kind) => {
  it("GET /api/workspace: 401 without a session; the session's own workspace, its key as a hint", async () => {
    await storeFor(kind);
    const anonymous = await call<ErrorJson>(workspaceGet, "/api/workspace");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("unauthorized");

    const res = await readWorkspace(DEMO_KEYS.pro);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      watching: "off",
      linked_keys: [
        {
          id: expect.stringMatching(/^lk_[A-Za-z0-9_-]{22}$/),
          key_hint: "svc_sk_test_…9d1f",
          linked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          current: true,
        },
      ],
      history_since: null,
      time_zone: "UTC",
      kept: NOTHING_KEPT,
    });
    expect(res.text).not.toContain(DEMO_KEYS.pro);
  });

  it("watching on keeps the key sealed, never in clear; off deletes it at once", async () => {
    const { store, config } = await storeFor(kind);
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    const on = await call<{ watching: string }>(watchPut, "/api/workspace/watch", { cookie, init: write("PUT") });
    expect(on).toMatchObject({ status: 200, body: { watching: "on" } });
    expect((await readWorkspace(DEMO_KEYS.pro)).body.watching).toBe("on");
    const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    expect(await store.workspaces.watchedWorkspaces()).toEqual([ws]);
    const sealed = await keptKey(kind, config, DEMO_KEYS.pro);
    if (kind === "postgres") expect(sealed).toMatch(/^v1\./);

    const off = await call<{ watching: string }>(watchDelete, "/api/workspace/watch", { cookie, init: write("DELETE") });
    expect(off).toMatchObject({ status: 200, body: { watching: "off" } });
    // At once: the row holds no sealed key any more, and no job is handed one.
    if (kind === "postgres") expect(await keptKey(kind, config, DEMO_KEYS.pro)).toBeNull();
    else await keptKey(kind, config, DEMO_KEYS.pro);
    expect(await store.workspaces.watchingKey(ws)).toBeUndefined();
    expect(await store.workspaces.watchedWorkspaces()).toEqual([]);
    expect((await readWorkspace(DEMO_KEYS.pro)).body.watching).toBe("off");
  });

  it("a paused workspace says why", async () => {
    const { store } = await storeFor(kind);
    const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    await store.workspaces.setWatching(ws, DEMO_KEYS.pro);
    await store.workspaces.pauseWatching(ws, "The Data API refused the kept key.");
    expect((await readWorkspace(DEMO_KEYS.pro)).body).toMatchObject({ watching: "paused", paused_reason: "The Data API refused the kept key." });
  });

  it("links another key of the same workspace: 201, and signing in with it opens the same workspace", async () => {
    const { store } = await storeFor(kind);
    await call(watchPut, "/api/workspace/watch", { cookie: await sessionCookie(DEMO_KEYS.pro), init: write("PUT") });
    const res = await link(DEMO_KEYS.pro, JSON.stringify({ apiKey: DEMO_KEYS.free }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^lk_/), key_hint: "svc_sk_test_…5b2d", linked_at: expect.stringMatching(/^\d{4}-/), merged: false });
    expect(res.text).not.toContain(DEMO_KEYS.free);
    // The free key (signed in on its own) opens the pro key's workspace: both keys, watching on.
    const seen = await readWorkspace(DEMO_KEYS.free);
    expect(seen.body.watching).toBe("on");
    expect(seen.body.linked_keys.map((k) => k.key_hint).sort()).toEqual(["svc_sk_test_…5b2d", "svc_sk_test_…9d1f"]);
    expect((await store.workspaces.workspaceForKey(DEMO_KEYS.free)).id).toBe((await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id);
    // Linking it again answers the same link.
    expect((await link(DEMO_KEYS.pro, JSON.stringify({ apiKey: ` ${DEMO_KEYS.free} ` }))).body).toEqual(res.body);
  });

  it("links a key that may not read the score (403) by the overview; refuses another workspace's key and a revoked one", async () => {
    await storeFor(kind);
    const limited = await link(DEMO_KEYS.pro, JSON.stringify({ apiKey: DEMO_KEYS.limited }));
    expect(limited.status).toBe(201);

    const other = await link(DEMO_KEYS.pro, JSON.stringify({ apiKey: DEMO_KEYS.empty }));
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: "conflict", param: "apiKey", message: expect.stringMatching(/another workspace/) });
    const revoked = await link(DEMO_KEYS.pro, JSON.stringify({ apiKey: REVOKED_KEY }));
    expect(revoked.status).toBe(400);
    expect(revoked.body.error).toMatchObject({ code: "invalid_key", param: "apiKey" });
    for (const r of [other, revoked]) {
      expect(r.text).not.toContain(DEMO_KEYS.empty);
      expect(r.text).not.toContain(REVOKED_KEY);
    }
    // Neither was linked: the empty key still opens its own workspace, and sees nothing of the demo one.
    const pro = await readWorkspace(DEMO_KEYS.pro);
    expect(pro.body.linked_keys).toHaveLength(2);
    const empty = await readWorkspace(DEMO_KEYS.empty);
    expect(empty.body.linked_keys.map((k) => k.key_hint)).toEqual(["svc_sk_test_…3f1d"]);
  });

  it("another workspace's data is never visible", async () => {
    const { store } = await storeFor(kind);
    const demo = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    await store.workspaces.setWatching(demo, DEMO_KEYS.pro);
    await store.snapshots.recordScore(demo, {
      at: Date.UTC(2026, 10, 1),
      score: 60,
      direction: "up",
      change: 1,
      breakdown: { visibility: 1, sentiment: 2, authority: 3, coverage: 4 },
    });
    expect((await readWorkspace(DEMO_KEYS.pro)).body.history_since).toBe("2026-11-01T00:00:00.000Z");
    const empty = await readWorkspace(DEMO_KEYS.empty);
    expect(empty.body).toEqual({
      watching: "off",
      linked_keys: [{ id: expect.any(String), key_hint: "svc_sk_test_…3f1d", linked_at: expect.any(String), current: true }],
      history_since: null,
      time_zone: "UTC",
      kept: NOTHING_KEPT,
    });
    // Turning watching off from the other workspace leaves this one watched.
    await call(watchDelete, "/api/workspace/watch", { cookie: await sessionCookie(DEMO_KEYS.empty), init: write("DELETE") });
    expect((await readWorkspace(DEMO_KEYS.pro)).body.watching).toBe("on");
  });

  it('linking a key used first merges the two workspaces: both keys see every note and view, a taken name gets " (2)"', async () => {
    const { store } = await storeFor(kind);
    const pro = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    const free = (await store.workspaces.workspaceForKey(DEMO_KEYS.free)).id;
    await store.annotations.create(pro, { date: "2026-11-02", text: "Campaign started" });
    await store.views.create(pro, { name: "AI visitors", path: "/visitors", query: { source: "chatgpt" } });
    await store.annotations.create(free, { date: "2026-11-03", text: "Pricing page changed" });
    await store.views.create(free, { name: "ai visitors", path: "/visitors", query: { source: "claude" } });
    await store.views.create(free, { name: "Germany", path: "/locations", query: {} });
    const freeCookie = await sessionCookie(DEMO_KEYS.free);

    const res = await link(DEMO_KEYS.pro, JSON.stringify({ apiKey: DEMO_KEYS.free }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ key_hint: "svc_sk_test_…5b2d", merged: true });
    for (const key of [DEMO_KEYS.pro, DEMO_KEYS.free]) {
      const cookie = key === DEMO_KEYS.free ? freeCookie : await sessionCookie(key);
      expect(await noteTexts(cookie)).toEqual(["Campaign started", "Pricing page changed"]);
      expect(await viewNames(cookie)).toEqual(["AI visitors", "Germany", "ai visitors (2)"]);
    }
    // The free key's session made before the link goes on, in the merged workspace.
    const seen = await call<WorkspaceBody>(workspaceGet, "/api/workspace", { cookie: freeCookie });
    expect(seen.status).toBe(200);
    expect(seen.body.linked_keys.map((k) => [k.key_hint, k.current])).toEqual(
      expect.arrayContaining([
        ["svc_sk_test_…5b2d", true],
        ["svc_sk_test_…9d1f", false],
      ]),
    );
    expect(seen.body.kept).toMatchObject({ notes: 2, views: 3 });
    expect(await store.workspaces.workspace(free)).toBeUndefined();
  });

  it("a key used first that answers another workspace upstream: 409 naming apiKey, both workspaces as they were", async () => {
    const { store } = await storeFor(kind);
    const empty = (await store.workspaces.workspaceForKey(DEMO_KEYS.empty)).id;
    await store.annotations.create(empty, { date: "2026-11-03", text: "Mine alone" });
    const res = await link(DEMO_KEYS.pro, JSON.stringify({ apiKey: DEMO_KEYS.empty }));
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: "conflict", param: "apiKey" });
    expect(await noteTexts(await sessionCookie(DEMO_KEYS.empty))).toEqual(["Mine alone"]);
    expect(await noteTexts(await sessionCookie(DEMO_KEYS.pro))).toEqual([]);
    expect((await store.workspaces.workspaceForKey(DEMO_KEYS.empty)).id).toBe(empty);
  });

  it("DELETE /api/workspace/keys/{id}: 204, the key's sessions end and it opens a fresh workspace; the session's own key 409; unknown 404", async () => {
    const { store } = await storeFor(kind);
    const proCookie = await sessionCookie(DEMO_KEYS.pro);
    expect((await link(DEMO_KEYS.pro, JSON.stringify({ apiKey: DEMO_KEYS.free }))).status).toBe(201);
    await store.annotations.create((await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id, { date: "2026-11-02", text: "Kept here" });
    const freeCookie = await sessionCookie(DEMO_KEYS.free);
    expect(await noteTexts(freeCookie)).toEqual(["Kept here"]);
    const keys = (await call<WorkspaceBody>(workspaceGet, "/api/workspace", { cookie: proCookie })).body.linked_keys;
    const own = keys.find((k) => k.current)!;
    const other = keys.find((k) => !k.current)!;
    expect(other.key_hint).toBe("svc_sk_test_…5b2d");

    const mine = await unlink(proCookie, own.id);
    expect(mine.status).toBe(409);
    expect(mine.body.error).toMatchObject({ code: "conflict", message: expect.stringMatching(/signed in with/) });
    for (const id of ["lk_AAAAAAAAAAAAAAAAAAAAAA", "lk_short", "..%2Fwatch", own.id.replace("lk_", "ws_")]) {
      const unknown = await unlink(proCookie, id);
      expect([id, unknown.status, unknown.body.error.code]).toEqual([id, 404, "not_found"]);
    }
    expect((await call<WorkspaceBody>(workspaceGet, "/api/workspace", { cookie: proCookie })).body.linked_keys).toHaveLength(2);

    const res = await unlink(proCookie, other.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    // Every session of the unlinked key has ended: the store's routes and the session itself say so.
    const refused = await call<ErrorJson>(workspaceGet, "/api/workspace", { cookie: freeCookie });
    expect(refused.status).toBe(401);
    expect((await call<{ signedIn: boolean }>(sessionGet, "/api/session", { cookie: freeCookie })).body.signedIn).toBe(false);
    expect((await callApi("/api/annotations?from=2026-10-01&to=2026-11-30", { cookie: freeCookie })).status).toBe(401);
    // The session that unlinked it goes on, with one key left.
    const after = await call<WorkspaceBody>(workspaceGet, "/api/workspace", { cookie: proCookie });
    expect(after.body.linked_keys.map((k) => k.key_hint)).toEqual(["svc_sk_test_…9d1f"]);
    expect(await noteTexts(proCookie)).toEqual(["Kept here"]);
    // Signing in with it again opens a workspace of its own, with nothing of this one.
    later();
    const again = await sessionCookie(DEMO_KEYS.free);
    const fresh = await call<WorkspaceBody>(workspaceGet, "/api/workspace", { cookie: again });
    expect(fresh.status).toBe(200);
    expect(fresh.body.linked_keys.map((k) => k.key_hint)).toEqual(["svc_sk_test_…5b2d"]);
    expect(await noteTexts(again)).toEqual([]);
    // Unlinking it again: it is not this workspace's any more.
    expect((await unlink(proCookie, other.id)).status).toBe(404);
  });

  it('DELETE /api/workspace {confirm: "delete"}: 204, everything kept deleted, every session of its keys ended; signing in again finds nothing kept', async () => {
    const { store } = await storeFor(kind);
    const proCookie = await sessionCookie(DEMO_KEYS.pro);
    expect((await link(DEMO_KEYS.pro, JSON.stringify({ apiKey: DEMO_KEYS.free }))).status).toBe(201);
    const freeCookie = await sessionCookie(DEMO_KEYS.free);
    const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    await call(watchPut, "/api/workspace/watch", { cookie: proCookie, init: write("PUT") });
    await store.annotations.create(ws, { date: "2026-11-02", text: "Campaign started" });
    await store.views.create(ws, { name: "AI visitors", path: "/visitors", query: {} });
    await store.tokens.create(ws, { name: "Script", token: `wa_${"t".repeat(43)}`, hint: "wa_…tttt", expiresAt: null });
    await store.snapshots.recordScore(ws, {
      at: Date.UTC(2026, 10, 1),
      score: 60,
      direction: "up",
      change: 1,
      breakdown: { visibility: 1, sentiment: 2, authority: 3, coverage: 4 },
    });
    expect((await call<WorkspaceBody>(workspaceGet, "/api/workspace", { cookie: proCookie })).body.kept).toEqual({
      snapshots: 1,
      notes: 1,
      views: 1,
      alert_destinations: 0,
      alert_rules: 0,
      shares: 0,
      kept_key: true,
      activity: 2,
      kept_days: 0,
      tokens: 1,
    });

    // Anything but the word itself changes nothing.
    for (const body of ["{}", '{"confirm": "yes"}', '{"confirm": "DELETE"}', '{"confirm": true}', "[]"]) {
      const refused = await deleteAll(proCookie, body);
      expect([body, refused.status, refused.body.error.param]).toEqual([body, 400, body === "[]" ? "body" : "confirm"]);
    }
    expect(await store.workspaces.workspace(ws)).toBeDefined();

    const res = await deleteAll(proCookie, '{"confirm": "delete"}');
    expect(res.status).toBe(204);
    expect(res.headers.get("set-cookie")).toMatch(/^wa_session=;.*Max-Age=0/);
    expect(await store.workspaces.workspace(ws)).toBeUndefined();
    expect(await store.workspaces.watchedWorkspaces()).toEqual([]);
    for (const cookie of [proCookie, freeCookie]) {
      expect((await call<ErrorJson>(workspaceGet, "/api/workspace", { cookie })).status).toBe(401);
      expect((await call<{ signedIn: boolean }>(sessionGet, "/api/session", { cookie })).body.signedIn).toBe(false);
    }
    later();
    const again = await sessionCookie(DEMO_KEYS.pro);
    const fresh = await call<WorkspaceBody>(workspaceGet, "/api/workspace", { cookie: again });
    expect(fresh.body).toMatchObject({ watching: "off", history_since: null, kept: NOTHING_KEPT });
    expect(fresh.body.linked_keys.map((k) => k.key_hint)).toEqual(["svc_sk_test_…9d1f"]);
    expect(await noteTexts(again)).toEqual([]);
    expect(await viewNames(again)).toEqual([]);
    // The other key is no longer linked: it opens a workspace of its own.
    expect(
      (await call<WorkspaceBody>(workspaceGet, "/api/workspace", { cookie: await sessionCookie(DEMO_KEYS.free) })).body.linked_keys.map((k) => k.key_hint),
    ).toEqual(["svc_sk_test_…5b2d"]);
  });

  it.each([
    ["not JSON", "{", "body"],
    ["an array", "[]", "body"],
    ["null", "null", "body"],
    ["no apiKey", "{}", "apiKey"],
    ["apiKey a number", '{"apiKey": 42}', "apiKey"],
    ["apiKey empty", '{"apiKey": ""}', "apiKey"],
    ["apiKey of the wrong form", '{"apiKey": "sk_live_abc"}', "apiKey"],
    ["apiKey with an injection", `{"apiKey": "svc_sk_live_' OR 1=1 --"}`, "apiKey"],
    ["apiKey too long", JSON.stringify({ apiKey: `svc_sk_live_${"a".repeat(300)}` }), "apiKey"],
  ])("POST /api/workspace/keys with %s: 400 naming %s, nothing linked", async (_label, body, param) => {
    const { store } = await storeFor(kind);
    const res = await link(DEMO_KEYS.pro, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_parameter", param });
    expect(await store.workspaces.linkedKeys((await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id)).toHaveLength(1);
  });

  it.each([
    ["another site's Origin", { origin: "https://evil.example" }],
    ["a null Origin", { origin: "null" }],
    ["Sec-Fetch-Site cross-site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site same-site", { "sec-fetch-site": "same-site" }],
  ])("writes with %s: 403, nothing changed", async (_label, headers) => {
    const { store } = await storeFor(kind);
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    const put = await call<ErrorJson>(watchPut, "/api/workspace/watch", { cookie, init: write("PUT", headers) });
    expect(put.status).toBe(403);
    expect(await store.workspaces.watchedWorkspaces()).toEqual([]);
    await store.workspaces.setWatching(ws, DEMO_KEYS.pro);
    const del = await call<ErrorJson>(watchDelete, "/api/workspace/watch", { cookie, init: write("DELETE", headers) });
    expect(del.status).toBe(403);
    expect(await store.workspaces.watchingKey(ws)).toBe(DEMO_KEYS.pro);
    const linked = await link(DEMO_KEYS.pro, JSON.stringify({ apiKey: DEMO_KEYS.free }), headers);
    expect(linked.status).toBe(403);
    expect(await store.workspaces.linkedKeys(ws)).toHaveLength(1);
    await store.workspaces.linkKey(ws, DEMO_KEYS.free);
    const unlinked = await unlink(cookie, store.workspaces.linkIdOf(DEMO_KEYS.free), headers);
    expect(unlinked.status).toBe(403);
    expect(await store.workspaces.linkedKeys(ws)).toHaveLength(2);
    const deleted = await deleteAll(cookie, '{"confirm": "delete"}', headers);
    expect(deleted.status).toBe(403);
    expect(await store.workspaces.workspace(ws)).toBeDefined();
    expect((await call(workspaceGet, "/api/workspace", { cookie })).status).toBe(200);
    for (const r of [put, del, linked, unlinked, deleted]) expect(r.body.error?.code).toMatch(/^(csrf_rejected|cross_site_rejected)$/);
  });
});
