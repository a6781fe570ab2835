// Server-side prefetch for a page: runs the page's queries with the session's key through the same
// option factories the browser uses, and returns the dehydrated cache for <HydrationBoundary>, so
// the first paint already has data. A failed prefetch is left out; the widget then fetches (and
// shows its error) in the browser, so one failing endpoint never fails the page.
import "server-only";
import { dehydrate, type DehydratedState, type QueryClient } from "@tanstack/react-query";
import { redirect } from "next/navigation";
import type { DataApi } from "@/lib/data-api/api";
import { getPageSession } from "@/lib/server/session";
import { dataApiForKey } from "@/lib/server/upstream";
import { getQueryClient } from "./get-query-client";

export async function prefetchPage(
  prefetch: (qc: QueryClient, api: DataApi) => Array<Promise<unknown>>,
): Promise<DehydratedState> {
  const session = await getPageSession();
  if (!session) redirect("/sign-in");
  const qc = getQueryClient();
  await Promise.allSettled(prefetch(qc, dataApiForKey(session.apiKey)));
  return dehydrate(qc);
}
