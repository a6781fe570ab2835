"use client";
// A bar table: a real table (so it is its own text alternative) whose row headers carry a bar of
// their row's share of the largest value, optionally in row groups with a header of their own.
// For any list of named figures (sources, countries, questions): the caller renders each row's
// cells; this gives the table, its caption and column headers (sortable ones when given the table's
// order: components/data-table/use-table-sort.ts), the bar cell and the group header, so every such
// table looks and reads alike.
import { AppLink as Link } from "@/components/shares/shared-view";
import type { ReactNode } from "react";
import { SortHeader, type HeaderSort } from "@/components/data-table/sort-controls";
import styles from "./charts.module.css";

export type BarTableColumn = { id: string; label: ReactNode };

/**
 * The table, scrolled sideways on narrow screens: `caption` is read by screen readers only; `children`
 * are its row groups (`<tbody>`) and its totals (`<tfoot>`). With `sort`, every column's header sorts.
 */
export function BarTable({
  testId,
  caption,
  columns,
  sort,
  children,
}: {
  testId?: string;
  caption: ReactNode;
  columns: readonly BarTableColumn[];
  sort?: HeaderSort;
  children: ReactNode;
}) {
  return (
    <div className={styles.tableScroll}>
      <table className={styles.barTable} data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) =>
              sort ? (
                <SortHeader key={c.id} sort={sort} id={c.id}>
                  {c.label}
                </SortHeader>
              ) : (
                <th key={c.id} scope="col">
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}

/**
 * A row's header: its name, linked when `href` is given (so it also opens in a new tab), over a bar
 * of `share` (0..1, clamped) in the colour of `group` (the bar's `data-group`).
 */
export function BarCell({ label, share, href, linkTestId, group }: { label: ReactNode; share: number; href?: string; linkTestId?: string; group?: string }) {
  return (
    <th scope="row" className={styles.sourceCell}>
      {href ? (
        <Link href={href} prefetch={false} data-testid={linkTestId}>
          {label}
        </Link>
      ) : (
        label
      )}
      <span className={styles.barTrack} aria-hidden="true">
        <span className={styles.bar} data-group={group} style={{ width: `${Math.max(0, Math.min(1, share)) * 100}%` }} />
      </span>
    </th>
  );
}

/** A row group's header across `columns` columns: its label, then `children` (a total, a change). */
export function BarGroupHeader({ group, label, columns, children }: { group: string; label: ReactNode; columns: number; children?: ReactNode }) {
  return (
    <tr className={styles.groupRow} data-group={group}>
      <th scope="rowgroup" colSpan={columns}>
        {label}
        {children}
      </th>
    </tr>
  );
}
