// Maps the history answers (/api/history/score and /ranking) onto what /intelligence draws: one row
// per calendar day of the range in its zone, holding the day's snapshot (the last one recorded that
// day) or nothing. A day without a snapshot stays empty (null values), so the lines break there:
// nothing is drawn, or listed, for a day the dashboard did not see. Also each series' change over
// the range (first to last value seen), the ranks per day of us and every competitor with a line of
// its own for each, and the passings between us and a competitor (who passed whom, when).
import { formatDateRange, formatDay } from "@/lib/format/format";
import { addDays, daysBetween, todayIn } from "@/lib/range/calendar";
import type { RankingHistory, ScoreHistory } from "@/lib/history/routes";

export const SCORE_SERIES = [
  { key: "score", label: "AI Positioning Score" },
  { key: "visibility", label: "Visibility" },
  { key: "sentiment", label: "Sentiment" },
  { key: "authority", label: "Authority" },
  { key: "coverage", label: "Coverage" },
] as const;

export type ScoreSeriesKey = (typeof SCORE_SERIES)[number]["key"];

export const HISTORY_CHART_HEIGHT = 260;

/** Each score series' colour: the score in the accent, its components beside it. */
export const SCORE_COLORS: Record<ScoreSeriesKey, string> = {
  score: "var(--color-accent)",
  visibility: "var(--color-series-1)",
  sentiment: "var(--color-series-2)",
  authority: "var(--color-series-3)",
  coverage: "var(--color-series-4)",
};

/** A line of the rank chart: an entrant, its colour, and its dash pattern once the colours have all been used. */
export type RankLine = { name: string; isWorkspace: boolean; color: string; dash?: string };

/**
 * The competitors' colours (globals.css: each with at least 4.5:1 against the card in both themes),
 * in the legend's order. Eight: every competitor of a usual ranking (the demo's seven) has a colour of
 * its own; past eight the colours repeat, dashed and then dotted, so no two lines look alike.
 */
export const COMPETITOR_COLORS = [
  "var(--color-series-1)",
  "var(--color-series-2)",
  "var(--color-series-3)",
  "var(--color-series-4)",
  "var(--color-series-5)",
  "var(--color-series-6)",
  "var(--color-series-7)",
  "var(--color-series-8)",
] as const;
const COMPETITOR_DASHES = [undefined, "6 3", "2 3"] as const;

/** The rank chart's lines, one per entrant: ours in the accent (drawn thicker), each competitor its own colour, in the entrants' order. */
export function rankLines(entrants: readonly Entrant[]): RankLine[] {
  let n = 0;
  return entrants.map((e) => {
    if (e.isWorkspace) return { name: e.name, isWorkspace: true, color: "var(--color-accent)" };
    const i = n++;
    const dash = COMPETITOR_DASHES[Math.floor(i / COMPETITOR_COLORS.length) % COMPETITOR_DASHES.length];
    return { name: e.name, isWorkspace: false, color: COMPETITOR_COLORS[i % COMPETITOR_COLORS.length]!, ...(dash ? { dash } : {}) };
  });
}

/**
 * How every change over a window names it, beside the number: "31 Oct – 29 Nov 2026". One wording
 * for the score card, the history legend and the movement card, so two windows on one screen read as
 * two named windows, never as two values of one figure.
 */
export const windowWords = (window: { from: string; to: string }): string => formatDateRange(window);

/** " (kept from 15 Nov)" when the first kept day is not the window's first: the change starts there, not on the window's first day. */
export const keptFromWords = (window: { from: string }, firstDay: string | null): string =>
  firstDay !== null && firstDay !== window.from ? ` (kept from ${formatDay(firstDay, false)})` : "";

export type ScoreDay = { date: string; label: string; at: string | null } & Record<ScoreSeriesKey, number | null>;

export type SeriesChange = { key: ScoreSeriesKey; label: string; first: number | null; last: number | null; change: number | null };

/** Every calendar day from `from` to `to` (inclusive). */
export function daysOf(from: string, to: string): string[] {
  return Array.from({ length: Math.max(0, daysBetween(from, to)) }, (_, i) => addDays(from, i));
}

/** The calendar date of an ISO instant in `tz`. */
export const dateIn = (iso: string, tz: string): string => todayIn(tz, Date.parse(iso));

/** The last item of each day (items oldest first), by the date of `at` in `tz`: what the charts draw for the day. */
export function lastPerDay<T extends { at: string }>(items: readonly T[], tz: string): Map<string, T> {
  const byDay = new Map<string, T>();
  for (const item of items) byDay.set(dateIn(item.at, tz), item);
  return byDay;
}

