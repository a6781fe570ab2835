// The workspace routes on both databases, through their route handlers against the sandbox over real
// HTTP: what GET /api/workspace answers (the session's workspace only, keys as hints); watching on
// keeps the key sealed (never in clear in the database's bytes or rows) and off deletes it at once;
// linking a key of the same workspace (201, and signing in with it opens that workspace) and refusing
// one of another workspace, a revoked one, and bad bodies (400 naming the field); writes from another
// site refused with 403, changing nothing.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { GET as workspaceGet } from "@/app/api/workspace/route";
import { POST as keysPost } from "@/app/api/workspace/keys/route";
import { DELETE as watchDelete, PUT as watchPut } from "@/app/api/workspace/watch/route";
import { DEMO_KEYS, REVOKED_KEY } from "@/sandbox/keys";
import type { StoreConfig, StoreKind } from "@/lib/store/database";
import type { Store } from "@/lib/store/store";
import { STORE_KINDS, storesForFile } from "@/lib/store/test-stores";
import { serverContext } from "./context";
import { createSignInThrottle } from "./sign-in-throttle";
import { call, ORIGIN, serverContextPerTest, sessionCookie, upstreamForFile, type ErrorJson } from "./test-support";
import type { WorkspaceBody } from "./workspace-routes";

upstreamForFile();
const stores = storesForFile();
const overrideContext = serverContextPerTest();

async function storeFor(kind: StoreKind): Promise<{ store: Store; config: StoreConfig }> {
  const config = await stores.config(kind);
  const store = await stores.open(config);
  // A fresh sign-in throttle: linking attempts count against it, and each test makes its own.
  overrideContext({ store: async () => store, stores: { ...serverContext().stores, signInThrottle: createSignInThrottle() } });
  return { store, config };
}

const write = (method: string, headers: Record<string, string> = {}, body?: string): RequestInit => ({
  method,
  headers: { origin: ORIGIN, "content-type": "application/json", ...headers },
  ...(body !== undefined ? { body } : {}),
});

const readWorkspace = async (key: string) => call<WorkspaceBody>(workspaceGet, "/api/workspace", { cookie: await sessionCookie(key) });
const link = async (sessionKey: string, body: string, headers: Record<string, string> = {}) =>
  call<{ key_hint: string; linked_at: string } & Partial<ErrorJson>>(keysPost, "/api/workspace/keys", { cookie: await sessionCookie(sessionKey), init: write("POST", headers, body) });

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
    expect(res.body).toEqual({ watching: "off", linked_keys: [{ key_hint: "svc_sk_test_…9d1f", linked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }], history_since: null, time_zone: "UTC" });
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
    expect(res.body).toEqual({ key_hint: "svc_sk_test_…5b2d", linked_at: expect.stringMatching(/^\d{4}-/) });
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
    await store.snapshots.recordScore(demo, { at: Date.UTC(2026, 10, 1), score: 60, direction: "up", change: 1, breakdown: { visibility: 1, sentiment: 2, authority: 3, coverage: 4 } });
    expect((await readWorkspace(DEMO_KEYS.pro)).body.history_since).toBe("2026-11-01T00:00:00.000Z");
    const empty = await readWorkspace(DEMO_KEYS.empty);
    expect(empty.body).toEqual({ watching: "off", linked_keys: [{ key_hint: "svc_sk_test_…3f1d", linked_at: expect.any(String) }], history_since: null, time_zone: "UTC" });
    // Turning watching off from the other workspace leaves this one watched.
    await call(watchDelete, "/api/workspace/watch", { cookie: await sessionCookie(DEMO_KEYS.empty), init: write("DELETE") });
    expect((await readWorkspace(DEMO_KEYS.pro)).body.watching).toBe("on");
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
    for (const r of [put, del, linked]) expect(r.body.error?.code).toMatch(/^(csrf_rejected|cross_site_rejected)$/);
  });
});
