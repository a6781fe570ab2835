// `/mentions` - the feed of AI mentions of the brand, with filters, paging and export. The page
// starts the feed's query and streams it: the filters show at once, the mentions as they arrive.
import type { Metadata } from "next";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { listQuery } from "@/lib/range/list-range";
import { MentionsClient } from "./client";
import { loadMentionsSearch } from "./search-params";

export const metadata: Metadata = { title: "Mentions" };

export default async function MentionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // The header's range as the list's bounds (lib/range/list-range.ts), as the client will ask.
  const { query, range } = listQuery(loadMentionsSearch(await searchParams));
  const state = await prefetchPage((qc, api) => {
    // A bad tz is refused by the page itself (the list routes take none): nothing to ask.
    if (!(range.explicit && range.problems.tz)) void qc.prefetchQuery(apiQuery(api, "/mentions", { query }));
  });
  return (
    <StreamedHydrationBoundary state={state}>
      <MentionsClient />
    </StreamedHydrationBoundary>
  );
}
