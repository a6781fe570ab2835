// Plain mappings behind /queries (the answer of `/api/insights/queries` is
// lib/insights/queries.ts's): the page's filters in the URL (`platform`, `never_first`) as the route takes them, and
// where a question leads: its mentions over the range (of the platform filtered on), on /mentions
// filtered by `query`, which the dashboard matches as this page groups questions, so the list's
// total is the row's figure.
// Also the table's rows (flat, with their links) and its totals.
import type { QuestionTableRow } from "@/components/data-table/columns/questions";
import { PLATFORMS } from "@/lib/data-api/constants";
import { rangeParams, type DateRange } from "@/lib/range/date-range";
import type { Sentiments } from "@/lib/insights/mentions";
import type { Platform } from "@/lib/insights/platforms";
import type { QueriesInsight } from "@/lib/insights/queries";

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

/** The answer's questions as the table's rows (flat), each with its link (of the platform filtered on, if any). */
export const toQuestionRows = (answer: QueriesInsight, platform: string | null): QuestionTableRow[] =>
  answer.data.map((r) => ({
    key: r.key,
    query: r.query,
    mentions: r.mentions,
    ...r.platforms,
    avg_position: r.avg_position,
    best_position: r.best_position,
    worst_position: r.worst_position,
    first_share: r.first_share,
    ...r.sentiment,
    href: questionMentionsHref(answer, r.query, platform),
  }));

const known = (values: ReadonlyArray<number | null>) => values.filter((v): v is number => v !== null);

/**
 * The questions' totals, as a row of the table named `title` (no question, no link): a mention has
 * one question, so mentions, the platforms' and the sentiment counts add up; the best and worst
 * positions are the best and worst of the questions'. An average position and the share named first
 * cannot be worked out from the rows (how many of a question's mentions had a known position, or
 * were named first, is not in the answer), so they are not known (null).
 */
export function questionTotals(rows: readonly QuestionTableRow[], title: string): QuestionTableRow {
  const sum = (key: "mentions" | Platform | keyof Sentiments) => rows.reduce((n, r) => n + r[key], 0);
  const best = known(rows.map((r) => r.best_position));
  const worst = known(rows.map((r) => r.worst_position));
  return {
    key: "totals",
    query: title,
    mentions: sum("mentions"),
    ...(Object.fromEntries(PLATFORMS.map((p) => [p, sum(p)])) as Record<Platform, number>),
    avg_position: null,
    best_position: best.length ? Math.min(...best) : null,
    worst_position: worst.length ? Math.max(...worst) : null,
    first_share: null,
    positive: sum("positive"),
    neutral: sum("neutral"),
    negative: sum("negative"),
    href: "",
  };
}
