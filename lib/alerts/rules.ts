// What each kind of alert rule watches and how it is judged: pure functions from kept history (score
// and ranking snapshots, closed days' figures) to a check: firing or ok, the value, what it was
// compared with, and a message saying what moved, by how much, against what. The live check
// (check.ts) judges the latest point; the preview replays the last 30 days through the same
// functions, so "would have fired 3 times" is the rule as it will run.
// Nothing is invented: a rule with too little history to judge (one score reading for a fall, fewer
// than three of the seven days before for a drop) is not checked at all, rather than checked against
// zero.
import type { RankingEntry, RankingSnapshot, ScoreSnapshot } from "@/lib/store/snapshots";
import type { RuleState } from "@/lib/store/schema";
import { formatP } from "@/lib/stats/significance";
import { dropTest } from "@/lib/stats/exact-tests";

export const RULE_KINDS = ["score_drop", "score_below", "rank_passed", "negative_mentions", "ai_visitors_drop", "conversions_drop"] as const;
export type RuleKind = (typeof RULE_KINDS)[number];
export const isRuleKind = (value: unknown): value is RuleKind => typeof value === "string" && (RULE_KINDS as readonly string[]).includes(value);

/** What each kind is judged on: the score's snapshots, the ranking's, or closed days' figures (and so when it can be checked). */
export const JUDGED_ON: Record<RuleKind, "score" | "ranking" | "day"> = {
  score_drop: "score",
  score_below: "score",
  rank_passed: "ranking",
  negative_mentions: "day",
  ai_visitors_drop: "day",
  conversions_drop: "day",
};

/** What a kind's threshold means and the values it may take (the 400's message says the same). */
export const THRESHOLDS: Record<RuleKind, { min: number; max: number; integer: boolean; meaning: string } | null> = {
  score_drop: { min: 0.1, max: 100, integer: false, meaning: "the fall in points between two readings of the score" },
  score_below: { min: 0, max: 100, integer: false, meaning: "the score value it must not go below" },
  rank_passed: null,
  negative_mentions: { min: 1, max: 1_000_000, integer: true, meaning: "negative mentions in one day" },
  ai_visitors_drop: { min: 1, max: 100, integer: false, meaning: "per cent below the previous 7 days' average" },
  conversions_drop: { min: 1, max: 100, integer: false, meaning: "per cent below the previous 7 days' average" },
};

/** The rule's threshold, checked: null for rank_passed; else a finite number in the kind's bounds, or a message. */
export function checkThreshold(kind: RuleKind, value: unknown): { threshold: number | null } | { error: string } {
  const bounds = THRESHOLDS[kind];
  if (bounds === null) return { threshold: null };
  if (typeof value !== "number" || !Number.isFinite(value)) return { error: `threshold must be a number: ${bounds.meaning} (${bounds.min} to ${bounds.max}).` };
  if (bounds.integer && !Number.isInteger(value)) return { error: `threshold must be a whole number: ${bounds.meaning}.` };
  if (value < bounds.min || value > bounds.max) return { error: `threshold must be between ${bounds.min} and ${bounds.max}: ${bounds.meaning}.` };
  return { threshold: value };
}

/** A closed day's figures as the checks read them (from the kept `sources` and `platforms` figures). */
export type DayFigures = { date: string; aiVisitors: number | null; conversions: number | null; negativeMentions: number | null };

export type RuleSubject = { kind: RuleKind; threshold: number | null };

/** One judgement of a rule. `basis` names what it looked at; checking the same basis again changes nothing. */
export type Judgement = {
  basis: string;
  at: number;
  state: RuleState;
  value: number | null;
  previous: number | null;
  message: string;
  /** What the next judgement needs (who passed us). */
  detail: unknown;
  /** The days the judgement is about (links, annotations), in the workspace's zone. */
  days: { from: string; to: string };
  /** The page behind it, with its own query. */
  link: { path: string; query: Record<string, string> };
  /** A drop past the threshold that the test held back (within normal variation): not firing. */
  heldBack?: boolean;
};

