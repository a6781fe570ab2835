// What a column of a resource is, declared once per resource (the other files of this folder) and
// read by every place that shows or writes that resource: the tables' headers and cells
// (components/data-table), "CSV for Excel" headers, plain CSV headers and the server's exports
// (lib/exports/columns.ts). No React and no zod here, so the server, the browser and tests all
// import it cheaply.

/**
 * How a column's values read, which decides their default rendering (a number right-aligned and
 * formatted, a timestamp in the viewer's zone, a boolean as Yes/No, "—" when absent) and how a
 * spreadsheet gets them (in "CSV for Excel" a timestamp as a date-time in the viewer's zone, a
 * boolean as Yes/No; a UTC instant and true/false in plain CSV).
 * `token` is an enum-ish value from an open set (a source, an intent): shown as sent when unknown.
 */
export type ValueKind = "text" | "token" | "integer" | "number" | "boolean" | "timestamp" | "list";

export type Column<K extends string = string> = {
  /** The field of the row that holds the value. */
  key: K;
  /** What people read: the table header and the "CSV for Excel" header (timestamps add their zone). */
  label: string;
  /** The plain CSV header, the machine name tools expect: the Data API's field name where there is one. */
  header: string;
  kind: ValueKind;
  /**
   * How a known value of a token column reads for people (lib/columns/labels): the words its table
   * cell shows and "CSV for Excel" writes; undefined for a value this dashboard does not know, which
   * both show as sent. Plain CSV and JSON always carry the value itself.
   */
  display?: (value: string) => string | undefined;
};

/** A column before it has its key: what `col.<kind>(label)` gives and `defineColumns` keys. */
type ColumnSpec = Omit<Column, "key" | "header"> & { header?: string };

type ColumnOptions = { header?: string; display?: Column["display"] };

/** A column of one kind: the label people read, the plain CSV header where it is not the key, the words for its values. */
const ofKind =
  (kind: ValueKind) =>
  (label: string, options: ColumnOptions = {}): ColumnSpec => ({ label, kind, ...options });

/**
 * A per cent value (12.5 means 12.5%): the unit is said once, here, as "(%)" in the label and "_pct" in
 * the plain CSV header, which is otherwise the label in snake case ("Share of visitors" ->
 * `share_of_visitors_pct`). Not "_pp": percentage points are differences between two percentages.
 */
function percent(label: string, options: { header?: string } = {}): ColumnSpec {
  const header = options.header ?? `${label.toLowerCase().replace(/[^a-z0-9]+/g, "_")}_pct`;
  return { label: `${label} (%)`, kind: "number", header };
}

/**
 * One constructor per value kind, so a declaration reads `pages_viewed: col.integer("Pages viewed")`,
 * and `percent` for per cent numbers.
 */
export const col = {
  text: ofKind("text"),
  token: ofKind("token"),
  integer: ofKind("integer"),
  number: ofKind("number"),
  boolean: ofKind("boolean"),
  timestamp: ofKind("timestamp"),
  list: ofKind("list"),
  percent,
} satisfies Record<ValueKind | "percent", unknown>;

/**
 * Declares a resource's columns as a record in file order: the key is the row's field, and the plain
 * CSV header unless the column names another. Keys are field names, never integer-like, so the
 * record keeps the order it is written in. The keys stay a union for typed lookups.
 */
export function defineColumns<const K extends string>(specs: Record<K, ColumnSpec>): readonly Column<K>[] {
  return (Object.entries(specs) as [K, ColumnSpec][]).map(([key, { header = key, ...rest }]) => ({ key, header, ...rest }));
}

/** The column of a key; a key that is not declared is a programming error, so this throws. */
export function columnOf<K extends string>(columns: readonly Column<K>[], key: K): Column<K> {
  const column = columns.find((c) => c.key === key);
  if (!column) throw new Error(`No column "${key}"`);
  return column;
}
