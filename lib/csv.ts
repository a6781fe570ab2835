// CSV encoding shared by the server's streaming exports and the browser's small-table downloads.
// RFC 4180 with UTF-8 and CRLF, a header row, and every field quoted. Spreadsheets evaluate a text
// cell that starts with = + - @ TAB CR or LF as a formula, so such string cells get a leading single
// quote (OWASP "CSV injection"); numbers are written as numbers, so a real -5 stays -5.
//
// No byte-order mark: pandas, papaparse, Google Sheets, LibreOffice, Numbers and Excel's
// "From Text/CSV" import read UTF-8 without one, while a BOM becomes part of the first header name
// ("\uFEFFid") for many scripts and naive parsers. Users double-clicking in old Excel can import instead.

export type CsvColumn = { key: string; header: string };

/** Characters that make a spreadsheet treat a text cell as a formula. */
const FORMULA_PREFIXES = new Set(["=", "+", "-", "@", "\t", "\r", "\n"]);

export const CSV_LINE_END = "\r\n";

/** Shown between the items of an array cell (competitors_mentioned). */
export const CSV_ARRAY_SEPARATOR = "; ";

/** The text of one cell before quoting: how each JSON value type reads in a spreadsheet. */
export function csvCellText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return neutraliseFormula(value);
  if (Array.isArray(value)) {
    return neutraliseFormula(value.map((item) => (typeof item === "string" ? item : csvCellText(item))).join(CSV_ARRAY_SEPARATOR));
  }
  // Unknown object fields (kept by the lenient schemas) are written as their JSON text.
  return neutraliseFormula(JSON.stringify(value) ?? "");
}

function neutraliseFormula(text: string): string {
  return text.length > 0 && FORMULA_PREFIXES.has(text[0]!) ? `'${text}` : text;
}

/** One quoted field: the cell text with every `"` doubled, between quotes. */
export function csvField(value: unknown): string {
  return `"${csvCellText(value).replaceAll('"', '""')}"`;
}

/** One record, CRLF-terminated. */
export function csvRecord(values: readonly unknown[]): string {
  return values.map(csvField).join(",") + CSV_LINE_END;
}

export function csvHeaderRow(columns: readonly CsvColumn[]): string {
  // Header names are ours, but quoting them the same way keeps every field quoted.
  return columns.map((c) => `"${c.header.replaceAll('"', '""')}"`).join(",") + CSV_LINE_END;
}

export function csvRow(columns: readonly CsvColumn[], row: Readonly<Record<string, unknown>>): string {
  return csvRecord(columns.map((c) => row[c.key]));
}

/** A whole small table as CSV text (header plus rows). Streaming exports use csvHeaderRow/csvRow. */
export function toCsv(columns: readonly CsvColumn[], rows: readonly Readonly<Record<string, unknown>>[]): string {
  let out = csvHeaderRow(columns);
  for (const row of rows) out += csvRow(columns, row);
  return out;
}
