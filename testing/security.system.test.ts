// The security of the pages and /api as the production entry serves them (`npm start`: the front
// server in front of Next, testing/system-setup.ts), over HTTP and raw sockets, no browser: security
// headers and the per-request CSP nonce on the scripts Next writes, the /sign-in redirect of a page
// without a session, the session cookie's attributes and the key in no response, cross-site requests
// refused on every kind of route and method, HEAD on an export starting nothing, the entry's
// keep-alive timeout, path attacks on the visitor id that never reach another upstream path, odd
// paths and methods, a cookie replayed after sign-out, and `?next=` never leading off the site.
// (Moved from the end-to-end tests, which started a browser for none of these.)
import { get } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { utcDate } from "@/e2e/helpers/clock";
import { rawRequest, type RawResponse } from "@/e2e/helpers/raw-http";
import { OPEN_REDIRECT_TRICKS } from "@/lib/ui/open-redirect-tricks";
import { safeNextPath } from "@/lib/ui/safe-next";
import { deriveDemoKey } from "@/sandbox/keys";
import { fromAddress, signIn } from "./production";
import { production } from "./system";

/** This file's keys (derived: a budget and a workspace of their own; the upstream log tells their requests apart). */
const KEY = deriveDemoKey("pro", "security");
const ATTACK_KEY = deriveDemoKey("pro", "pathattack");
const EMPTY_KEY = deriveDemoKey("empty", "openredirect");

/** A past week of days, for routes that need a range. */
const WEEK = { from: utcDate(-28), to: utcDate(-22) };

/**
 * This file's client: a loopback address of its own, so the sign-ins it has refused (cross-site ones)
 * count against its own allowance of failed attempts, not against the other files' at 127.0.0.1.
 */
const FROM = fromAddress("127.0.4.1");

let base = "";
let cookie = "";
beforeAll(async () => {
  base = production().base;
  cookie = await signIn(base, { apiKey: KEY }, FROM);
});

type Options = { cookie?: string; headers?: Record<string, string>; method?: string; body?: string };

/** A request as a browser or a script would send it, redirects not followed. */
function request(path: string, options: Options = {}): Promise<Response> {
  const headers: Record<string, string> = { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers };
  return fetch(`${base}${path}`, {
    method: options.method ?? "GET",
    headers,
    redirect: "manual",
    dispatcher: FROM.dispatcher,
    ...(options.body === undefined ? {} : { body: options.body }),
  } as RequestInit);
}

function expectSecurityHeaders(res: Response, label = "") {
  const csp = res.headers.get("content-security-policy") ?? "";
  expect(csp, label).toContain("frame-ancestors 'none'");
  expect(csp, label).toMatch(/object-src 'none'|default-src 'none'/);
  expect(csp, label).not.toContain("unsafe-eval");
  expect(res.headers.get("x-content-type-options"), label).toBe("nosniff");
  expect(res.headers.get("referrer-policy"), label).toBe("strict-origin-when-cross-origin");
}

const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; param?: string; message: string } }).error;

describe("pages without a session", () => {
  it.each(["/", "/visitors?source=chatgpt&limit=50", "/intelligence"])("%s redirects to /sign-in?next=..., with security headers", async (path) => {
    const res = await request(path);
    expect(res.status).toBe(307);
    const location = new URL(res.headers.get("location")!, "http://x");
    expect(location.pathname).toBe("/sign-in");
    expect(location.searchParams.get("next")).toBe(path);
    expectSecurityHeaders(res);
  });

  it("a tampered session cookie redirects too and is cleared", async () => {
    const res = await request("/settings", { cookie: "wa_session=Fe26.2**tampered" });
    expect(res.status).toBe(307);
    expect(res.headers.get("set-cookie")).toMatch(/wa_session=;/);
  });
});

