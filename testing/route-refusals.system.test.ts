// Every /api route's refusals, as the production build answers them (testing/system-setup.ts). The
// routes are read from the source (every method of every route file under app/api), and the table
// below must have a row for each: a route added without its refusals fails the first test. A row holds
// the refusals checked here (bad parameters, unknown ids, bounds: what the route's own input can get
// wrong), or names the system test file that checks the route's own refusals (a domain's writes, with
// their conflicts and limits), which must then name the route; or says why the route refuses nothing.
// Signed out, every route that needs a session is a 401 here; every write route started by another
// site is a 403 in write-routes.system.test.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { deriveDemoKey } from "@/sandbox/keys";
import { apiRouteFiles, isCatchAll, type HttpMethod } from "@/testing/api-routes";
import type { ApiClient } from "@/testing/production";
import { expectRefusal, signedIn, signedOut, type Refusal } from "@/testing/system";

type Check = { path: string; refusal: Refusal };
type Row =
  /** Refusals of this route checked here (GET unless `method` says otherwise). */
  | { checks: Check[] }
  /** The system test file (from the repository's root) that checks this route's own refusals; `public`: called without a session. */
  | { checkedIn: string; public?: true }
  /** Why the route refuses nothing a caller sends (besides what every route refuses). */
  | { none: string };

const bad = (param: string): Refusal => ({ status: 400, code: "invalid_parameter", param });
const notFound: Refusal = { status: 404, code: "not_found" };
const rangeChecks = (route: string): Check[] => [
  { path: `${route}?from=x`, refusal: bad("from") },
  { path: `${route}?to=2026-13-01`, refusal: bad("to") },
  { path: `${route}?from=2026-11-10&to=2026-11-01`, refusal: bad("from") },
  { path: `${route}?tz=Mars/Olympus`, refusal: bad("tz") },
];
const insight = (name: string, compare = true): Row => ({
  checks: [
    ...rangeChecks(`/api/insights/${name}`),
    { path: `/api/insights/${name}?from=2020-01-01&to=2026-11-01`, refusal: bad("from") },
    ...(compare ? [{ path: `/api/insights/${name}?compare=weird`, refusal: bad("compare") }] : []),
  ],
});
const period = (route: string): Row => ({ checks: [{ path: `${route}?period=1y`, refusal: bad("period") }] });

const ALERTS = "lib/alerts/routes.system.test.ts";
const NOTES = "lib/annotations/routes.system.test.ts";
const VIEWS = "lib/views/routes.system.test.ts";
const WORKSPACES = "lib/workspaces/routes.system.test.ts";
const STORE_SCOPE = "lib/server/store-scope.system.test.ts";
const SECURITY = "testing/security.system.test.ts";
const SHARES = "lib/shares/routes.system.test.ts";
const SIGN_IN = "testing/sign-in-abuse.system.test.ts";
const TOKENS = "lib/tokens/routes.system.test.ts";
const MCP = "lib/mcp/mcp.system.test.ts";

