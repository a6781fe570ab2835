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
export type QueriesInsight = { from: string; to: string; tz: string; data: QueryRow[]; unreadable?: { count: number } };

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
  finish: (day) => [...day.values()].map(({ written, ...t }) => ({ ...t, forms: [...written] })),
});

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function queriesInsight(ictx: InsightsContext, range: InsightRange, query: z.output<typeof insightsQueriesParams>): Promise<QueriesInsight> {
  const days: ReadonlyArray<DayEntry<QueryDay>> = await dimensionDays(ictx, QUERY_DAYS, range.current.days);
  const groups = new Map<string, Tally & { platforms: Record<Platform, number>; forms: Map<string, number> }>();
  for (const day of days) {
    for (const t of day.summary) {
      if (query.platform && t.platform !== query.platform) continue;
      let g = groups.get(t.key);
      if (!g) groups.set(t.key, (g = { ...emptyTally(), platforms: { chatgpt: 0, claude: 0, perplexity: 0, gemini: 0 }, forms: new Map() }));
      for (const k of ["mentions", "positive", "neutral", "negative", "positionSum", "positions", "first"] as const) g[k] += t[k];
      if (t.best !== null) g.best = Math.min(g.best ?? t.best, t.best);
      if (t.worst !== null) g.worst = Math.max(g.worst ?? t.worst, t.worst);
      if (t.platform) g.platforms[t.platform] += t.mentions;
      for (const [form, n] of t.forms) g.forms.set(form, (g.forms.get(form) ?? 0) + n);
    }
  }
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
  return { ...windowOf(range), data, ...(unreadable > 0 ? { unreadable: { count: unreadable } } : {}) };
}