it("/sign-in: CSP with a fresh nonce per request that Next puts on its scripts", async () => {
  const [first, second] = [await request("/sign-in"), await request("/sign-in")];
  expect(first.status).toBe(200);
  expectSecurityHeaders(first);
  expect(first.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  const nonce = nonceOf(first)!;
  expect(nonce).not.toBe(nonceOf(second));
  const scripts = [...(await first.text()).matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
});

it("API without a session: 401 in the error shape, with security headers", async () => {
  const res = await request("/api/visitors");
  expect(res.status).toBe(401);
  expectSecurityHeaders(res);
  expect((await errorOf(res)).code).toBe("unauthorized");
});

it("sign-in sets an httpOnly, SameSite=Lax session cookie; the key is in no response", async () => {
  const res = await request("/api/session", {
    method: "POST",
    headers: { origin: base, "content-type": "application/json" },
    body: JSON.stringify({ apiKey: KEY }),
  });
  expect(res.status).toBe(200);
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith("wa_session="))!;
  expect(setCookie).toMatch(/^wa_session=Fe26\.2\*/);
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Lax/i);
  expect(setCookie).toMatch(/Path=\//);
  expect(setCookie).toMatch(/Max-Age=\d+/);
  // Plain http on 127.0.0.1: a Secure cookie would never come back.
  expect(setCookie).not.toMatch(/;\s*Secure/i);
  const session = setCookie.split(";")[0]!;
  const secret = KEY.replace(/^svc_sk_test_/, "");
  for (const path of ["/", "/visitors", "/settings", "/api/session", "/api/visitors?limit=5", "/api/intelligence/score"]) {
    const page = await request(path, { cookie: session });
    expect(page.status, path).toBe(200);
    // API responses get theirs from next.config.mjs headers() (they skip the proxy), pages from the proxy.
    expectSecurityHeaders(page, path);
    expect(await page.text(), path).not.toContain(secret);
    expect(JSON.stringify([...page.headers]), path).not.toContain(secret);
  }
});

it("cross-site sign-in and sign-out are refused (403 csrf_rejected)", async () => {
  const signInThere = await request("/api/session", {
    method: "POST",
    headers: { origin: "https://evil.example", "content-type": "application/json" },
    body: JSON.stringify({ apiKey: KEY }),
  });
  expect(signInThere.status).toBe(403);
  expect((await errorOf(signInThere)).code).toBe("csrf_rejected");
  const signOut = await request("/api/session", { method: "DELETE", cookie, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } });
  expect(signOut.status).toBe(403);
});

describe("cross-site requests to /api", () => {
  it("are refused with 403 cross_site_rejected on every kind of route and method, HEAD included", async () => {
    for (const site of ["cross-site", "same-site"]) {
      const headers = { origin: base, "sec-fetch-site": site };
      const json = { ...headers, "content-type": "application/json" };
      const responses = [
        await request(`/api/insights/trend?from=${WEEK.from}&to=${WEEK.to}`, { cookie, headers }),
        await request("/api/visitors?source=chatgpt", { cookie, headers }),
        await request("/api/export/visitors?format=csv", { cookie, headers }),
        await request("/api/export/status", { cookie, headers }),
        await request("/api/health", { cookie, headers }),
        await request("/api/session", { cookie, method: "POST", headers: json, body: JSON.stringify({ apiKey: KEY }) }),
        await request("/api/session", { cookie, method: "DELETE", headers }),
      ];
      for (const res of responses) {
        expect(res.status, `${res.url} (${site})`).toBe(403);
        expectSecurityHeaders(res, res.url);
        expect((await errorOf(res)).code).toBe("cross_site_rejected");
      }
      // Next answers HEAD with the GET handler, through the same mount.
      expect((await request("/api/session", { cookie, method: "HEAD", headers })).status).toBe(403);
    }
    // The session survived the refused sign-out.
    expect(((await (await request("/api/session", { cookie })).json()) as { signedIn: boolean }).signedIn).toBe(true);
  });

  it("same-origin pages, an address typed in (none) and scripts without the header are answered", async () => {
    for (const site of ["same-origin", "none", null]) {
      const res = await request(`/api/insights/trend?from=${WEEK.from}&to=${WEEK.to}`, { cookie, headers: site ? { "sec-fetch-site": site } : {} });
      expect(res.status, String(site)).toBe(200);
      expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(7);
    }
  });
});

