"use client";
// One table for every tabular list (visitors, the competitor ranking, the questions, countries and
// cities): TanStack Table builds the column and row model from per-resource column definitions
// (./columns), this renders it twice and CSS shows one by the table's own width: a real <table>
// (column headers, a row header per row, a caption) where it fits, and from phone widths a list of
// cards with each value under its label (or beside it, in a column group's block), so nothing
// scrolls sideways. Columns that do not fit a medium width are hidden from the table only.
// The query's loading, empty and error states stay with QueryView around it; a response's
// unreadable rows are reported above the rows. Given `sort` (a figure table: the answer's rows in
// full, not a page of a list), its figure and name columns sort it (use-table-sort.ts): the headers
// in the table, a "Sort by" menu over the cards. Given `totals`, a last row adds the rows up: the
// table's <tfoot>, and the last card, under the rows whatever their order.
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from "@tanstack/react-table";
import { useMemo, type ReactNode } from "react";
import { UnreadableNotice } from "@/components/states/states";
import { DateTime, ZoneName } from "@/components/ui/date-time";
import { Missing } from "@/components/ui/value-badge";
import type { ValueKind } from "@/lib/columns/column";
import type { Unreadable } from "@/lib/data-api/schemas";
import { formatNumber } from "@/lib/format/format";
import styles from "./data-table.module.css";
import { SortHeader, SortMenu } from "./sort-controls";
import sortStyles from "./sort.module.css";
import type { TableColumn } from "./table-column";
import type { Sort, SortColumn } from "./table-sort";
import { useTableSort, type TableSort } from "./use-table-sort";

type DataTableProps<Row> = {
  rows: readonly Row[];
  columns: readonly TableColumn<Row>[];
  /** Names the table (its caption) and the card list, for screen readers. */
  caption: string;
  /** A stable key per row; the position is part of it so two rows with one id stay apart. */
  rowKey: (row: Row, index: number) => string;
  /** The row the viewer is on (their own workspace in a ranking): highlighted, `aria-current`. */
  isCurrent?: (row: Row) => boolean;
  /**
   * The table's test id; rows get `rowTestId`, the card list `${testId}-cards`, cards `${rowTestId}-card`;
   * a row and its card carry its `rowKey` as `data-key`.
   */
  testId: string;
  rowTestId: string;
  unreadable?: Unreadable;
  /** Names unreadable rows in the notice: ["row", "rows"]. */
  noun?: readonly [singular: string, plural: string];
  /** Shown instead of the table when there is no row to show. */
  empty?: ReactNode;
  /**
   * Sortable by its figure and name columns: the URL parameter of its order and the order it has
   * without one (the answer's, when null). A module constant, like the columns.
   */
  sort?: { param: string; defaultSort: Sort | null };
  /** Tighter cells, so a table of many figure columns (the questions' thirteen) fits a 1440 px window. */
  dense?: boolean;
  /**
   * The rows added up, after them in either layout: `title` stands where a row shows its name (the
   * row header, a card's title), every other column shows its value of `row` ("—" where the rows
   * cannot give one). `testId` is the table row's; its card is `${testId}-card`.
   */
  totals?: { title: string; row: Row; testId: string };
};

export function DataTable<Row>(props: DataTableProps<Row>) {
  return props.sort ? <SortedDataTable {...props} sort={props.sort} /> : <DataTableView {...props} />;
}

/** A table column's values as a sort reads them: figures as numbers, names as text; other kinds do not sort. */
function sortColumnsOf<Row>(columns: readonly TableColumn<Row>[]): SortColumn<Row>[] {
  return columns.flatMap((c): SortColumn<Row>[] => {
    const kind = isNumeric(c.kind) ? "number" : c.kind === "text" || c.kind === "token" ? "text" : null;
    if (!kind) return [];
    const value = (row: Row) => {
      const v = c.value(row);
      return typeof v === "number" || typeof v === "string" ? v : undefined;
    };
    return [{ id: c.id, kind, value }];
  });
}

function SortedDataTable<Row>(props: DataTableProps<Row> & { sort: NonNullable<DataTableProps<Row>["sort"]> }) {
  const sortColumns = useMemo(() => sortColumnsOf(props.columns), [props.columns]);
  const sort = useTableSort(props.rows, { param: props.sort.param, columns: sortColumns, defaultSort: props.sort.defaultSort });
  return <DataTableView {...props} rows={sort.rows} sorting={sort} />;
}

