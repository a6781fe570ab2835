// `/visitors` - the visitor table with filters, paging and export.
import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { prefetchPage } from "@/lib/queries/prefetch";
import { visitorListQuery } from "@/lib/queries/visitors";
import { VisitorsClient } from "./client";
import { parseVisitorsSearch } from "./search-params";

export const metadata: Metadata = { title: "Visitors" };

export default async function VisitorsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = parseVisitorsSearch(await searchParams);
  const { result } = search;
  const state = await prefetchPage((qc, api) => (result.success ? [qc.prefetchQuery(visitorListQuery(api, result.data))] : []));
  return (
    <HydrationBoundary state={state}>
      <VisitorsClient search={search} />
    </HydrationBoundary>
  );
}
