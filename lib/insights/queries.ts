// GET /api/insights/queries: the questions put to AI platforms whose answers mention the brand,
// grouped by their text trimmed and lower-cased (`key`; `query` is its most frequent written
// form), with their mentions in the range per platform, average, best and worst known position,
// the share of mentions at position 1 and the sentiment split; most mentions first. `platform`
// keeps one platform's mentions; `never_first=true` the queries never named first. The Data API
// cannot filter mentions by query, so these come from listing the mentions: a dimension of the
// mention list (dimensions.ts), so the listing /platforms makes serves it too. A mention without a
// query (missing, empty or blank) or that cannot be placed in a day is reported as `unreadable`.
import "server-only";
import type { z } from "zod";
import { PLATFORMS } from "@/lib/data-api/constants";
import type { insightsQueriesParams } from "@/lib/insights/schema";
import type { Mention } from "@/lib/data-api/schemas";
import type { InsightsContext } from "./types";
import { dimensionDays, unplacedRows } from "./dimensions";
import { MENTIONS } from "./listing";
import { registerDimension } from "./registry";
import type { DayEntry } from "./types";
import { countSentiment, knownPosition, type Sentiments } from "./mentions";
import type { Platform } from "./platforms";
import type { InsightRange } from "./range";
import { mean, percent, windowOf } from "./figures";

export type QueryRow = {
  key: string;
  query: string;
  mentions: number;
  platforms: Record<Platform, number>;
  avg_position: number | null;
  best_position: number | null;
  worst_position: number | null;
  first_share: number | null;
  sentiment: Sentiments;
};
export type QueriesInsight = {
  from: string;
  to: string;
  tz: string;
  data: QueryRow[];
  /** Mentions of questions past a day's bound (MAX_QUESTIONS_PER_DAY), kept only as a count. */
  other?: { mentions: number };
  unreadable?: { count: number };
};

type Tally = Sentiments & { mentions: number; positionSum: number; positions: number; best: number | null; worst: number | null; first: number };
/** One query's mentions of a day on one platform (`platform` null: missing or not one of the four), and its written forms. */
type QueryPlatformDay = Tally & { key: string; platform: Platform | null; forms: Array<[form: string, count: number]> };
export type QueryDay = QueryPlatformDay[];

const emptyTally = (): Tally => ({ mentions: 0, positive: 0, neutral: 0, negative: 0, positionSum: 0, positions: 0, best: null, worst: null, first: 0 });

/**
 * A question's grouping: its text trimmed and case-folded; null for a mention without one (missing,
 * empty or blank). /mentions filters by `query` with this same key, so a row here opens exactly the
 * mentions it counts.
 */
export function questionKey(query: string | undefined): string | null {
  const key = query?.trim().toLowerCase();
  return key ? key : null;
}

/** Mentions per day by query and platform. Lenient: a mention without a query is counted as unreadable. */
export const QUERY_DAYS = registerDimension<Mention, Map<string, QueryPlatformDay & { written: Map<string, number> }>, QueryDay>({
  key: "qd1:",
  resource: MENTIONS,
  strict: false,
  empty: () => new Map(),
  add(day, row) {
    const key = questionKey(row.query);
    if (key === null) return false;
    const form = row.query!.trim();
    const platform = (PLATFORMS as readonly string[]).includes(row.platform ?? "") ? (row.platform as Platform) : null;
    // Upstream text in a Map key: "__proto__" is just a query.
    const id = `${platform ?? ""}\n${key}`;
    let t = day.get(id);
    if (!t) day.set(id, (t = { ...emptyTally(), key, platform, forms: [], written: new Map() }));
    t.written.set(form, (t.written.get(form) ?? 0) + 1);
    t.mentions++;
    countSentiment(t, row.sentiment);
    const position = knownPosition(row);
    if (position !== undefined) {
      t.positionSum += position;
      t.positions++;
      t.best = Math.min(t.best ?? position, position);
      t.worst = Math.max(t.worst ?? position, position);
      if (position === 1) t.first++;
    }
    return true;
  },
  finish: (day) => boundedQuestions([...day.values()].map(({ written, ...t }) => ({ ...t, forms: [...written] }))),
});

