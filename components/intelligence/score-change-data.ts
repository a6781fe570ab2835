// The score's change as the dashboard states it, on /intelligence and the overview alike: over "the
// score's window" (the 30 calendar days ending on the score's day, in the viewer's zone), worked out
// from the history the dashboard kept with the same arithmetic as the history chart's legend (each
// series from its first kept day in the window to its last), so the score card, the legend over the
// same days and the movement card show one number for one change. Only when the kept history cannot
// give it (nothing kept in the window before the latest day, or the history could not be read) does
// the card show the upstream's own 30-day trend, named as such. Also the components' and the
// ranking's moves over the same window, for "What moved alongside the score".
import { COMPONENTS } from "@/components/charts/breakdown-chart-data";
import { keptFromWords, lastPerDay, scoreDays, seriesChanges, windowWords, type SeriesChange } from "@/components/charts/history-chart-data";
import type { Score } from "@/lib/data-api/schemas";
import { formatNumber, toDirection, type ChangeDirection } from "@/lib/format/format";
import type { RankingHistory, ScoreHistory } from "@/lib/history/routes";
import { addDays, todayIn } from "@/lib/range/calendar";
import type { DateRange } from "@/lib/range/date-range";

/** How many calendar days the score's window spans: the period the upstream's own trend is settled as. */
export const SCORE_WINDOW_DAYS = 30;

/** The upstream's trend, named in the product's words wherever it is shown instead of the kept change. */
export const UPSTREAM_TREND = "Workspace Analytics' own 30-day trend";

/** The upstream's per-competitor change, named the same way. */
export const UPSTREAM_RANKING_CHANGE = "Workspace Analytics' own 30-day change";

/**
 * The score's window as calendar days: the 30 days ending today in `tz`, the header's "Last 30 days".
 * Not the day the score says it was computed: that instant falls on another date west or east of
 * UTC, and the server (which prefetches the window before the score is read) and the browser must
 * name one window, or the page is drawn one way and hydrated another.
 */
export function scoreWindow(tz: string, nowMs: number): DateRange {
  const to = todayIn(tz, nowMs);
  return { from: addDays(to, -(SCORE_WINDOW_DAYS - 1)), to, tz };
}

/** Whether a history answer is the one for this window (not another window's, kept on screen while this one loads). */
export const answersWindow = (answer: { from: string; to: string; tz: string } | undefined, window: DateRange): boolean =>
  answer !== undefined && answer.from === window.from && answer.to === window.to && answer.tz === window.tz;

export type KeptChange = {
  /** The first and the last day of the window with a snapshot (the day's last one, as the chart draws it). */
  firstDay: string;
  lastDay: string;
  /** The score and each component, first kept value to last: the history legend's own figures. */
  series: SeriesChange[];
};

/** The change over a history answer's days, from its first kept day to its last; null without two kept days. */
export function keptChange(history: Pick<ScoreHistory, "from" | "to" | "tz" | "data">): KeptChange | null {
  const days = scoreDays(history);
  const kept = days.filter((d) => d.at !== null);
  if (kept.length < 2) return null;
  return { firstDay: kept[0]!.date, lastDay: kept.at(-1)!.date, series: seriesChanges(days) };
}

/** What the history query of the score's window holds, as the card needs it. */
export type WindowHistory<T> = { answer: T | undefined; failed: boolean };

export type ScoreChangeView =
  /** From the kept history: the score went from `first` to `last` over the window. */
  | { source: "kept"; window: DateRange; firstDay: string; first: number; last: number; change: number }
  /** The upstream's own trend, because the kept history holds nothing earlier in the window (`not-kept`) or could not be read. */
  | { source: "upstream"; window: DateRange; why: "not-kept" | "unavailable"; change: number | undefined; direction: ChangeDirection }
  /** The history of the window is still being read. */
  | { source: "pending"; window: DateRange };

