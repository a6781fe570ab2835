// `/visitors` - the visitor table with filters, paging and export. The page starts the list's query
// and streams it: the filters show at once, the rows as they arrive.
import type { Metadata } from "next";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { definedParams } from "@/lib/ui/url-state";
import { VisitorsClient } from "./client";
import { loadVisitorsSearch } from "./search-params";

export const metadata: Metadata = { title: "Visitors" };

export default async function VisitorsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = definedParams(loadVisitorsSearch(await searchParams));
  // An invalid filter is checked in the prefetch too: its 400 reaches the page like any answer.
  const state = await prefetchPage((qc, api) => void qc.prefetchQuery(apiQuery(api, "/visitors", { query })));
  return (
    <StreamedHydrationBoundary state={state}>
      <VisitorsClient />
    </StreamedHydrationBoundary>
  );
}