/** The score and its components per day of the range; null on days without a snapshot. */
export function scoreDays(history: Pick<ScoreHistory, "from" | "to" | "tz" | "data">): ScoreDay[] {
  const byDay = lastPerDay(history.data, history.tz);
  return daysOf(history.from, history.to).map((date) => {
    const s = byDay.get(date);
    return {
      date,
      label: formatDay(date, false),
      at: s?.at ?? null,
      score: s?.score ?? null,
      visibility: s?.breakdown.visibility ?? null,
      sentiment: s?.breakdown.sentiment ?? null,
      authority: s?.breakdown.authority ?? null,
      coverage: s?.breakdown.coverage ?? null,
    };
  });
}

/** Each series' first and last value in the range, and the change between them (null without two values). */
export function seriesChanges(days: readonly ScoreDay[]): SeriesChange[] {
  return SCORE_SERIES.map(({ key, label }) => {
    const values = days.map((d) => d[key]).filter((v): v is number => v !== null);
    const first = values[0] ?? null;
    const last = values.at(-1) ?? null;
    return { key, label, first, last, change: values.length >= 2 ? last! - first! : null };
  });
}

/** How many days of the range have a snapshot. */
export const daysWithSnapshot = (days: readonly { at: string | null }[]) => days.filter((d) => d.at !== null).length;

export type Entrant = { name: string; isWorkspace: boolean };

/** One day of the rank chart: each entrant's rank by name (absent on a day without a snapshot). */
export type RankDay = { date: string; label: string; at: string | null; ranks: Record<string, number | null> };

export type Passing = {
  /** Who moved ahead. */
  passer: string;
  /** Who fell behind. */
  passed: string;
  /** Whether we moved ahead (true) or a competitor passed us (false). */
  weGained: boolean;
  /** The day of the snapshot that first shows it. */
  date: string;
  /** The day of the snapshot before it, when days without one lie in between (it happened in that span). */
  since?: string;
};

export type RankHistoryData = { entrants: Entrant[]; days: RankDay[]; passings: Passing[]; rankCount: number };

/** The ranks of us and every competitor per day, and the passings involving us, newest first. */
export function rankHistory(history: Pick<RankingHistory, "from" | "to" | "tz" | "data">): RankHistoryData {
  const known = new Map<string, Entrant>();
  let rankCount = 0;
  for (const snap of history.data) {
    for (const e of snap.entries) {
      if (!known.has(e.name) || e.is_workspace) known.set(e.name, { name: e.name, isWorkspace: e.is_workspace === true });
      if (e.rank !== null) rankCount = Math.max(rankCount, e.rank);
    }
  }
  const byDay = lastPerDay(history.data, history.tz);
  const days = daysOf(history.from, history.to).map((date) => {
    const s = byDay.get(date);
    const ranks: Record<string, number | null> = {};
    for (const e of s?.entries ?? []) ranks[e.name] = e.rank;
    return { date, label: formatDay(date, false), at: s?.at ?? null, ranks };
  });
  // Entrants by their latest rank (ours first on a tie), those missing from the latest at the end.
  const latest = [...byDay.values()].at(-1);
  const latestRank = (name: string) => latest?.entries.find((e) => e.name === name)?.rank ?? Number.POSITIVE_INFINITY;
  const entrants = [...known.values()].sort(
    (a, b) => latestRank(a.name) - latestRank(b.name) || Number(b.isWorkspace) - Number(a.isWorkspace) || a.name.localeCompare(b.name),
  );

  // One group per pair of consecutive snapshots; the newest group first, each in the entrants' order.
  const groups: Passing[][] = [];
  const seen = days.filter((d) => d.at !== null);
  for (let i = 1; i < seen.length; i++) {
    const before = seen[i - 1]!;
    const now = seen[i]!;
    const us = entrants.find((e) => e.isWorkspace)?.name;
    if (!us) break;
    const [usBefore, usNow] = [before.ranks[us], now.ranks[us]];
    if (usBefore == null || usNow == null) continue;
    const passings: Passing[] = [];
    groups.unshift(passings);
    for (const { name, isWorkspace } of entrants) {
      if (isWorkspace) continue;
      const [themBefore, themNow] = [before.ranks[name], now.ranks[name]];
      if (themBefore == null || themNow == null) continue;
      const gap = daysBetween(before.date, now.date) > 2 ? { since: before.date } : {};
      if (themBefore > usBefore && themNow < usNow) passings.push({ passer: name, passed: us, weGained: false, date: now.date, ...gap });
      if (themBefore < usBefore && themNow > usNow) passings.push({ passer: us, passed: name, weGained: true, date: now.date, ...gap });
    }
  }
  return { entrants, days, passings: groups.flat(), rankCount };
}

/** "Acme passed us on 12 Nov", "We passed Acme between 3 Nov and 6 Nov" (the days in between had no snapshot). */
export function passingText(p: Passing): string {
  const who = p.weGained ? `We passed ${p.passed}` : `${p.passer} passed us`;
  return p.since ? `${who} between ${formatDay(p.since)} and ${formatDay(p.date)}` : `${who} on ${formatDay(p.date)}`;
}
