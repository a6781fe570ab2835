// One generated workspace: visitors (columnar), cached per-period aggregates, mentions, score and
// ranking. The demo keys share one; the empty key reads one with no data at all.
import { createAggregates, type PeriodAggregate } from "./analytics";
import { PERIODS, type Period } from "./contract";
import { generateMentions, rankingJson, scoreJson, type ScoreJson } from "./mentions";
import { generateVisitors, type VisitorColumns } from "./visitors";

export type Workspace = {
  visitors: VisitorColumns;
  aggregate: (period: Period) => PeriodAggregate;
  mentions: ReturnType<typeof generateMentions>;
  score: ScoreJson;
  ranking: ReturnType<typeof rankingJson>;
};

export function createWorkspace(seed: number, visitorCount: number, nowMs: number, withData = true): Workspace {
  const visitors = generateVisitors(seed, withData ? visitorCount : 0, nowMs);
  const mentions = withData ? generateMentions(seed, nowMs) : [];
  const score = scoreJson(mentions, nowMs);
  const aggregate = createAggregates(visitors);
  // Build every period's aggregates now (one scan each) so no dashboard request pays for it.
  for (const period of PERIODS) aggregate(period);
  return {
    visitors,
    aggregate,
    mentions,
    score,
    ranking: rankingJson(seed, withData ? score : null, nowMs),
  };
}