const pts = (n: number) => `${n.toFixed(1)} points`;
const one = (n: number) => n.toFixed(1);
const ordinal = (n: number) => {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] ?? s[v] ?? s[0]}`;
};
const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** The calendar date of an instant in `tz` (YYYY-MM-DD). */
export function dateIn(tz: string, at: number): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

function shiftDate(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** Judges a score rule at `scores[i]` (oldest first), or undefined when there is nothing to judge. */
export function judgeScore(rule: RuleSubject, scores: ScoreSnapshot[], i: number, tz: string): Judgement | undefined {
  const current = scores[i];
  if (!current || current.score === null) return undefined;
  const day = dateIn(tz, current.at);
  const base = {
    basis: `score:${current.at}`,
    at: current.at,
    detail: null,
    days: { from: shiftDate(day, -6), to: day },
    link: { path: "/intelligence", query: { from: shiftDate(day, -6), to: day, tz } },
  };
  const threshold = rule.threshold ?? 0;
  if (rule.kind === "score_below") {
    const firing = current.score < threshold;
    return {
      ...base,
      state: firing ? "firing" : "ok",
      value: current.score,
      previous: threshold,
      message: firing
        ? `The AI Positioning Score is ${one(current.score)}, below ${one(threshold)} (${pts(threshold - current.score)} under the line you set).`
        : `The AI Positioning Score is ${one(current.score)}, at or above ${one(threshold)}.`,
    };
  }
  // score_drop: against the reading before.
  let j = i - 1;
  while (j >= 0 && scores[j]!.score === null) j--;
  const before = j >= 0 ? scores[j]! : undefined;
  if (!before || before.score === null) return undefined;
  const drop = before.score - current.score;
  const firing = drop >= threshold;
  const moved = drop > 0 ? `fell ${pts(drop)}` : drop < 0 ? `rose ${pts(-drop)}` : "did not move";
  return {
    ...base,
    state: firing ? "firing" : "ok",
    value: current.score,
    previous: before.score,
    message: `The AI Positioning Score ${moved}, from ${one(before.score)} to ${one(current.score)} between the readings of ${dateIn(tz, before.at)} and ${day}${firing ? ` (a fall of ${pts(threshold)} or more sets this alert off)` : ""}.`,
  };
}

function ourEntry(entries: RankingEntry[]): { entry: RankingEntry; rank: number } | undefined {
  const index = entries.findIndex((e) => e.is_workspace === true);
  if (index < 0) return undefined;
  const entry = entries[index]!;
  return { entry, rank: entry.rank ?? index + 1 };
}

const rankOf = (entries: RankingEntry[], name: string): number | undefined => {
  const index = entries.findIndex((e) => e.name === name && e.is_workspace !== true);
  return index < 0 ? undefined : (entries[index]!.rank ?? index + 1);
};

/**
 * Judges rank_passed at `rankings[i]`: firing when a competitor that was behind us in the snapshot
 * before is now ahead; it stays firing while any competitor that passed us is still ahead.
 */
export function judgeRanking(rankings: RankingSnapshot[], i: number, tz: string, previousDetail: unknown): Judgement | undefined {
  const current = rankings[i];
  const before = rankings[i - 1];
  if (!current || !before) return undefined;
  const us = ourEntry(current.entries);
  const usBefore = ourEntry(before.entries);
  if (!us || !usBefore) return undefined;
  const newPassers = current.entries
    .filter((e) => e.is_workspace !== true)
    .filter((e) => {
      const was = rankOf(before.entries, e.name);
      const now = rankOf(current.entries, e.name);
      return was !== undefined && now !== undefined && was > usBefore.rank && now < us.rank;
    })
    .map((e) => e.name);
  const earlier = Array.isArray((previousDetail as { passers?: unknown } | null)?.passers)
    ? ((previousDetail as { passers: unknown[] }).passers.filter((n) => typeof n === "string") as string[])
    : [];
  const stillAhead = earlier.filter((name) => {
    const r = rankOf(current.entries, name);
    return r !== undefined && r < us.rank;
  });
  const passers = [...new Set([...stillAhead, ...newPassers])];
  const day = dateIn(tz, current.at);
  const firing = passers.length > 0;
  const describe = (name: string) => {
    const entry = current.entries.find((e) => e.name === name);
    return `${name} (${ordinal(rankOf(current.entries, name) ?? 0)}${typeof entry?.score === "number" ? `, score ${one(entry.score)}` : ""})`;
  };
  const message =
    newPassers.length > 0
      ? `${newPassers.map(describe).join(", ")} passed us in the AI ranking: we are ${ordinal(us.rank)} now, ${ordinal(usBefore.rank)} at the reading of ${dateIn(tz, before.at)}.`
      : firing
        ? `Still behind ${passers.map(describe).join(", ")} in the AI ranking: we are ${ordinal(us.rank)}.`
        : `No competitor is ahead of us that passed us: we are ${ordinal(us.rank)} in the AI ranking${earlier.length > 0 ? `, ahead of ${earlier.join(", ")} again` : ""}.`;
  return {
    basis: `ranking:${current.at}`,
    at: current.at,
    state: firing ? "firing" : "ok",
    value: us.rank,
    previous: usBefore.rank,
    message,
    detail: firing ? { passers } : null,
    days: { from: shiftDate(day, -6), to: day },
    link: { path: "/intelligence", query: { from: shiftDate(day, -6), to: day, tz } },
  };
}

/** The figure a daily rule reads from a day. */
function dayValue(kind: RuleKind, day: DayFigures): number | null {
  if (kind === "negative_mentions") return day.negativeMentions;
  if (kind === "ai_visitors_drop") return day.aiVisitors;
  if (kind === "conversions_drop") return day.conversions;
  return null;
}

/** Judges a daily rule at `days[i]` (days oldest first, gaps allowed), or undefined when it cannot be judged. */
export function judgeDay(rule: RuleSubject, days: DayFigures[], i: number, tz: string, at: number): Judgement | undefined {
  const day = days[i];
  if (!day) return undefined;
  const value = dayValue(rule.kind, day);
  if (value === null) return undefined;
  const threshold = rule.threshold ?? 0;
  const base = { basis: `day:${day.date}`, at, detail: null, days: { from: day.date, to: day.date } };
  if (rule.kind === "negative_mentions") {
    const firing = value >= threshold;
    return {
      ...base,
      state: firing ? "firing" : "ok",
      value,
      previous: threshold,
      message: firing
        ? `${plural(value, "negative mention")} by AI platforms on ${day.date}, at or above the ${threshold} you set.`
        : `${plural(value, "negative mention")} by AI platforms on ${day.date}, under the ${threshold} you set.`,
      link: { path: "/mentions", query: { sentiment: "negative", from: day.date, to: day.date, tz } },
    };
  }
  // A drop: against the average of the seven days before that have figures (at least three of them).
  const weekBefore = shiftDate(day.date, -7);
  const previous = days
    .filter((d) => d.date >= weekBefore && d.date < day.date)
    .map((d) => dayValue(rule.kind, d))
    .filter((v): v is number => v !== null);
  if (previous.length < 3) return undefined;
  const average = previous.reduce((a, b) => a + b, 0) / previous.length;
  if (average <= 0) return undefined;
  const change = ((value - average) / average) * 100;
  const past = -change >= threshold;
  // Past the threshold is not enough: the drop must be beyond chance too (the day against the days
  // before, one-sided binomial), or a quiet day of a few dozen visitors would set it off.
  const test = past
    ? dropTest(
        value,
        previous.reduce((a, b) => a + b, 0),
        previous.length,
      )
    : null;
  const firing = past && test?.significant === true;
  const heldBack = past && !firing;
  const what = rule.kind === "ai_visitors_drop" ? "AI visitors" : "Conversions";
  const direction = change < 0 ? `${one(-change)}% below` : `${one(change)}% above`;
  const chance = test ? ` (one-sided binomial test, ${formatP(test.p)})` : "";
  const verdict = firing
    ? ` — ${threshold}% below sets this alert off, and a drop this large is beyond normal variation${chance}`
    : heldBack
      ? ` — past the ${threshold}% you set, but within normal variation${chance}, so it is held back`
      : "";
  return {
    ...base,
    state: firing ? "firing" : "ok",
    value,
    previous: Math.round(average * 10) / 10,
    message: `${what} on ${day.date}: ${value.toLocaleString("en-US")}, ${direction} the average of the ${previous.length} days before (${one(average)})${verdict}.`,
    link:
      rule.kind === "ai_visitors_drop"
        ? { path: "/platforms", query: { from: shiftDate(day.date, -7), to: day.date, tz } }
        : { path: "/visitors", query: { converted: "true", from: day.date, to: day.date, tz } },
    ...(heldBack ? { heldBack } : {}),
  };
}

export type History = { scores: ScoreSnapshot[]; rankings: RankingSnapshot[]; days: DayFigures[] };

/** The judgements of `rule` at every point of `history` (oldest first), with rank_passed's detail carried along. */
export function replay(rule: RuleSubject, history: History, tz: string, at: (day: DayFigures) => number): Judgement[] {
  const out: Judgement[] = [];
  if (rule.kind === "score_drop" || rule.kind === "score_below") {
    for (let i = 0; i < history.scores.length; i++) {
      const j = judgeScore(rule, history.scores, i, tz);
      if (j) out.push(j);
    }
  } else if (rule.kind === "rank_passed") {
    let detail: unknown = null;
    for (let i = 1; i < history.rankings.length; i++) {
      const j = judgeRanking(history.rankings, i, tz, detail);
      if (!j) continue;
      detail = j.detail;
      out.push(j);
    }
  } else {
    for (let i = 0; i < history.days.length; i++) {
      const j = judgeDay(rule, history.days, i, tz, at(history.days[i]!));
      if (j) out.push(j);
    }
  }
  return out;
}

/**
 * Whether a check's state is to be sent: it differs from the state last sent (none sent counts as
 * ok) and the cooldown since that sending has passed. A change inside the cooldown is kept as the
 * rule's state and sent at the first check after the cooldown that still finds it.
 */
export function shouldNotify(state: RuleState, notified: { state: RuleState | null; at: number | null }, cooldownMs: number, now: number): boolean {
  if (state === (notified.state ?? "ok")) return false;
  return notified.at === null || now - notified.at >= cooldownMs;
}

/** The preview: how many times `rule` would have been sent as firing over `history`, with the cooldown. */
export function previewFirings(
  rule: RuleSubject & { cooldownMs: number },
  judgements: Judgement[],
): { fired: { at: number; message: string }[]; checks: number; heldBack: number } {
  let notified: { state: RuleState | null; at: number | null } = { state: null, at: null };
  const fired: { at: number; message: string }[] = [];
  for (const j of judgements) {
    if (!shouldNotify(j.state, notified, rule.cooldownMs, j.at)) continue;
    notified = { state: j.state, at: j.at };
    if (j.state === "firing") fired.push({ at: j.at, message: j.message });
  }
  // The days past the threshold that the test of chance held back (a drop rule's quiet days).
  return { fired, checks: judgements.length, heldBack: judgements.filter((j) => j.heldBack).length };
}
