// `/mentions` - the feed of AI mentions of the brand, with filters, paging and export.
import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { MentionsClient } from "./client";
import { parseMentionsSearch } from "./search-params";

export const metadata: Metadata = { title: "Mentions" };

export default async function MentionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = parseMentionsSearch(await searchParams);
  const { result } = search;
  const state = await prefetchPage((qc, api) => (result.success ? [qc.prefetchQuery(apiQuery(api, "/mentions", { query: result.data }))] : []));
  return (
    <HydrationBoundary state={state}>
      <MentionsClient search={search} />
    </HydrationBoundary>
  );
}