/** The score's change over its window: the kept history's when it gives one, else the upstream's trend, named. */
export function scoreChangeView(
  score: Pick<Score, "trend">,
  window: DateRange,
  history: WindowHistory<Pick<ScoreHistory, "from" | "to" | "tz" | "data">>,
): ScoreChangeView {
  const upstream = (why: "not-kept" | "unavailable"): ScoreChangeView => ({
    source: "upstream",
    window,
    why,
    change: score.trend?.change,
    direction: toDirection(score.trend?.direction, score.trend?.change),
  });
  if (history.answer && answersWindow(history.answer, window)) {
    const kept = keptChange(history.answer);
    const s = kept?.series.find((c) => c.key === "score");
    if (kept && s && s.change !== null) return { source: "kept", window, firstDay: kept.firstDay, first: s.first!, last: s.last!, change: s.change };
    return upstream("not-kept");
  }
  return history.failed ? upstream("unavailable") : { source: "pending", window };
}

/** The words beside the change's badge: which window and which values ("31 Oct – 29 Nov 2026: 57 → 53"), or whose trend it is. */
export function scoreChangeWords(view: ScoreChangeView): string {
  const window = windowWords(view.window);
  if (view.source === "kept") return `${window}: ${formatNumber(view.first)} → ${formatNumber(view.last)}${keptFromWords(view.window, view.firstDay)}`;
  if (view.source === "pending") return `${window}: reading the kept history…`;
  if (view.change === undefined) {
    return view.why === "not-kept" ? `Change not kept for ${window}: no earlier score kept in it` : `Change over ${window}: the kept history could not be read`;
  }
  return view.why === "not-kept" ? `${UPSTREAM_TREND}; no earlier score kept for ${window}` : `${UPSTREAM_TREND}; the kept history could not be read`;
}

export type ComponentMove = { key: string; label: string; now: number | null; from: number | null; change: number | null };

/** Each component over the window: its value now, where it came from and its change (kept), or its current value alone. */
export function componentMoves(score: Pick<Score, "breakdown">, kept: KeptChange | null): ComponentMove[] {
  return COMPONENTS.map(({ key, label }) => {
    const series = kept?.series.find((s) => s.key === key);
    if (series && series.change !== null) return { key, label, now: series.last, from: series.first, change: series.change };
    const now = score.breakdown?.[key];
    return { key, label, now: typeof now === "number" ? now : null, from: null, change: null };
  });
}

export type RankMove = {
  name: string;
  isWorkspace: boolean;
  rank: number | null;
  /** The rank on the window's first kept day; null when it was not ranked then. */
  previousRank: number | null;
  score: number | null;
  previousScore: number | null;
  change: number | null;
};

export type KeptRankMoves = { firstDay: string; lastDay: string; moves: RankMove[] };

type RankEntry = RankingHistory["data"][number]["entries"][number];

/**
 * Every entry of the window's latest kept ranking against the first kept day's (each day's last
 * snapshot, as the rank chart draws it): rank then and now, score then and now. Null without two
 * kept days. Names are matched as the chart matches them; ours is matched as ours.
 */
export function keptRankMoves(history: Pick<RankingHistory, "tz" | "data">): KeptRankMoves | null {
  const byDay = [...lastPerDay(history.data, history.tz).entries()];
  if (byDay.length < 2) return null;
  const [firstDay, first] = byDay[0]!;
  const [lastDay, last] = byDay.at(-1)!;
  const then = (e: RankEntry) => first.entries.find((f) => (e.is_workspace ? f.is_workspace === true : f.name === e.name && f.is_workspace !== true));
  const moves = last.entries.map((e): RankMove => {
    const before = then(e);
    const change = e.score !== null && before?.score != null ? e.score - before.score : null;
    return {
      name: e.name,
      isWorkspace: e.is_workspace === true,
      rank: e.rank,
      previousRank: before?.rank ?? null,
      score: e.score,
      previousScore: before?.score ?? null,
      change,
    };
  });
  return { firstDay, lastDay, moves };
}

/** The moves to list: the largest changes first (at most `count`), and ours always, since ours is the score's own move. */
export function largestMoves<T extends { isWorkspace: boolean; change: number | null | undefined }>(moves: readonly T[], count: number): T[] {
  const largest = moves
    .filter((m) => typeof m.change === "number")
    .sort((a, b) => Math.abs(b.change!) - Math.abs(a.change!))
    .slice(0, count);
  const own = moves.find((m) => m.isWorkspace);
  return own && !largest.includes(own) ? [...largest, own] : largest;
}
