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
import { useMemo, useState } from "react";
import { useHydrated } from "@/lib/ui/use-hydrated";
import type { InputOf } from "@/lib/data-api/endpoints";
import { apiQuery, browserApi } from "@/lib/queries/api";
import type { ApiRoutes } from "@/lib/queries/server-api";
import { invalidParamOf } from "@/lib/queries/error-status";
import { PAGE_SIZE_DEFAULT } from "@/lib/data-api/constants";
import { listQuery } from "@/lib/range/list-range";
import { filterProblemText } from "@/lib/ui/messages";
import { urlSerializer } from "@/lib/ui/url-state";

/** A list view's parameters: each kept as the URL's text (its search-params.ts says why). */
export type ListParsers = Record<string, SingleParserBuilder<string>> & {
  from: SingleParserBuilder<string>;
  to: SingleParserBuilder<string>;
  tz: SingleParserBuilder<string>;
  limit: SingleParserBuilder<string>;
  offset: SingleParserBuilder<string>;
};
export type ListPath = "/visitors" | "/mentions";

export function useListFilters<P extends ListPath>(parsers: ListParsers, path: P) {
  const [values, setValues] = useQueryStates(parsers, { history: "push" });
  const pathname = usePathname();
  const serialize = useMemo(() => urlSerializer(parsers), [parsers]);
  const [nowMs] = useState(() => Date.now());
  // Absent parameters are left out, so the route's schema fills its defaults; the header's range
  // (from, to in tz) becomes the list's bounds, the same ones the server page prefetched.
  const { query, range } = listQuery(values as typeof values & { from: string | null; to: string | null; tz: string | null }, nowMs);
  // A bad zone cannot be sent (the list routes take no tz): the page says so instead of asking.
  const rangeInvalid = range.explicit && range.problems.tz ? { param: "tz" } : undefined;
  // Either list's query is its URL's text (UrlQueryOf); one cast for the path left generic here.
  const list = { ...apiQuery(browserApi, path, { query } as InputOf<ApiRoutes[P]>), enabled: !rangeInvalid };
  // The list as the shell sees it (the export's total, the field errors), once hydrated: its answer
  // may reach the browser before hydration, and the shell must match the server's HTML until then.
  const hydrated = useHydrated();
  const shown = useQuery(list);
  const refused = hydrated ? invalidParamOf(shown.error) : undefined;
  const invalid = rangeInvalid ?? (refused ? { param: refused.param } : undefined);
  const offsetValue = (offset: number) => (offset === 0 ? null : String(offset));
  type Changes = Parameters<typeof setValues>[0];
  // The field says what to do in plain words; the route's own message is for API callers.
  const errorFor = (param: string) => (invalid?.param === param ? filterProblemText(param) : undefined);
  const setFilter = (key: string, value: string) => void setValues({ [key]: value === "" ? null : value, offset: null } as Changes);
  return {
    path,
    /** The URL's values, as it says them (null when absent). */
    values,
    /** What the route is asked for (and the export): the filters, with the range as bounds. */
    query,
    /** The range as the list reads it (the header shows the same). */
    range,
    /** A range parameter the page refuses itself (a bad tz), without asking the route. */
    rangeInvalid,
    /** The rows shown, once hydrated (e.g. the values seen, for a filter's suggestions). */
    rows: hydrated ? shown.data?.data : undefined,
    /** The list's query options, shared by its widget and the shell. */
    list,
    /** The filter the server refused, if any: its parameter. */
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
