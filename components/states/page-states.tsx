"use client";
// What a route segment shows before its page has rendered (loading.tsx: the page's title and a
// skeleton, e.g. during a client-side navigation) and when rendering the page itself failed
// (error.tsx). Widgets have their own states (widget.tsx); these cover the page around them.
import type { ErrorInfo } from "next/error";
import { LoadingState, Skeleton, SkeletonLines } from "./states";

export function PageLoading({ title }: { title: string }) {
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>{title}</h1>
        </div>
      </div>
      <LoadingState label={`the ${title.toLowerCase()} page`}>
        <div className="stack">
          <div className="card">
            <Skeleton height={44} />
          </div>
          <div className="card">
            <SkeletonLines lines={6} height={22} />
          </div>
        </div>
      </LoadingState>
    </div>
  );
}

/** error.tsx of every segment: the reference the server logged (never the error's text), and a retry. */
export function PageError({ error, retry }: Pick<ErrorInfo, "error" | "retry">) {
  const digest =
    typeof error === "object" && error !== null && typeof (error as { digest?: unknown }).digest === "string"
      ? (error as { digest: string }).digest
      : undefined;
  return (
    <div className="card stack" role="alert" data-testid="page-error" style={{ maxWidth: 640 }}>
      <h1>This page could not be shown</h1>
      <p className="muted">Something went wrong while preparing it. Trying again usually helps; the rest of the dashboard still works.</p>
      {digest && (
        <p className="request-id">
          Error reference: <span className="mono">{digest}</span>
        </p>
      )}
      <p>
        <button type="button" className="button" onClick={() => retry()}>
          Try again
        </button>
      </p>
    </div>
  );
}
