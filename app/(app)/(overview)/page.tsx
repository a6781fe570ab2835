// `/` - the overview of a period: KPIs, traffic by source, funnel, score and ranking. The page starts
// every widget's query and streams: the shell leaves at once, each widget as its answer arrives.
import type { Metadata } from "next";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import { parseQuery, periodParams } from "@/lib/data-api/params";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { filterProblemText } from "@/lib/ui/messages";
import { OverviewClient } from "./client";
import { loadOverviewSearch } from "./search-params";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = await searchParams;
  const params = loadOverviewSearch(search);
  // An invalid period is found by the Data API's schema and said in plain words; the page shows the default.
  const checked = parseQuery(periodParams, search);
  const state = await prefetchPage((qc, api) => {
    void qc.prefetchQuery(apiQuery(api, "/analytics/overview", { query: params }));
    void qc.prefetchQuery(apiQuery(api, "/analytics/traffic", { query: params }));
    void qc.prefetchQuery(apiQuery(api, "/analytics/funnel", { query: params }));
    void qc.prefetchQuery(apiQuery(api, "/intelligence/score", {}));
    void qc.prefetchQuery(apiQuery(api, "/intelligence/ranking", {}));
  });
  return (
    <StreamedHydrationBoundary state={state}>
      <OverviewClient error={checked.success ? undefined : filterProblemText(checked.param)} />
    </StreamedHydrationBoundary>
  );
}
