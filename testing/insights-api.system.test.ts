// The insights routes through the production entry (the built bundle, not the route table
// in-process; testing/system-setup.ts): each answers for a signed-in key with its documented shape,
// and a bad parameter is the 400 naming it. (Their numbers and upstream calls are checked in-process
// in the insights' own tests. Moved from the end-to-end tests: no browser is needed.)
import { beforeAll, expect, it } from "vitest";
import { shiftDate, utcDate, yearBefore, zoneMidnight } from "@/e2e/helpers/clock";
import { deriveDemoKey } from "@/sandbox/keys";
import type { ApiClient } from "./production";
import { expectRefusal, signedIn } from "./system";

// The last 30 days in Berlin, the 30 before, and 30 days some five months earlier (a custom comparison).
const RANGE = { from: utcDate(-29), to: utcDate(0) };
const PREVIOUS = { from: shiftDate(RANGE.from, -30), to: shiftDate(RANGE.from, -1) };
const CUSTOM = { from: utcDate(-150), to: utcDate(-121) };

let api: ApiClient;
beforeAll(async () => {
  api = await signedIn(deriveDemoKey("pro", "insightsapi"));
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function answer(path: string): Promise<Json> {
  const res = await api.call<Json>("GET", `/api/insights/${path}`);
  expect(res.status, path).toBe(200);
  return res.body;
}

it("GET /api/insights/trend|sources|platforms|competitors answer for the range", async () => {
  const query = `from=${RANGE.from}&to=${RANGE.to}&tz=Europe/Berlin`;
  const [trend, sources, platforms, competitors] = await Promise.all(
    ["trend", "sources", "platforms", "competitors"].map((route) => answer(`${route}?${query}`)),
  );
  expect(trend).toMatchObject({ from: RANGE.from, to: RANGE.to, tz: "Europe/Berlin", bucket: "day" });
  expect(trend.data).toHaveLength(30);
  expect(trend.previous).toHaveLength(30);
  // The first bucket starts at midnight in Berlin (UTC+1 or, in summer, +2).
  expect(trend.data[0].start).toBe(zoneMidnight(RANGE.from, "Europe/Berlin"));
  expect(["T22:00:00.000Z", "T23:00:00.000Z"]).toContain(trend.data[0].start.slice(10));
  // The AI platforms first, in the order every page lists them (and the platforms route answers in).
  expect(sources.data.map((r: { source: string }) => r.source)).toEqual([
    "chatgpt",
    "claude",
    "perplexity",
    "gemini",
    "organic",
    "direct",
    "paid",
    "social",
    "referral",
  ]);
  expect(platforms.data.map((r: { platform: string }) => r.platform)).toEqual(["chatgpt", "claude", "perplexity", "gemini"]);
  expect(platforms.data.every((r: { mentions: number; visitors: number }) => r.mentions > 0 && r.visitors > 0)).toBe(true);
  expect(competitors.mentions).toBeGreaterThan(0);
  expect(competitors.data.length).toBeGreaterThan(0);
});

it("GET /api/insights/countries|queries answer for the range; compare=year and custom say their window", async () => {
  const range = `from=${RANGE.from}&to=${RANGE.to}&tz=Europe/Berlin`;
  const [countries, queries, year, custom] = await Promise.all(
    [
      `countries?${range}&country=de`,
      `queries?${range}&platform=claude`,
      `sources?${range}&compare=year`,
      `trend?${range}&compare=custom&compare_from=${CUSTOM.from}&compare_to=${CUSTOM.to}`,
    ].map(answer),
  );
  expect(countries).toMatchObject({ from: RANGE.from, to: RANGE.to, tz: "Europe/Berlin", compare: PREVIOUS });
  expect(countries.data[0]).toMatchObject({ country: "US", previous: { visitors: expect.any(Number) } });
  expect(countries.cities.map((c: { city: string }) => c.city)).toContain("Berlin");
  expect(queries.data.length).toBeGreaterThan(5);
  expect(queries.data.every((q: { platforms: { claude: number; chatgpt: number } }) => q.platforms.claude > 0 && q.platforms.chatgpt === 0)).toBe(true);
  expect(year.compare).toEqual({ from: yearBefore(RANGE.from), to: yearBefore(RANGE.to) });
  expect(custom.compare).toEqual(CUSTOM);
  expect(custom.previous[0].start).toBe(zoneMidnight(CUSTOM.from, "Europe/Berlin"));
});

it.each([
  ["platforms?tz=Mars%2FOlympus_Mons", "tz"],
  ["platforms?from=2026-11-10&to=2026-11-01", "from"],
  ["platforms?bucket=month", "bucket"],
  ["trend?from=2026-11-01&to=2026-11-07&compare=custom&compare_from=2026-10-01&compare_to=2026-10-31", "compare_to"],
  ["countries?country=Germany", "country"],
  ["queries?never_first=yes", "never_first"],
])("a bad parameter is a 400 naming it: %s", async (path, param) => {
  expectRefusal(await api.call("GET", `/api/insights/${path}`), { status: 400, code: "invalid_parameter", param }, path);
});
