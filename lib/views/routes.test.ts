// Saved views on both databases, through their route handlers, the session made against the sandbox
// over real HTTP: save, list (by name, without case), rename and delete; every bad field a 400 naming
// it with nothing stored; names unique per workspace without case (409); writes from another site
// refused with 403, changing nothing; another workspace's view a 404 and never listed; the bound of
// 200 views per workspace, held by concurrent saves too.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { STORE_KINDS } from "@/testing/stores";
import { MAX_SAVED_VIEWS } from "@/lib/store/views";
import { call, ORIGIN, serverStoresForFile, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import type { SavedViewBody } from "./routes";
import { routeFileAt } from "@/testing/api-routes";

const { DELETE: viewDelete, PATCH: viewPatch } = await routeFileAt("views/[id]");
const { GET: viewsGet, POST: viewsPost } = await routeFileAt("views");

upstreamForFile();
const storeFor = serverStoresForFile();

type Answer = SavedViewBody & Partial<ErrorJson>;

const write = (method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { origin: ORIGIN, "content-type": "application/json", ...headers },
  ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
});

const list = async (key: string = DEMO_KEYS.pro) => call<{ data: SavedViewBody[] }>(viewsGet, "/api/views", { cookie: await sessionCookie(key) });
const save = async (body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  call<Answer>(viewsPost, "/api/views", { cookie: await sessionCookie(options.key ?? DEMO_KEYS.pro), init: write("POST", body, options.headers) });
const rename = async (id: string, body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  call<Answer>(viewPatch, `/api/views/${id}`, {
    cookie: await sessionCookie(options.key ?? DEMO_KEYS.pro),
    init: write("PATCH", body, options.headers),
    params: { id },
  });
const remove = async (id: string, options: { key?: string; headers?: Record<string, string> } = {}) =>
  call<Partial<ErrorJson>>(viewDelete, `/api/views/${id}`, {
    cookie: await sessionCookie(options.key ?? DEMO_KEYS.pro),
    init: write("DELETE", undefined, options.headers),
    params: { id },
  });

const chatgpt = { name: "ChatGPT visitors", path: "/visitors", query: { source: "chatgpt", from: "2026-11-12", to: "2026-11-18", tz: "Europe/Berlin" } };

describe.each(STORE_KINDS)("saved views routes (%s)", (kind) => {
  it("401 without a session; saves, lists by name, renames and deletes", async () => {
    await storeFor(kind);
    const anonymous = await call<ErrorJson>(viewsGet, "/api/views");
    expect(anonymous.status).toBe(401);
    expect((await list()).body).toEqual({ data: [] });

    const made = await save(chatgpt);
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.stringMatching(/^view_[A-Za-z0-9_-]{22}$/),
      ...chatgpt,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const second = await save({ name: "  all mentions, last 7 days ", path: "/mentions", query: { range: "7d", sentiment: "negative" } });
    expect(second.status).toBe(201);
    expect(second.body.name).toBe("all mentions, last 7 days");
    expect(second.body.id).not.toBe(made.body.id);
    // Listed by name without case: "all…" before "ChatGPT…".
    expect((await list()).body.data.map((v) => v.name)).toEqual(["all mentions, last 7 days", "ChatGPT visitors"]);

    const renamed = await rename(made.body.id, { name: "Zeta: ChatGPT" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...made.body, name: "Zeta: ChatGPT" });
    // Its own name in another case is no conflict.
    expect((await rename(made.body.id, { name: "ZETA: chatgpt" })).status).toBe(200);
    expect((await list()).body.data.map((v) => v.name)).toEqual(["all mentions, last 7 days", "ZETA: chatgpt"]);

    const gone = await remove(made.body.id);
    expect(gone.status).toBe(204);
    expect(gone.text).toBe("");
    expect((await list()).body.data.map((v) => v.id)).toEqual([second.body.id]);
    expect((await remove(made.body.id)).status).toBe(404);
    expect((await rename(made.body.id, { name: "again" })).status).toBe(404);
  });

  it("keeps the page's own parameters as given, without paging", async () => {
    await storeFor(kind);
    const made = await save({ name: "odd", path: "/visitors", query: { source: "not-a-source", from: "2026-13-45", limit: "50", offset: "100" } });
    expect(made.status).toBe(201);
    // Judged by the page when opened, as a pasted link would be; paging is where a reader was, not the view.
    expect(made.body.query).toEqual({ source: "not-a-source", from: "2026-13-45" });
    const overview = await save({ name: "overview", path: "/", query: {} });
    expect(overview.body).toMatchObject({ path: "/", query: {} });
  });

  it.each([
    ["an unknown page", { ...chatgpt, path: "/nowhere" }, "path"],
    ["Settings", { ...chatgpt, path: "/settings", query: {} }, "path"],
    ["a visitor's page", { ...chatgpt, path: "/visitors/vis_abc", query: {} }, "path"],
    ["an outside URL", { ...chatgpt, path: "https://evil.example/visitors" }, "path"],
    ["a protocol-relative URL", { ...chatgpt, path: "//evil.example" }, "path"],
    ["a path with a query", { ...chatgpt, path: "/visitors?source=chatgpt" }, "path"],
    ["no path", { name: "x", query: {} }, "path"],
    ["another page's parameter", { ...chatgpt, query: { platform: "chatgpt" } }, "query"],
    ["a parameter of no page", { ...chatgpt, query: { next: "//evil.example" } }, "query"],
    ["a number", { ...chatgpt, query: { source: 1 } }, "query"],
    ["a list of values", { ...chatgpt, query: { source: ["chatgpt", "claude"] } }, "query"],
    ["a query string", { ...chatgpt, query: "source=chatgpt" }, "query"],
    ["an array", { ...chatgpt, query: [] }, "query"],
    ["no query", { name: "x", path: "/visitors" }, "query"],
    ["an empty name", { ...chatgpt, name: "" }, "name"],
    ["a name of spaces", { ...chatgpt, name: "   " }, "name"],
    ["a name of 81 characters", { ...chatgpt, name: "n".repeat(81) }, "name"],
    ["a name on two lines", { ...chatgpt, name: "one\ntwo" }, "name"],
    ["a name that is not text", { ...chatgpt, name: 42 }, "name"],
    ["a body that is not JSON", "name=x", "body"],
    ["a body that is a list", [chatgpt], "body"],
  ])("%s is a 400 naming %s; nothing is stored", async (_label, body, param) => {
    await storeFor(kind);
    const res = await save(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_parameter", param, message: expect.any(String) });
    expect((await list()).body.data).toEqual([]);
  });

  it("a name of 80 characters (after trimming) is kept; a taken name in another case is a 409", async () => {
    await storeFor(kind);
    const long = `  ${"é".repeat(80)}  `;
    expect((await save({ ...chatgpt, name: long })).status).toBe(201);
    expect((await save(chatgpt)).status).toBe(201);
    const again = await save({ ...chatgpt, name: "  chatgpt VISITORS " });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "name_taken", param: "name" });
    const other = (await save({ ...chatgpt, name: "Other" })).body;
    const onto = await rename(other.id, { name: "CHATGPT visitors" });
    // Renaming onto another view's name (any case) is refused too, and changes nothing.
    expect(onto.status).toBe(409);
    expect(onto.body.error).toMatchObject({ code: "name_taken", param: "name" });
    expect((await rename(other.id, { name: "" })).body.error).toMatchObject({ code: "invalid_parameter", param: "name" });
    expect((await list()).body.data.map((v) => v.name)).toEqual(["ChatGPT visitors", "Other", "é".repeat(80)]);
  });

  it("writes from another site are refused with 403 and change nothing", async () => {
    await storeFor(kind);
    const kept = (await save(chatgpt)).body;
    for (const headers of [{ origin: "https://evil.example" }, { origin: "null" }]) {
      const made = await save({ ...chatgpt, name: "from elsewhere" }, { headers });
      expect(made.status).toBe(403);
      expect(made.body.error?.code).toBe("csrf_rejected");
      expect((await rename(kept.id, { name: "renamed from elsewhere" }, { headers })).status).toBe(403);
      expect((await remove(kept.id, { headers })).status).toBe(403);
    }
    expect((await list()).body.data).toEqual([kept]);
  });

  it("another workspace's views are never listed, renamed or deleted (404)", async () => {
    await storeFor(kind);
    const mine = (await save(chatgpt)).body;
    expect((await list(DEMO_KEYS.empty)).body.data).toEqual([]);
    // The same name is free in another workspace.
    const theirs = await save(chatgpt, { key: DEMO_KEYS.empty });
    expect(theirs.status).toBe(201);
    const renamed = await rename(mine.id, { name: "taken over" }, { key: DEMO_KEYS.empty });
    expect(renamed.status).toBe(404);
    expect(renamed.body.error?.code).toBe("not_found");
    expect((await remove(mine.id, { key: DEMO_KEYS.empty })).status).toBe(404);
    expect((await list()).body.data).toEqual([mine]);
    expect((await list(DEMO_KEYS.empty)).body.data.map((v) => v.id)).toEqual([theirs.body.id]);
    // An id that is not one of ours at all is simply not found.
    expect((await remove("view_../../x")).status).toBe(404);
  });

  it(`keeps at most ${MAX_SAVED_VIEWS} views per workspace (422), also when saves race`, async () => {
    const store = await storeFor(kind);
    const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    for (let i = 0; i < MAX_SAVED_VIEWS - 3; i++) await store.views.create(ws, { name: `view ${i}`, path: "/", query: {} });
    // Eight saves at once for the last three places (straight to the store, so they overlap in the
    // database): exactly three are kept, the count and the insert being one transaction.
    // The pool's connections opened first, or opening them would space the saves out (and without the
    // workspace's lock PostgreSQL then keeps more than 3: seen on each of two runs).
    await Promise.all(Array.from({ length: 8 }, () => store.views.list(ws)));
    const raced = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => store.views.create(ws, { name: `raced ${i}`, path: "/", query: {} })));
    expect(raced.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    for (const r of raced) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "limit_reached" });
    const over = await save({ ...chatgpt, name: "one more" });
    expect(over.status).toBe(422);
    expect(over.body.error).toMatchObject({ code: "limit_reached", message: expect.stringMatching(/200/) });
    expect((await list()).body.data).toHaveLength(MAX_SAVED_VIEWS);
    // Another workspace has its own bound; a deletion makes room again.
    expect((await save(chatgpt, { key: DEMO_KEYS.empty })).status).toBe(201);
    const first = (await list()).body.data[0]!;
    expect((await remove(first.id)).status).toBe(204);
    expect((await save({ ...chatgpt, name: "one more" })).status).toBe(201);
  });
});
