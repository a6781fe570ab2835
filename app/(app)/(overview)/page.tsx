// `/` - the overview of the header's date range: KPIs, trend and conversion by source, then what only
// the Data API's own periods give (pageviews, the funnel: the period matching the range), and the
// score with its change over its window (from the kept history) and the top of the ranking (now).
// The page starts the period's and the score's queries and streams: the shell leaves at once, each
// widget as its answer arrives.
// An old URL's `?period=7d` (from before the header had a range) is sent on by proxy.ts to the range
// it stands for, "Last 7 days", so the header, the figures and the links all say the same window.
import type { Metadata } from "next";
import { scoreWindow } from "@/components/intelligence/score-change-data";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import type { Period } from "@/lib/data-api/constants";
import { parseQuery, periodParams } from "@/lib/data-api/params";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { periodForRange } from "@/lib/range/api-period";
import { rangeParams, resolveDateRange, type DateRange } from "@/lib/range/date-range";
import { serverContext } from "@/lib/server/context";
import { viewerTimeZoneCookie } from "@/lib/server/viewer-time-zone";
import { OverviewClient } from "./client";
import { loadOverviewSearch } from "./search-params";

export const metadata: Metadata = { title: "Overview" };

type Search = Record<string, string | string[] | undefined>;

/** The period to prefetch (the one matching the URL's range, read at this instant), the range, and a bad period's message. */
function readOverviewUrl(raw: Search, viewerTz: string, nowMs: number = Date.now()): { period: Period; range: DateRange; periodError?: string } {
  const search = loadOverviewSearch(raw);
  // A period that is not one is said in plain words; the page shows the range. A
  // valid one without a range never gets here: proxy.ts sends it on to its range.
  const checked = search.period === null ? null : parseQuery(periodParams, { period: search.period });
  const { range } = resolveDateRange(search, viewerTz, nowMs);
  return {
    period: periodForRange(range, nowMs).period,
    range,
    ...(checked && !checked.success ? { periodError: "The period in this link cannot be used" } : {}),
  };
}

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Search> }) {
  const nowMs = serverContext().now();
  const { period, range, periodError } = readOverviewUrl(await searchParams, (await viewerTimeZoneCookie()) ?? "UTC", nowMs);
  const state = await prefetchPage((qc, api) => {
    void qc.prefetchQuery(apiQuery(api, "/analytics/overview", { query: { period } }));
    void qc.prefetchQuery(apiQuery(api, "/analytics/funnel", { query: { period } }));
    void qc.prefetchQuery(apiQuery(api, "/intelligence/score", {}));
    void qc.prefetchQuery(apiQuery(api, "/intelligence/ranking", {}));
    // The score's change comes from the history of its window; the score is not read yet, so this is
    // the window of a score computed today (the usual case). Any other day's is asked by the browser.
    void qc.prefetchQuery(apiQuery(api, "/history/score", { query: rangeParams(scoreWindow(range.tz, nowMs)) }));
  });
  return (
    <StreamedHydrationBoundary state={state}>
      <OverviewClient periodError={periodError} />
    </StreamedHydrationBoundary>
  );
}
