// Plain mappings behind /queries: the answer of `/api/insights/queries` (its shape, as the route
// answers it), the page's filters in the URL (`platform`, `never_first`) as the route takes them, and
// where a question leads: the range's mentions with that question highlighted (the Data API cannot
// filter mentions by question, so the list is never presented as filtered by it).
import { PLATFORMS } from "@/lib/data-api/constants";
import { rangeParams, type DateRange } from "@/lib/range/date-range";

export type QuestionRow = {
  /** The grouping: the question trimmed and lower-cased. */
  key: string;
  /** One of its written forms. */
  query: string;
  mentions: number;
  platforms: Record<(typeof PLATFORMS)[number], number>;
  avg_position: number | null;
  best_position: number | null;
  worst_position: number | null;
  /** Per cent of its mentions at position 1. */
  first_share: number | null;
  sentiment: { positive: number; neutral: number; negative: number };
};

/** `GET /api/insights/queries?from&to&tz&platform?&never_first?`: most mentions first. */
export type QueriesAnswer = DateRange & { data: QuestionRow[] };

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

/** The range's mentions (of the platform filtered on, if any) with the question highlighted, on /mentions. */
export function highlightHref(range: DateRange, question: string, platform: string | null): string {
  const search = new URLSearchParams({ ...rangeParams(range), highlight: question, ...(platform ? { platform } : {}) });
  search.sort();
  return `/mentions?${search.toString()}`;
}
