// `/visitors` - the visitor table with filters, paging and export. The page starts the list's query
// and streams it: the filters show at once, the rows as they arrive.
import type { Metadata } from "next";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { listQuery } from "@/lib/range/list-range";
import { VisitorsClient } from "./client";
import { loadVisitorsSearch } from "./search-params";

export const metadata: Metadata = { title: "Visitors" };

export default async function VisitorsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // The header's range as the list's bounds (lib/range/list-range.ts), as the client will ask.
  const { query, range } = listQuery(loadVisitorsSearch(await searchParams));
  // An invalid filter is checked in the prefetch too: its 400 reaches the page like any answer.
  const state = await prefetchPage((qc, api) => {
    // A bad tz is refused by the page itself (the list routes take none): nothing to ask.
    if (!(range.explicit && range.problems.tz)) void qc.prefetchQuery(apiQuery(api, "/visitors", { query }));
  });
  return (
    <StreamedHydrationBoundary state={state}>
      <VisitorsClient />
    </StreamedHydrationBoundary>
  );
}
