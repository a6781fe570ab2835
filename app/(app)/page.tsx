// `/` - the overview of a period: KPIs, traffic by source, funnel, score and ranking.
import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { OverviewClient } from "./client";
import { parseOverviewSearch } from "./search-params";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = parseOverviewSearch(await searchParams);
  const state = await prefetchPage((qc, api) => [
    qc.prefetchQuery(apiQuery(api, "/analytics/overview", { query: search.params })),
    qc.prefetchQuery(apiQuery(api, "/analytics/traffic", { query: search.params })),
    qc.prefetchQuery(apiQuery(api, "/analytics/funnel", { query: search.params })),
    qc.prefetchQuery(apiQuery(api, "/intelligence/score", {})),
    qc.prefetchQuery(apiQuery(api, "/intelligence/ranking", {})),
  ]);
  return (
    <HydrationBoundary state={state}>
      <OverviewClient params={search.params} error={search.result.success ? undefined : search.result.message} />
    </HydrationBoundary>
  );
}
