"use client";
// Loading, empty and error states shared by every widget, and <QueryView>, which picks the right one
// for a React Query result so each widget loads and fails on its own.
import type { UseQueryResult } from "@tanstack/react-query";
import { AppLink as Link } from "@/components/shares/shared-view";
import { createContext, use, type ReactNode } from "react";
import type { Unreadable } from "@/lib/data-api/schemas";
import { formatNumber } from "@/lib/format/format";
import { errorStatus } from "@/lib/queries/error-status";
import { filterName, filterProblemText, loadErrorText, type ErrorFacts } from "@/lib/ui/messages";

export function Skeleton({ height = 16, width = "100%", className }: { height?: number | string; width?: number | string; className?: string }) {
  return <span className={`skeleton ${className ?? ""}`} style={{ height, width }} aria-hidden="true" />;
}

/** A skeleton block that also tells screen readers what is loading. */
export function LoadingState({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="status" aria-live="polite" data-testid="loading">
      <span className="visually-hidden">Loading {label}…</span>
      {children}
    </div>
  );
}

export function SkeletonLines({ lines = 4, height = 18 }: { lines?: number; height?: number }) {
  return (
    <div className="stack" style={{ gap: 10 }}>
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} height={height} width={`${100 - ((i * 13) % 40)}%`} />
      ))}
    </div>
  );
}

/** Skeleton cards in a grid (`className`), for a widget whose content is cards: KPIs, a feed. */
export function SkeletonCards({ className, cards = 4, lines, height }: { className: string; cards?: number; lines?: number; height?: number }) {
  return (
    <div className={className}>
      {Array.from({ length: cards }, (_, i) => (
        <div className="card" key={i}>
          <SkeletonLines lines={lines} height={height} />
        </div>
      ))}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state" data-testid="empty-state">
      <p className="state-title">{title}</p>
      {children && <div className="muted small">{children}</div>}
    </div>
  );
}

/**
 * A widget that could not load: what it could not load, what happened and what to do in plain words
 * (by the error's status and code: the API's own message is for developers), the request id to quote,
 * and Retry.
 */
