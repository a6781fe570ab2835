// One generated workspace: visitors (columnar), cached per-period aggregates and mentions, dated
// relative to the start instant, and the score and ranking read at any instant of the sandbox's clock.
// The demo keys share one; the empty key reads one with no data at all.
import { createAggregates, type PeriodAggregate } from "./analytics";
import { PERIODS, type Period } from "./contract";
import { emptyRankingAt, emptyScoreAt, rankingAt, scoreAt, type RankingJson, type ScoreJson } from "./intelligence";
import { generateMentions } from "./mentions";
import { generateVisitors, type VisitorColumns } from "./visitors";

export type Workspace = {
  visitors: VisitorColumns;
  aggregate: (period: Period) => PeriodAggregate;
  mentions: ReturnType<typeof generateMentions>;
  /** The score at an instant (ms epoch) of the sandbox's clock. */
  score: (atMs: number) => ScoreJson;
  /** The ranking at an instant (ms epoch) of the sandbox's clock. */
  ranking: (atMs: number) => RankingJson;
};

export function createWorkspace(seed: number, visitorCount: number, nowMs: number, withData = true): Workspace {
  const visitors = generateVisitors(seed, withData ? visitorCount : 0, nowMs);
  const mentions = withData ? generateMentions(seed, nowMs) : [];
  const aggregate = createAggregates(visitors);
  // Build every period's aggregates now (one scan each) so no dashboard request pays for it.
  for (const period of PERIODS) aggregate(period);
  return {
    visitors,
    aggregate,
    mentions,
    score: withData ? (at) => scoreAt(seed, at) : emptyScoreAt,
    ranking: withData ? (at) => rankingAt(seed, at) : emptyRankingAt,
  };
}
