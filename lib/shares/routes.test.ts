// Share links on both databases, through their route handlers against the sandbox over real HTTP:
// members make (watching required), list, change and revoke links, each bad field a 400 naming it;
// viewers read only what the shared page reads, without any session, with `noindex` and
// `no-referrer`; a password opens the link through its unlock route (wrong ones 401, then 429); every
// link that does not open answers the same 404; answers are cached per link and query; notes lose
// their author; nothing answered holds the key or the token's hash.
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEMO_KEYS, deriveDemoKey } from "@/sandbox/keys";
import { routeFileAt } from "@/testing/api-routes";
import { call, callApi, ORIGIN, serverStoresForFile, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import { STORE_KINDS } from "@/testing/stores";
import { resetSharedReads } from "./reads";
import type { ShareBody } from "./routes";

const { PUT: watchPut } = await routeFileAt("workspace/watch");

const upstream = upstreamForFile();
const storeFor = serverStoresForFile();
afterEach(() => resetSharedReads());

type Answer = ShareBody & Partial<ErrorJson>;

const write = (method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { origin: ORIGIN, "content-type": "application/json", ...headers },
  ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
});

const member = (key: string = DEMO_KEYS.pro) => sessionCookie(key);
const watch = async (key: string = DEMO_KEYS.pro) => call(watchPut, "/api/workspace/watch", { cookie: await member(key), init: write("PUT") });
const share = async (body: unknown, key: string = DEMO_KEYS.pro, headers: Record<string, string> = {}) =>
  callApi<Answer>("/api/shares", { cookie: await member(key), init: write("POST", body, headers) });
const change = async (id: string, body: unknown, key: string = DEMO_KEYS.pro) =>
  callApi<Answer>(`/api/shares/${id}`, { cookie: await member(key), init: write("PATCH", body) });
const revoke = async (id: string, key: string = DEMO_KEYS.pro) =>
  callApi<Partial<ErrorJson>>(`/api/shares/${id}`, { cookie: await member(key), init: write("DELETE") });
const list = async (key: string = DEMO_KEYS.pro) => callApi<{ data: ShareBody[] }>("/api/shares", { cookie: await member(key) });
const tokenOf = (url: string | null) => url!.split("/s/")[1]!;
const read = (token: string, path: string, cookie?: string) => callApi(`/api/shared/${token}${path}`, cookie ? { cookie } : {});
const unlock = (token: string, password: unknown, headers: Record<string, string> = {}) =>
  callApi(`/api/shared/${token}/unlock`, { init: write("POST", { password }, headers) });

const platforms = { name: "AI traffic for the board", path: "/platforms", query: { range: "30d", sort: "-visitors" } };

