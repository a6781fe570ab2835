"use client";
// The frame every list view shares (/visitors, /mentions): a header with the export of every matching
// row, the filters with "Clear filters", and the results as a widget streaming on its own: the list,
// or its invalid-filter / empty / loading / error state, and paging with the total. A view gives
// only what is its own: the filter fields and how one page of rows looks.
import Link from "next/link";
import type { ReactNode } from "react";
import { ExportButton } from "@/components/export/export-button";
import type { ListFilters, ListPath } from "@/components/filters/use-list-filters";
import { EmptyState, InvalidFilterState, noRows, PendingAnswer, QueryView } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { Pagination } from "@/components/ui/pagination";
import type { ResultOf } from "@/lib/data-api/endpoints";
import type { Unreadable } from "@/lib/data-api/schemas";
import { invalidParamOf } from "@/lib/queries/error-status";
import type { ApiRoutes } from "@/lib/queries/server-api";
import { useHydrated } from "@/lib/ui/use-hydrated";
import { withoutPaging } from "@/lib/ui/view-filters";

/**
 * What the frame reads of a page of a list; the view's own rows stay typed for its `children`.
 * `unchecked`: rows a list filtered by the dashboard could not check (lib/lists).
 */
type ListPage = { data: readonly unknown[]; meta: { offset?: number; total?: number }; unreadable?: Unreadable; unchecked?: Unreadable };

/** The resource a list path shows: its export, its messages ("No visitors match these filters"). */
const resourceOf = (path: ListPath) => (path === "/visitors" ? "visitors" : "mentions");

type ListViewProps<P extends ListPath> = {
  view: ListFilters<P>;
  title: string;
  intro: string;
  /** The filter fields (bound with `view.field(name)`). */
  filters: ReactNode;
  /** The results' heading, for screen readers. */
  heading: string;
  /** A feed of cards: each state and the paging get a card of their own, where a table sits in one. */
  feed?: boolean;
  loading: ReactNode;
  /** What to suggest when no row matches the filters. */
  emptyHint: string;
  /** One page of rows, as the route answers it. */
  children: (page: ResultFor<P>) => ReactNode;
};

type ResultFor<P extends ListPath> = ResultOf<ApiRoutes[P]>;

export function ListView<P extends ListPath>({ view, title, intro, filters, heading, feed = false, loading, emptyHint, children }: ListViewProps<P>) {
  const { path } = view;
  const resource = resourceOf(path);
  const hydrated = useHydrated();
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>{title}</h1>
          <p>{intro}</p>
        </div>
        {!view.invalid && <ExportButton resource={resource} filters={withoutPaging(view.query)} total={view.total} />}
      </div>
      <section className="card" aria-label="Filters">
        <form className="filters" onSubmit={(e) => e.preventDefault()} data-testid="filters">
          {/* A filter applies through JavaScript: a choice made before hydration would be lost, so
              the fields wait for it (disabled, and announced so) rather than ignore the user. */}
          <fieldset className="filters-fields" disabled={!hydrated}>
            <legend className="visually-hidden">Filters</legend>
            {filters}
          </fieldset>
          <div className="filters-actions">
            {view.hasFilters && (
              <Link className="button button-secondary" href={path} data-testid="clear-filters">
                Clear filters
              </Link>
            )}
          </div>
        </form>
      </section>
      <section className={feed ? undefined : "card"} aria-labelledby={`${resource}-heading`}>
        <h2 id={`${resource}-heading`} className="visually-hidden">
          {heading}
        </h2>
        {view.rangeInvalid ? (
          // A bad tz is refused by the page itself (the list routes take none): nothing is asked.
          <Framed feed={feed}>
            <InvalidFilterState {...view.rangeInvalid} resetHref={path} />
          </Framed>
        ) : (
          <Widget what={resource} loading={loading}>
            <ListResults view={view} feed={feed} emptyHint={emptyHint}>
              {children}
            </ListResults>
          </Widget>
        )}
      </section>
    </div>
  );
}

/** A state in a feed gets a card of its own; a table's sits in the table's card. */
function Framed({ feed, children }: { feed: boolean; children: ReactNode }) {
  return feed ? <div className="card">{children}</div> : children;
}

function ListResults<P extends ListPath>({ view, feed, emptyHint, children }: Pick<ListViewProps<P>, "view" | "emptyHint" | "children"> & { feed: boolean }) {
  const { path, offset, pageHref } = view;
  const resource = resourceOf(path);
  const query = useWidgetQuery<ResultFor<P>>(view.list);
  const framed = (body: ReactNode) => <Framed feed={feed}>{body}</Framed>;
  const invalid = invalidParamOf(query.error);
  if (invalid) return framed(<InvalidFilterState param={invalid.param} resetHref={path} />);
  // The frame's view of a page; the rows themselves go to `children` as the route types them.
  const pageOf = (d: ResultFor<P>) => d as ListPage;
  return (
    <QueryView
      query={query}
      // Rows that could not be checked are said by the view, even when none matched.
      isEmpty={(d) => noRows(pageOf(d)) && !pageOf(d).unchecked}
      empty={framed(
        <EmptyState title={offset > 0 ? `No ${resource} on this page` : `No ${resource} match these filters`}>
          {offset > 0 ? <Link href={pageHref(0)}>Go to the first page</Link> : emptyHint}
        </EmptyState>,
      )}
    >
      {(d) => {
        const page = pageOf(d);
        const paging = (
          <Pagination
            offset={page.meta.offset ?? offset}
            limit={view.limit}
            count={page.data.length}
            skipped={page.unreadable?.count}
            total={page.meta.total}
            noun={resource}
            hrefFor={pageHref}
            onPage={view.goToPage}
            onLimit={(limit) => view.setFilter("limit", String(limit))}
          />
        );
        return (
          <PendingAnswer pending={query.isPlaceholderData}>
            {children(d)}
            {feed ? (
              <div className="card" style={{ marginTop: 16, paddingTop: 4, paddingBottom: 16 }}>
                {paging}
              </div>
            ) : (
              paging
            )}
          </PendingAnswer>
        );
      }}
    </QueryView>
  );
}
