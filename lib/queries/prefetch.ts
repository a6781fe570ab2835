// Server-side prefetch for a page, streamed: starts the page's queries with the session's key through
// the same option factories the browser uses, and returns the dehydrated cache at once, pending
// queries and their promises included (TanStack Query's "advanced server rendering"). The page's
// first byte leaves before any upstream answer; each widget then shows as its own answer streams in.
// A failed prefetch resolves as a failure marker (lib/queries/streamed-failure.ts), so one failing
// endpoint shows its error, with its request id, on that widget only.
import "server-only";
import { dehydrate, type DehydratedState, type QueryClient } from "@tanstack/react-query";
import { redirect } from "next/navigation";
import { prefetchApi, type ApiTransport } from "./server-api";
import { getPageSession } from "@/lib/server/session";
import { getQueryClient } from "./get-query-client";

/**
 * `start` starts the page's prefetches (`void qc.prefetchQuery(...)`, never awaited) and may await one
 * on purpose, e.g. to answer a 404 before the page streams; anything it throws (notFound(),
 * redirect()) is the page's own answer.
 */
export async function prefetchPage(start: (qc: QueryClient, api: ApiTransport) => void | Promise<void>): Promise<DehydratedState> {
  const session = await getPageSession();
  if (!session) redirect("/sign-in");
  const queryClient = getQueryClient();
  await start(queryClient, prefetchApi(session));
  return dehydrate(queryClient);
}