it("HEAD on an export starts nothing: after three HEADs (curl -I) an export of the key still starts", async () => {
  const own = await signIn(base, { apiKey: KEY }, FROM);
  for (let i = 0; i < 3; i++) {
    const head = await request("/api/export/visitors?format=csv", { cookie: own, method: "HEAD" });
    expect(head.status).toBe(405);
    expect(head.headers.get("allow")).toBe("GET");
  }
  // No export was registered for this session...
  expect(((await (await request("/api/export/status", { cookie: own })).json()) as { data: unknown[] }).data).toEqual([]);
  // ...and one more starts and completes.
  const res = await request("/api/export/visitors?source=claude&converted=true&format=csv", { cookie: own });
  expect(res.status).toBe(200);
  expect((await res.text()).split("\r\n").filter(Boolean).length).toBeGreaterThan(1);
  // HEAD on a data route is a 405 too (no upstream calls for an answer nobody reads).
  expect((await request("/api/visitors", { cookie: own, method: "HEAD" })).status).toBe(405);
});

it("the production entry keeps idle connections 65 s, beyond a proxy's 60 s (Keep-Alive: timeout=65)", async () => {
  const keepAlive = await new Promise<string | undefined>((resolve, reject) => {
    get(`${base}/api/health`, { headers: { Connection: "keep-alive" }, agent: false, localAddress: FROM.address }, (res) => {
      res.resume();
      resolve(res.headers["keep-alive"]?.toString());
    }).on("error", reject);
  });
  expect(keepAlive).toBe("timeout=65");
});

it("path attacks on the visitor id never reach another upstream path", async () => {
  const attacker = await signIn(base, { apiKey: ATTACK_KEY }, FROM);
  const attacks = [
    "/api/visitors/..%2F..%2Fintelligence%2Fscore",
    "/api/visitors/%2e%2e%2fmentions",
    "/api/visitors/vis_a%2Fb",
    "/api/visitors/vis_a%2F..%2F..%2Fmentions/timeline",
    "/api/visitors/vis_a%3Fsource%3Dx",
    "/api/visitors/vis_a%23frag",
    "/api/visitors/mnt_abc",
    "/api/visitors/vis_a%252Fb",
    "/api/visitors/vis_%E2%80%AE",
  ];
  for (const path of attacks) {
    const res = await request(path, { cookie: attacker });
    // 400 from the handler (or 404 when the router itself refuses the path); never a 200 or 500.
    expect([400, 404], `${path}: ${res.status}`).toContain(res.status);
    if (res.status === 400) {
      expectSecurityHeaders(res, path);
      expect((await errorOf(res)).param).toBe("id");
    }
  }
  // Every upstream request this key made (its sign-in's check among them) was to an allow-listed path.
  const stats = (await (await fetch(`${production().sandboxBase}/sandbox/stats`)).json()) as { log: Array<{ key: string; path: string }> };
  const paths = stats.log.filter((e) => e.key === `…${ATTACK_KEY.slice(-4)}`).map((e) => e.path);
  expect(paths.length).toBeGreaterThan(0);
  const allowed = /^\/v1\/(visitors|mentions|analytics\/(overview|traffic|funnel)|intelligence\/(score|ranking)|visitors\/vis_[A-Za-z0-9_-]+(\/timeline)?)$/;
  for (const p of paths) {
    expect(p, p).toMatch(allowed);
    expect(p, p).not.toMatch(/%|\.\./);
  }
});

