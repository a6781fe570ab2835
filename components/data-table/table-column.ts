// How a table shows a resource's columns: the columns themselves (key, label, kind) are declared once
// in lib/columns; a table column adds only presentation: a cell renderer, the widths from which it
// shows, whether it names the row. `columnsFor` builds table columns from those declarations by key,
// so a table cannot name a column the resource does not declare or a field its rows lack.
import type { ReactNode } from "react";
import { columnOf, type Column, type ValueKind } from "@/lib/columns/column";

/**
 * The table width from which a column shows: md 880 px, lg 960 px, xl 1200 px (data-table.module.css
 * holds the numbers). It is the table's own width, not the window's, so the same table in a narrow
 * card hides columns as it would on a narrow screen. Below 760 px rows become cards showing every column.
 */
type Breakpoint = "md" | "lg" | "xl";

type CellContext<Row> = { rows: readonly Row[] };

export type TableColumn<Row> = {
  id: string;
  /** The header, and the label of the value in a card: the declared column's label. */
  label: string;
  kind: ValueKind;
  value: (row: Row) => unknown;
  /** Renders the cell; without one, the value is shown by its kind (see DefaultCell). */
  cell?: (row: Row, context: CellContext<Row>) => ReactNode;
  /** Hidden in the table below this width (cards show every column). */
  showFrom?: Breakpoint;
  /** The cell that names its row: a `<th scope="row">` in the table. */
  rowHeader?: boolean;
  /** Shown as the card's title (without its label) instead of as a label and value. */
  cardTitle?: boolean;
  /** `ellipsis`: one line, cut, the full text on hover and for screen readers (e-mail addresses). */
  fit?: "wrap" | "ellipsis";
  /** Overrides the alignment of the kind (numbers end-aligned). */
  align?: "start" | "end";
  /** A CSS width for the column, for a cell that draws (a bar) rather than sizes by its text. */
  width?: string;
  /**
   * The least width of the column, for text that would otherwise wrap a word a line in a crowded
   * table (a question among thirteen columns): a table that cannot give it scrolls within its box.
   */
  minWidth?: string;
  /**
   * In a card, consecutive columns of one group make a block of lines, each its label with its value
   * at the line's end, so a figure and its breakdown (mentions, then each platform's) read down like
   * a small table and side by side with the next block; `across` lays a group's values out on one
   * line across the card instead (a split: positive, neutral, negative). The table is not affected.
   */
  cardGroup?: { id: string; across?: boolean };
  /** A class for the label wherever it shows (the header, a card's label): a mark drawn beside the word. */
  labelClass?: string;
};

type Options<Row> = Omit<Partial<TableColumn<Row>>, "id" | "label" | "kind" | "value">;

/**
 * Table columns over a resource's declared columns: `column(key)` shows one, `combined(keys)` shows
 * several in one cell under their joined labels ("City, Country").
 */
export function columnsFor<Row>() {
  return <K extends string & keyof Row>(declared: readonly Column<K>[]) => ({
    column(key: K, options: Options<Row> = {}): TableColumn<Row> {
      const { label, kind } = columnOf(declared, key);
      return { id: key, label, kind, value: (row) => row[key], ...options };
    },
    combined(keys: readonly K[], options: Options<Row> & Required<Pick<Options<Row>, "cell">>): TableColumn<Row> {
      const label = keys.map((k) => columnOf(declared, k).label).join(", ");
      return { id: keys.join("_"), label, kind: "text", value: (row) => keys.map((k) => row[k]), ...options };
    },
  });
}
