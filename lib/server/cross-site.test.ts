// Every /api route refuses requests a browser marks as started by another site, whatever the method,
// before doing any work; same-origin, `none` and header-less requests pass. The routes are read from
// the source, not listed here: every route file under app/api and each method it exports (HEAD by
// GET's handler where a file has none, as Next answers it), the catch-all with a path no file serves.
// A route added later is held to the same rule without touching this file; the one declared
// exception (an e-mail's one-click unsubscribe, which mail clients post from their own sites) is
// listed here, and nothing else may declare it.
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { apiRouteFiles, HTTP_METHODS, isCatchAll, isDynamic, routeModule, type HttpMethod } from "@/testing/api-routes";
import { serverContext } from "./context";
import { keyId } from "./key-id";
import { sessionCookie, upstreamForFile, ORIGIN, type ErrorJson } from "@/testing/in-process";

const sandbox = upstreamForFile();
let cookie: string;
beforeAll(async () => {
  cookie = await sessionCookie(DEMO_KEYS.pro);
});

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

type Target = { label: string; url: string; params: Record<string, string | string[]>; method: HttpMethod; handler: Handler };

async function targets(): Promise<Target[]> {
  const out: Target[] = [];
  for (const route of apiRouteFiles()) {
    const mod = (await routeModule(route)) as Partial<Record<HttpMethod, Handler>>;
    const exported = HTTP_METHODS.filter((m) => typeof mod[m] === "function");
    expect(exported.length, `${route.file} exports no method`).toBeGreaterThan(0);
    const params: Record<string, string | string[]> = {};
    const segments = route.segments.flatMap((segment) => {
      if (isCatchAll(segment)) return (params.path = ["no", "such", "route"]);
      if (!isDynamic(segment)) return [segment];
      params[segment.slice(1, -1)] = "vis_abc";
      return ["vis_abc"];
    });
    // Next answers HEAD with GET's handler where a file has none of its own.
    const methods = exported.includes("GET") && !exported.includes("HEAD") ? [...exported, "HEAD" as const] : exported;
    for (const method of methods) {
      out.push({
        label: `${method} /api/${segments.join("/")}`,
        url: `${ORIGIN}/api/${segments.join("/")}?format=csv`,
        params,
        method,
        handler: (mod[method] ?? mod.GET)!,
      });
    }
  }
  return out;
}

/** The exception a route declares to refusing other sites' requests (route-types.ts `crossSite`), if any. */
const crossSiteOf = (t: Target): string | undefined => (t.handler as { definition?: { crossSite?: string } }).definition?.crossSite;

function send(t: Target, headers: Record<string, string>): Promise<Response> {
  const body = ["POST", "PUT", "PATCH"].includes(t.method) ? JSON.stringify({ demo: "pro" }) : undefined;
  const req = new Request(t.url, { method: t.method, headers, ...(body ? { body } : {}) });
  return t.handler(req, { params: Promise.resolve(t.params) });
}

describe("cross-site requests to /api", () => {
  it("the routes come from the source: every route file under app/api", async () => {
    const all = await targets();
    const labels = all.map((t) => t.label);
    for (const expected of [
      "GET /api/export/visitors",
      "HEAD /api/export/mentions",
      "POST /api/session",
      "DELETE /api/session",
      "GET /api/health",
      "GET /api/insights/trend",
      "GET /api/visitors/vis_abc/timeline",
      "POST /api/export/cancel",
      "GET /api/workspace",
      "POST /api/workspace/keys",
      "PUT /api/workspace/watch",
      "DELETE /api/workspace/watch",
      "GET /api/views",
      "POST /api/views",
      "PATCH /api/views/vis_abc",
      "DELETE /api/views/vis_abc",
      "GET /api/annotations",
      "POST /api/annotations",
      "PATCH /api/annotations/vis_abc",
      "DELETE /api/annotations/vis_abc",
      "GET /api/no/such/route",
    ]) {
      expect(labels).toContain(expected);
    }
    expect(new Set(labels).size).toBe(labels.length);
  });

  it("one route alone is declared open to other sites: an e-mail's one-click unsubscribe (RFC 8058), public and acting on its token alone", async () => {
    const declared = (await targets()).filter((t) => crossSiteOf(t) !== undefined);
    expect(declared.map((t) => [t.label, crossSiteOf(t)])).toEqual([["POST /api/mail/unsubscribe/vis_abc", "one-click-unsubscribe"]]);
    for (const t of declared) {
      // Another site's POST reaches the route, which reads no cookie: a token of nobody is its own 404.
      const res = await send(t, { cookie, origin: "https://mail.example.net", "sec-fetch-site": "cross-site" });
      expect(res.status, t.label).toBe(404);
      expect(((await res.json()) as ErrorJson).error.code).toBe("not_found");
      expect(res.headers.get("set-cookie"), t.label).toBeNull();
    }
  });

  it("are refused with 403 in the error shape on every route and method, before any work (no upstream call, no export, no cookie)", async () => {
    const upstreamBefore = sandbox().stats().requests;
    for (const t of (await targets()).filter((t) => crossSiteOf(t) === undefined)) {
      for (const site of ["cross-site", "same-site"]) {
        // The victim's cookie and a matching Origin: only Sec-Fetch-Site tells the request apart.
        const res = await send(t, { cookie, origin: ORIGIN, "sec-fetch-site": site, "sec-fetch-mode": "navigate" });
        expect(res.status, `${t.label} (${site})`).toBe(403);
        const body = (await res.json()) as ErrorJson;
        expect(body.error.code, t.label).toBe("cross_site_rejected");
        expect(body.error.message.length).toBeGreaterThan(0);
        expect(res.headers.get("set-cookie"), t.label).toBeNull();
        expect(res.headers.get("cache-control")).toContain("no-store");
      }
    }
    expect(sandbox().stats().requests).toBe(upstreamBefore);
    expect(await serverContext().stores.exportStatus.list(keyId(DEMO_KEYS.pro))).toEqual([]);
  });

  it("same-origin, none (typed in the address bar, a download link) and no header at all (scripts, curl) pass to the route", async () => {
    for (const t of await targets()) {
      const allowed: Record<string, string>[] = [{ "sec-fetch-site": "same-origin" }, { "sec-fetch-site": "none" }, {}];
      for (const headers of allowed) {
        // No session: each route answers in its own way (200, 400, 401, 404, 405), none with the cross-site refusal.
        const res = await send(t, { origin: ORIGIN, ...headers });
        const code = res.status === 403 ? ((await res.json()) as ErrorJson).error.code : null;
        expect(code, `${t.label} ${JSON.stringify(headers)}`).not.toBe("cross_site_rejected");
        await res.body?.cancel();
      }
    }
  });
});
