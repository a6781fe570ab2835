// Security of the BFF and pages against the real `next start` (HTTP only, no browser): security
// headers and the per-request CSP nonce, the /sign-in redirect, session cookie attributes, CSRF,
// cross-site requests to any /api route, HEAD on an export, the entry's keep-alive timeout, and path
// attacks on the visitor id that must never reach another upstream path.
import { get } from "node:http";
import { expect, test, type APIResponse } from "@playwright/test";
import { utcDate } from "./helpers/clock";
import { rawRequest, type RawResponse } from "./helpers/raw-http";
import { DEMO_KEYS, SANDBOX_URL } from "./helpers/sandbox";
import { BASE_URL } from "./helpers/session";

/** A past week of days, for routes that need a range. */
const WEEK = { from: utcDate(-28), to: utcDate(-22) };

const expectSecurityHeaders = (res: APIResponse) => {
  const h = res.headers();
  expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(h["content-security-policy"]).toMatch(/object-src 'none'|default-src 'none'/);
  expect(h["content-security-policy"]).not.toContain("unsafe-eval");
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
};

const nonceOf = (res: APIResponse) => /'nonce-([^']+)'/.exec(res.headers()["content-security-policy"] ?? "")?.[1];

async function upstreamPaths(): Promise<Record<string, number>> {
  const stats = (await (await fetch(`${SANDBOX_URL}/sandbox/stats`)).json()) as { byPath: Record<string, number> };
  return stats.byPath;
}

async function signedInCookie(request: import("@playwright/test").APIRequestContext, baseURL: string): Promise<string> {
  const res = await request.post("/api/session", { data: { demo: "pro" }, headers: { origin: baseURL } });
  expect(res.status()).toBe(200);
  return res.headers()["set-cookie"]!.split(";")[0]!;
}

test.describe("GET pages without a session", () => {
  for (const path of ["/", "/visitors?source=chatgpt&limit=50", "/intelligence"]) {
    test(`${path} redirects to /sign-in?next=..., with security headers`, async ({ request }) => {
      const res = await request.get(path, { maxRedirects: 0 });
      expect(res.status()).toBe(307);
      const location = new URL(res.headers()["location"]!, "http://x");
      expect(location.pathname).toBe("/sign-in");
      expect(location.searchParams.get("next")).toBe(path);
      expectSecurityHeaders(res);
    });
  }

  test("a tampered session cookie redirects too and is cleared", async ({ request }) => {
    const res = await request.get("/settings", { maxRedirects: 0, headers: { cookie: "wa_session=Fe26.2**tampered" } });
    expect(res.status()).toBe(307);
    expect(res.headers()["set-cookie"]).toMatch(/wa_session=;/);
  });
});

test("/sign-in: CSP with a fresh nonce per request that Next puts on its scripts", async ({ request }) => {
  const first = await request.get("/sign-in");
  const second = await request.get("/sign-in");
  expect(first.status()).toBe(200);
  expectSecurityHeaders(first);
  const csp = first.headers()["content-security-policy"]!;
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  const nonce = nonceOf(first)!;
  expect(nonce).not.toBe(nonceOf(second));
  const html = await first.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
});

test("API without a session: 401 in the error shape, with security headers", async ({ request }) => {
  const res = await request.get("/api/visitors");
  expect(res.status()).toBe(401);
  expect((await res.json()).error.code).toBe("unauthorized");
  expectSecurityHeaders(res);
});

test("sign-in sets an httpOnly, SameSite=Lax session cookie; the key is in no response", async ({ request, baseURL }) => {
  const res = await request.post("/api/session", { data: { demo: "pro" }, headers: { origin: baseURL! } });
  expect(res.status()).toBe(200);
  const setCookie = res.headers()["set-cookie"]!;
  expect(setCookie).toMatch(/^wa_session=Fe26\.2\*/);
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Lax/i);
  expect(setCookie).toMatch(/Path=\//);
  expect(setCookie).toMatch(/Max-Age=\d+/);
  // Plain http on 127.0.0.1: a Secure cookie would never come back.
  expect(setCookie).not.toMatch(/;\s*Secure/i);
  const cookie = setCookie.split(";")[0]!;
  const secret = DEMO_KEYS.pro.replace(/^svc_sk_test_/, "");
  for (const path of ["/", "/visitors", "/settings", "/api/session", "/api/visitors?limit=5", "/api/intelligence/score"]) {
    const page = await request.get(path, { headers: { cookie }, maxRedirects: 0 });
    expect(page.status(), path).toBe(200);
    // API responses get theirs from next.config.mjs headers() (they skip the proxy), pages from the proxy.
    expectSecurityHeaders(page);
    const text = await page.text();
    expect(text).not.toContain(secret);
    expect(JSON.stringify(page.headers())).not.toContain(secret);
  }
});

