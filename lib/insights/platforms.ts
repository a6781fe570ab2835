// GET /api/insights/platforms: per AI platform, the chain from being mentioned to converting: its
// mentions (sentiment split, average known position), the visitors it sent and how many converted,
// each against the comparison period (docs/product.md "Insights"). Mentions that could not be placed in a
// period or a platform are reported as `unreadable`, not dropped silently.
import "server-only";
import { PLATFORMS } from "@/lib/data-api/constants";
import type { InsightsContext } from "./types";
import type { DayEntry } from "./types";
import { mentionDays, unplacedMentions, type MentionDay, type Sentiments } from "./mentions";
import type { InsightRange } from "./range";
import { mean, windowOf } from "./figures";
import { sourceFigures, type SourceFigures } from "./sources";

export type Platform = (typeof PLATFORMS)[number];
export type PlatformPrevious = SourceFigures & { mentions: number; sentiment: Sentiments; avg_position: number | null };
export type PlatformRow = PlatformPrevious & { platform: Platform; previous: PlatformPrevious };
export type PlatformsInsight = {
  from: string;
  to: string;
  tz: string;
  compare: { from: string; to: string };
  data: PlatformRow[];
  unreadable?: { count: number };
};

/** One platform's mentions over some days: count, sentiment split, average known position. */
function mentionFigures(days: ReadonlyArray<DayEntry<MentionDay>>, p: number): { mentions: number; sentiment: Sentiments; avg_position: number | null } {
  const t = { mentions: 0, positive: 0, neutral: 0, negative: 0, positionSum: 0, positions: 0 };
  for (const d of days) for (const k of Object.keys(t) as Array<keyof typeof t>) t[k] += d.summary.platforms[p]![k];
  return {
    mentions: t.mentions,
    sentiment: { positive: t.positive, neutral: t.neutral, negative: t.negative },
    avg_position: mean(t.positionSum, t.positions),
  };
}

export async function platformsInsight(ictx: InsightsContext, range: InsightRange): Promise<PlatformsInsight> {
  // Every AI platform is also a visitor source of the same name.
  const split = range.previous.days.length;
  const [visitors, days] = await Promise.all([sourceFigures(ictx, range, PLATFORMS), mentionDays(ictx, [...range.previous.days, ...range.current.days])]);
  const [previousDays, currentDays] = [days.slice(0, split), days.slice(split)];
  const data = PLATFORMS.map((platform, p): PlatformRow => {
    const [now, before] = visitors[p]!;
    const current = mentionFigures(currentDays, p);
    const previous = mentionFigures(previousDays, p);
    return {
      platform,
      mentions: current.mentions,
      sentiment: current.sentiment,
      avg_position: current.avg_position,
      ...now,
      previous: { mentions: previous.mentions, sentiment: previous.sentiment, avg_position: previous.avg_position, ...before },
    };
  });
  // A custom comparison may overlap the range: a day read for both counts its unreadable mentions once.
  const unreadable = unplacedMentions([...new Map([...range.previous.days, ...range.current.days].map((d, i) => [d.date, days[i]!])).values()], true);
  return { ...windowOf(range), compare: range.compare, data, ...(unreadable > 0 ? { unreadable: { count: unreadable } } : {}) };
}
