// `/intelligence` - the AI Positioning Score, its trend and components, its history over the app's
// date range, and the competitor ranking. The page starts every query and streams: each part shows
// as its answer arrives. Reading the score and the ranking records them as history (lib/history).
import type { Metadata } from "next";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { rangeParams, resolveDateRange } from "@/lib/range/date-range";
import { serverContext } from "@/lib/server/context";
import { viewerTimeZoneCookie } from "@/lib/server/viewer-time-zone";
import { loadRangeSearch } from "./search-params";
import { IntelligenceClient } from "./client";

export const metadata: Metadata = { title: "Intelligence" };

export default async function IntelligencePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // A URL without `tz` is read in the viewer's zone, as the browser's useDateRange reads it.
  const viewerTz = (await viewerTimeZoneCookie()) ?? "UTC";
  const { range } = resolveDateRange(loadRangeSearch(await searchParams), viewerTz, serverContext().now());
  const query = rangeParams(range);
  const state = await prefetchPage((qc, api) => {
    void qc.prefetchQuery(apiQuery(api, "/intelligence/score", {}));
    void qc.prefetchQuery(apiQuery(api, "/intelligence/ranking", {}));
    void qc.prefetchQuery(apiQuery(api, "/history/score", { query }));
    void qc.prefetchQuery(apiQuery(api, "/history/ranking", { query }));
  });
  return (
    <StreamedHydrationBoundary state={state}>
      <IntelligenceClient />
    </StreamedHydrationBoundary>
  );
}
