"use client";
// A list view's filters and paging live in the URL, read and written with nuqs from the view's
// parsers (its search-params.ts). A change is a new history entry (shareable, back and forward
// restore it) made in the browser only: the list's widget fetches the new rows through /api while the
// current ones stay on screen. Any change of a filter or the page size goes back to the first page,
// and changes made in quick succession all apply (nuqs queues them into one URL update).
import { useQuery } from "@tanstack/react-query";
import type { SingleParserBuilder } from "nuqs";
import { useQueryStates } from "nuqs";
import { usePathname } from "next/navigation";
import { useMemo } from "react";
import { useHydrated } from "@/components/states/widget";
import type { InputOf } from "@/lib/data-api/endpoints";
import { apiQuery, browserApi } from "@/lib/queries/api";
import type { ApiRoutes } from "@/lib/server/routes";
import { invalidParamOf } from "@/lib/queries/error-status";
import { PAGE_SIZE_DEFAULT } from "@/lib/data-api/constants";
import { definedParams, urlSerializer } from "@/lib/ui/url-state";

/** A list view's parameters: each kept as the URL's text (its search-params.ts says why). */
export type ListParsers = Record<string, SingleParserBuilder<string>> & { limit: SingleParserBuilder<string>; offset: SingleParserBuilder<string> };
export type ListPath = "/visitors" | "/mentions";

export function useListFilters<P extends ListPath>(parsers: ListParsers, path: P) {
  const [values, setValues] = useQueryStates(parsers, { history: "push" });
  const pathname = usePathname();
  const serialize = useMemo(() => urlSerializer(parsers), [parsers]);
  // Absent parameters are left out, so the route's schema fills its defaults.
  const query = definedParams(values);
  // Either list's query is its URL's text (UrlQueryOf); one cast for the path left generic here.
  const list = apiQuery(browserApi, path, { query } as InputOf<ApiRoutes[P]>);
  // The list as the shell sees it (the export's total, the field errors), once hydrated: its answer
  // may reach the browser before hydration, and the shell must match the server's HTML until then.
  const hydrated = useHydrated();
  const shown = useQuery(list);
  const invalid = hydrated ? invalidParamOf(shown.error) : undefined;
  const offsetValue = (offset: number) => (offset === 0 ? null : String(offset));
  type Changes = Parameters<typeof setValues>[0];
  const errorFor = (param: string) => (invalid?.param === param ? invalid.message : undefined);
  const setFilter = (key: string, value: string) => void setValues({ [key]: value === "" ? null : value, offset: null } as Changes);
  return {
    path,
    /** The URL's values, as it says them (null when absent). */
    values,
    query,
    /** The list's query options, shared by its widget and the shell. */
    list,
    /** The filter the server refused, if any: its parameter and the schema's message. */
    invalid,
    errorFor,
    /** Whether any filter is set (paging aside): the view then offers to clear them. */
    hasFilters: Object.entries(values).some(([key, value]) => key !== "limit" && key !== "offset" && value),
    /** A filter field bound to its URL parameter: its name, value, error, and a change that applies. */
    field: (name: string) => ({ name, value: values[name] ?? "", error: errorFor(name), onChange: (value: string) => setFilter(name, value) }),
    /** Matching rows, once the current filters' answer is in. */
    total: hydrated && shown.data && !shown.isPlaceholderData ? shown.data.meta.total : undefined,
    limit: Number(query.limit ?? PAGE_SIZE_DEFAULT),
    offset: Number(query.offset ?? 0),
    setFilter,
    /** A page's URL (a real link: it opens in a new tab too). */
    pageHref: (offset: number) => `${pathname}${serialize({ ...values, offset: offsetValue(offset) })}`,
    goToPage: (offset: number) => void setValues({ offset: offsetValue(offset) } as Changes),
  };
}

/** A list view's state: its URL values, its list query and paging, and its filters bound to the URL. */
export type ListFilters<P extends ListPath> = ReturnType<typeof useListFilters<P>>;