/** "METHOD /api/…" as the route's folders name it, e.g. "GET /api/visitors/[id]". */
const TABLE: Record<string, Row> = {
  "GET /api/alerts/deliveries": { checks: [{ path: "/api/alerts/deliveries?limit=201", refusal: bad("limit") }] },
  "POST /api/alerts/deliveries/[id]/retry": { checkedIn: ALERTS },
  "GET /api/alerts/destinations": { none: "the workspace's destinations, no parameters" },
  "POST /api/alerts/destinations": { checkedIn: ALERTS },
  "DELETE /api/alerts/destinations/[id]": { checkedIn: ALERTS },
  "POST /api/alerts/destinations/[id]/test": { checkedIn: ALERTS },
  "GET /api/alerts/digest": { none: "the workspace's digest setting, no parameters" },
  "PUT /api/alerts/digest": { checkedIn: ALERTS },
  "GET /api/alerts/digest/preview": { none: "the digest as it would be sent now, no parameters" },
  "POST /api/alerts/digest/send": { checkedIn: ALERTS },
  "GET /api/alerts/rules": { none: "the workspace's rules, no parameters" },
  "POST /api/alerts/rules": { checkedIn: ALERTS },
  "PATCH /api/alerts/rules/[id]": { checkedIn: ALERTS },
  "DELETE /api/alerts/rules/[id]": { checkedIn: ALERTS },
  "GET /api/alerts/rules/preview": {
    checks: [
      { path: "/api/alerts/rules/preview", refusal: bad("kind") },
      { path: "/api/alerts/rules/preview?kind=weird", refusal: bad("kind") },
    ],
  },
  "GET /api/analytics/funnel": period("/api/analytics/funnel"),
  "GET /api/analytics/overview": period("/api/analytics/overview"),
  "GET /api/analytics/traffic": period("/api/analytics/traffic"),
  "GET /api/annotations": { checks: rangeChecks("/api/annotations").filter((c) => !c.path.includes("tz=")) },
  "POST /api/annotations": { checkedIn: NOTES },
  "PATCH /api/annotations/[id]": { checkedIn: NOTES },
  "DELETE /api/annotations/[id]": { checkedIn: NOTES },
  "POST /api/export/cancel": {
    checks: [
      { path: "/api/export/cancel", refusal: bad("id") },
      { path: "/api/export/cancel?id=exp_..%2Fx", refusal: bad("id") },
      { path: "/api/export/cancel?id=exp_AAAAAAAAAAAAAAAAAAAAAA", refusal: notFound },
    ],
  },
  "GET /api/export/mentions": {
    checks: [
      { path: "/api/export/mentions?format=xml", refusal: bad("format") },
      { path: "/api/export/mentions?platform=nope", refusal: bad("platform") },
    ],
  },
  "GET /api/export/status": { none: "this key's exports, no parameters" },
  "GET /api/export/visitors": {
    checks: [
      { path: "/api/export/visitors?format=xml", refusal: bad("format") },
      { path: "/api/export/visitors?source=nope", refusal: bad("source") },
    ],
  },
  "GET /api/health": { none: "public: the server's state, no parameters" },
  "GET /api/history/overview": { checks: rangeChecks("/api/history/overview") },
  "GET /api/history/ranking": { checks: rangeChecks("/api/history/ranking") },
  "GET /api/history/score": { checks: rangeChecks("/api/history/score") },
  // The competitors, the questions and the sentiment are read for the range alone: no comparison to ask for.
  "GET /api/insights/competitors": insight("competitors", false),
  "GET /api/insights/countries": insight("countries"),
  "GET /api/insights/platforms": insight("platforms"),
  "GET /api/insights/queries": insight("queries", false),
  "GET /api/insights/sentiment": insight("sentiment", false),
  "GET /api/insights/sources": insight("sources"),
  "GET /api/insights/trend": insight("trend"),
  "GET /api/intelligence/ranking": { none: "the workspace's ranking, no parameters" },
  "GET /api/intelligence/score": { none: "the workspace's score, no parameters" },
  // Anyone holding an e-mail's link (no session); a token that cannot be one, or of nobody, is one 404.
  "POST /api/mail/confirm/[token]": {
    checks: [
      { path: "/api/mail/confirm/short", refusal: notFound },
      { path: `/api/mail/confirm/${"A".repeat(43)}`, refusal: notFound },
    ],
  },
  "POST /api/mail/unsubscribe/[token]": {
    checks: [
      { path: "/api/mail/unsubscribe/short", refusal: notFound },
      { path: `/api/mail/unsubscribe/${"A".repeat(43)}`, refusal: notFound },
    ],
  },
  "GET /api/mcp": { none: "public: a 405 for anyone, the MCP endpoint takes POST only (stateless: no stream to open)" },
  "POST /api/mcp": { checkedIn: MCP },
  "GET /api/mentions": {
    checks: [
      { path: "/api/mentions?platform=nope", refusal: bad("platform") },
      { path: "/api/mentions?limit=1000", refusal: bad("limit") },
      { path: "/api/mentions?limit=0", refusal: bad("limit") },
    ],
  },
  "GET /api/session": { checkedIn: SECURITY },
  "GET /api/shared/[token]/[group]": { checkedIn: SHARES, public: true },
  "GET /api/shared/[token]/[group]/[name]": { checkedIn: SHARES, public: true },
  "POST /api/shared/[token]/unlock": { checkedIn: SHARES, public: true },
  "GET /api/shares": { none: "the workspace's share links, no parameters" },
  "POST /api/shares": { checkedIn: SHARES },
  "PATCH /api/shares/[id]": { checkedIn: SHARES },
  "DELETE /api/shares/[id]": { checkedIn: SHARES },
  "POST /api/session": { checkedIn: SIGN_IN },
  "DELETE /api/session": { checkedIn: SECURITY },
  "GET /api/session/demo-keys": { none: "public: the sandbox's demo keys when it is the upstream, no parameters" },
  "GET /api/tokens": { none: "the workspace's access tokens, no parameters" },
  "POST /api/tokens": { checkedIn: TOKENS },
  "DELETE /api/tokens/[id]": { checkedIn: TOKENS },
  "GET /api/views": { none: "the workspace's saved views, no parameters" },
  "POST /api/views": { checkedIn: VIEWS },
  "PATCH /api/views/[id]": { checkedIn: VIEWS },
  "DELETE /api/views/[id]": { checkedIn: VIEWS },
  "GET /api/visitors": {
    checks: [
      { path: "/api/visitors?limit=0", refusal: bad("limit") },
      { path: "/api/visitors?source=nope", refusal: bad("source") },
    ],
  },
  "GET /api/visitors/[id]": {
    checks: [
      { path: "/api/visitors/..%2Fx", refusal: bad("id") },
      { path: "/api/visitors/vis_doesnotexist", refusal: notFound },
    ],
  },
  "GET /api/visitors/[id]/timeline": {
    checks: [
      { path: "/api/visitors/mnt_abc/timeline", refusal: bad("id") },
      { path: "/api/visitors/vis_doesnotexist/timeline", refusal: notFound },
    ],
  },
  "GET /api/workspace": { checkedIn: WORKSPACES },
  "DELETE /api/workspace": { checkedIn: WORKSPACES },
  "GET /api/workspace/activity": { none: "the workspace's recent activity, no parameters" },
  "POST /api/workspace/keys": { checkedIn: WORKSPACES },
  "DELETE /api/workspace/keys/[id]": { checkedIn: WORKSPACES },
  "PUT /api/workspace/watch": { checkedIn: STORE_SCOPE },
  "DELETE /api/workspace/watch": { checkedIn: STORE_SCOPE },
};

