// `/` - the overview of the header's date range: KPIs, trend and conversion by source, then what only
// the Data API's own periods give (pageviews, the funnel: the period matching the range), and the
// score with the top of the ranking (now). The page starts the period's and the score's queries and
// streams: the shell leaves at once, each widget as its answer arrives.
// An old URL's `?period=7d` (from before the header had a range) is sent on to the range it stands
// for, "Last 7 days", so the header, the figures and the links all say the same window.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import { PERIODS, type Period } from "@/lib/data-api/constants";
import { parseQuery, periodParams } from "@/lib/data-api/params";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { periodForRange, rangeOfPeriod } from "@/lib/range/api-period";
import { resolveDateRange } from "@/lib/range/date-range";
import { viewerTimeZoneCookie } from "@/lib/server/viewer-time-zone";
import { OverviewClient } from "./client";

export const metadata: Metadata = { title: "Overview" };

type Search = Record<string, string | string[] | undefined>;
const one = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? undefined : value);

/**
 * Where an old `?period=` URL goes: the same page with the range the period stands for (its `tz` if
 * it has one, else the viewer's days). Null when there is nothing to send on: no period, a period
 * that is not one (shown as an error instead), or a URL that already has a range (the range wins).
 */
function legacyPeriodTarget(search: Search, viewerTz: string, nowMs: number): string | null {
  const period = one(search.period);
  if (!period || !(PERIODS as readonly string[]).includes(period) || search.from !== undefined || search.to !== undefined) return null;
  const { range } = resolveDateRange({ tz: one(search.tz) }, viewerTz, nowMs);
  const target = rangeOfPeriod(period as Period, range.tz, nowMs);
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (key === "period" || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  }
  params.set("from", target.from);
  params.set("to", target.to);
  params.sort();
  return `/?${params.toString()}`;
}

/** What the URL asks of the page, read at this instant: where to send an old URL, or the period to prefetch and a bad period's message. */
function readOverviewUrl(search: Search, viewerTz: string, nowMs: number = Date.now()): { redirectTo: string } | { period: Period; periodError?: string } {
  const redirectTo = legacyPeriodTarget(search, viewerTz, nowMs);
  if (redirectTo) return { redirectTo };
  // A period that is not one is named (the Data API's own message); the page shows the range.
  const checked = search.period === undefined ? null : parseQuery(periodParams, { period: search.period });
  const { range } = resolveDateRange({ from: one(search.from), to: one(search.to), tz: one(search.tz) }, viewerTz, nowMs);
  return { period: periodForRange(range, nowMs).period, ...(checked && !checked.success ? { periodError: checked.message } : {}) };
}

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Search> }) {
  const url = readOverviewUrl(await searchParams, (await viewerTimeZoneCookie()) ?? "UTC");
  if ("redirectTo" in url) redirect(url.redirectTo);
  const { period, periodError } = url;
  const state = await prefetchPage((qc, api) => {
    void qc.prefetchQuery(apiQuery(api, "/analytics/overview", { query: { period } }));
    void qc.prefetchQuery(apiQuery(api, "/analytics/funnel", { query: { period } }));
    void qc.prefetchQuery(apiQuery(api, "/intelligence/score", {}));
    void qc.prefetchQuery(apiQuery(api, "/intelligence/ranking", {}));
  });
  return (
    <StreamedHydrationBoundary state={state}>
      <OverviewClient periodError={periodError} />
    </StreamedHydrationBoundary>
  );
}
