"use client";
// The conversion funnel of one of the Data API's periods as a bar table, like conversion by source: a
// real table (its own text alternative, and it prints and captures as drawn, with no chart to wait
// for), each stage's name with a bar of its count, the count, and its conversion from the previous
// and the first stage. The count's column is headed by the period ("Last 30 days up to now"), so no
// count reads as the date range's figure of the same name. A count the visitor list can show opens
// it (visitors, conversions); the others say why they cannot.
import { AppLink as Link } from "@/components/shares/shared-view";
import { useId } from "react";
import { formatNumber, formatPercent } from "@/lib/format/format";
import styles from "./charts.module.css";
import { funnelStageFilter, type FunnelBar } from "./funnel-chart-data";
import { visitorsHref, type ListWindow } from "./source-table-data";

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "A", "A and B", "A, B and C" (or "or"). */
const listed = (items: readonly string[], last = "and") => (items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${last} ${items.at(-1)}`);

export function FunnelTable({
  bars,
  windowLabel,
  window,
}: {
  bars: readonly FunnelBar[];
  /** The period, as its figures are named: "last 30 days up to now". */
  windowLabel: string;
  /** The period's instants, for the links; null when the API did not say them. */
  window: ListWindow | null;
}) {
  const noteId = useId();
  const max = Math.max(1, ...bars.map((b) => b.count ?? 0));
  const unlinked = bars.filter((b) => !funnelStageFilter(b.stage).exact);
  const reasons = [...new Set(unlinked.map((b) => funnelStageFilter(b.stage).cannotFilterBy!))];
  return (
    <div className={styles.tableScroll}>
      <table className={styles.barTable} data-testid="funnel-table">
        <caption className="visually-hidden">Conversion funnel, {windowLabel}</caption>
        <thead>
          <tr>
            <th scope="col">Stage</th>
            <th scope="col">{capitalised(windowLabel)}</th>
            <th scope="col">
              <span className={styles.wide}>From previous stage</span>
              <span className={styles.narrow}>From previous</span>
            </th>
            <th scope="col">
              <span className={styles.wide}>From first stage</span>
              <span className={styles.narrow}>From first</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {bars.map((b, i) => {
            const filter = funnelStageFilter(b.stage);
            const count = formatNumber(b.count);
            return (
              <tr key={`${i}-${b.stage}`} data-testid={`funnel-step-${b.stage}`}>
                <th scope="row" className={styles.sourceCell}>
                  {b.label}
                  <span className={styles.barTrack} aria-hidden="true">
                    <span className={styles.bar} data-testid="funnel-bar" style={{ width: `${(Math.max(0, b.count ?? 0) / max) * 100}%` }} />
                  </span>
                </th>
                <td>
                  {filter.exact && window && b.count !== undefined ? (
                    <Link
                      className={styles.figure}
                      href={visitorsHref(window, { converted: filter.converted })}
                      prefetch={false}
                      aria-label={`${count} ${b.label}, ${windowLabel}: view these visitors`}
                    >
                      {count}
                    </Link>
                  ) : (
                    <span className={styles.figure} aria-describedby={filter.exact ? undefined : noteId}>
                      {count}
                    </span>
                  )}
                </td>
                <td>{i === 0 ? "—" : formatPercent(b.stepRate)}</td>
                <td>{formatPercent(b.overallRate)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {unlinked.length > 0 && (
        <p className="small muted" id={noteId} data-testid="funnel-unlinked-note" style={{ marginTop: 8 }}>
          {listed(unlinked.map((b) => b.label))} open{unlinked.length === 1 ? "s" : ""} no list: the visitor list cannot filter by {listed(reasons, "or")}.
        </p>
      )}
    </div>
  );
}