function DataTableView<Row>({
  rows,
  columns,
  caption,
  rowKey,
  isCurrent,
  testId,
  rowTestId,
  unreadable,
  noun = ["row", "rows"],
  empty,
  totals,
  dense = false,
  sorting,
}: Omit<DataTableProps<Row>, "sort"> & { sorting?: TableSort<Row> }) {
  const data = useMemo(() => [...rows], [rows]);
  const byId = useMemo(() => new Map(columns.map((c) => [c.id, c])), [columns]);
  const columnDefs = useMemo<ColumnDef<Row>[]>(
    () =>
      columns.map((c) => ({
        id: c.id,
        accessorFn: c.value,
        header: () => <ColumnLabel column={c} />,
        cell: ({ row }) => <ColumnCell column={c} row={row.original} rows={data} />,
      })),
    [columns, data],
  );
  // TanStack Table's instance is mutable, which React Compiler cannot memoize; this app does not
  // enable the compiler, and the table recomputes its row model only when `data` or the columns change.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({ data, columns: columnDefs, getCoreRowModel: getCoreRowModel(), getRowId: rowKey });
  const tableRows = table.getRowModel().rows;
  const columnOf = (id: string) => byId.get(id)!;
  const titles = columns.filter((c) => c.cardTitle);
  const blocks = useMemo(() => cardBlocks(columns.filter((c) => !c.cardTitle)), [columns]);

  return (
    <div className={styles.root}>
      <UnreadableNotice unreadable={unreadable} noun={noun} />
      {tableRows.length === 0 ? (
        empty
      ) : (
        <>
          <div className={styles.wide}>
            <table className={`table ${styles.table}${dense ? ` ${styles.dense}` : ""}`} data-testid={testId}>
              <caption className="visually-hidden">{caption}</caption>
              <thead>
                {table.getHeaderGroups().map((group) => (
                  <tr key={group.id}>
                    {group.headers.map((header) => {
                      const column = columnOf(header.column.id);
                      const label = flexRender(header.column.columnDef.header, header.getContext());
                      return sorting?.columns.some((c) => c.id === column.id) ? (
                        <SortHeader key={header.id} sort={sorting} id={column.id} {...cellAttributes(column)}>
                          {label}
                        </SortHeader>
                      ) : (
                        <th key={header.id} scope="col" {...cellAttributes(column)}>
                          {label}
                        </th>
                      );
                    })}
                  </tr>
                ))}
              </thead>
              <tbody>
                {tableRows.map((row) => {
                  const current = isCurrent?.(row.original) ?? false;
                  return (
                    <tr
                      key={row.id}
                      className={current ? "highlight" : undefined}
                      aria-current={current ? "true" : undefined}
                      data-testid={rowTestId}
                      data-key={row.id}
                    >
                      {row.getVisibleCells().map((cell) => {
                        const column = columnOf(cell.column.id);
                        const content = (
                          <CellContent column={column} row={row.original}>
                            {flexRender(cell.column.columnDef.cell, cell.getContext())}
                          </CellContent>
                        );
                        return column.rowHeader ? (
                          <th key={cell.id} scope="row" {...cellAttributes(column)}>
                            {content}
                          </th>
                        ) : (
                          <td key={cell.id} {...cellAttributes(column)}>
                            {content}
                          </td>
                        );
                      })}
                    </tr>
                  );
                })}
              </tbody>
              {totals && (
                <tfoot className={sortStyles.totals}>
                  <tr data-testid={totals.testId}>
                    {columns.map((c) =>
                      c.rowHeader ? (
                        <th key={c.id} scope="row" {...cellAttributes(c)}>
                          {totals.title}
                        </th>
                      ) : (
                        <td key={c.id} {...cellAttributes(c)}>
                          {!c.cardTitle && (
                            <CellContent column={c} row={totals.row}>
                              <ColumnCell column={c} row={totals.row} rows={data} />
                            </CellContent>
                          )}
                        </td>
                      ),
                    )}
                  </tr>
                </tfoot>
              )}
            </table>
          </div>
          {sorting && (
            <div className={styles.cardsSort}>
              <SortMenu sort={sorting} labels={Object.fromEntries(columns.map((c) => [c.id, c.label]))} testId={`${testId}-sort`} />
            </div>
          )}
          <ul className={styles.cards} aria-label={caption} data-testid={`${testId}-cards`}>
            {tableRows.map((row) => {
              const current = isCurrent?.(row.original) ?? false;
              const cells = new Map(row.getVisibleCells().map((cell) => [cell.column.id, cell]));
              const render = (id: string) => {
                const cell = cells.get(id)!;
                return flexRender(cell.column.columnDef.cell, cell.getContext());
              };
              return (
                <li
                  key={row.id}
                  className={current ? `${styles.card} ${styles.current}` : styles.card}
                  aria-current={current ? "true" : undefined}
                  data-testid={`${rowTestId}-card`}
                  data-key={row.id}
                >
                  {titles.length > 0 && (
                    <p className={styles.cardTitle}>
                      {titles.map((c) => (
                        <span key={c.id}>{render(c.id)}</span>
                      ))}
                    </p>
                  )}
                  <CardFields blocks={blocks} row={row.original} render={render} />
                </li>
              );
            })}
            {totals && (
              <li className={`${styles.card} ${styles.totalsCard}`} data-testid={`${totals.testId}-card`}>
                <p className={styles.cardTitle}>{totals.title}</p>
                <CardFields blocks={blocks} row={totals.row} render={(id) => <ColumnCell column={columnOf(id)} row={totals.row} rows={data} />} />
              </li>
            )}
          </ul>
        </>
      )}
    </div>
  );
}

