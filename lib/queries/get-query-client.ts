// The QueryClient: a new one per server request (prefetch for the first paint), one for the life of
// the browser tab. Errors that a retry cannot fix (4xx) are not retried; the BFF already retries the
// upstream's 429/5xx, so the browser only retries a failed network hop.
import { defaultShouldDehydrateQuery, QueryCache, QueryClient, isServer } from "@tanstack/react-query";
import { errorStatus } from "./error-status";
import { handleAuthError } from "./auth-redirect";

export const STALE_TIME_MS = 30_000;

/** Retry only when the request never got an HTTP answer (status 0), once. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = errorStatus(error);
  if (status !== undefined && status > 0) return false;
  return failureCount < 1;
}

function makeQueryClient(browser: boolean): QueryClient {
  return new QueryClient({
    queryCache: browser ? new QueryCache({ onError: handleAuthError }) : undefined,
    defaultOptions: {
      queries: {
        staleTime: STALE_TIME_MS,
        // A server prefetch's failure is already the answer /api would give (streamed-failure.ts).
        retry: browser ? shouldRetry : false,
        // A widget that failed keeps its error (with its request id) until Retry, a new filter or a
        // new visit of its page; it does not ask again just because it mounted after hydration.
        retryOnMount: false,
        refetchOnWindowFocus: false,
      },
      // A page dehydrates right after starting its prefetches: they are pending then, and their
      // promises stream to the browser as each answer arrives.
      dehydrate: {
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient(false);
  browserQueryClient ??= makeQueryClient(true);
  return browserQueryClient;
}
