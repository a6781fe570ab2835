"use client";
// A figure table's order, read from and written to its URL parameter (table-sort.ts says the rules):
// the rows sorted, which column is sorted which way (for `aria-sort` and the indicator), and what a
// header's button or the sort menu sets. The table's own order (`defaultSort`, or the answer's order
// without one) is no parameter at all, so a URL says only what the reader chose. Each change replaces
// the URL entry rather than adding one: Back leaves the page, it does not undo sorting clicks.
import { parseAsString, useQueryState } from "nuqs";
import { useMemo } from "react";
import { parseSort, sameSort, sortParam, sortRows, type Sort, type SortColumn } from "./table-sort";

export type TableSort<R> = {
  /** The rows in the order shown. */
  rows: R[];
  /** The order shown: the URL's, else the table's own (null: the answer's order as it came). */
  sort: Sort | null;
  defaultSort: Sort | null;
  columns: readonly SortColumn<R>[];
  /** How a column is sorted now, as `aria-sort` says it (undefined: not the sorted column). */
  ariaSort: (id: string) => "ascending" | "descending" | undefined;
  /** What a header's button does: the column's next order (first direction, the other, then the table's own). */
  toggle: (id: string) => void;
  /** Sets an order (the sort menu); null is the table's own. */
  set: (sort: Sort | null) => void;
};

/** `columns` and `defaultSort` are a table's declarations: module constants, so the sorted rows are worked out again only when the rows or the URL change. */
export function useTableSort<R>(
  rows: readonly R[],
  { param, columns, defaultSort = null }: { param: string; columns: readonly SortColumn<R>[]; defaultSort?: Sort | null },
): TableSort<R> {
  const [value, setValue] = useQueryState(param, parseAsString.withOptions({ history: "replace", scroll: false }));
  const sort = useMemo(() => parseSort(value, columns) ?? defaultSort, [value, columns, defaultSort]);
  const sorted = useMemo(() => sortRows(rows, columns, sort), [rows, columns, sort]);
  const set = (next: Sort | null) => void setValue(next === null || sameSort(next, defaultSort) ? null : sortParam(next));
  return {
    rows: sorted.rows,
    sort,
    defaultSort,
    columns,
    ariaSort: (id) => (sort?.id === id ? (sort.desc ? "descending" : "ascending") : undefined),
    toggle: (id) => set(sorted.next(id)),
    set,
  };
}
