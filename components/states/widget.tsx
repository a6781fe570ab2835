"use client";
// One widget of a page, streaming on its own: `<Widget>` is its Suspense boundary (its skeleton as
// the fallback) inside its own error boundary, and `useWidgetQuery` is its query. On the first load
// the widget suspends while its answer is in flight (the server's streamed prefetch, or the browser's
// fetch), so the server sends the page's shell at once and each widget's HTML as its answer arrives.
// A failed answer is not thrown: it is the widget's error state (status, message, request id,
// Retry), rendered on the server too. The error boundary is for what a render itself throws.
import { useQuery, useQueryClient, type QueryKey, type UseQueryOptions, type UseQueryResult } from "@tanstack/react-query";
import { catchError, type ErrorInfo } from "next/error";
import { Suspense, use, type ReactNode } from "react";
import { Card, type CardHead } from "@/components/ui/card";
import { ErrorState, LoadingState, WidgetStates } from "./states";

const settledOnce = new WeakMap<Promise<unknown>, Promise<void>>();

/** A promise that fulfils when `promise` settles either way; the same one for the same promise, as `use` wants. */
function settled(promise: Promise<unknown>): Promise<void> {
  let done = settledOnce.get(promise);
  if (!done) {
    done = promise.then(
      () => undefined,
      () => undefined,
    );
    settledOnce.set(promise, done);
  }
  return done;
}

/**
 * A widget's query: `useQuery`, suspending (never throwing) while its first answer is in flight.
 * Later changes of its key keep the previous answer on screen (the options' placeholder data) instead
 * of suspending again, so a filter change dims the widget rather than blanking it.
 */
export function useWidgetQuery<T>(options: UseQueryOptions<T, Error, T, QueryKey>): UseQueryResult<T, Error> {
  const client = useQueryClient();
  const query = useQuery(options);
  if (query.data === undefined && !query.isError) {
    // Only a fetch that is really running: on the server an unprefetched query never starts one.
    const cached = client.getQueryCache().find({ queryKey: options.queryKey, exact: true });
    const inFlight = cached?.state.fetchStatus === "fetching" ? cached.promise : undefined;
    if (inFlight) use(settled(inFlight));
  }
  return query;
}

type Frame = (body: ReactNode) => ReactNode;
const bare: Frame = (body) => body;

const WidgetErrorBoundary = catchError(function WidgetCrash({ what, frame }: { what: string; frame: Frame }, { error, reset }: ErrorInfo) {
  return frame(<ErrorState error={error} what={what} onRetry={reset} />);
});

/**
 * A widget: its own Suspense boundary, with `loading` in the widget's `frame`, inside its own error
 * boundary, so neither a slow nor a broken widget holds or blanks the rest of the page. A widget in a
 * card whose head does not depend on the answer gives it as `card`: the card then holds the widget
 * in every state, so the title shows while the data streams. A frame that needs the answer (e.g.
 * card actions from its rows) is `frame`, which the child renders around its answer too. A QueryView
 * inside names its data `what` and shows `loading` as well.
 */
export function Widget({
  what,
  loading,
  frame = bare,
  card,
  children,
}: {
  what: string;
  loading: ReactNode;
  frame?: Frame;
  card?: CardHead;
  children: ReactNode;
}) {
  const widget = (
    <WidgetErrorBoundary what={what} frame={frame}>
      <Suspense fallback={frame(<LoadingState label={what}>{loading}</LoadingState>)}>
        <WidgetStates value={{ what, loading }}>{children}</WidgetStates>
      </Suspense>
    </WidgetErrorBoundary>
  );
  return card ? <Card {...card}>{widget}</Card> : widget;
}
