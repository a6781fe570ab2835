// The insights routes' query: bad from / to / tz / bucket get a 400 naming the parameter before any
// upstream call, on every route of the table; bad compare / compare_from / compare_to on every route
// with a `previous`, and each route's own filters (country; platform, never_first), likewise; a range that is backwards or too long (also once a default is
// filled in) names `from`; days asked for over more than 92 days name `bucket`; and what omitted
// parameters mean (the last 30 days ending today in tz, buckets by the range's length).
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { callApi, comparedInsightRoutes, insightRoutes, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import type { CountriesInsight } from "./countries";
import type { SourcesInsight } from "./sources";
import type { TrendInsight } from "./trend";

const sandbox = upstreamForFile();
let cookie: string;

beforeAll(async () => {
  cookie = await sessionCookie(DEMO_KEYS.pro);
});

const ROUTES = insightRoutes();
const INJECTIONS = ["' OR 1=1 --", "<script>alert(1)</script>", "../../etc/passwd", "${7*7}", "\u0000", "a\r\nX-Injected: 1"];
const COMMON = ["", " ", "9".repeat(5000), "null", "[]", "🙂", ...INJECTIONS];

const BAD: Record<string, string[]> = {
  from: [
    ...COMMON,
    "yesterday",
    "2026-02-29",
    "2026-02-30",
    "2026-04-31",
    "2026-13-01",
    "2026-00-10",
    "2026-11-00",
    "2026-1-5",
    "20261101",
    "２０２６-１１-０１",
    "1999-12-31",
    "2101-01-01",
    // Calendar dates only: an instant would mean a different day in each zone.
    "2026-11-01T00:00:00Z",
    "2026-11-01T00:00",
    " 2026-11-01",
  ],
  tz: [
    ...COMMON,
    "Mars/Olympus_Mons",
    "+05:30",
    "GMT+5",
    "Etc/GMT+14",
    "UTC\u0000",
    "Europe/Berlin ",
    " UTC",
    "Europe/../Europe/Berlin",
    "localtime",
    "posix/Europe/Berlin",
    "A".repeat(80),
  ],
  bucket: [...COMMON, "month", "hour", "days", "DAY", "Week", "week "],
};
BAD.to = BAD.from!;
const VALID: Record<string, string> = { from: "2026-11-01", to: "2026-11-07", tz: "Europe/Berlin", bucket: "week" };

const cases = ROUTES.flatMap((route) =>
  Object.keys(BAD).flatMap((param) => [
    ...BAD[param]!.map((value) => ({ route, param, query: `${param}=${encodeURIComponent(value)}`, label: JSON.stringify(value).slice(0, 30) })),
    { route, param, query: `${param}=${VALID[param]}&${param}=${VALID[param]}`, label: "repeated" },
  ]),
);

describe("insights: bad from, to, tz and bucket", () => {
  it(`a 400 naming the parameter and no upstream request (${cases.length} cases over ${ROUTES.length} routes)`, async () => {
    const before = sandbox().stats().requests;
    const failures: string[] = [];
    for (const { route, param, query, label } of cases) {
      const res = await callApi<ErrorJson>(`/api/insights/${route}?${query}`, { cookie });
      if (res.status !== 400 || res.body?.error?.code !== "invalid_parameter" || res.body.error.param !== param) {
        failures.push(`${route} ${param}=${label}: ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sandbox().stats().requests).toBe(before);
  });

  it.each([
    ["from after to", "from=2026-11-10&to=2026-11-01", /from must not be after to/],
    ["367 days", "from=2025-11-20&to=2026-11-21", /367 days long; at most 366/],
    ["from far back with to defaulting to today", "from=2020-01-01", /at most 366.*to defaults to today/],
    ["from after today with to defaulting to today", "from=2099-01-01", /from must not be after to.*to defaults to today/],
  ])("%s: a 400 naming from with a message that says why, no upstream request", async (_name, query, message) => {
    const before = sandbox().stats().requests;
    for (const route of ROUTES) {
      const res = await callApi<ErrorJson>(`/api/insights/${route}?${query}`, { cookie });
      expect(res.status, route).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_parameter", param: "from" });
      expect(res.body.error.message).toMatch(message);
    }
    expect(sandbox().stats().requests).toBe(before);
  });

  it("bucket=day over more than 92 days: a 400 naming bucket on every route, before any upstream call; 92 days by day are answered", async () => {
    const before = sandbox().stats().requests;
    const minusDays = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    for (const route of ROUTES) {
      for (const [query, message] of [
        ["from=2026-08-20&to=2026-11-20&bucket=day", /at most 92 days; this range is 93 days long/],
        ["from=2025-11-21&to=2026-11-20&bucket=day", /this range is 365 days long/],
        // `to` left to default to today, in UTC.
        [`from=${minusDays(100)}&bucket=day`, /this range is 101 days long.*to defaults to today/],
      ] as const) {
        const res = await callApi<ErrorJson>(`/api/insights/${route}?${query}`, { cookie });
        expect(res.status, `${route} ${query}`).toBe(400);
        expect(res.body.error).toMatchObject({ code: "invalid_parameter", param: "bucket" });
        expect(res.body.error.message).toMatch(message);
      }
    }
    expect(sandbox().stats().requests).toBe(before);
    const quarter = await callApi<TrendInsight>("/api/insights/trend?from=2026-08-21&to=2026-11-20&bucket=day", { cookie });
    expect(quarter.status).toBe(200);
    expect(quarter.body.data).toHaveLength(92);
  });

  it("takes 366 days, leap days, links and zones in any case, and drops unknown parameters", async () => {
    for (const query of [
      "from=2025-11-21&to=2026-11-21&bucket=week",
      "from=2028-02-29&to=2028-03-01",
      "tz=US/Eastern&from=2026-11-01&to=2026-11-02",
      "tz=america/new_york&from=2026-11-01&to=2026-11-02",
      "from=2026-11-01&to=2026-11-02&limit=5&source=bing&__proto__=x",
    ]) {
      const res = await callApi<TrendInsight>(`/api/insights/trend?${query}`, { cookie });
      expect(res.status, `${query}: ${res.text.slice(0, 200)}`).toBe(200);
    }
  });
});

describe("insights: omitted parameters", () => {
  /** Today in `tz` by this test's own reading of the clock. */
  const today = (tz: string) => new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" }).format(Date.now());
  const minusDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

  it("no from, to or tz: the last 30 days ending today in UTC, by day", async () => {
    const res = await callApi<TrendInsight>("/api/insights/trend", { cookie });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: minusDays(today("UTC"), 29), to: today("UTC"), tz: "UTC", bucket: "day" });
    expect(res.body.data).toHaveLength(30);
    expect(res.body.previous).toHaveLength(30);
  });

  it("today is the zone's today: in Pacific/Kiritimati (UTC+14) and Pacific/Pago_Pago (UTC-11)", async () => {
    for (const tz of ["Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
      const res = await callApi<TrendInsight>(`/api/insights/sources?tz=${tz}`, { cookie });
      expect(res.body, tz).toMatchObject({ from: minusDays(today(tz), 29), to: today(tz), tz });
    }
  });

  it("only to: the 30 days ending then; only from: up to today", async () => {
    expect((await callApi<TrendInsight>("/api/insights/trend?to=2026-11-10", { cookie })).body).toMatchObject({ from: "2026-10-12", to: "2026-11-10" });
    const from = minusDays(today("UTC"), 9);
    const res = await callApi<TrendInsight>(`/api/insights/trend?from=${from}`, { cookie });
    expect(res.body).toMatchObject({ from, to: today("UTC"), bucket: "day" });
    expect(res.body.data).toHaveLength(10);
  });

  it("bucket: by day up to 31 days, by week beyond; an explicit bucket wins", async () => {
    const ask = async (query: string) => (await callApi<TrendInsight>(`/api/insights/trend?${query}`, { cookie })).body;
    expect((await ask("from=2026-10-01&to=2026-10-31")).bucket).toBe("day");
    const weeks = await ask("from=2026-10-01&to=2026-11-01");
    expect(weeks.bucket).toBe("week");
    // 2026-10-01 is a Thursday: Thursday to Sunday, then four whole ISO weeks (the last ends on Sunday 2026-11-01).
    expect(weeks.data.map((p) => p.start.slice(0, 10))).toEqual(["2026-10-01", "2026-10-05", "2026-10-12", "2026-10-19", "2026-10-26"]);
    expect((await ask("from=2026-10-01&to=2026-10-03&bucket=week")).data).toHaveLength(1);
  });
});

describe("insights: the comparison", () => {
  const COMPARED = comparedInsightRoutes();
  const RANGE = "from=2026-11-01&to=2026-11-07";

  it("is taken by the routes with a previous, and only by them", () => {
    expect(COMPARED.sort()).toEqual(["countries", "platforms", "sources", "trend"]);
  });

  it.each([
    ["compare=month", "compare", /compare must be one of: previous, year, custom/],
    ["compare=Year", "compare", /compare must be one of/],
    ["compare=custom", "compare_from", /compare=custom needs compare_from and compare_to/],
    ["compare=custom&compare_from=2026-10-01", "compare_to", /needs compare_from and compare_to/],
    ["compare=custom&compare_from=2026-10-01&compare_to=2026-10-08", "compare_to", /the comparison is 8 days long; it must be as long as the range, 7 days/],
    ["compare=custom&compare_from=2026-10-07&compare_to=2026-10-01", "compare_from", /compare_from must not be after compare_to/],
    ["compare=custom&compare_from=2026-02-30&compare_to=2026-03-06", "compare_from", /calendar date/],
    ["compare=custom&compare_from=2026-10-01&compare_to=yesterday", "compare_to", /calendar date/],
  ])("%s: a 400 naming %s on every such route, no upstream request", async (query, param, message) => {
    const before = sandbox().stats().requests;
    for (const route of COMPARED) {
      const res = await callApi<ErrorJson>(`/api/insights/${route}?${RANGE}&${query}`, { cookie });
      expect(res.status, route).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_parameter", param });
      expect(res.body.error.message).toMatch(message);
    }
    expect(sandbox().stats().requests).toBe(before);
  });

  it("a custom window as long as a defaulted range: checked once `to` is today (named compare_to, saying so)", async () => {
    const res = await callApi<ErrorJson>("/api/insights/sources?compare=custom&compare_from=2026-01-01&compare_to=2026-01-07", { cookie });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ param: "compare_to" });
    expect(res.body.error.message).toMatch(/as long as the range, 30 days.*to defaults to today/);
  });

  it("says its window: previous by default, the same dates a year before (29 Feb reads 28 Feb), or the custom one", async () => {
    const window = async (query: string) => (await callApi<SourcesInsight>(`/api/insights/sources?${query}`, { cookie })).body.compare;
    expect(await window(RANGE)).toEqual({ from: "2026-10-25", to: "2026-10-31" });
    expect(await window(`${RANGE}&compare=previous&compare_from=2020-01-01`)).toEqual({ from: "2026-10-25", to: "2026-10-31" });
    expect(await window(`${RANGE}&compare=year`)).toEqual({ from: "2025-11-01", to: "2025-11-07" });
    expect(await window("from=2028-02-29&to=2028-03-06&compare=year")).toEqual({ from: "2027-02-28", to: "2027-03-06" });
    // The same calendar dates, each a year back: across 29 Feb the window is a day shorter; ending on it, it ends 28 Feb.
    expect(await window("from=2028-02-20&to=2028-03-05&compare=year")).toEqual({ from: "2027-02-20", to: "2027-03-05" });
    expect(await window("from=2028-02-23&to=2028-02-29&compare=year")).toEqual({ from: "2027-02-23", to: "2027-02-28" });
    expect(await window(`${RANGE}&compare=custom&compare_from=2026-06-10&compare_to=2026-06-16`)).toEqual({ from: "2026-06-10", to: "2026-06-16" });
    const trend = (await callApi<TrendInsight>(`/api/insights/trend?${RANGE}&compare=custom&compare_from=2026-06-10&compare_to=2026-06-16`, { cookie })).body;
    expect(trend.previous.map((p) => p.start.slice(0, 10))).toEqual([
      "2026-06-10",
      "2026-06-11",
      "2026-06-12",
      "2026-06-13",
      "2026-06-14",
      "2026-06-15",
      "2026-06-16",
    ]);
  });
});

describe("insights: the routes' own filters", () => {
  it.each([
    ["countries", "country", ["USA", "U", "1A", "", "us ", "<b>", "unknown2"]],
    ["queries", "platform", ["bing", "ChatGPT", "", "chatgpt,claude"]],
    ["queries", "never_first", ["yes", "1", "TRUE", ""]],
  ] as const)("%s: a bad %s is a 400 naming it, no upstream request", async (route, param, values) => {
    const before = sandbox().stats().requests;
    for (const value of values) {
      const res = await callApi<ErrorJson>(`/api/insights/${route}?${param}=${encodeURIComponent(value)}`, { cookie });
      expect(res.status, value).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_parameter", param });
    }
    expect(sandbox().stats().requests).toBe(before);
  });

  it("country is read in any case, or unknown: its cities come with the answer", async () => {
    const us = await callApi<CountriesInsight>(`/api/insights/countries?from=2026-11-01&to=2026-11-07&country=us`, { cookie });
    expect(us.status).toBe(200);
    expect(us.body.cities!.length).toBeGreaterThan(0);
    const unknown = await callApi<CountriesInsight>(`/api/insights/countries?from=2026-11-01&to=2026-11-07&country=unknown`, { cookie });
    expect(unknown.body.cities).toEqual([]);
    expect((await callApi<CountriesInsight>(`/api/insights/countries?from=2026-11-01&to=2026-11-07`, { cookie })).body).not.toHaveProperty("cities");
  });
});
