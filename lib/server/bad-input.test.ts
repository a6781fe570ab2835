// Bad input never reaches the upstream: for every parameter of every route a table of bad values
// (wrong type, out of range, empty, huge, unicode, injection strings, repeated) gets a 400 naming
// the parameter, never a 500, and the sandbox counts no request. Path attacks on the visitor id
// likewise end in a 400 before any upstream call.
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { apiRoute, callApi, call, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";

const sandbox = upstreamForFile();
let cookie: string;

beforeAll(async () => {
  cookie = await sessionCookie(DEMO_KEYS.pro);
});

const HUGE = "9".repeat(5000);
const INJECTIONS = ["' OR 1=1 --", "<script>alert(1)</script>", "../../etc/passwd", "${7*7}", "\u0000", "%00", "a\r\nX-Injected: 1"];
const COMMON = ["", " ", HUGE, "null", "undefined", "[]", "{}", "🙂", "ｆｏｏ", ...INJECTIONS];

const INT_BAD = [...COMMON, "-1", "1.5", "1e2", "0x10", " 10", "10 ", "+5", "１０", "NaN", "Infinity"];
const BAD: Record<string, string[]> = {
  limit: [...INT_BAD, "0", "101", "1000000"],
  offset: [...INT_BAD, "10000001", "99999999999"],
  source: [...COMMON, "CHATGPT", "chatgpt ", "bing", "chatgpt,claude", "chatgpт"],
  intent: [...COMMON.filter((v) => v !== "null" && v !== "undefined"), "Problem_Research", "has space", "a;b", "1abc", "x".repeat(65), "intént", "_x"],
  converted: [...COMMON, "yes", "1", "0", "TRUE", "False"],
  from: [
    ...COMMON,
    "yesterday",
    "2026-13-01",
    "2026-00-10",
    "2026-02-30",
    "2026-02-29",
    "2026-04-31",
    "2026-11-00",
    // Impossible datetimes, which Date would roll over into another day.
    "2026-02-31T10:00:00Z",
    "2026-02-29T00:00:00Z",
    "2026-13-01T10:00:00Z",
    "2026-04-31T10:00:00+02:00",
    "2026-11-01T25:00:00Z",
    "2026-11-01T24:00:00Z",
    "2026-11-01T23:60:00Z",
    "2026-11-01T23:59:60Z",
    "2026-11-01T10:00:00+24:00",
    "2026-11-01T10:00:00+05:60",
    "2026-11-01T10:00:00",
    "1999-01-01",
    "20261101",
    "２０２６-１１-０１",
  ],
  platform: [...COMMON, "bing", "ChatGPT", "organic"],
  sentiment: [...COMMON, "happy", "POSITIVE"],
  period: [...COMMON, "1d", "30D", "365d", "30d ", "7"],
};
BAD.to = BAD.from!;

type Route = { name: string; handler: (req: Request, ctx: never) => Promise<Response>; path: string; params: string[] };

const ROUTES: Route[] = [
  { name: "visitors", handler: apiRoute, path: "/api/visitors", params: ["source", "intent", "converted", "from", "to", "limit", "offset"] },
  { name: "mentions", handler: apiRoute, path: "/api/mentions", params: ["platform", "sentiment", "from", "to", "limit", "offset"] },
  { name: "overview", handler: apiRoute, path: "/api/analytics/overview", params: ["period"] },
  { name: "traffic", handler: apiRoute, path: "/api/analytics/traffic", params: ["period"] },
  { name: "funnel", handler: apiRoute, path: "/api/analytics/funnel", params: ["period"] },
];

const VALID: Record<string, string> = {
  limit: "5",
  offset: "0",
  source: "chatgpt",
  intent: "support",
  converted: "true",
  from: "2026-10-01",
  to: "2026-10-31",
  platform: "claude",
  sentiment: "neutral",
  period: "7d",
};

const cases = ROUTES.flatMap((route) =>
  route.params.flatMap((param) => [
    ...BAD[param]!.map((value) => ({ route, param, query: `${param}=${encodeURIComponent(value)}`, label: JSON.stringify(value).slice(0, 40) })),
    // Repeated, even with two valid values.
    { route, param, query: `${param}=${VALID[param]}&${param}=${VALID[param]}`, label: "repeated" },
  ]),
);

describe("bad query values: 400 naming the parameter, no upstream request", () => {
  it(`covers ${cases.length} cases across ${ROUTES.length} routes`, async () => {
    const before = sandbox().stats().requests;
    const failures: string[] = [];
    for (const { route, param, query, label } of cases) {
      // Other, valid parameters alongside must not hide the bad one.
      const res = await call<ErrorJson>(route.handler, `${route.path}?${query}`, { cookie });
      if (res.status !== 400 || res.body?.error?.code !== "invalid_parameter" || res.body.error.param !== param) {
        failures.push(`${route.name} ${param}=${label}: ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sandbox().stats().requests).toBe(before);
  });

  it("rejects from after to, naming `to`", async () => {
    for (const route of ROUTES.slice(0, 2)) {
      const res = await call<ErrorJson>(route.handler, `${route.path}?from=2026-11-10&to=2026-11-01`, { cookie });
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe("to");
    }
  });

  it.each([
    ["a date-only to with a datetime from", "from=2026-11-01T10:00:00Z&to=2026-11-20"],
    ["a datetime to with a date-only from", "from=2026-11-01&to=2026-11-20T10:00:00Z"],
  ])("refuses %s, naming `to`", async (_name, query) => {
    for (const route of ROUTES.slice(0, 2)) {
      const res = await call<ErrorJson>(route.handler, `${route.path}?${query}`, { cookie });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_parameter", param: "to" });
      expect(res.body.error.message).toMatch(/both dates|same form/);
    }
  });

  it("accepts real dates and datetimes of the same form, leap day and offsets included", async () => {
    for (const query of [
      "from=2028-02-29&to=2028-03-01",
      "from=2026-11-01T00:00:00Z&to=2026-11-20T23:59:59.999Z",
      "from=2026-10-31T23:00:00-05:00&to=2026-11-02T10:00:00%2B14:00",
    ]) {
      expect((await call(apiRoute, `/api/visitors?${query}&limit=1`, { cookie })).status, query).toBe(200);
    }
  });

  it("still reports the bad parameter when valid ones come with it", async () => {
    const res = await call<ErrorJson>(apiRoute, "/api/visitors?source=chatgpt&limit=500&offset=3", { cookie });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_parameter", param: "limit" });
    expect(res.body.error.message).toMatch(/100/);
  });
});

const ID_ATTACKS = [
  "..",
  "vis_..",
  "vis_../x",
  "vis_..%2Fx",
  "vis_a%2Fb",
  "vis_a/b",
  "%2e%2e",
  "%2E%2E%2Fintelligence%2Fscore",
  "vis_a?x=1",
  "vis_a%3Fx%3D1",
  "vis_a#frag",
  "vis_a%23frag",
  "vis_a%252Fb",
  "vis_a%",
  "vis_a%00",
  "vis_a b",
  "vis_ä",
  "vis_",
  `vis_${"a".repeat(65)}`,
  "mnt_abc",
  "VIS_abc",
  "abc",
  "",
  "vis_a\\b",
  "vis_a;b",
  "vis_a\r\nHost: evil",
];

describe("path attacks on the visitor id: 400 id, no upstream request", () => {
  it.each(ID_ATTACKS)("%j", async (id) => {
    const before = sandbox().stats().requests;
    // The segments as the router hands them over (decoded once), for the visitor and its timeline.
    for (const segments of [
      ["visitors", id],
      ["visitors", id, "timeline"],
    ]) {
      const res = await callApi<ErrorJson>(`/api/visitors/x`, { cookie, segments });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_parameter", param: "id" });
    }
    expect(sandbox().stats().requests).toBe(before);
  });
});

describe("routes without parameters", () => {
  it("drop whatever query they are given", async () => {
    for (const path of ["/api/intelligence/score", "/api/intelligence/ranking"]) {
      const res = await callApi(`${path}?limit=${HUGE}&q=%3Cscript%3E&limit=1`, { cookie });
      expect(res.status).toBe(200);
    }
    // The Data API's own requests only: a demo workspace's first read may fetch the sandbox's past days
    // (/sandbox/history, lib/history/demo-history.ts) in the background, at any moment among them.
    expect(
      sandbox()
        .stats()
        .log.filter((l) => l.path.startsWith("/v1/"))
        .slice(-2)
        .map((l) => [l.path, l.query]),
    ).toEqual([
      ["/v1/intelligence/score", ""],
      ["/v1/intelligence/ranking", ""],
    ]);
  });
});
