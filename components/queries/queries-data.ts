// Plain mappings behind /queries (the answer of `/api/insights/queries` is
// lib/server/insights/queries.ts's): the page's filters in the URL (`platform`, `never_first`) as the route takes them, and
// where a question leads: its mentions over the range (of the platform filtered on), on /mentions
// filtered by `query`, which the dashboard matches as this page groups questions, so the list's
// total is the row's figure.
import { rangeParams, type DateRange } from "@/lib/range/date-range";

export type QueryFilters = { platform: string | null; neverFirst: boolean };

/** The page's filters from its URL: a platform (as given; the route judges it) and `never_first=true`. */
export const queryFiltersOf = (values: { platform?: string | null; never_first?: string | null }): QueryFilters => ({
  platform: values.platform || null,
  neverFirst: values.never_first === "true",
});

/** The route's query for a range and the filters (absent filters left out). */
export const queriesRouteQuery = (range: DateRange, f: QueryFilters): Record<string, string> => ({
  ...rangeParams(range),
  ...(f.platform ? { platform: f.platform } : {}),
  ...(f.neverFirst ? { never_first: "true" } : {}),
});

/** The question's mentions over the range (of the platform filtered on, if any), on /mentions. */
export function questionMentionsHref(range: DateRange, question: string, platform: string | null): string {
  const search = new URLSearchParams({ ...rangeParams(range), query: question, ...(platform ? { platform } : {}) });
  search.sort();
  return `/mentions?${search.toString()}`;
}