test("cross-site sign-in and sign-out are refused (403 csrf_rejected)", async ({ request }) => {
  const signIn = await request.post("/api/session", { data: { demo: "pro" }, headers: { origin: "https://evil.example" } });
  expect(signIn.status()).toBe(403);
  expect((await signIn.json()).error.code).toBe("csrf_rejected");
  const signOut = await request.delete("/api/session", { headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } });
  expect(signOut.status()).toBe(403);
});

test.describe("cross-site requests to /api", () => {
  test("are refused with 403 cross_site_rejected on every kind of route and method, HEAD included", async ({ request, baseURL }) => {
    const cookie = await signedInCookie(request, baseURL!);
    for (const site of ["cross-site", "same-site"]) {
      const headers = { cookie, origin: baseURL!, "sec-fetch-site": site };
      const responses = [
        await request.get(`/api/insights/trend?from=${WEEK.from}&to=${WEEK.to}`, { headers }),
        await request.get("/api/visitors?source=chatgpt", { headers }),
        await request.get("/api/export/visitors?format=csv", { headers }),
        await request.get("/api/export/status", { headers }),
        await request.get("/api/health", { headers }),
        await request.post("/api/session", { headers, data: { demo: "pro" } }),
        await request.delete("/api/session", { headers }),
      ];
      for (const res of responses) {
        expect(res.status(), `${res.url()} (${site})`).toBe(403);
        expect((await res.json()).error.code).toBe("cross_site_rejected");
        expectSecurityHeaders(res);
      }
      // Next answers HEAD with the GET handler, through the same mount.
      expect((await request.head("/api/session", { headers })).status()).toBe(403);
    }
    // The session survived the refused sign-out.
    expect((await (await request.get("/api/session", { headers: { cookie } })).json()).signedIn).toBe(true);
  });

  test("same-origin pages, an address typed in (none) and scripts without the header are answered", async ({ request, baseURL }) => {
    const cookie = await signedInCookie(request, baseURL!);
    for (const site of ["same-origin", "none", null]) {
      const headers: Record<string, string> = { cookie, ...(site ? { "sec-fetch-site": site } : {}) };
      const res = await request.get(`/api/insights/trend?from=${WEEK.from}&to=${WEEK.to}`, { headers });
      expect(res.status(), String(site)).toBe(200);
      expect((await res.json()).data.length).toBe(7);
    }
  });
});

test("HEAD on an export starts nothing: after three HEADs (curl -I) an export of the key still starts", async ({ request, baseURL }) => {
  const cookie = await signedInCookie(request, baseURL!);
  for (let i = 0; i < 3; i++) {
    const head = await request.head("/api/export/visitors?format=csv", { headers: { cookie } });
    expect(head.status()).toBe(405);
    expect(head.headers()["allow"]).toBe("GET");
  }
  // No export was registered for this session...
  expect((await (await request.get("/api/export/status", { headers: { cookie } })).json()).data).toEqual([]);
  // ...and one more starts and completes.
  const res = await request.get("/api/export/visitors?source=claude&converted=true&format=csv", { headers: { cookie } });
  expect(res.status()).toBe(200);
  expect((await res.text()).split("\r\n").filter(Boolean).length).toBeGreaterThan(1);
  // HEAD on a data route is a 405 too (no upstream calls for an answer nobody reads).
  expect((await request.head("/api/visitors", { headers: { cookie } })).status()).toBe(405);
});

