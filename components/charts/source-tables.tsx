"use client";
// Conversion by source as a bar table (bar-table.tsx): the AI platforms set apart in their own row
// group with its total, a bar per source under its name, and each source and its visitors a link to
// the visitors behind them, its conversions to the converted ones; the AI platforms' total visitors
// and conversions open their one list (`source=ai`) the same way.
// Each column sorts the rows within their group (`sort` in the URL); all sources' totals close the
// table, their counts opening the range's visitors and converted ones.
import { AppLink as Link } from "@/components/shares/shared-view";
import sortStyles from "@/components/data-table/sort.module.css";
import { useTableSort } from "@/components/data-table/use-table-sort";
import { ChangeBadge } from "@/components/ui/change-badge";
import { AI_SOURCE_GROUP } from "@/lib/data-api/constants";
import type { SourceFigures, SourceRow } from "@/lib/insights/sources";
import { formatNumber, formatPercent } from "@/lib/format/format";
import { BarCell, BarGroupHeader, BarTable } from "./bar-table";
import styles from "./charts.module.css";
import { groupBySource, groupInOrder, SOURCE_SORT, sourceLabel, sourceTotals, visitorsHref, type ListWindow } from "./source-table-data";
import { figureTest, judge } from "@/lib/stats/significance";

const COLUMNS = [
  { id: "source", label: "Source" },
  { id: "visitors", label: "Visitors" },
  {
    id: "conversions",
    label: (
      <>
        <span className={styles.wide}>Conversions</span>
        <span className={styles.narrow}>Conv.</span>
      </>
    ),
  },
  {
    id: "conversion_rate",
    label: (
      <>
        <span className={styles.wide}>Conversion rate</span>
        <span className={styles.narrow}>Rate</span>
      </>
    ),
  },
];

/**
 * Conversion by source over a calendar range: visitors, conversions and rate per source, each with
 * its change against the previous period; the AI platforms' group states its own total and rate.
 */
