// `/intelligence` - the AI Positioning Score, its change over its window and its components, its
// history over the app's date range, and the competitor ranking. The page starts every query and
// streams: each part shows as its answer arrives. Reading the score and the ranking records them as
// history (lib/history).
import type { Metadata } from "next";
import { answersWindow, scoreWindow } from "@/components/intelligence/score-change-data";
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
  const nowMs = serverContext().now();
  const { range } = resolveDateRange(loadRangeSearch(await searchParams), viewerTz, nowMs);
  // The score's change and what moved with it read the history of the score's window; before the
  // score is read, that is the window of a score computed today (the usual case). With the header's
  // last 30 days it is the range itself, and the history cards share the answer.
  const scoreDays = scoreWindow(range.tz, nowMs);
  const windows = [range, ...(answersWindow(range, scoreDays) ? [] : [scoreDays])];
  const state = await prefetchPage((qc, api) => {
    void qc.prefetchQuery(apiQuery(api, "/intelligence/score", {}));
    void qc.prefetchQuery(apiQuery(api, "/intelligence/ranking", {}));
    for (const window of windows) {
      void qc.prefetchQuery(apiQuery(api, "/history/score", { query: rangeParams(window) }));
      void qc.prefetchQuery(apiQuery(api, "/history/ranking", { query: rangeParams(window) }));
    }
  });
  return (
    <StreamedHydrationBoundary state={state}>
      <IntelligenceClient />
    </StreamedHydrationBoundary>
  );
}
