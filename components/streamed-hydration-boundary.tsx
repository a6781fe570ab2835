"use client";
// The page's streamed prefetches into the browser's cache: React Query's HydrationBoundary, with each
// failure marker read back as its DataApiError (lib/queries/streamed-failure.ts), so a widget whose
// prefetch failed shows the error /api would have given, request id and all.
import { HydrationBoundary, type DehydratedState } from "@tanstack/react-query";
import { useMemo, type ReactNode } from "react";
import { withFailuresRejected } from "@/lib/queries/streamed-failure";

export function StreamedHydrationBoundary({ state, children }: { state: DehydratedState; children: ReactNode }) {
  const hydrated = useMemo(() => withFailuresRejected(state), [state]);
  return <HydrationBoundary state={hydrated}>{children}</HydrationBoundary>;
}
