// `/intelligence` - the AI Positioning Score, its trend and components, and the competitor ranking.
import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { rankingQuery, scoreQuery } from "@/lib/queries/intelligence";
import { prefetchPage } from "@/lib/queries/prefetch";
import { IntelligenceClient } from "./client";

export const metadata: Metadata = { title: "Intelligence" };

export default async function IntelligencePage() {
  const state = await prefetchPage((qc, api) => [qc.prefetchQuery(scoreQuery(api)), qc.prefetchQuery(rankingQuery(api))]);
  return (
    <HydrationBoundary state={state}>
      <IntelligenceClient />
    </HydrationBoundary>
  );
}