const isNumeric = (kind: ValueKind) => kind === "integer" || kind === "number";

/** The attributes a column gives its header and cells: alignment, the width it shows from, its id. */
function cellAttributes<Row>(column: TableColumn<Row>) {
  const end = (column.align ?? (isNumeric(column.kind) ? "end" : "start")) === "end";
  return {
    className: end ? "num" : undefined,
    "data-column": column.id,
    "data-show-from": column.showFrom,
    style: column.width || column.minWidth ? { width: column.width, minWidth: column.minWidth } : undefined,
  };
}

/** A header: the declared label, and for times the zone they are shown in ("First seen (Berlin time)"). */
function ColumnLabel<Row>({ column }: { column: TableColumn<Row> }) {
  const label = column.labelClass ? <span className={column.labelClass}>{column.label}</span> : column.label;
  if (column.kind !== "timestamp") return <>{label}</>;
  return (
    <>
      {label} (<ZoneName />)
    </>
  );
}

/** A cell's content; an ellipsised one keeps its full text on hover (and whole for screen readers). */
function CellContent<Row>({ column, row, children }: { column: TableColumn<Row>; row: Row; children: ReactNode }) {
  if (column.fit !== "ellipsis") return <>{children}</>;
  const value = column.value(row);
  return (
    <span className={styles.ellipsis} title={typeof value === "string" ? value : undefined}>
      {children}
    </span>
  );
}

/** A card's fields in blocks: a run of columns outside any group, or one group (TableColumn's `cardGroup`). */
type CardBlock<Row> = { group?: NonNullable<TableColumn<Row>["cardGroup"]>; columns: TableColumn<Row>[] };

function cardBlocks<Row>(columns: readonly TableColumn<Row>[]): CardBlock<Row>[] {
  const blocks: CardBlock<Row>[] = [];
  for (const column of columns) {
    const last = blocks.at(-1);
    if (last && last.group?.id === column.cardGroup?.id) last.columns.push(column);
    else blocks.push({ group: column.cardGroup, columns: [column] });
  }
  return blocks;
}

/**
 * A card's values, each under (or, in a group, beside) its label: one description list per block,
 * laid out side by side by data-table.module.css (a group keeps to one column of the card, a run of
 * ungrouped fields and an `across` group take its width).
 */
function CardFields<Row>({ blocks, row, render }: { blocks: readonly CardBlock<Row>[]; row: Row; render: (id: string) => ReactNode }) {
  const blockClass = (group: CardBlock<Row>["group"]) => (group ? (group.across ? styles.across : styles.group) : styles.fields);
  return (
    <div className={styles.blocks}>
      {blocks.map((block) => (
        <dl key={block.columns[0]!.id} className={blockClass(block.group)} data-group={block.group?.id}>
          {block.columns.map((c) => (
            <div key={c.id} className={c.fit === "ellipsis" ? styles.wideField : undefined} data-column={c.id}>
              <dt>
                <ColumnLabel column={c} />
              </dt>
              <dd>
                <CellContent column={c} row={row}>
                  {render(c.id)}
                </CellContent>
              </dd>
            </div>
          ))}
        </dl>
      ))}
    </div>
  );
}

/** A column's value in a row (or in the totals): its own renderer, or shown by its kind. */
function ColumnCell<Row>({ column, row, rows }: { column: TableColumn<Row>; row: Row; rows: readonly Row[] }) {
  return column.cell ? <>{column.cell(row, { rows })}</> : <DefaultCell kind={column.kind} value={column.value(row)} />;
}

/** A value shown by its kind when the column has no renderer of its own; "—" when absent. */
function DefaultCell({ kind, value }: { kind: ValueKind; value: unknown }) {
  if (value === undefined || value === null || value === "") return <Missing />;
  switch (kind) {
    case "timestamp":
      return typeof value === "string" ? <DateTime iso={value} /> : <Missing />;
    case "integer":
    case "number":
      return typeof value === "number" ? <>{formatNumber(value)}</> : <Missing />;
    case "boolean":
      return typeof value === "boolean" ? <>{value ? "Yes" : "No"}</> : <Missing />;
    case "list":
      return Array.isArray(value) && value.length > 0 ? <>{value.join(", ")}</> : <Missing />;
    default:
      return <>{String(value)}</>;
  }
}
