// Plain mappings behind /platforms and the movement on /intelligence: sentiment splits as shares,
// the drill-down links of a platform (its mentions, the visitors it sent, those who converted) in the
// URL contract (`from`, `to`, `tz` beside the list's own filter), the previous window's label,
// sentiment buckets as columns, and ranking moves derived from each row's score change.
import { SENTIMENTS } from "@/lib/data-api/constants";
import type { RankingRow } from "@/lib/data-api/schemas";
import { formatBucket } from "@/lib/format/format";
import { comparisonLabel, type ComparedAnswer } from "@/lib/range/comparison";
import { rangeParams, type DateRange } from "@/lib/range/date-range";
import type { Sentiments } from "@/lib/server/insights/mentions";
import type { Platform } from "@/lib/server/insights/platforms";
import type { SentimentPoint } from "@/lib/server/insights/sentiment";

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

const withRange = (path: string, filters: Record<string, string>, range: DateRange) => `${path}?${new URLSearchParams({ ...filters, ...rangeParams(range) }).toString()}`;

/** The range's mentions of a platform (and a sentiment), or naming a competitor, on /mentions. */
export const mentionsHref = (range: DateRange, filters: { platform?: string; sentiment?: string; competitor?: string } = {}) =>
  withRange("/mentions", Object.fromEntries(Object.entries(filters).filter((e): e is [string, string] => e[1] !== undefined)), range);

/** The range's visitors from a source (every AI platform is also a source), optionally only those who converted. */
export const visitorsHref = (range: DateRange, source: string, converted = false) => withRange("/visitors", converted ? { source, converted: "true" } : { source }, range);

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

export type RankingMove = { name: string; is_workspace: boolean; rank: number | undefined; previousRank: number | null; score: number | undefined; change: number | undefined };

/**
 * Each ranked row with the rank it held by last period's scores (its score minus its change), so a
 * move in score reads as a move in rank too. Ties order as the ranking does: the workspace first,
 * then by name. A row without a score or change has no previous rank (and takes none from others).
 */
export function rankingMoves(rows: readonly RankingRow[]): RankingMove[] {
  // By index, not name: upstream names are data, and two rows may share one.
  const before = rows
    .flatMap((r, i) => (typeof r.score === "number" && typeof r.change === "number" ? [{ i, name: r.name, is_workspace: r.is_workspace === true, score: r.score - r.change }] : []))
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
