// `/queries` - the questions put to AI platforms whose answers mention the brand: mentions per
// platform, average, best and worst position, how often the brand is named first, sentiment; filters
// for a platform and "never first". The page starts the questions' insight and streams the table as
// its answer arrives.
import type { Metadata } from "next";
import { queriesRouteQuery, queryFiltersOf } from "@/components/queries/queries-data";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { resolveDateRange } from "@/lib/range/date-range";
import { serverContext } from "@/lib/server/context";
import { viewerTimeZoneCookie } from "@/lib/server/viewer-time-zone";
import { QueriesClient } from "./client";
import { loadQueriesSearch } from "./search-params";

export const metadata: Metadata = { title: "Queries" };

export default async function QueriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewerTz = (await viewerTimeZoneCookie()) ?? "UTC";
  const search = loadQueriesSearch(await searchParams);
  const { range } = resolveDateRange(search, viewerTz, serverContext().now());
  const query = queriesRouteQuery(range, queryFiltersOf(search));
  const state = await prefetchPage((qc, api) => {
    void qc.prefetchQuery(apiQuery(api, "/insights/queries", { query }));
  });
  return (
    <StreamedHydrationBoundary state={state}>
      <QueriesClient />
    </StreamedHydrationBoundary>
  );
}