test("the production entry keeps idle connections 65 s, beyond a proxy's 60 s (Keep-Alive: timeout=65)", async () => {
  const keepAlive = await new Promise<string | undefined>((resolve, reject) => {
    get(`${BASE_URL}/api/health`, { headers: { Connection: "keep-alive" } }, (res) => {
      res.resume();
      resolve(res.headers["keep-alive"]?.toString());
    }).on("error", reject);
  });
  expect(keepAlive).toBe("timeout=65");
});

test("path attacks on the visitor id never reach another upstream path", async ({ request, baseURL }) => {
  const cookie = await signedInCookie(request, baseURL!);
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
    const res = await request.get(path, { headers: { cookie }, maxRedirects: 0 });
    // 400 from the handler (or 404 when the router itself refuses the path); never a 200 or 500.
    expect([400, 404], `${path}: ${res.status()}`).toContain(res.status());
    if (res.status() === 400) {
      expect((await res.json()).error.param).toBe("id");
      expectSecurityHeaders(res);
    }
  }
  const after = await upstreamPaths();
  // No request reached an upstream path other than the allow-listed ones.
  const allowed = /^\/(visitors|mentions|analytics\/(overview|traffic|funnel)|intelligence\/(score|ranking)|visitors\/vis_[A-Za-z0-9_-]+(\/timeline)?)$/;
  for (const p of Object.keys(after)) {
    expect(p, p).toMatch(allowed);
    expect(p, p).not.toMatch(/%|\.\./);
  }
});

test.describe("odd paths and methods (raw HTTP against the production entry)", () => {
  const jsonError = (res: RawResponse) => {
    expect(res.headers["content-type"], res.body).toMatch(/^application\/json/);
    const body = JSON.parse(res.body) as { error: { code: string; message: string } };
    expect(body.error.code).toMatch(/^[a-z_]+$/);
    expect(body.error.message.length).toBeGreaterThan(0);
    return body.error;
  };

  const apiCases = [
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
  ];
  for (const c of apiCases) {
    test(`odd request: ${c.what} (${c.head.split("\r\n")[0]}) -> ${c.status} in the JSON error shape, no redirect`, async () => {
      const res = await rawRequest(c.head);
      expect(res.status, res.body.slice(0, 200)).toBe(c.status);
      expect(res.headers["location"]).toBeUndefined();
      jsonError(res);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    });
  }

  const otherCases = [
    { head: "GET /visitors/% HTTP/1.1", status: 404, page: true, what: "bad percent-encoding in a page path" },
    { head: "GET /visitors/%E0%A4%A HTTP/1.1", status: 404, page: true, what: "truncated UTF-8 in a page path" },
    { head: "GET /visitors/%2e%2e/settings HTTP/1.1", status: 404, page: true, what: "encoded traversal in a page path" },
    { head: "TRACE / HTTP/1.1", status: 405, page: false, what: "TRACE" },
    { head: "TRACK / HTTP/1.1", status: 400, page: false, what: "TRACK (unknown to Node's HTTP parser)" },
    { head: "OPTIONS * HTTP/1.1", status: 405, page: false, what: "OPTIONS *" },
    { head: "CONNECT 127.0.0.1:22 HTTP/1.1", status: 405, page: false, what: "CONNECT" },
    { head: "PROPFIND / HTTP/1.1", status: 405, page: false, what: "a WebDAV method" },
    { head: "GET http://evil.example/ HTTP/1.1", status: 400, page: false, what: "an absolute-form request target" },
  ];
  for (const c of otherCases) {
    test(`odd request: ${c.what} (${c.head}) -> ${c.status}${c.page ? " with the not-found page" : ""}, never a 5xx or redirect`, async () => {
      const res = await rawRequest(c.head);
      expect(res.status, res.body.slice(0, 200)).toBe(c.status);
      expect(res.headers["location"]).toBeUndefined();
      if (c.page) {
        expect(res.headers["content-type"]).toMatch(/^text\/html/);
        expect(res.body).toContain("Page not found");
      }
    });
  }

  test("odd request: a signed-in visitor's unknown API path is the JSON 404 too, not the HTML page", async ({ request, baseURL }) => {
    const cookie = await signedInCookie(request, baseURL!);
    const res = await request.get("/api/visitors/vis_abc/timeline/extra", { headers: { cookie } });
    expect(res.status()).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
    expectSecurityHeaders(res);
  });
});