describe("odd paths and methods (raw HTTP against the production entry)", () => {
  const raw = (head: string) => rawRequest(head, { base, localAddress: FROM.address });
  const jsonError = (res: RawResponse) => {
    expect(res.headers["content-type"], res.body).toMatch(/^application\/json/);
    const body = JSON.parse(res.body) as { error: { code: string; message: string } };
    expect(body.error.code).toMatch(/^[a-z_]+$/);
    expect(body.error.message.length).toBeGreaterThan(0);
  };

  it.each([
    { head: "GET /api/visitors/vis_abc% HTTP/1.1", status: 400, what: "bad percent-encoding in an API path" },
    { head: "GET /api/visitors/vis_abc%zz/timeline HTTP/1.1", status: 400, what: "bad percent-encoding before a known suffix" },
    { head: "GET /api/visitors/%2e%2e HTTP/1.1", status: 400, what: "an encoded dot-dot segment" },
    { head: "GET /api/visitors/%2E%2E/%2e%2e/intelligence/score HTTP/1.1", status: 400, what: "encoded traversal" },
    { head: "GET /api/visitors/./vis_abc HTTP/1.1", status: 400, what: "a raw dot segment" },
    { head: "GET /api/visitors/../intelligence/score HTTP/1.1", status: 400, what: "raw traversal" },
    { head: "GET /api/visitors\\..\\intelligence HTTP/1.1", status: 400, what: "backslashes" },
    { head: "GET /api/nothing-here HTTP/1.1", status: 404, what: "an unknown API path" },
    { head: "GET /api/visitors/vis_abc/unknown HTTP/1.1", status: 404, what: "an unknown suffix under a known route" },
    { head: "POST /api/nothing-here HTTP/1.1\r\nContent-Length: 0", status: 405, what: "POST where the app takes none" },
    { head: "TRACE /api/visitors HTTP/1.1", status: 405, what: "TRACE on the API" },
    { head: "PUT /api/session HTTP/1.1\r\nContent-Length: 0", status: 405, what: "PUT on the session" },
    { head: "DELETE /api/visitors HTTP/1.1", status: 405, what: "DELETE on a read-only route" },
    { head: "OPTIONS /api/visitors HTTP/1.1", status: 405, what: "OPTIONS on the API (no CORS here)" },
  ])("$what ($head) -> $status in the JSON error shape, no redirect", async ({ head, status }) => {
    const res = await raw(head);
    expect(res.status, res.body.slice(0, 200)).toBe(status);
    expect(res.headers["location"]).toBeUndefined();
    jsonError(res);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it.each([
    { head: "GET /visitors/% HTTP/1.1", status: 404, page: true, what: "bad percent-encoding in a page path" },
    { head: "GET /visitors/%E0%A4%A HTTP/1.1", status: 404, page: true, what: "truncated UTF-8 in a page path" },
    { head: "GET /visitors/%2e%2e/settings HTTP/1.1", status: 404, page: true, what: "encoded traversal in a page path" },
    { head: "TRACE / HTTP/1.1", status: 405, page: false, what: "TRACE" },
    { head: "TRACK / HTTP/1.1", status: 400, page: false, what: "TRACK (unknown to Node's HTTP parser)" },
    { head: "OPTIONS * HTTP/1.1", status: 405, page: false, what: "OPTIONS *" },
    { head: "CONNECT 127.0.0.1:22 HTTP/1.1", status: 405, page: false, what: "CONNECT" },
    { head: "PROPFIND / HTTP/1.1", status: 405, page: false, what: "a WebDAV method" },
    { head: "GET http://evil.example/ HTTP/1.1", status: 400, page: false, what: "an absolute-form request target" },
  ])("$what ($head) -> $status, never a 5xx or redirect", async ({ head, status, page }) => {
    const res = await raw(head);
    expect(res.status, res.body.slice(0, 200)).toBe(status);
    expect(res.headers["location"]).toBeUndefined();
    if (page) {
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.body).toContain("Page not found");
    }
  });

  it("a signed-in visitor's unknown API path is the JSON 404 too, not the HTML page", async () => {
    const res = await request("/api/visitors/vis_abc/timeline/extra", { cookie });
    expect(res.status).toBe(404);
    expectSecurityHeaders(res);
    expect((await errorOf(res)).code).toBe("not_found");
  });
});

it("a session cookie replayed after sign-out gets 401 on /api/* and the sign-in page on pages", async () => {
  const saved = await signIn(base, { apiKey: KEY }, FROM);
  // Works before sign-out (the unseal cache now holds it, which must not outlive the revocation).
  expect((await request("/api/intelligence/score", { cookie: saved })).status).toBe(200);
  expect((await request("/settings", { cookie: saved })).status).toBe(200);
  expect((await request("/api/session", { cookie: saved, method: "DELETE", headers: { origin: base } })).status).toBe(200);
  for (const path of ["/api/intelligence/score", "/api/visitors?limit=1", "/api/export/visitors?format=json"]) {
    const api = await request(path, { cookie: saved });
    expect(api.status, path).toBe(401);
    expect((await errorOf(api)).code, path).toBe("unauthorized");
  }
  expect(await (await request("/api/session", { cookie: saved })).json()).toEqual({ signedIn: false });
  for (const path of ["/", "/settings", "/visitors?source=chatgpt"]) {
    const page = await request(path, { cookie: saved });
    expect(page.status, path).toBe(307);
    expect(new URL(page.headers.get("location")!, base).pathname, path).toBe("/sign-in");
  }
});

describe("open redirect: ?next= never sends a user off this site", () => {
  const label = (trick: string) => JSON.stringify(trick).slice(0, 60);
  /** The Location header as the browser would resolve it: must stay on this origin. */
  const expectSameOrigin = (location: string | null, what: string) => {
    expect(location, what).toBeTruthy();
    expect(new URL(location!, base).origin, `${what} -> ${location}`).toBe(base);
    expect(location!.startsWith("//") || location!.startsWith("/\\"), `${what} -> ${location}`).toBe(false);
  };

  it("the sign-in page's redirect for a signed-in user stays on this site for every trick", async () => {
    const signedIn = await signIn(base, { apiKey: EMPTY_KEY }, FROM);
    for (const trick of OPEN_REDIRECT_TRICKS) {
      const res = await request(`/sign-in?next=${encodeURIComponent(trick)}`, { cookie: signedIn });
      expect(res.status, label(trick)).toBe(307);
      expectSameOrigin(res.headers.get("location"), label(trick));
      expect(new URL(res.headers.get("location")!, base).pathname, label(trick)).toBe("/");
    }
    // And a genuine path is honoured.
    const ok = await request(`/sign-in?next=${encodeURIComponent("/visitors?source=claude")}`, { cookie: signedIn });
    expect(ok.headers.get("location")).toBe("/visitors?source=claude");
  });

  it("the proxy's next= for a signed-out page request carries only a safe path", async () => {
    const paths = [
      "//evil.example/phish",
      "/.//evil.example/phish",
      "/%2e//evil.example/phish",
      "/%2F%2Fevil.example/phish",
      "/x/..//evil.example/phish",
      "/\\evil.example/phish",
      "/%5Cevil.example/phish",
      "/%09/evil.example/phish",
    ];
    for (const path of paths) {
      const res = await rawRequest(`GET ${path} HTTP/1.1`, { base, localAddress: FROM.address });
      // A redirect (to sign-in) or a refusal; never a 5xx.
      expect(res.status, path).toBeLessThan(500);
      const location = res.headers["location"];
      if (location === undefined) continue;
      expectSameOrigin(location, path);
      const next = new URL(location, base).searchParams.get("next");
      if (next !== null) expect(safeNextPath(next, "<unsafe>"), `${path} -> next=${next}`).toBe(next);
    }
  });
});
