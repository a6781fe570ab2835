// Records what the dashboard has just read of a workspace's score and ranking as history: one
// snapshot per upstream `updated_at` (the store ignores one already recorded, so every reader, page
// view or background job, may call this with whatever it read). A score or ranking without a
// readable `updated_at` is not recorded: without it there is no instant to keep it at, and keeping it
// at "now" would invent a point the upstream never named.
import "server-only";
import type { Ranking, Score } from "@/lib/data-api/schemas";
import type { WorkspaceId } from "@/lib/store/schema";
import type { RankingEntry } from "@/lib/store/snapshots";
import type { Store } from "@/lib/store/store";

/** What was recorded: true where a new snapshot was kept, false where it was known or unreadable. */
export type Recorded = { score: boolean; ranking: boolean };

/** The instant of an upstream `updated_at` (already read as a timestamp), or undefined. */
export function instantOf(updatedAt: string | undefined): number | undefined {
  if (updatedAt === undefined) return undefined;
  const at = Date.parse(updatedAt);
  return Number.isSafeInteger(at) && at >= 0 ? at : undefined;
}

/**
 * Keeps `score` and `ranking` (as normalized by lib/data-api) for `workspaceId`. Either may be
 * absent (a page that read only one of them). Store errors are thrown: a caller on a read path
 * decides whether a failed recording may fail the read (it should not).
 */
export async function recordScoreAndRanking(
  store: Pick<Store, "snapshots">,
  workspaceId: WorkspaceId,
  score: Score | null | undefined,
  ranking: Ranking | null | undefined,
): Promise<Recorded> {
  const recorded: Recorded = { score: false, ranking: false };
  const scoreAt = instantOf(score?.updated_at);
  if (score && scoreAt !== undefined) {
    recorded.score = await store.snapshots.recordScore(workspaceId, {
      at: scoreAt,
      score: score.score ?? null,
      direction: score.trend?.direction ?? null,
      change: score.trend?.change ?? null,
      breakdown: {
        visibility: score.breakdown?.visibility ?? null,
        sentiment: score.breakdown?.sentiment ?? null,
        authority: score.breakdown?.authority ?? null,
        coverage: score.breakdown?.coverage ?? null,
      },
    });
  }
  const rankingAt = instantOf(ranking?.updated_at);
  if (ranking && rankingAt !== undefined) {
    const entries: RankingEntry[] = ranking.data.map((row) => ({
      rank: row.rank ?? null,
      name: row.name,
      score: row.score ?? null,
      change: row.change ?? null,
      is_workspace: row.is_workspace ?? null,
    }));
    recorded.ranking = await store.snapshots.recordRanking(workspaceId, { at: rankingAt, entries });
  }
  return recorded;
}
