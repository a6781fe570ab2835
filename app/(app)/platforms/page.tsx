// `/platforms` - per AI platform the chain from being mentioned to converting, and the competitors
// named with the brand, sentiment over time, over the app's date range. The page starts each widget's insight and
// streams: the shell leaves at once, each widget as its answer arrives (they can take seconds on a
// Free key the first time).
import type { Metadata } from "next";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { comparisonParams, resolveComparison } from "@/lib/range/comparison";
import { rangeParams, resolveDateRange } from "@/lib/range/date-range";
import { serverContext } from "@/lib/server/context";
import { viewerTimeZoneCookie } from "@/lib/server/viewer-time-zone";
import { PlatformsClient } from "./client";
import { loadRangeSearch } from "./search-params";

export const metadata: Metadata = { title: "AI platforms" };

export default async function PlatformsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // A URL without `tz` is read in the viewer's zone, as the layout gives it to the browser's
  // useDateRange: the prefetch must ask what the widget will ask.
  const viewerTz = (await viewerTimeZoneCookie()) ?? "UTC";
  const search = loadRangeSearch(await searchParams);
  const { range } = resolveDateRange(search, viewerTz, serverContext().now());
  const query = rangeParams(range);
  // The platforms' changes are counted against the header's comparison: the key the widget will ask.
  const { comparison } = resolveComparison(search, range);
  const state = await prefetchPage((qc, api) => {
    // Platforms first: it lists the mentions of the range and the period before, which the others join.
    void qc.prefetchQuery(apiQuery(api, "/insights/platforms", { query: { ...query, ...comparisonParams(comparison) } }));
    void qc.prefetchQuery(apiQuery(api, "/insights/sentiment", { query }));
    void qc.prefetchQuery(apiQuery(api, "/insights/competitors", { query }));
  });
  return (
    <StreamedHydrationBoundary state={state}>
      <PlatformsClient />
    </StreamedHydrationBoundary>
  );
}
