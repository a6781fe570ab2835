// `/intelligence` - the AI Positioning Score, its trend and components, and the competitor ranking.
// The page starts both queries and streams: score and ranking each show as their answer arrives.
import type { Metadata } from "next";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { IntelligenceClient } from "./client";

export const metadata: Metadata = { title: "Intelligence" };

export default async function IntelligencePage() {
  const state = await prefetchPage((qc, api) => {
    void qc.prefetchQuery(apiQuery(api, "/intelligence/score", {}));
    void qc.prefetchQuery(apiQuery(api, "/intelligence/ranking", {}));
  });
  return (
    <StreamedHydrationBoundary state={state}>
      <IntelligenceClient />
    </StreamedHydrationBoundary>
  );
}
