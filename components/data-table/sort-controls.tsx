"use client";
// How a sortable table shows and changes its order (use-table-sort.ts holds it): in a table, each
// sortable column's header is a real button (Enter and Space press it) with an arrow for the order,
// and the sorted header says it with `aria-sort`; a list of cards, which has no headers, gets a
// "Sort by" menu with the same choices in words ("Visitors, highest first").
import type { ComponentProps, ReactNode } from "react";
import styles from "./sort.module.css";
import { parseSort, sortParam, type SortKind } from "./table-sort";
import type { TableSort } from "./use-table-sort";

/** What a header needs of a table's order (whatever its rows). */
export type HeaderSort = Pick<TableSort<unknown>, "ariaSort" | "toggle">;

const ARROW = { ascending: "↑", descending: "↓" } as const;

/** A column header that sorts its table: `<th aria-sort>` (any other attributes of the header passed on) around a button. */
export function SortHeader({
  sort,
  id,
  children,
  ...th
}: { sort: HeaderSort; id: string; children: ReactNode } & Omit<ComponentProps<"th">, "children" | "scope" | "aria-sort">) {
  return (
    <th scope="col" data-column={id} {...th} aria-sort={sort.ariaSort(id)}>
      <SortButton sort={sort} id={id}>
        {children}
      </SortButton>
    </th>
  );
}

/** The button inside a header cell the caller draws itself (a header with its own attributes). */
export function SortButton({ sort, id, children }: { sort: HeaderSort; id: string; children: ReactNode }) {
  const state = sort.ariaSort(id);
  return (
    <button type="button" className={styles.button} onClick={() => sort.toggle(id)} data-testid={`sort-${id}`}>
      <span className={styles.label}>{children}</span>
      <span className={state ? styles.arrow : `${styles.arrow} ${styles.unsorted}`} aria-hidden="true">
        {state ? ARROW[state] : "↕"}
      </span>
    </button>
  );
}

/** The words of an order: "Visitors, highest first", "Country, A to Z". */
export const orderWords = (label: string, kind: SortKind, desc: boolean): string =>
  `${label}, ${kind === "text" ? (desc ? "Z to A" : "A to Z") : desc ? "highest first" : "lowest first"}`;

/**
 * "Sort by" for a list of cards (or a table while it shows as cards): every column with a label in
 * `labels`, each way round, and the table's own order (`ownOrder`, "Platform order") when it has no
 * sorted column of its own.
 */
export function SortMenu<R>({
  sort,
  labels,
  ownOrder,
  className,
  testId,
}: {
  sort: TableSort<R>;
  labels: Record<string, string>;
  ownOrder?: string;
  className?: string;
  testId?: string;
}) {
  const choices = sort.columns.filter((c) => labels[c.id] !== undefined);
  const firstDesc = (kind: SortKind) => kind === "number";
  return (
    <label className={className ? `${styles.menu} ${className}` : styles.menu}>
      <span className={styles.menuLabel}>Sort by</span>
      <select
        className="select"
        value={sort.sort ? sortParam(sort.sort) : ""}
        onChange={(e) => sort.set(parseSort(e.target.value, sort.columns))}
        data-testid={testId}
      >
        {!sort.defaultSort && <option value="">{ownOrder ?? "As listed"}</option>}
        {choices.flatMap((c) =>
          [firstDesc(c.kind), !firstDesc(c.kind)].map((desc) => (
            <option key={`${c.id}-${desc}`} value={sortParam({ id: c.id, desc })}>
              {orderWords(labels[c.id]!, c.kind, desc)}
            </option>
          )),
        )}
      </select>
    </label>
  );
}
