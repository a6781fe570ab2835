// A calendar day the zone skipped: Samoa (Pacific/Apia) and Tokelau (Pacific/Fakaofo) went from 29
// to 31 December 2011. That day holds no instant; asking the Data API for it would send a `to` before
// its `from` (a 400 naming `to`, a parameter the user never sent). Through the route handler over real
// HTTP to a sandbox whose data runs to January 2012: every route answers the day alone with zeros and
// without asking for it, and a range across it is exact (against the sandbox's own counts for the
// instants of 29 and 31 December), by listing and by counting.
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { serverContext } from "@/lib/server/context";
import { createMemoryInsightsStore } from "@/lib/shared-state/insights";
import { callApi, insightRoutes, serverContextPerTest, sessionCookie, upstreamForFile } from "@/testing/in-process";
import { discardKey } from "@/lib/server/upstream";
import type { SentimentInsight } from "./sentiment";
import type { TrendInsight } from "./trend";

const sandbox = upstreamForFile({ now: "2012-01-04T12:00:00Z", visitors: 5000 });
const overrideContext = serverContextPerTest();
const ROUTES = insightRoutes();
let cookie: string;

beforeAll(async () => {
  cookie = await sessionCookie(DEMO_KEYS.pro);
});

function fresh(strategy: "auto" | "count" | "list"): void {
  discardKey(DEMO_KEYS.pro);
  sandbox().reset();
  overrideContext({ stores: { ...serverContext().stores, insights: createMemoryInsightsStore() }, insights: { strategy, gatherMs: 25 } });
}

/** `meta.total` of a list over [from, to], asked straight from the sandbox with another key. */
async function direct(path: string, from: string, to: string): Promise<number> {
  const query = new URLSearchParams({ from, to, limit: "1" });
  const res = await fetch(`${sandbox().baseUrl}${path}?${query}`, { headers: { Authorization: `Bearer ${DEMO_KEYS.limited}` } });
  return ((await res.json()) as { meta: { total: number } }).meta.total;
}

/** No request reached the Data API with its `to` before its `from`. */
function noBackwardsRequest(): void {
  for (const l of sandbox().stats().log) {
    const q = new URLSearchParams(l.query);
    if (q.has("from") && q.has("to")) expect(Date.parse(q.get("to")!), l.query).toBeGreaterThanOrEqual(Date.parse(q.get("from")!));
  }
}

// Each zone's first instants of 29, 30 (none: the same as 31's) and 31 December, and of 1 January:
// Apia went from -10:00 to +14:00, Fakaofo from -11:00 to +13:00.
const ZONES = [
  { tz: "Pacific/Apia", starts: ["2011-12-29T10:00:00.000Z", "2011-12-30T10:00:00.000Z", "2011-12-30T10:00:00.000Z", "2011-12-31T10:00:00.000Z"] },
  { tz: "Pacific/Fakaofo", starts: ["2011-12-29T11:00:00.000Z", "2011-12-30T11:00:00.000Z", "2011-12-30T11:00:00.000Z", "2011-12-31T11:00:00.000Z"] },
];
const lastMs = (iso: string) => new Date(Date.parse(iso) - 1).toISOString();

describe.each(ZONES)("$tz, 30 December 2011", ({ tz, starts }) => {
  it("alone: every route answers with zeros (the day before as the previous period), never asking for the day", async () => {
    const answers = new Map<string, unknown>();
    for (const strategy of ["auto", "count"] as const) {
      for (const route of ROUTES) {
        // Each route on its own: no other route's listing of the day before has stored this one.
        fresh(strategy);
        const res = await callApi(`/api/insights/${route}?from=2011-12-30&to=2011-12-30&tz=${tz}`, { cookie });
        expect(res.status, `${route}: ${res.text.slice(0, 200)}`).toBe(200);
        answers.set(route, res.body);
        noBackwardsRequest();
      }
    }
    expect(answers.get("competitors")).toMatchObject({ from: "2011-12-30", to: "2011-12-30", tz, mentions: 0, data: [] });
    expect((answers.get("sentiment") as SentimentInsight).data).toMatchObject([{ start: starts[1], positive: 0, neutral: 0, negative: 0 }]);
    expect((answers.get("trend") as TrendInsight).data).toMatchObject([{ start: starts[1], visitors: 0, ai_visitors: 0, conversions: 0 }]);
  });

  it.each(["list", "count"] as const)("across it by day (%s): the skipped day is zero and the others are exact", async (strategy) => {
    fresh(strategy);
    const res = await callApi<TrendInsight>(`/api/insights/trend?from=2011-12-29&to=2011-12-31&tz=${tz}&bucket=day`, { cookie });
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    const [dec29, dec30, dec31] = res.body.data;
    expect([dec29!.start, dec30!.start, dec31!.start]).toEqual(starts.slice(0, 3));
    expect(dec30).toMatchObject({ visitors: 0, ai_visitors: 0, conversions: 0 });
    const want29 = await direct("/visitors", starts[0]!, lastMs(starts[1]!));
    const want31 = await direct("/visitors", starts[2]!, lastMs(starts[3]!));
    expect(want29 + want31).toBeGreaterThan(0);
    expect([dec29!.visitors, dec31!.visitors]).toEqual([want29, want31]);
    noBackwardsRequest();
  });
});
