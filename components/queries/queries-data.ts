// Plain mappings behind /queries (the answer of `/api/insights/queries` is
// lib/server/insights/queries.ts's): the page's filters in the URL (`platform`, `never_first`) as the route takes them, and
// where a question leads: its mentions over the range (of the platform filtered on), on /mentions
// filtered by `query`, which the dashboard matches as this page groups questions, so the list's
// total is the row's figure.
// Also the table's sortable columns (`sort` in the URL) and its totals.
import type { Sort, SortColumn } from "@/components/data-table/table-sort";
import { PLATFORMS } from "@/lib/data-api/constants";
import { rangeParams, type DateRange } from "@/lib/range/date-range";
import type { Sentiments } from "@/lib/server/insights/mentions";
import type { Platform } from "@/lib/server/insights/platforms";
import type { QueryRow } from "@/lib/server/insights/queries";

export type { QueryRow };

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

/** The questions table's sortable columns (`sort` in the URL): the question, then every figure. */
export const QUESTION_SORT: readonly SortColumn<QueryRow>[] = [
  { id: "query", kind: "text", value: (r) => r.query },
  { id: "mentions", kind: "number", value: (r) => r.mentions },
  ...PLATFORMS.map((p): SortColumn<QueryRow> => ({ id: p, kind: "number", value: (r) => r.platforms[p] })),
  { id: "avg_position", kind: "number", value: (r) => r.avg_position },
  { id: "best_position", kind: "number", value: (r) => r.best_position },
  { id: "worst_position", kind: "number", value: (r) => r.worst_position },
  { id: "first_share", kind: "number", value: (r) => r.first_share },
  { id: "positive", kind: "number", value: (r) => r.sentiment.positive },
  { id: "neutral", kind: "number", value: (r) => r.sentiment.neutral },
  { id: "negative", kind: "number", value: (r) => r.sentiment.negative },
];

/** The questions' own order, as the answer lists them: most mentions first. */
export const QUESTION_DEFAULT_SORT: Sort = { id: "mentions", desc: true };

export type QuestionTotals = {
  mentions: number;
  platforms: Record<Platform, number>;
  /** The best place any question got, and the worst: null when no position is known. */
  best_position: number | null;
  worst_position: number | null;
  sentiment: Sentiments;
};

const known = (values: ReadonlyArray<number | null>) => values.filter((v): v is number => v !== null);

/**
 * The questions' totals: a mention has one question, so mentions, the platforms' and the sentiment
 * counts add up; the best and worst positions are the best and worst of the questions'. An average
 * position and the share named first cannot be worked out from the rows (how many of a question's
 * mentions had a known position, or were named first, is not in the answer), so there are none.
 */
export function questionTotals(rows: readonly QueryRow[]): QuestionTotals {
  const sum = (value: (r: QueryRow) => number) => rows.reduce((n, r) => n + value(r), 0);
  const best = known(rows.map((r) => r.best_position));
  const worst = known(rows.map((r) => r.worst_position));
  return {
    mentions: sum((r) => r.mentions),
    platforms: Object.fromEntries(PLATFORMS.map((p) => [p, sum((r) => r.platforms[p])])) as Record<Platform, number>,
    best_position: best.length ? Math.min(...best) : null,
    worst_position: worst.length ? Math.max(...worst) : null,
    sentiment: { positive: sum((r) => r.sentiment.positive), neutral: sum((r) => r.sentiment.neutral), negative: sum((r) => r.sentiment.negative) },
  };
}