/** The most questions a day keeps by name; the rest are summed per platform under OTHER_QUESTIONS. */
export const MAX_QUESTIONS_PER_DAY = 500;
/** The key the questions past a day's bound are summed under: empty, which no question's key is (questionKey). */
const OTHER_QUESTIONS = "";

const addTally = (into: Tally, t: Tally): void => {
  for (const k of ["mentions", "positive", "neutral", "negative", "positionSum", "positions", "first"] as const) into[k] += t[k];
  if (t.best !== null) into.best = Math.min(into.best ?? t.best, t.best);
  if (t.worst !== null) into.worst = Math.max(into.worst ?? t.worst, t.worst);
};

/**
 * A day's questions, at most MAX_QUESTIONS_PER_DAY by name (those with the most mentions, then by
 * key), the rest summed per platform under OTHER_QUESTIONS: a day of a large workspace stays a
 * bounded row in the store.
 */
function boundedQuestions(rows: QueryDay): QueryDay {
  const mentions = new Map<string, number>();
  for (const r of rows) mentions.set(r.key, (mentions.get(r.key) ?? 0) + r.mentions);
  if (mentions.size <= MAX_QUESTIONS_PER_DAY) return rows;
  const named = new Set(
    [...mentions]
      .sort(([a, x], [b, y]) => y - x || byName(a, b))
      .slice(0, MAX_QUESTIONS_PER_DAY)
      .map(([key]) => key),
  );
  const other = new Map<Platform | null, QueryPlatformDay>();
  for (const r of rows) {
    if (named.has(r.key)) continue;
    let o = other.get(r.platform);
    if (!o) other.set(r.platform, (o = { ...emptyTally(), key: OTHER_QUESTIONS, platform: r.platform, forms: [] }));
    addTally(o, r);
  }
  return [...rows.filter((r) => named.has(r.key)), ...other.values()];
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function queriesInsight(ictx: InsightsContext, range: InsightRange, query: z.output<typeof insightsQueriesParams>): Promise<QueriesInsight> {
  const days: ReadonlyArray<DayEntry<QueryDay>> = await dimensionDays(ictx, QUERY_DAYS, range.current.days);
  const groups = new Map<string, Tally & { platforms: Record<Platform, number>; forms: Map<string, number> }>();
  for (const day of days) {
    for (const t of day.summary) {
      if (query.platform && t.platform !== query.platform) continue;
      let g = groups.get(t.key);
      if (!g) groups.set(t.key, (g = { ...emptyTally(), platforms: { chatgpt: 0, claude: 0, perplexity: 0, gemini: 0 }, forms: new Map() }));
      addTally(g, t);
      if (t.platform) g.platforms[t.platform] += t.mentions;
      for (const [form, n] of t.forms) g.forms.set(form, (g.forms.get(form) ?? 0) + n);
    }
  }
  // Questions past a day's bound are no question of their own: said as a count of mentions.
  const other = groups.get(OTHER_QUESTIONS);
  groups.delete(OTHER_QUESTIONS);
  const data = [...groups]
    .map(([key, g]): QueryRow => ({
      key,
      // The most frequent written form; of equally frequent ones, the first in code-point order.
      query: [...g.forms].sort(([a, x], [b, y]) => y - x || byName(a, b))[0]![0],
      mentions: g.mentions,
      platforms: g.platforms,
      avg_position: mean(g.positionSum, g.positions),
      best_position: g.best,
      worst_position: g.worst,
      first_share: percent(g.first, g.mentions),
      sentiment: { positive: g.positive, neutral: g.neutral, negative: g.negative },
    }))
    .filter((row) => query.never_first !== "true" || row.first_share === 0)
    .sort((a, b) => b.mentions - a.mentions || byName(a.key, b.key));
  const unreadable = unplacedRows(days);
  return {
    ...windowOf(range),
    data,
    ...(other ? { other: { mentions: other.mentions } } : {}),
    ...(unreadable > 0 ? { unreadable: { count: unreadable } } : {}),
  };
}
