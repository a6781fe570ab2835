// Access tokens on both databases, through their route handlers and the route wrapper, the session
// made against the sandbox over real HTTP: made only while watching (409 otherwise), answered once and
// listed by hint after, at most 20 (422), revoked at once; bad fields a 400 naming them; and what a token
// opens as bearer: the reads a session opens (the Data API's, the store's), never a write (403
// `token_read_only`, nothing changed) nor the session's own routes; a bad, revoked or expired token
// a 401 with WWW-Authenticate; 120 requests a minute per token (429 with Retry-After); a workspace that
// stopped watching a 409, and so is its kept key refused upstream (no cookie cleared).
import { beforeEach, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { resetTokenLimits } from "@/lib/server/token-access";
import { TOKEN_REQUESTS_PER_MINUTE } from "@/lib/server/token-rate-limit";
import { MAX_TOKENS } from "@/lib/store/tokens";
import { routeFileAt } from "@/testing/api-routes";
import { call, callApi, ORIGIN, serverStoresForFile, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import { STORE_KINDS } from "@/testing/stores";
import type { TokenBody } from "./routes";

const { GET: tokensGet, POST: tokensPost } = await routeFileAt("tokens");
const { DELETE: tokenDelete } = await routeFileAt("tokens/[id]");
const { DELETE: watchDelete, PUT: watchPut } = await routeFileAt("workspace/watch");

const sandbox = upstreamForFile();
const storeFor = serverStoresForFile();
beforeEach(() => resetTokenLimits());

type Made = TokenBody & { token: string } & Partial<ErrorJson>;

const write = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { origin: ORIGIN, "content-type": "application/json" },
  ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
});

const cookieOf = () => sessionCookie(DEMO_KEYS.pro);
const watch = async () => expect((await call(watchPut, "/api/workspace/watch", { cookie: await cookieOf(), init: write("PUT") })).status).toBe(200);
const make = async (body: unknown) => call<Made>(tokensPost, "/api/tokens", { cookie: await cookieOf(), init: write("POST", body) });
const list = async () => call<{ data: TokenBody[] }>(tokensGet, "/api/tokens", { cookie: await cookieOf() });
const bearer = (token: string, init: RequestInit = {}) => ({
  init: { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } },
});

