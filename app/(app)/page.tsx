// `/` - the overview of a period: KPIs, traffic by source, funnel, score and ranking.
import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { funnelQuery, overviewQuery, trafficQuery } from "@/lib/queries/analytics";
import { rankingQuery, scoreQuery } from "@/lib/queries/intelligence";
import { prefetchPage } from "@/lib/queries/prefetch";
import { OverviewClient } from "./client";
import { parseOverviewSearch } from "./search-params";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = parseOverviewSearch(await searchParams);
  const state = await prefetchPage((qc, api) => [
    qc.prefetchQuery(overviewQuery(api, search.params)),
    qc.prefetchQuery(trafficQuery(api, search.params)),
    qc.prefetchQuery(funnelQuery(api, search.params)),
    qc.prefetchQuery(scoreQuery(api)),
    qc.prefetchQuery(rankingQuery(api)),
  ]);
  return (
    <HydrationBoundary state={state}>
      <OverviewClient params={search.params} error={search.result.success ? undefined : search.result.message} />
    </HydrationBoundary>
  );
}