export function ConversionBySourceTable({
  rows,
  windowLabel,
  previousLabel,
  window,
}: {
  rows: readonly SourceRow[];
  windowLabel: string;
  previousLabel: string;
  window: ListWindow;
}) {
  const max = Math.max(1, ...rows.map((r) => r.visitors));
  const sort = useTableSort(rows, { param: "sort", columns: SOURCE_SORT });
  const groups = sort.sort ? groupInOrder(sort.rows) : groupBySource(rows, (r) => r.visitors);
  const all = sourceTotals(rows);
  return (
    <BarTable
      testId="sources-table"
      caption={
        <>
          Conversion by source, {windowLabel}; changes against {previousLabel}
        </>
      }
      columns={COLUMNS}
      sort={sort}
    >
      {groups.map((g) => {
        const total = sourceTotals(g.rows);
        return (
          <tbody key={g.id}>
            <BarGroupHeader group={g.id} label={g.label} columns={4}>
              <span className={styles.groupNote} data-testid={`group-total-${g.id}`}>
                {" "}
                ·{" "}
                {g.id === "ai" ? (
                  // The other sources' total has no list of its own: the visitor list filters a source, or the AI platforms together.
                  <>
                    <Link href={visitorsHref(window, { source: AI_SOURCE_GROUP })} prefetch={false} data-testid="group-visitors-link-ai">
                      {formatNumber(total.visitors)} visitors
                    </Link>
                    ,{" "}
                    <Link href={visitorsHref(window, { source: AI_SOURCE_GROUP, converted: true })} prefetch={false} data-testid="group-conversions-link-ai">
                      {formatNumber(total.conversions)} conversions
                    </Link>
                  </>
                ) : (
                  <>
                    {formatNumber(total.visitors)} visitors, {formatNumber(total.conversions)} conversions
                  </>
                )}
                , {formatPercent(total.conversion_rate)}{" "}
              </span>
              <ChangeBadge
                current={total.visitors}
                previous={total.previous.visitors}
                significance={judge(total, "visitors")}
                unit="count"
                window={previousLabel}
                compact
              />
            </BarGroupHeader>
            {g.rows.map((r) => (
              <tr key={r.source} data-testid={`source-row-${r.source}`}>
                <BarCell
                  label={sourceLabel(r.source)}
                  group={g.id}
                  share={r.visitors / max}
                  href={visitorsHref(window, { source: r.source })}
                  linkTestId={`source-link-${r.source}`}
                />
                <td>
                  <Link
                    className={styles.figure}
                    href={visitorsHref(window, { source: r.source })}
                    prefetch={false}
                    aria-label={`${formatNumber(r.visitors)} visitors from ${sourceLabel(r.source)}`}
                    data-testid={`visitors-link-${r.source}`}
                  >
                    {formatNumber(r.visitors)}
                  </Link>
                  <ChangeBadge
                    current={r.visitors}
                    previous={r.previous.visitors}
                    significance={judge(r, "visitors")}
                    unit="count"
                    window={previousLabel}
                    compact
                  />
                </td>
                <td>
                  <Link
                    className={styles.figure}
                    href={visitorsHref(window, { source: r.source, converted: true })}
                    prefetch={false}
                    aria-label={`${formatNumber(r.conversions)} conversions from ${sourceLabel(r.source)}`}
                    data-testid={`conversions-link-${r.source}`}
                  >
                    {formatNumber(r.conversions)}
                  </Link>
                  <ChangeBadge
                    current={r.conversions}
                    previous={r.previous.conversions}
                    significance={judge(r, "conversions")}
                    unit="count"
                    window={previousLabel}
                    compact
                  />
                </td>
                <td>
                  <span className={styles.figure}>{formatPercent(r.conversion_rate)}</span>
                  <ChangeBadge
                    current={r.conversion_rate}
                    previous={r.previous.conversion_rate}
                    significance={judge(r, "conversion_rate")}
                    unit="rate"
                    window={previousLabel}
                    compact
                  />
                </td>
              </tr>
            ))}
          </tbody>
        );
      })}
      <tfoot className={sortStyles.totals}>
        <tr data-testid="sources-total">
          <th scope="row" className={styles.sourceCell}>
            All sources
          </th>
          <TotalCells now={all} then={all.previous} previousLabel={previousLabel} window={window} />
        </tr>
      </tfoot>
    </BarTable>
  );
}

/** All sources' figures, each with its change; the counts open the range's visitors (every source: the list unfiltered by source) and the converted ones. */
function TotalCells({ now, then, previousLabel, window }: { now: SourceFigures; then: SourceFigures; previousLabel: string; window: ListWindow }) {
  return (
    <>
      <td>
        <Link
          className={styles.figure}
          href={visitorsHref(window)}
          prefetch={false}
          aria-label={`${formatNumber(now.visitors)} visitors from all sources`}
          data-testid="visitors-link-all"
        >
          {formatNumber(now.visitors)}
        </Link>
        <ChangeBadge
          current={now.visitors}
          previous={then.visitors}
          significance={figureTest("visitors", now, then)}
          unit="count"
          window={previousLabel}
          compact
        />
      </td>
      <td>
        <Link
          className={styles.figure}
          href={visitorsHref(window, { converted: true })}
          prefetch={false}
          aria-label={`${formatNumber(now.conversions)} conversions from all sources`}
          data-testid="conversions-link-all"
        >
          {formatNumber(now.conversions)}
        </Link>
        <ChangeBadge
          current={now.conversions}
          previous={then.conversions}
          significance={figureTest("conversions", now, then)}
          unit="count"
          window={previousLabel}
          compact
        />
      </td>
      <td>
        <span className={styles.figure}>{formatPercent(now.conversion_rate)}</span>
        <ChangeBadge
          current={now.conversion_rate}
          previous={then.conversion_rate}
          significance={figureTest("conversion_rate", now, then)}
          unit="rate"
          window={previousLabel}
          compact
        />
      </td>
    </>
  );
}