export function ErrorState({ error, what, onRetry }: { error: unknown; what: string; onRetry?: () => void }) {
  const status = errorStatus(error);
  const apiError = status !== undefined ? (error as ErrorFacts & { requestId?: string }) : null;
  if (status === 403) {
    return (
      <div className="state state-forbidden" data-testid="forbidden-state" role="alert">
        <p className="state-title">No access to {what}</p>
        <p className="small">This API key has no access to {what}. Ask a workspace admin for a key with this permission.</p>
        {apiError?.requestId && <RequestId id={apiError.requestId} />}
      </div>
    );
  }
  if (status === 401) {
    return (
      <div className="state" role="status">
        <p className="state-title">Your session has ended. Taking you to sign in…</p>
      </div>
    );
  }
  // A render that threw (no status) is this app's own fault: never show its text.
  const message = apiError ? loadErrorText(apiError, what) : "Something went wrong while showing this. Try again.";
  return (
    <div className="state state-error" data-testid="widget-error" role="alert">
      <p className="state-title">Could not load {what}</p>
      <p className="small">{message}</p>
      {apiError?.requestId && <RequestId id={apiError.requestId} />}
      {onRetry && (
        <button type="button" className="button button-secondary button-small" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** A list whose URL carries a filter the server refused: which one, what to do, and a way out. */
export function InvalidFilterState({ param, resetHref }: { param: string; resetHref: string }) {
  return (
    <div className="state state-error" role="alert" data-testid="param-error" data-param={param}>
      <p className="state-title">The {filterName(param)} in this link cannot be used</p>
      <p className="small">{filterProblemText(param)}</p>
      <Link className="button button-secondary button-small" href={resetHref}>
        Reset filters
      </Link>
    </div>
  );
}

export function RequestId({ id }: { id: string }) {
  return (
    <p className="request-id">
      Request ID: <span data-testid="request-id">{id}</span>
    </p>
  );
}

/**
 * Items of a response that could not be read at all (left out by the normalizers): how many, and
 * the upstream request to quote, so an odd row is reported rather than silently missing.
 */
export function UnreadableNotice({ unreadable, noun }: { unreadable: Unreadable | undefined; noun: readonly [singular: string, plural: string] }) {
  if (!unreadable || !(unreadable.count > 0)) return null;
  const { count, request_id: requestId } = unreadable;
  return (
    <p className="notice notice-warning small unreadable-notice" data-testid="unreadable-notice">
      {formatNumber(count)} {count === 1 ? noun[0] : noun[1]} could not be read
      {requestId && (
        <>
          {" "}
          (request{" "}
          <span className="mono" data-testid="unreadable-request-id">
            {requestId}
          </span>
          )
        </>
      )}{" "}
      and {count === 1 ? "is" : "are"} not shown.
    </p>
  );
}

/**
 * Rows of a list the dashboard filters itself that could not be read, so could not be checked
 * against the filter (lib/lists): in no page, and said on every page, never guessed.
 */
export function UncheckedNotice({ unchecked, noun }: { unchecked: Unreadable | undefined; noun: readonly [singular: string, plural: string] }) {
  if (!unchecked || !(unchecked.count > 0)) return null;
  const { count } = unchecked;
  return (
    <p className="notice notice-warning small unreadable-notice" data-testid="unchecked-notice">
      {formatNumber(count)} {count === 1 ? noun[0] : noun[1]} of the range could not be read, so whether {count === 1 ? "it belongs" : "they belong"} in this
      list is not known; {count === 1 ? "it is" : "they are"} not shown.
    </p>
  );
}

/**
 * A widget's answer while a newer one loads (the query's placeholder data): dimmed and marked busy,
 * so figures on screen are never taken for the new ones.
 */
export function PendingAnswer({ pending, className, children }: { pending: boolean; className?: string; children: ReactNode }) {
  const classes = [className, pending && "is-pending"].filter(Boolean).join(" ");
  return (
    <div className={classes || undefined} aria-busy={pending || undefined}>
      {children}
    </div>
  );
}

/** A list answer with nothing to show: no rows, and none unreadable (those get a notice instead). */
export const noRows = (list: { data: readonly unknown[]; unreadable?: Unreadable }) => list.data.length === 0 && !list.unreadable;

/**
 * What the enclosing widget calls its data and shows while it loads (Widget gives them): a QueryView
 * inside a widget says and shows the same, unless given its own.
 */
export const WidgetStates = createContext<{ what: string; loading: ReactNode } | null>(null);

type QueryViewProps<T> = {
  query: UseQueryResult<T>;
  /** Names the data in messages: "traffic by source". The enclosing widget's by default. */
  what?: string;
  /** The enclosing widget's loading state by default. */
  loading?: ReactNode;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
};

/** Renders a widget's data, or its own loading / empty / error state. */
export function QueryView<T>({ query, what: ownWhat, loading: ownLoading, isEmpty, empty, children }: QueryViewProps<T>) {
  const widget = use(WidgetStates);
  const what = ownWhat ?? widget?.what;
  const loading = ownLoading ?? widget?.loading;
  if (what === undefined) throw new Error("A QueryView outside a Widget needs its own `what`.");
  const { data, error, isError, isPlaceholderData, refetch } = query;
  const retry = () => void refetch();
  if (isError) {
    // Data of an earlier successful fetch of the same view stays visible below the failure.
    if (data !== undefined && !isPlaceholderData) {
      return (
        <>
          <ErrorState error={error} what={what} onRetry={retry} />
          {children(data)}
        </>
      );
    }
    return <ErrorState error={error} what={what} onRetry={retry} />;
  }
  if (data === undefined) return <LoadingState label={what}>{loading}</LoadingState>;
  if (isEmpty?.(data)) return <>{empty ?? <EmptyState title={`No ${what} yet`} />}</>;
  return <>{children(data)}</>;
}
