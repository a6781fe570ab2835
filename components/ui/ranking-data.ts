// The competitor ranking in rank order, shared by the overview's top three and /intelligence.
import type { RankingRow } from "@/lib/data-api/schemas";

/** Rows by rank; a row whose rank is unknown goes last, in the upstream's order (stable sort). */
export function sortByRank(rows: readonly RankingRow[]): RankingRow[] {
  const rankOf = (r: RankingRow) => r.rank ?? Number.POSITIVE_INFINITY;
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => rankOf(a.row) - rankOf(b.row) || a.i - b.i)
    .map((x) => x.row);
}

/** A score bar's width in percent of the largest score shown (at least 100); 0 when unknown. */
export function scoreBarWidth(score: number | undefined, rows: readonly RankingRow[]): number {
  if (score === undefined) return 0;
  const max = rows.reduce((m, r) => (r.score !== undefined && r.score > m ? r.score : m), 100);
  return Math.max(0, Math.min(100, (score / max) * 100));
}
