// Access tokens as the production build answers them (`npm start`, testing/system-setup.ts), in a
// workspace of this file's own: POST /api/tokens refuses without watching (409), a bad field (400
// naming it) and the 21st token (422), writing nothing; DELETE /api/tokens/{id} of an unknown id is a
// 404. A token as bearer opens every GET route of /api a session opens (the same status as the
// session's, exports included), never a write (403 `token_read_only` on every write route, nothing
// changed) nor the session's own routes; a malformed, unknown, revoked or expired token is a 401 with
// WWW-Authenticate, and the 121st request of a minute a 429 with Retry-After.
import { beforeAll, describe, expect, it } from "vitest";
import { deriveDemoKey } from "@/sandbox/keys";
import { MAX_TOKENS } from "@/lib/store/tokens";
import { TOKEN_REQUESTS_PER_MINUTE } from "@/lib/server/token-rate-limit";
import { apiRouteFiles, isCatchAll, isDynamic, WRITE_METHODS } from "@/testing/api-routes";
import type { Answer, ApiClient, ErrorBody } from "@/testing/production";
import { expectRefusal, production, signedIn } from "@/testing/system";
import type { TokenBody } from "./routes";

type Made = TokenBody & { token: string };

let api: ApiClient;

/** A request with `token` as bearer and no cookie nor Origin: what a script sends. */
async function withToken<T = unknown>(token: string, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const res = await fetch(`${production().base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text === "" ? null : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

const make = async (name: string, expiresAt?: string) => {
  const made = await api.call<Made>("POST", "/api/tokens", { body: { name, ...(expiresAt ? { expires_at: expiresAt } : {}) } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body;
};
const listed = async () => (await api.call<{ data: TokenBody[] }>("GET", "/api/tokens")).body.data;

beforeAll(async () => {
  api = await signedIn(deriveDemoKey("pro", "tokens"));
});

describe("access tokens: refusals from the production server", () => {
  it("making one needs watching: 409 watching_required, nothing made", async () => {
    expectRefusal(await api.call("POST", "/api/tokens", { body: { name: "too early" } }), { status: 409, code: "watching_required" });
    expect(await listed()).toEqual([]);
    expect((await api.call("PUT", "/api/workspace/watch")).status).toBe(200);
  });

  it.each([
    ["no name", {}, "name"],
    ["an empty name", { name: " " }, "name"],
    ["a name of 81 characters", { name: "n".repeat(81) }, "name"],
    ["an expiry that is no date", { name: "x", expires_at: "soon" }, "expires_at"],
    ["an expiry in the past", { name: "x", expires_at: "2001-01-01T00:00:00Z" }, "expires_at"],
  ])("%s is a 400 naming the field, nothing made", async (_label, body, param) => {
    expectRefusal(await api.call("POST", "/api/tokens", { body }), { status: 400, code: "invalid_parameter", param });
    expect(await listed()).toEqual([]);
  });

  it("an unknown id is a 404", async () => {
    expectRefusal(await api.call("DELETE", "/api/tokens/tok_AAAAAAAAAAAAAAAA"), { status: 404, code: "not_found" });
    expectRefusal(await api.call("DELETE", "/api/tokens/..%2Fx"), { status: 404, code: "not_found" });
  });
});

describe("what a token opens", () => {
  let reader: Made;
  beforeAll(async () => {
    reader = await make("reader");
  });

  it("every GET route a session opens, with the session's status (exports included)", async () => {
    const reads = apiRouteFiles()
      .filter((r) => !r.segments.some(isCatchAll) && !r.segments.some(isDynamic) && r.methods.includes("GET"))
      .map((r) => `/api/${r.segments.join("/")}`)
      // The session's own and the public routes answer the same to anyone; the MCP endpoint answers GET with a 405.
      .filter((p) => !p.startsWith("/api/session") && p !== "/api/health" && p !== "/api/mcp");
    expect(reads.length).toBeGreaterThan(30);
    const narrow = (p: string) => (p.startsWith("/api/export/") ? `${p}?format=json&from=2026-11-01&to=2026-11-02` : p);
    for (const path of reads) {
      const [bySession, byToken] = [await api.call("GET", narrow(path)), await withToken(reader.token, "GET", narrow(path))];
      expect(byToken.status, path).toBe(bySession.status);
      expect([401, 403, 409, 429], path).not.toContain(byToken.status);
    }
    // A visitor's page by its id too.
    const visitors = await withToken<{ data: { id: string }[] }>(reader.token, "GET", "/api/visitors?limit=1");
    expect((await withToken(reader.token, "GET", `/api/visitors/${visitors.body.data[0]!.id}`)).status).toBe(200);
  });

  it("no write: 403 token_read_only on every write route a session makes, nothing changed", async () => {
    const before = { tokens: await listed(), views: (await api.call("GET", "/api/views")).body, workspace: (await api.call("GET", "/api/workspace")).body };
    const writes = apiRouteFiles()
      .filter((r) => !r.segments.some(isCatchAll))
      .flatMap((r) =>
        WRITE_METHODS.filter((m) => r.methods.includes(m)).map((method) => ({
          method,
          path: `/api/${r.segments.map((s) => (isDynamic(s) ? "tok_AAAAAAAAAAAAAAAA" : s)).join("/")}`,
        })),
      )
      // Signing in and out is the cookie's (public); the MCP endpoint is a token's own (its POST reads);
      // a share link's unlock is the link's and an e-mail's links are theirs (public: a token in the path, never a bearer's).
      .filter((w) => w.path !== "/api/session" && w.path !== "/api/mcp" && !w.path.startsWith("/api/shared/") && !w.path.startsWith("/api/mail/"));
    expect(writes.length).toBeGreaterThan(15);
    for (const { method, path } of writes) {
      expectRefusal(await withToken(reader.token, method, path, { name: "x" }), { status: 403, code: "token_read_only" }, `${method} ${path}`);
    }
    expect({ tokens: await listed(), views: (await api.call("GET", "/api/views")).body, workspace: (await api.call("GET", "/api/workspace")).body }).toEqual({
      ...before,
      tokens: before.tokens.map((t) => (t.id === reader.id ? { ...t, last_used_at: expect.any(String) } : t)),
    });
  });

  it("not the session's own routes: a token signs nobody in", async () => {
    const session = await withToken<{ signedIn: boolean }>(reader.token, "GET", "/api/session");
    expect(session.status).toBe(200);
    expect(session.body.signedIn).toBe(false);
  });

  it("a malformed, unknown, revoked or expired token is a 401 with WWW-Authenticate", async () => {
    const revoked = await make("to revoke");
    expect((await api.call("DELETE", `/api/tokens/${revoked.id}`)).status).toBe(204);
    const expiring = await make("expiring", new Date(Date.now() + 2500).toISOString());
    expect((await withToken(expiring.token, "GET", "/api/views")).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2600));
    for (const token of ["wa_short", `wa_${"B".repeat(43)}`, revoked.token, expiring.token]) {
      const answer = await withToken<ErrorBody>(token, "GET", "/api/annotations");
      expectRefusal(answer, { status: 401, code: "invalid_token" }, token.slice(0, 8));
      expect(answer.headers.get("www-authenticate")).toBe('Bearer realm="workspace-analytics", error="invalid_token"');
      expect(JSON.stringify(answer.body)).not.toContain(token);
    }
  });

  it(`${TOKEN_REQUESTS_PER_MINUTE} requests a minute per token, then 429 with Retry-After`, async () => {
    const busy = await make("busy");
    const answers = await Promise.all(Array.from({ length: TOKEN_REQUESTS_PER_MINUTE + 5 }, () => withToken(busy.token, "GET", "/api/workspace/activity")));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(TOKEN_REQUESTS_PER_MINUTE);
    const over = answers.filter((a) => a.status === 429);
    expect(over).toHaveLength(5);
    expectRefusal(over[0]!, { status: 429, code: "rate_limited" });
    expect(Number(over[0]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another token has its minute of its own.
    expect((await withToken(reader.token, "GET", "/api/workspace/activity")).status).toBe(200);
  });

  it(`keeps at most ${MAX_TOKENS}: the next is a 422, nothing made`, async () => {
    const count = (await listed()).length;
    for (let n = count; n < MAX_TOKENS; n++) await make(`filler ${n}`);
    expectRefusal(await api.call("POST", "/api/tokens", { body: { name: "one too many" } }), { status: 422, code: "limit_reached" });
    expect(await listed()).toHaveLength(MAX_TOKENS);
  });
});