describe.each(STORE_KINDS)("share links routes (%s)", (kind) => {
  it("needs watching; makes, lists, changes and revokes a link, each recorded", async () => {
    const store = await storeFor(kind);
    const refused = await share(platforms);
    expect(refused).toMatchObject({ status: 409, body: { error: { code: "watching_required" } } });
    expect((await watch()).status).toBe(200);

    const made = await share({ ...platforms, expires_at: "2099-01-01T00:00:00Z" });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.stringMatching(/^shr_[A-Za-z0-9_-]{22}$/),
      ...platforms,
      url: expect.stringMatching(/^http:\/\/localhost:3000\/s\/[A-Za-z0-9_-]{32}$/),
      password: false,
      expires_at: "2099-01-01T00:00:00.000Z",
      created_at: expect.any(String),
      last_opened_at: null,
      opened_count: 0,
    });
    expect((await list()).body.data).toEqual([made.body]);
    // The member's list is the workspace's: another workspace sees none, and cannot touch it.
    expect((await list(DEMO_KEYS.free)).body.data).toEqual([]);
    expect((await revoke(made.body.id, DEMO_KEYS.free)).status).toBe(404);

    const changed = await change(made.body.id, { password: "correct horse", expires_at: null });
    expect(changed.body).toMatchObject({ password: true, expires_at: null, url: made.body.url });
    expect((await change(made.body.id, { password: null })).body).toMatchObject({ password: false });

    expect((await revoke(made.body.id)).status).toBe(204);
    expect((await revoke(made.body.id)).status).toBe(404);
    const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    expect((await store.activity.list(ws)).map((a) => a.action)).toEqual(expect.arrayContaining(["share.created", "share.changed", "share.revoked"]));
  });

  it("refuses bad fields with a 400 naming each, and another site's writes with a 403, keeping nothing", async () => {
    await storeFor(kind);
    await watch();
    const cases: [unknown, string][] = [
      [{ ...platforms, path: "/visitors" }, "path"],
      [{ ...platforms, path: "/settings" }, "path"],
      [{ ...platforms, query: { source: "chatgpt" } }, "query"],
      [{ ...platforms, name: "" }, "name"],
      [{ ...platforms, password: "short" }, "password"],
      [{ ...platforms, password: 12345678 }, "password"],
      [{ ...platforms, expires_at: "tomorrow" }, "expires_at"],
      [{ ...platforms, expires_at: "2001-01-01T00:00:00Z" }, "expires_at"],
    ];
    for (const [body, param] of cases) expect((await share(body)).body.error).toMatchObject({ code: "invalid_parameter", param });
    const crossSite = await share(platforms, DEMO_KEYS.pro, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect((await list()).body.data).toEqual([]);
    expect((await change("shr_0000000000000000000000", { password: null })).status).toBe(404);
    expect((await change("nope", { password: null })).status).toBe(404);
  });

  it("a viewer reads the shared page's reads only, without a session, never indexed; cached per link and query; notes without their author", async () => {
    const store = await storeFor(kind);
    await watch();
    const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    await store.annotations.create(ws, { date: "2026-11-10", text: "Launch", author: "Ana Example" });
    const intelligence = await share({ name: "Score", path: "/intelligence", query: {} });
    const token = tokenOf(intelligence.body.url);

    const score = await read(token, "/intelligence/score");
    expect(score.status).toBe(200);
    expect(score.headers.get("x-robots-tag")).toMatch(/noindex/);
    expect(score.headers.get("referrer-policy")).toBe("no-referrer");
    expect(score.body).toHaveProperty("score");
    expect(score.text).not.toContain(DEMO_KEYS.pro);

    const notes = await read(token, "/annotations?from=2026-11-01&to=2026-11-20&tz=UTC");
    expect(notes.status).toBe(200);
    expect(notes.body).toMatchObject({ data: [{ text: "Launch", author: null }] });
    expect(notes.text).not.toContain("Ana Example");

    // Reads this page does not make, and personal data of any page, are not there.
    for (const path of ["/visitors", "/insights/countries", "/mentions", "/visitors/vis_1", "/export/visitors", "/workspace"])
      expect((await read(token, path)).status, path).toBe(404);

    // One reading serves every viewer of the link and query for 5 minutes.
    const before = upstream().stats().requests;
    await Promise.all([...Array(5)].map(() => read(token, "/intelligence/score")));
    expect(upstream().stats().requests).toBe(before);
  });

  it("a password opens the link through its unlock route for 24 hours; wrong ones are 401, then 429", async () => {
    await storeFor(kind);
    await watch();
    const made = await share({ ...platforms, password: "correct horse" });
    const token = tokenOf(made.body.url);
    expect(await read(token, "/insights/platforms")).toMatchObject({ status: 401, body: { error: { code: "password_required" } } });
    const wrong = await unlock(token, "battery staple");
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: "wrong_password", param: "password" } } });
    const right = await unlock(token, "correct horse");
    expect(right.status).toBe(204);
    const setCookie = right.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^wa_share_[A-Za-z0-9_-]{22}=\d+\.[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=86400/);
    const cookie = setCookie.split(";")[0]!;
    expect((await read(token, "/insights/sentiment?from=2026-11-01&to=2026-11-07&tz=UTC", cookie)).status).toBe(200);
    // Another link's cookie, or this one after the password changed, opens nothing.
    await change(made.body.id, { password: "another one" });
    expect((await read(token, "/insights/sentiment?from=2026-11-01&to=2026-11-07&tz=UTC", cookie)).status).toBe(401);
    // Another site cannot try passwords.
    expect((await unlock(token, "another one", { origin: "https://evil.example" })).status).toBe(403);

    for (let i = 0; i < 4; i++) expect((await unlock(token, `guess ${i}`)).status).toBe(401);
    const throttled = await unlock(token, "another one");
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("every link that does not open (unknown, revoked, expired, malformed) answers the same 404", async () => {
    const store = await storeFor(kind);
    await watch();
    const revoked = await share(platforms);
    await revoke(revoked.body.id);
    const expiring = await share({ ...platforms, expires_at: new Date(Date.now() + 60_000).toISOString() });
    await store.shares.update((await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id, expiring.body.id, { expiresAt: Date.now() - 1 });
    const tokens = [tokenOf(revoked.body.url), tokenOf(expiring.body.url), "A".repeat(32), "short", "..%2F..%2Fapi", "A".repeat(33)];
    const answers = await Promise.all(tokens.map((t) => read(t, "/insights/platforms")));
    for (const answer of answers) expect({ status: answer.status, body: answer.body }).toEqual({ status: 404, body: answers[0]!.body });
    expect(answers[0]!.body).toEqual({ error: { code: "not_found", message: "This link does not exist or has expired." } });
    for (const t of tokens.slice(0, 3)) expect((await unlock(t, "whatever1")).body).toEqual(answers[0]!.body);
  });

  it("all links of a workspace together spend at most a fifth of the key's per-minute budget, then are busy", async () => {
    // A budget of 10 calls a minute: the links may spend 2.
    vi.stubEnv("DATA_API_RATE_BUDGET", "5/s,10/min");
    try {
      await storeFor(kind);
      const key = deriveDemoKey("pro", `sharecap${kind}`);
      await watch(key);
      const made = await share({ name: "Score", path: "/intelligence", query: {} }, key);
      const token = tokenOf(made.body.url);
      const answers = [];
      for (const path of ["/intelligence/score", "/intelligence/ranking", "/history/score?from=2026-11-01&to=2026-11-07&tz=UTC"])
        answers.push(await read(token, path));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 503]);
      expect(answers[2]!.body).toMatchObject({ error: { code: "shared_budget_spent" } });
      expect(answers[2]!.headers.get("retry-after")).toBe("60");
      // What was read stays served from the cache.
      expect((await read(token, "/intelligence/score")).status).toBe(200);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("a link of a workspace no longer watched says so", async () => {
    await storeFor(kind);
    await watch();
    const made = await share({ name: "Queries", path: "/queries", query: {} });
    await callApi("/api/workspace/watch", { cookie: await member(), init: write("DELETE") });
    expect(await read(tokenOf(made.body.url), "/insights/queries?from=2026-11-01&to=2026-11-07&tz=UTC")).toMatchObject({
      status: 409,
      body: { error: { code: "watching_required" } },
    });
  });
});