/** Every method of every route file but the catch-all (which answers the JSON 404 for what is no route). */
const ROUTES = apiRouteFiles().flatMap(({ segments, methods }) =>
  segments.some(isCatchAll) ? [] : methods.filter((m) => m !== "HEAD").map((method) => ({ method, template: `/api/${segments.join("/")}` })),
);
const nameOf = (r: { method: HttpMethod; template: string }) => `${r.method} ${r.template}`;

/** Routes anyone may call: their rows say `public`. */
const isPublic = (row: Row) => ("none" in row && row.none.startsWith("public")) || ("public" in row && row.public === true);

const SIGN_IN_ROUTES = new Set(["GET /api/session", "POST /api/session", "DELETE /api/session"]);

let api: ApiClient;
beforeAll(async () => {
  api = await signedIn(deriveDemoKey("pro", "refusals"));
});

it("every route of app/api has its row of refusals, and every row is a route", () => {
  const routes = ROUTES.map(nameOf).sort();
  expect(routes.length).toBeGreaterThan(40);
  expect(Object.keys(TABLE).sort()).toEqual(routes);
});

it("a route whose refusals another file checks is named by that file", () => {
  for (const [name, row] of Object.entries(TABLE)) {
    if (!("checkedIn" in row)) continue;
    const source = readFileSync(path.resolve(__dirname, "..", row.checkedIn), "utf8");
    // The route's fixed parts, as the file writes its URLs (`/api/views/${id}`).
    const parts = name
      .split(" ")[1]!
      .split(/\[[^\]]+\]/)
      .filter((p) => p !== "/");
    for (const part of parts) expect(source.includes(part), `${row.checkedIn} names ${name} (${part})`).toBe(true);
    expect(source).toMatch(/expectRefusal|toBe\(4\d\d\)|status\)\.toBe\(4/);
  }
});

describe("signed out", () => {
  const guarded = ROUTES.filter((r) => r.method === "GET" && !isPublic(TABLE[nameOf(r)] ?? { checks: [] }) && !SIGN_IN_ROUTES.has(nameOf(r)));
  it.each(guarded.map((r) => [nameOf(r), r.template.replace(/\[id\]/g, "vis_abc")]))("%s is a 401", async (_name, url) => {
    expectRefusal(await signedOut().call("GET", url), { status: 401, code: "unauthorized" }, url);
  });
});

describe("bad input, unknown ids and bounds", () => {
  const checked = Object.entries(TABLE).flatMap(([name, row]) => ("checks" in row ? row.checks.map((c) => [name, c] as const) : []));
  it.each(checked.map(([name, check]) => [name, check.path, check]))("%s: %s", async (name, _path, check) => {
    const method = name.split(" ")[0] as HttpMethod;
    expectRefusal(await api.call(method, check.path), check.refusal, `${method} ${check.path}`);
  });
});
