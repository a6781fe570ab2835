// A server page's prefetch that fails still streams to the browser, as a marker its promise resolves
// with (lib/queries/server-api.ts `prefetchApi`), and the browser turns the marker back into the
// DataApiError that /api would have answered. Why not let the promise reject: React sends a rejected
// server promise as a redacted error (production builds keep only a digest), so the widget would lose
// the status, the message and the request id it shows, and a 401 would no longer sign the user out.
// Zod-free and server-free: the browser's hydration uses it.
import type { DehydratedState } from "@tanstack/react-query";
import { DataApiError, type DataApiErrorInit } from "@/lib/data-api/errors";

const MARK = "__streamedFailure";

/** A failed prefetch as it travels in the page: the browser-facing error, nothing else. */
export type StreamedFailure = { [MARK]: DataApiErrorInit };

export function streamedFailure(error: DataApiError): StreamedFailure {
  const { status, code, message, param, requestId, retryAfter } = error;
  return {
    [MARK]: {
      status,
      code,
      message,
      ...(param !== undefined ? { param } : {}),
      ...(requestId !== undefined ? { requestId } : {}),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    },
  };
}

export function isStreamedFailure(value: unknown): value is StreamedFailure {
  if (typeof value !== "object" || value === null || !Object.hasOwn(value, MARK)) return false;
  const init = (value as Record<string, unknown>)[MARK];
  return typeof init === "object" && init !== null && typeof (init as { status?: unknown }).status === "number";
}

/** The status of a prefetch's result when it is a failure (e.g. a 404 the page answers itself). */
export function failedStatus(value: unknown): number | undefined {
  return isStreamedFailure(value) ? value[MARK].status : undefined;
}

/**
 * A thenable that settles like `source`, except that a failure marker becomes a rejection with its
 * DataApiError. It calls back synchronously when `source` does: React Query's hydration reads an
 * already received answer at once (no loading flash), which a `.then()` chain would put off.
 */
export function rejectingFailures<T>(source: PromiseLike<T>): PromiseLike<T> {
  return {
    then<A = T, B = never>(
      onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
      onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
    ): PromiseLike<A | B> {
      return new Promise<A | B>((resolve, reject) => {
        const fail = (reason: unknown) => {
          if (!onRejected) return reject(reason);
          try {
            resolve(onRejected(reason));
          } catch (error) {
            reject(error);
          }
        };
        source.then((value) => {
          if (isStreamedFailure(value)) return fail(new DataApiError(value[MARK]));
          if (!onFulfilled) return resolve(value as unknown as A);
          try {
            resolve(onFulfilled(value));
          } catch (error) {
            reject(error);
          }
        }, fail);
      });
    },
  };
}

/**
 * A page's dehydrated state with every failure marker read as its DataApiError: a streamed promise
 * rejects with it, and a failure settled before the page dehydrated (one the page awaited) is sent
 * the same way, so it also reaches the cache's error handler (a 401 signs the user out).
 */
export function withFailuresRejected(state: DehydratedState): DehydratedState {
  return {
    ...state,
    queries: state.queries.map((query) => {
      if (query.promise) return { ...query, promise: rejectingFailures(query.promise) as Promise<unknown> };
      if (!isStreamedFailure(query.state.data)) return query;
      return {
        ...query,
        state: { ...query.state, status: "pending", data: undefined, dataUpdatedAt: 0 },
        promise: rejectingFailures(Promise.resolve(query.state.data)) as Promise<unknown>,
      };
    }),
  };
}
