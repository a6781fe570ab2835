"use client";
// Previous/next paging with the visible range ("1–20 of 12,345") and the page size. Pages are links
// (shareable, open in a new tab; a plain click pages in place through `onPage`); the page size is a
// select that goes back to the first page.
// Rows the upstream sent but that could not be read still took their place in the page, and a list
// whose total is unknown still pages: a full page means there may be more.
import Link from "next/link";
import { useId } from "react";
import { formatPageSpan } from "@/lib/format/format";

const PAGE_SIZES = [10, 20, 50, 100];

export function Pagination({
  offset,
  limit,
  count,
  skipped = 0,
  total,
  noun,
  hrefFor,
  onPage,
  onLimit,
}: {
  offset: number;
  limit: number;
  /** Rows shown. */
  count: number;
  /** Rows of this page that could not be read (left out of `count`). */
  skipped?: number;
  /** Matching rows in all; undefined when the upstream gave no valid total. */
  total: number | undefined;
  noun: string;
  hrefFor: (offset: number) => string;
  /** Pages without a navigation (the view's URL state); the link still opens in a new tab. */
  onPage?: (offset: number) => void;
  onLimit: (limit: number) => void;
}) {
  const id = useId();
  const prev = Math.max(0, offset - limit);
  const hasPrev = offset > 0;
  const covered = count + skipped;
  const hasNext = total === undefined ? covered >= limit : offset + covered < total;
  const inPlace = (target: number) =>
    onPage
      ? (event: { preventDefault: () => void }) => {
          event.preventDefault();
          onPage(target);
        }
      : undefined;
  const sizes = PAGE_SIZES.includes(limit) ? PAGE_SIZES : [...PAGE_SIZES, limit].sort((a, b) => a - b);
  return (
    <nav className="pagination" aria-label={`${noun} pages`}>
      <p className="muted small" data-testid="range" aria-live="polite">
        {formatPageSpan(offset, covered, total)} {noun}
        {total === undefined && covered > 0 && " (total unknown)"}
      </p>
      <div className="pagination-controls">
        <label htmlFor={id} className="muted small">
          Per page
        </label>
        <select id={id} className="select" style={{ width: "auto" }} value={limit} onChange={(e) => onLimit(Number(e.target.value))}>
          {sizes.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        {hasPrev ? (
          <Link className="button button-secondary button-small" href={hrefFor(prev)} onNavigate={inPlace(prev)} scroll={false} prefetch={false} rel="prev">
            ← Previous
          </Link>
        ) : (
          <span className="button button-secondary button-small" aria-disabled="true">
            ← Previous
          </span>
        )}
        {hasNext ? (
          <Link
            className="button button-secondary button-small"
            href={hrefFor(offset + limit)}
            onNavigate={inPlace(offset + limit)}
            scroll={false}
            prefetch={false}
            rel="next"
          >
            Next →
          </Link>
        ) : (
          <span className="button button-secondary button-small" aria-disabled="true">
            Next →
          </span>
        )}
      </div>
    </nav>
  );
}
