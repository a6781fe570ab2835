// Server-side prefetch for a page: runs the page's queries with the session's key through the same
// option factories the browser uses, and returns the dehydrated cache for <HydrationBoundary>, so
// the first paint already has data. A failed prefetch is left out; the widget then fetches (and
// shows its error) in the browser, so one failing endpoint never fails the page.
import "server-only";
import { dehydrate, type DehydratedState, type QueryClient } from "@tanstack/react-query";
import { redirect } from "next/navigation";
import { serverApi, type ApiTransport } from "@/lib/server/routes";
import { getPageSession } from "@/lib/server/session";
import { getQueryClient } from "./get-query-client";

export async function prefetchPage(
  prefetch: (qc: QueryClient, api: ApiTransport) => Array<Promise<unknown>>,
): Promise<DehydratedState> {
  return (await prefetchPageWithClient(prefetch)).state;
}

/** Same, also handing back the server's QueryClient so a page can act on a result (e.g. a 404). */
export async function prefetchPageWithClient(
  prefetch: (qc: QueryClient, api: ApiTransport) => Array<Promise<unknown>>,
): Promise<{ state: DehydratedState; queryClient: QueryClient }> {
  const session = await getPageSession();
  if (!session) redirect("/sign-in");
  const queryClient = getQueryClient();
  await Promise.allSettled(prefetch(queryClient, serverApi(session)));
  return { state: dehydrate(queryClient), queryClient };
}
