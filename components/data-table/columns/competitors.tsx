// How the competitors named with the brand show their declared columns (lib/columns/competitors.ts):
// the name titles a card and links to the range's mentions naming it (filtered by the dashboard, so
// as many as its figure), the share draws a bar against 100%.
// No totals row: a mention can name several competitors, so their counts and shares do not add up.
import { AppLink as Link } from "@/components/shares/shared-view";
import { COMPETITOR_COLUMNS } from "@/lib/columns/competitors";
import { formatCount, formatPercent } from "@/lib/format/format";
import { columnsFor, type TableColumn } from "../table-column";

/** A competitor's row, flat: its sentiment split as three counts (as the download has it). */
export type CompetitorTableRow = { name: string; mentions: number; share: number | null; positive: number; neutral: number; negative: number; href: string };

const { column } = columnsFor<CompetitorTableRow>()(COMPETITOR_COLUMNS);

export const COMPETITOR_TABLE_COLUMNS: readonly TableColumn<CompetitorTableRow>[] = [
  column("name", {
    rowHeader: true,
    cardTitle: true,
    cell: (r) => (
      <Link href={r.href} prefetch={false} aria-label={`${r.name}: open the ${formatCount(r.mentions, "mention")} naming it`} data-testid="competitor-link">
        {r.name}
      </Link>
    ),
  }),
  column("mentions"),
  column("share", {
    align: "start",
    width: "30%",
    cell: (r) => (
      <span className="score-cell">
        <span className="score-cell-value" data-testid="competitor-share">
          {formatPercent(r.share)}
        </span>
        <span className="rank-bar" aria-hidden="true">
          <span className="rank-bar-fill" style={{ width: `${Math.max(0, Math.min(100, r.share ?? 0))}%` }} />
        </span>
      </span>
    ),
  }),
  column("positive"),
  column("neutral"),
  column("negative"),
];

/** The table sorts by each column (`competitor_sort` on /platforms); its own order is the answer's, most mentioned first. */
export const COMPETITOR_TABLE_SORT = { param: "competitor_sort", defaultSort: { id: "mentions", desc: true } } as const;

export const competitorRowKey = (r: CompetitorTableRow, index: number): string => `${index}-${r.name}`;
