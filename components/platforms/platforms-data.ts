// Plain mappings behind /platforms and the movement on /intelligence: sentiment splits as shares,
// the drill-down links of a platform (its mentions, the visitors it sent, those who converted) in the
// URL contract (`from`, `to`, `tz` beside the list's own filter), the previous window's label,
// sentiment buckets as columns, ranking moves derived from each row's score change, and the chain's
// sorting (`sort` in the URL) and totals.
import { rateOf } from "@/components/charts/trend-chart-data";
import type { SortColumn } from "@/components/data-table/table-sort";
import { SENTIMENTS } from "@/lib/data-api/constants";
import type { RankingRow } from "@/lib/data-api/schemas";
import { formatBucket } from "@/lib/format/format";
import { comparisonLabel, type ComparedAnswer } from "@/lib/range/comparison";
import { rangeParams, type DateRange } from "@/lib/range/date-range";
import type { Sentiments } from "@/lib/insights/mentions";
import type { Platform, PlatformPrevious, PlatformRow } from "@/lib/insights/platforms";
import type { SentimentPoint } from "@/lib/insights/sentiment";
import type { Verdict } from "@/lib/stats/exact-tests";
import { shareTest } from "@/lib/stats/significance";

export type SentimentKey = (typeof SENTIMENTS)[number];
export const SENTIMENT_LABELS: Record<SentimentKey, string> = { positive: "Positive", neutral: "Neutral", negative: "Negative" };

const total = (s: Sentiments) => s.positive + s.neutral + s.negative;

/** Each sentiment's count and share of the split (percent to one decimal; null when there is none). */
export function sentimentShares(s: Sentiments): Array<{ key: SentimentKey; count: number; share: number | null }> {
  const n = total(s);
  return SENTIMENTS.map((key) => ({ key, count: s[key], share: n === 0 ? null : Math.round((s[key] * 1000) / n) / 10 }));
}

/** The share of positive mentions in percent (one decimal), null without any: what a sentiment change compares. */
export const positiveShare = (s: Sentiments): number | null => sentimentShares(s)[0]!.share;

/** The share of negative mentions in percent (one decimal), null without any. */
export const negativeShare = (s: Sentiments): number | null => sentimentShares(s)[2]!.share;

/** Whether a sentiment's share of the mentions moved beyond chance (Fisher's test on the counts). */
export const sentimentShareTest = (now: Sentiments, before: Sentiments, which: "positive" | "negative"): Verdict | null =>
  shareTest(now[which], now.positive + now.neutral + now.negative, before[which], before.positive + before.neutral + before.negative);

const withRange = (path: string, filters: Record<string, string>, range: DateRange) =>
  `${path}?${new URLSearchParams({ ...filters, ...rangeParams(range) }).toString()}`;

/** The range's mentions of a platform (and a sentiment), or naming a competitor, on /mentions. */
export const mentionsHref = (range: DateRange, filters: { platform?: string; sentiment?: string; competitor?: string } = {}) =>
  withRange("/mentions", Object.fromEntries(Object.entries(filters).filter((e): e is [string, string] => e[1] !== undefined)), range);

/** The range's visitors from a source (every AI platform is also a source), optionally only those who converted. */
export const visitorsHref = (range: DateRange, source: string, converted = false) =>
  withRange("/visitors", converted ? { source, converted: "true" } : { source }, range);

/**
 * "the previous 30 days (2 Oct – 31 Oct 2026)", "the same days a year before (…)": what the changes
 * of an answer compare with, read from the answer (lib/range/comparison.ts).
 */
export const previousWindowLabel = (answer: ComparedAnswer): string => comparisonLabel(answer);

export type SentimentColumn = Sentiments & { start: string; label: string; total: number };

/** The buckets of a sentiment answer as columns, for all platforms or one; `label` is the bucket's first day in `tz`. */
export function sentimentColumns(points: readonly SentimentPoint[], platform: Platform | "all", tz: string): SentimentColumn[] {
  return points.map((p) => {
    const s = platform === "all" ? p : p.platforms[platform];
    return { start: p.start, label: formatBucket(p.start, tz, "day"), positive: s.positive, neutral: s.neutral, negative: s.negative, total: total(s) };
  });
}

