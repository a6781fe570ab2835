"use client";
// Conversion by source as a bar table (bar-table.tsx): the AI platforms set apart in their own row
// group with its total, a bar per source under its name, and each source and its visitors a link to
// the visitors behind them, its conversions to the converted ones; the AI platforms' total visitors
// and conversions open their one list (`source=ai`) the same way.
import Link from "next/link";
import { ChangeBadge } from "@/components/ui/change-badge";
import { AI_SOURCE_GROUP } from "@/lib/data-api/constants";
import type { SourceRow } from "@/lib/server/insights/sources";
import { formatNumber, formatPercent } from "@/lib/format/format";
import { BarCell, BarGroupHeader, BarTable } from "./bar-table";
import styles from "./charts.module.css";
import { groupBySource, sourceLabel, visitorsHref, type ListWindow } from "./source-table-data";
import { rateOf } from "./trend-chart-data";

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
    id: "rate",
    label: (
      <>
        <span className={styles.wide}>Conversion rate</span>
        <span className={styles.narrow}>Rate</span>
      </>
    ),
  },
];

type Totals = { visitors: number; conversions: number };
const sum = (rows: readonly SourceRow[], pick: (r: SourceRow) => Totals): Totals =>
  rows.reduce((t, r) => ({ visitors: t.visitors + pick(r).visitors, conversions: t.conversions + pick(r).conversions }), { visitors: 0, conversions: 0 });

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
  const groups = groupBySource(rows, (r) => r.visitors);
  return (
    <BarTable
      testId="sources-table"
      caption={
        <>
          Conversion by source, {windowLabel}; changes against {previousLabel}
        </>
      }
      columns={COLUMNS}
    >
      {groups.map((g) => {
        const now = sum(g.rows, (r) => r);
        const then = sum(g.rows, (r) => r.previous);
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
                      {formatNumber(now.visitors)} visitors
                    </Link>
                    ,{" "}
                    <Link href={visitorsHref(window, { source: AI_SOURCE_GROUP, converted: true })} prefetch={false} data-testid="group-conversions-link-ai">
                      {formatNumber(now.conversions)} conversions
                    </Link>
                  </>
                ) : (
                  <>
                    {formatNumber(now.visitors)} visitors, {formatNumber(now.conversions)} conversions
                  </>
                )}
                , {formatPercent(rateOf(now.conversions, now.visitors))}{" "}
              </span>
              <ChangeBadge current={now.visitors} previous={then.visitors} unit="count" window={previousLabel} compact />
            </BarGroupHeader>
            {g.rows.map((r) => (
              <tr key={r.source} data-testid={`source-row-${r.source}`}>
                <BarCell label={sourceLabel(r.source)} group={g.id} share={r.visitors / max} href={visitorsHref(window, { source: r.source })} linkTestId={`source-link-${r.source}`} />
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
                  <ChangeBadge current={r.visitors} previous={r.previous.visitors} unit="count" window={previousLabel} compact />
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
                  <ChangeBadge current={r.conversions} previous={r.previous.conversions} unit="count" window={previousLabel} compact />
                </td>
                <td>
                  <span className={styles.figure}>{formatPercent(r.conversion_rate)}</span>
                  <ChangeBadge current={r.conversion_rate} previous={r.previous.conversion_rate} unit="points" window={previousLabel} compact />
                </td>
              </tr>
            ))}
          </tbody>
        );
      })}
    </BarTable>
  );
}
