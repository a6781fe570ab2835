// `/visitors` - the visitor table with filters, paging and export.
import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { VisitorsClient } from "./client";
import { parseVisitorsSearch } from "./search-params";

export const metadata: Metadata = { title: "Visitors" };

export default async function VisitorsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = parseVisitorsSearch(await searchParams);
  const { result } = search;
  const state = await prefetchPage((qc, api) => (result.success ? [qc.prefetchQuery(apiQuery(api, "/visitors", { query: result.data }))] : []));
  return (
    <HydrationBoundary state={state}>
      <VisitorsClient search={search} />
    </HydrationBoundary>
  );
}