/**
 * A count axis from 0 to a round top at or above `max`: 4 or 5 steps of 1, 2 or 5 times a power of
 * ten (whole counts: never a step below 1), so the columns are read against round numbers. The
 * columns are scaled to `top`, so a column's height is its count on this axis.
 */
export function countAxis(max: number): { top: number; ticks: number[] } {
  const raw = Math.max(max, 1) / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].find((m) => raw <= m * magnitude)! * magnitude);
  const top = Math.max(step, Math.ceil(max / step) * step);
  return { top, ticks: Array.from({ length: top / step + 1 }, (_, i) => i * step) };
}

export type RankingMove = {
  name: string;
  is_workspace: boolean;
  rank: number | undefined;
  previousRank: number | null;
  score: number | undefined;
  change: number | undefined;
};

/**
 * Each ranked row with the rank it held by last period's scores (its score minus its change), so a
 * move in score reads as a move in rank too. Ties order as the ranking does: the workspace first,
 * then by name. A row without a score or change has no previous rank (and takes none from others).
 */
export function rankingMoves(rows: readonly RankingRow[]): RankingMove[] {
  // By index, not name: upstream names are data, and two rows may share one.
  const before = rows
    .flatMap((r, i) =>
      typeof r.score === "number" && typeof r.change === "number"
        ? [{ i, name: r.name, is_workspace: r.is_workspace === true, score: r.score - r.change }]
        : [],
    )
    .sort((a, b) => b.score - a.score || (a.is_workspace ? -1 : b.is_workspace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const previousRank = new Map(before.map((r, rank) => [r.i, rank + 1]));
  return rows.map((r, i) => ({
    name: r.name,
    is_workspace: r.is_workspace === true,
    rank: r.rank,
    previousRank: previousRank.get(i) ?? null,
    score: r.score,
    change: r.change,
  }));
}

/** The chain's sortable figures (`sort` on /platforms; without one, the platforms' own order), with their names in the sort menu. */
export const PLATFORM_SORT: readonly SortColumn<PlatformRow>[] = [
  { id: "mentions", kind: "number", value: (r) => r.mentions },
  { id: "visitors", kind: "number", value: (r) => r.visitors },
  { id: "conversions", kind: "number", value: (r) => r.conversions },
  { id: "conversion_rate", kind: "number", value: (r) => r.conversion_rate },
  { id: "positive_share", kind: "number", value: (r) => positiveShare(r.sentiment) },
  { id: "negative", kind: "number", value: (r) => r.sentiment.negative },
  { id: "avg_position", kind: "number", value: (r) => r.avg_position },
];

export const PLATFORM_SORT_LABELS: Record<string, string> = {
  mentions: "Mentions",
  visitors: "Visitors",
  conversions: "Conversions",
  conversion_rate: "Conversion rate",
  positive_share: "Positive share",
  negative: "Negative mentions",
  avg_position: "Average position",
};

function sumPlatforms(rows: readonly PlatformPrevious[]): PlatformPrevious {
  const sum = (value: (r: PlatformPrevious) => number) => rows.reduce((n, r) => n + value(r), 0);
  const visitors = sum((r) => r.visitors);
  const conversions = sum((r) => r.conversions);
  return {
    mentions: sum((r) => r.mentions),
    sentiment: { positive: sum((r) => r.sentiment.positive), neutral: sum((r) => r.sentiment.neutral), negative: sum((r) => r.sentiment.negative) },
    visitors,
    conversions,
    // Worked out again from the sums, never summed or averaged over the platforms.
    conversion_rate: rateOf(conversions, visitors),
    // How many of each platform's mentions had a known position is not in the answer, so no mean of means.
    avg_position: null,
  };
}

/**
 * All AI platforms together, in both windows: a mention and a visitor belong to one platform, so the
 * counts and the sentiment split add up; the rate comes from the sums; an average position cannot be
 * worked out from the platforms' own, so it is unknown.
 */
export const platformTotals = (rows: readonly PlatformRow[]): PlatformPrevious & { previous: PlatformPrevious } => ({
  ...sumPlatforms(rows),
  previous: sumPlatforms(rows.map((r) => r.previous)),
});