describe.each(STORE_KINDS)("access tokens (%s)", (kind) => {
  it("needs watching, is answered once, listed by its hint, and revoked at once", async () => {
    await storeFor(kind);
    const unwatched = await make({ name: "script" });
    expect(unwatched.status).toBe(409);
    expect(unwatched.body.error).toMatchObject({ code: "watching_required" });
    await watch();

    const made = await make({ name: "  Weekly script ", expires_at: "2027-06-01T00:00:00Z" });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.stringMatching(/^tok_[A-Za-z0-9_-]{16}$/),
      name: "Weekly script",
      hint: `wa_…${made.body.token.slice(-4)}`,
      token: expect.stringMatching(/^wa_[A-Za-z0-9_-]{43}$/),
      created_at: expect.stringMatching(/Z$/),
      last_used_at: null,
      expires_at: "2027-06-01T00:00:00.000Z",
    });
    const listed = await list();
    expect(listed.body.data).toEqual([{ ...made.body, token: undefined }].map(({ token: _, ...rest }) => rest));
    expect(listed.text).not.toContain(made.body.token);

    // Used once: its last use is said.
    expect((await callApi("/api/views", bearer(made.body.token))).status).toBe(200);
    expect((await list()).body.data[0]!.last_used_at).toEqual(expect.stringMatching(/Z$/));

    const revoked = await call(tokenDelete, `/api/tokens/${made.body.id}`, { cookie: await cookieOf(), init: write("DELETE"), params: { id: made.body.id } });
    expect(revoked.status).toBe(204);
    const after = await callApi<ErrorJson>("/api/views", bearer(made.body.token));
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("invalid_token");
    expect(after.headers.get("www-authenticate")).toBe('Bearer realm="workspace-analytics", error="invalid_token"');
    expect(
      (await call(tokenDelete, `/api/tokens/${made.body.id}`, { cookie: await cookieOf(), init: write("DELETE"), params: { id: made.body.id } })).status,
    ).toBe(404);
    expect((await call(tokenDelete, "/api/tokens/nope", { cookie: await cookieOf(), init: write("DELETE"), params: { id: "nope" } })).status).toBe(404);
  });

  it.each([
    ["no name", {}, "name"],
    ["an empty name", { name: "  " }, "name"],
    ["a name of 81 characters", { name: "n".repeat(81) }, "name"],
    ["a name on two lines", { name: "a\nb" }, "name"],
    ["an expiry that is no date", { name: "x", expires_at: "tomorrow" }, "expires_at"],
    ["an expiry in the past", { name: "x", expires_at: "2020-01-01T00:00:00Z" }, "expires_at"],
    ["an expiry years away", { name: "x", expires_at: "2099-01-01T00:00:00Z" }, "expires_at"],
    ["a body that is not JSON", "name=x", "body"],
  ])("%s is a 400 naming the field; nothing is made", async (_label, body, param) => {
    await storeFor(kind);
    await watch();
    const res = await make(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_parameter", param });
    expect((await list()).body.data).toEqual([]);
  });

  it(`keeps at most ${MAX_TOKENS}`, async () => {
    await storeFor(kind);
    await watch();
    for (let n = 0; n < MAX_TOKENS; n++) expect((await make({ name: `t${n}` })).status).toBe(201);
    const over = await make({ name: "one more" });
    expect(over.status).toBe(422);
    expect(over.body.error?.code).toBe("limit_reached");
  });

  it("opens the reads a session opens, never a write nor the session's own routes", async () => {
    await storeFor(kind);
    await watch();
    const { token } = (await make({ name: "reader" })).body;
    // The Data API's reads, the store's, the token list.
    expect((await callApi("/api/visitors?limit=5", bearer(token))).status).toBe(200);
    expect((await callApi("/api/annotations", bearer(token))).status).toBe(200);
    expect((await callApi("/api/tokens", bearer(token))).status).toBe(200);
    // A write, even one the session may make, is refused before anything: nothing saved.
    const saved = await callApi<ErrorJson>("/api/views", bearer(token, { method: "POST", body: JSON.stringify({ name: "x", path: "/", query: {} }) }));
    expect(saved.status).toBe(403);
    expect(saved.body.error.code).toBe("token_read_only");
    expect((await callApi<{ data: unknown[] }>("/api/views", bearer(token))).body.data).toEqual([]);
    expect((await callApi<ErrorJson>("/api/tokens", bearer(token, { method: "POST", body: "{}" }))).body.error.code).toBe("token_read_only");
    // The session's own routes read the cookie only: a token signs nobody in.
    expect((await callApi<{ signedIn: boolean }>("/api/session", bearer(token))).body.signedIn).toBe(false);
  });

  it("a malformed or unknown token is a 401 with WWW-Authenticate; no session is needed or read", async () => {
    await storeFor(kind);
    for (const header of ["Bearer wa_short", "Basic abc", `Bearer wa_${"A".repeat(43)}`, "Bearer"]) {
      const res = await callApi<ErrorJson>("/api/views", { init: { headers: { authorization: header } } });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("invalid_token");
      expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
      expect(res.text).not.toContain("wa_AAAA");
    }
  });

  it(`allows ${TOKEN_REQUESTS_PER_MINUTE} requests a minute per token, then 429 with Retry-After`, async () => {
    await storeFor(kind);
    await watch();
    const [a, b] = [(await make({ name: "a" })).body.token, (await make({ name: "b" })).body.token];
    for (let n = 0; n < TOKEN_REQUESTS_PER_MINUTE; n++) expect((await callApi("/api/tokens", bearer(a))).status).toBe(200);
    const over = await callApi<ErrorJson>("/api/tokens", bearer(a));
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another token has its own minute.
    expect((await callApi("/api/tokens", bearer(b))).status).toBe(200);
  });

  it("reads with the kept key: a workspace that stopped watching is a 409 until it watches again", async () => {
    await storeFor(kind);
    await watch();
    const { token } = (await make({ name: "reader" })).body;
    expect((await call(watchDelete, "/api/workspace/watch", { cookie: await cookieOf(), init: write("DELETE") })).status).toBe(200);
    const res = await callApi<ErrorJson>("/api/views", bearer(token));
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("watching_required");
    await watch();
    expect((await callApi("/api/views", bearer(token))).status).toBe(200);
  });

  it("the kept key refused upstream is a 409 of the workspace, never a session's end: no cookie cleared, the token still valid", async () => {
    await storeFor(kind);
    await watch();
    const { token } = (await make({ name: "reader" })).body;
    sandbox().revokeKey(DEMO_KEYS.pro);
    try {
      const res = await callApi<ErrorJson>(`/api/visitors?limit=3&search=${kind}-refused`, bearer(token));
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("watching_required");
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(res.headers.get("www-authenticate")).toBeNull();
    } finally {
      sandbox().revokeKey(DEMO_KEYS.pro, false);
    }
    expect((await callApi(`/api/visitors?limit=3&search=${kind}-given-back`, bearer(token))).status).toBe(200);
  });
});
