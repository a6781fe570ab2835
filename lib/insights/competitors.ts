// GET /api/insights/competitors: the competitors named in the range's mentions (share of voice),
// most mentioned first, each with the share of the range's mentions naming it and the sentiment of
// those mentions (docs/product.md "Insights").
import "server-only";
import type { InsightsContext } from "./types";
import { mentionDays, unplacedMentions, type CompetitorTally, type Sentiments } from "./mentions";
import type { InsightRange } from "./range";
import { percent, windowOf } from "./figures";

export type CompetitorRow = { name: string; mentions: number; share: number | null; sentiment: Sentiments };
export type CompetitorsInsight = { from: string; to: string; tz: string; mentions: number; data: CompetitorRow[]; unreadable?: { count: number } };

export async function competitorsInsight(ictx: InsightsContext, range: InsightRange): Promise<CompetitorsInsight> {
  const days = await mentionDays(ictx, range.current.days);
  const mentions = days.reduce((n, d) => n + d.summary.mentions, 0);
  const byName = new Map<string, CompetitorTally>();
  for (const day of days) {
    for (const c of day.summary.competitors) {
      const t = byName.get(c.name) ?? { name: c.name, mentions: 0, positive: 0, neutral: 0, negative: 0 };
      byName.set(c.name, {
        name: c.name,
        mentions: t.mentions + c.mentions,
        positive: t.positive + c.positive,
        neutral: t.neutral + c.neutral,
        negative: t.negative + c.negative,
      });
    }
  }
  const data = [...byName.values()]
    .sort((a, b) => b.mentions - a.mentions || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((t) => ({
      name: t.name,
      mentions: t.mentions,
      share: percent(t.mentions, mentions),
      sentiment: { positive: t.positive, neutral: t.neutral, negative: t.negative },
    }));
  const unreadable = unplacedMentions(days, false);
  return { ...windowOf(range), mentions, data, ...(unreadable > 0 ? { unreadable: { count: unreadable } } : {}) };
}
