// GET /api/insights/sentiment: how AI platforms talked about the brand over the range, bucket by
// bucket (days, or ISO weeks clipped to the range, as the trend): the positive, neutral and negative
// mentions of all four platforms together and of each. Read from the same per-day mention summaries
// as /insights/platforms and /insights/competitors (lib/insights/mentions.ts), so a page
// asking all three lists each day's mentions once, and the counts on one screen agree.
import "server-only";
import { PLATFORMS, type InsightBucket } from "@/lib/data-api/constants";
import type { InsightsContext } from "./types";
import { mentionDays, unplacedMentions, type MentionDay, type Sentiments } from "./mentions";
import type { Platform } from "./platforms";
import type { InsightRange } from "./range";
import { isoStart, windowOf } from "./figures";

export type SentimentPoint = Sentiments & { start: string; platforms: Record<Platform, Sentiments> };
export type SentimentInsight = { from: string; to: string; tz: string; bucket: InsightBucket; data: SentimentPoint[]; unreadable?: { count: number } };

const sum = (a: Sentiments, b: Sentiments): Sentiments => ({
  positive: a.positive + b.positive,
  neutral: a.neutral + b.neutral,
  negative: a.negative + b.negative,
});
const none = (): Sentiments => ({ positive: 0, neutral: 0, negative: 0 });

export async function sentimentInsight(ictx: InsightsContext, range: InsightRange): Promise<SentimentInsight> {
  const days = await mentionDays(ictx, range.current.days);
  let next = 0;
  const data = range.buckets.current.map((bucket): SentimentPoint => {
    // Buckets are consecutive runs of the range's days, in order.
    const own: MentionDay[] = days.slice(next, (next += bucket.days.length)).map((d) => d.summary);
    const platforms = PLATFORMS.map((_, p) => own.reduce((t, d) => sum(t, d.platforms[p]!), none()));
    return {
      start: isoStart(bucket),
      ...platforms.reduce(sum, none()),
      platforms: Object.fromEntries(PLATFORMS.map((name, p) => [name, platforms[p]!])) as Record<Platform, Sentiments>,
    };
  });
  // As /insights/platforms: a mention with no readable time or no known platform is in no bucket's split.
  const unreadable = unplacedMentions(days, true);
  return { ...windowOf(range), bucket: range.bucket, data, ...(unreadable > 0 ? { unreadable: { count: unreadable } } : {}) };
}
