// The server half of a list view's page: starts the list's query with the URL's filters and streams
// it, so the filters show at once and the rows as they arrive. An invalid filter is checked in the
// prefetch too: its 400 reaches the page like any answer.
import "server-only";
import type { ReactNode } from "react";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import type { InputOf } from "@/lib/data-api/endpoints";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import type { ApiRoutes } from "@/lib/queries/server-api";
import { listQuery, type ListValues } from "@/lib/range/list-range";
import type { ListPath } from "@/components/filters/use-list-filters";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * A list view's page: `load` is the view's search-params loader (null where a parameter is absent;
 * `from`, `to`, `tz` the header's range),
 * `client` the view's client part.
 */
export function listViewPage<P extends ListPath>(path: P, load: (search: Awaited<SearchParams>) => ListValues, client: ReactNode) {
  return async function ListViewPage({ searchParams }: { searchParams: SearchParams }) {
    // Absent parameters are left out, so the route's schema fills its defaults; the header's range
    // becomes the list's bounds (lib/range/list-range.ts), as the client will ask.
    const { query, range } = listQuery(load(await searchParams));
    const state = await prefetchPage((qc, api) => {
      // A bad tz is refused by the page itself (the list routes take none): nothing to ask.
      if (range.explicit && range.problems.tz) return;
      // Either list's query is its URL's text (UrlQueryOf); one cast for the path left generic here.
      void qc.prefetchQuery(apiQuery(api, path, { query } as InputOf<ApiRoutes[P]>));
    });
    return <StreamedHydrationBoundary state={state}>{client}</StreamedHydrationBoundary>;
  };
}
