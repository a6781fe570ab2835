// How the competitor ranking shows its declared columns (lib/columns/ranking.ts): the rank and name
// title a card, the score draws a bar against the largest score shown, the change is in points, and
// the workspace's own row says "You" (the table marks it as the current row too).
import { ChangeBadge } from "@/components/ui/change-badge";
import { scoreBarWidth } from "@/components/ui/ranking-data";
import { Missing } from "@/components/ui/value-badge";
import { RANKING_COLUMNS } from "@/lib/columns/ranking";
import type { RankingRow } from "@/lib/data-api/schemas";
import { formatNumber, MISSING } from "@/lib/format/format";
import { columnsFor, type TableColumn } from "../table-column";

const { column } = columnsFor<RankingRow>()(RANKING_COLUMNS);

export const RANKING_TABLE_COLUMNS: readonly TableColumn<RankingRow>[] = [
  column("rank", { cardTitle: true, align: "start", cell: (r) => <span className="rank-number">#{r.rank ?? MISSING}</span> }),
  column("name", {
    rowHeader: true,
    cardTitle: true,
    cell: (r) => (
      <>
        {r.name}
        {r.is_workspace && (
          <span className="badge badge-accent" style={{ marginLeft: 8 }}>
            You
          </span>
        )}
      </>
    ),
  }),
  column("score", {
    align: "start",
    width: "45%",
    cell: (r, { rows }) => (
      <span className="score-cell">
        <span className="score-cell-value">{formatNumber(r.score)}</span>
        <span className="rank-bar" aria-hidden="true">
          <span className={r.is_workspace ? "rank-bar-fill is-workspace" : "rank-bar-fill"} style={{ width: `${scoreBarWidth(r.score, rows)}%` }} />
        </span>
      </span>
    ),
  }),
  column("change", { align: "start", cell: (r) => (r.change === undefined ? <Missing /> : <ChangeBadge change={r.change} current={r.score} unit="score" />) }),
];

export const rankingRowKey = (r: RankingRow, index: number): string => `${index}-${r.name}`;
export const isWorkspaceRow = (r: RankingRow): boolean => r.is_workspace === true;
