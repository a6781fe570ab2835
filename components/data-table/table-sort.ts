// Sorting a figure table in the browser, one way for every such table of the app (countries, cities,
// questions, the platforms' chain, competitors, conversion by source): TanStack Table's sorting over
// the rows of the answer on screen, which is the whole answer (the paged lists, visitors and
// mentions, are ordered upstream and never sorted here). The order lives in the URL as one parameter
// per table: `sort=-visitors` (largest first) or `sort=visitors` (smallest first); a table that is not
// its page's first names its own (`city_sort`, `competitor_sort`). Rules, stated once:
// - a figure sorts largest first on the first press, then smallest first, then back to the table's own
//   order; a name sorts A to Z first;
// - a figure that is not known ("—") goes last either way, and ties keep the answer's order;
// - a parameter naming no column of the table (an old link) is the table's own order.
// This module holds no React, so the rules are tested as plain functions; use-table-sort.ts reads
// and writes the URL, sort-controls.tsx draws the headers and the sort menu.
import { createTable, getCoreRowModel, getSortedRowModel, type ColumnDef, type Row, type SortingState, type TableOptionsResolved } from "@tanstack/react-table";

export type SortKind = "number" | "text";

/** A column a table can be sorted by: its id in the URL, how it reads its value, and whether that is a figure or a name. */
export type SortColumn<R> = {
  id: string;
  kind: SortKind;
  /** The value sorted on; null or undefined is a figure not known, sorted last. */
  value: (row: R) => number | string | null | undefined;
};

export type Sort = { id: string; desc: boolean };

/** A URL's sort parameter for this table's columns: "-visitors" is largest first, "visitors" smallest; anything else is none. */
export function parseSort(value: string | null | undefined, columns: readonly Pick<SortColumn<unknown>, "id">[]): Sort | null {
  if (!value) return null;
  const desc = value.startsWith("-");
  const id = desc ? value.slice(1) : value;
  return columns.some((c) => c.id === id) ? { id, desc } : null;
}

/** A sort as its URL parameter. */
export const sortParam = (sort: Sort): string => `${sort.desc ? "-" : ""}${sort.id}`;

export const sameSort = (a: Sort | null, b: Sort | null): boolean => (a === null || b === null ? a === b : a.id === b.id && a.desc === b.desc);

// Names compare as people read them ("Åland" beside "Albania"), the same on the server and in the browser.
const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

function columnDef<R>(c: SortColumn<R>): ColumnDef<R> {
  return {
    id: c.id,
    // TanStack puts `undefined` last in both directions (sortUndefined), so a null is read as undefined.
    accessorFn: (row) => c.value(row) ?? undefined,
    sortUndefined: "last",
    sortDescFirst: c.kind === "number",
    sortingFn: c.kind === "text" ? (a: Row<R>, b: Row<R>) => collator.compare(String(a.getValue(c.id)), String(b.getValue(c.id))) : "basic",
  };
}

/**
 * The rows in the order of `sort` (TanStack's sorted row model, stable: ties keep the given order),
 * and what pressing a column's header does next: its first direction, the other one, or back to
 * none (the table's own order).
 */
export function sortRows<R>(rows: readonly R[], columns: readonly SortColumn<R>[], sort: Sort | null): { rows: R[]; next: (id: string) => Sort | null } {
  const sorting: SortingState = sort ? [sort] : [];
  const options: TableOptionsResolved<R> = {
    data: [...rows],
    columns: columns.map(columnDef),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    enableSortingRemoval: true,
    enableMultiSort: false,
    state: {},
    onStateChange: () => {},
    renderFallbackValue: null,
  };
  const table = createTable(options);
  table.setOptions((prev) => ({ ...prev, state: { ...table.initialState, sorting } }));
  return {
    rows: table.getSortedRowModel().rows.map((r) => r.original),
    next: (id) => {
      const order = table.getColumn(id)?.getNextSortingOrder();
      return order ? { id, desc: order === "desc" } : null;
    },
  };
}
