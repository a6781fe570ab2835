// `/intelligence` - the AI Positioning Score, its trend and components, and the competitor ranking.
import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { IntelligenceClient } from "./client";

export const metadata: Metadata = { title: "Intelligence" };

export default async function IntelligencePage() {
  const state = await prefetchPage((qc, api) => [qc.prefetchQuery(apiQuery(api, "/intelligence/score", {})), qc.prefetchQuery(apiQuery(api, "/intelligence/ranking", {}))]);
  return (
    <HydrationBoundary state={state}>
      <IntelligenceClient />
    </HydrationBoundary>
  );
}
