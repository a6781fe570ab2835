// CSV encoding shared by the server's streaming exports and the browser's small-table downloads.
// RFC 4180 with UTF-8 and CRLF, a header row, and every field quoted. Spreadsheets evaluate a text
// cell that starts with = + - @ TAB CR or LF as a formula, so such string cells get a leading single
// quote (OWASP "CSV injection"); numbers are written as numbers, so a real -5 stays -5.
//
// Two dialects:
// - "rfc4180" (plain CSV, for tools): no byte-order mark, comma-separated, machine header names
//   (`first_seen`), values as the API gives them (UTC ISO instants, codes such as `perplexity`).
//   pandas, papaparse, Google Sheets, LibreOffice and Excel's "From Text/CSV" import read UTF-8
//   without a BOM, while a BOM becomes part of the first header name for many scripts.
// - "excel" ("CSV for Excel", for people: what the screen showed): a UTF-8 BOM, without which Excel
//   opening the file by double-click reads it as the local code page (São Paulo becomes SÃ£o Paulo);
//   header labels people read, a timestamp's naming the zone its cells are in ("First seen
//   (Europe/Berlin)"); timestamps as that zone's `2026-11-20 12:00:00`, which Excel takes as a
//   date-time; booleans as Yes/No; known values by their labels ("Perplexity", "Problem research").
//   Excel splits a double-clicked CSV at its locale's list separator, which is ";" where the decimal
//   mark is "," (German, French, Dutch...): there the fields are separated by ";" and decimals written
//   "12,5". No `sep=` line instead: with one, Excel ignores the BOM (accents break again), and every
//   other tool reads it as a first data row.
// Columns are declared once per resource in lib/columns; this module only needs their names, kinds
// and value labels.
import type { Column, ValueKind } from "@/lib/columns/column";
import { decimalMark, spreadsheetDateTime } from "@/lib/format/spreadsheet";

/**
 * How a file is written: plain CSV, or CSV for Excel with the viewer's zone (its timestamps' cells
 * and header) and the viewer's locale's separators.
 */
export type CsvStyle =
  { readonly dialect: "rfc4180" } | { readonly dialect: "excel"; readonly timeZone: string; readonly separator: "," | ";"; readonly decimal: "." | "," };

export const PLAIN_CSV: CsvStyle = { dialect: "rfc4180" };

/**
 * CSV for Excel as a viewer in `timeZone` with the browser language `locale` opens it: where the
 * locale writes decimals with "," Excel's list separator is ";".
 */
export function excelStyle(timeZone = "UTC", locale = "en-US"): CsvStyle {
  const decimal = decimalMark(locale);
  return { dialect: "excel", timeZone, separator: decimal === "," ? ";" : ",", decimal };
}

/** A column as CSV needs it: `label` (the Excel header) defaults to `header`, `kind` to text. */
export type CsvColumn = Pick<Column, "key" | "header"> & Partial<Pick<Column, "label" | "kind" | "display">>;

export const CSV_LINE_END = "\r\n";
export const UTF8_BOM = "\uFEFF";

/** Shown between the items of an array cell (competitors_mentioned). */
export const CSV_ARRAY_SEPARATOR = "; ";

/** Characters that make a spreadsheet treat a text cell as a formula (ASCII and full-width forms). */
const FORMULA_STARTS = new Set(["=", "+", "-", "@", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20"]);
/** Control characters that start a formula-like cell by themselves. */
const CONTROL_STARTS = new Set(["\t", "\r", "\n"]);
/**
 * What spreadsheets skip before deciding that a cell is a formula: spaces (ASCII, NBSP and the other
 * Unicode spaces), tabs and line breaks, the byte-order mark and zero-width characters. "  =1+1" and
 * "\u00A0=1+1" are evaluated by some spreadsheets after trimming, so they are neutralised too.
 */
const SKIPPED_BEFORE_FORMULA = /^[\s\u00A0\u1680\u2000-\u200D\u2028\u2029\u202F\u205F\u2060\u3000\uFEFF]+/;

/** Whether a text cell would be read as a formula (or a control-led cell) by a spreadsheet. */
export function looksLikeFormula(text: string): boolean {
  if (text.length === 0) return false;
  if (CONTROL_STARTS.has(text[0]!)) return true;
  const rest = text.replace(SKIPPED_BEFORE_FORMULA, "");
  return rest.length > 0 && FORMULA_STARTS.has(rest[0]!);
}

function neutraliseFormula(text: string): string {
  return looksLikeFormula(text) ? `'${text}` : text;
}

/** The text of one cell before quoting: how each JSON value type reads in a spreadsheet. */
export function csvCellText(value: unknown, kind: ValueKind = "text", style: CsvStyle = PLAIN_CSV, display?: CsvColumn["display"]): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "";
    return style.dialect === "excel" && style.decimal === "," ? String(value).replace(".", ",") : String(value);
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") {
    if (style.dialect === "excel") return value ? "Yes" : "No";
    return value ? "true" : "false";
  }
  if (typeof value === "string") {
    if (style.dialect === "excel") {
      // An unreadable timestamp or an unknown value is written as the text it was, never invented.
      const shown = kind === "timestamp" ? spreadsheetDateTime(value, style.timeZone) : display?.(value);
      if (shown !== undefined) return neutraliseFormula(shown);
    }
    return neutraliseFormula(value);
  }
  if (Array.isArray(value)) {
    return neutraliseFormula(value.map((item) => (typeof item === "string" ? item : csvCellText(item))).join(CSV_ARRAY_SEPARATOR));
  }
  // An object where a scalar was expected: its JSON text, never "[object Object]".
  return neutraliseFormula(JSON.stringify(value) ?? "");
}

const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** One quoted field: the cell text with every `"` doubled, between quotes. */
export function csvField(value: unknown, kind: ValueKind = "text", style: CsvStyle = PLAIN_CSV): string {
  return quote(csvCellText(value, kind, style));
}

/** One plain CSV record, CRLF-terminated. */
export function csvRecord(values: readonly unknown[]): string {
  return values.map((v) => csvField(v)).join(",") + CSV_LINE_END;
}

const separatorOf = (style: CsvStyle) => (style.dialect === "excel" ? style.separator : ",");

/**
 * A column's "CSV for Excel" header: its label, and for a timestamp the zone its cells are written in
 * ("First seen (Europe/Berlin)"), the IANA name, which says the zone whatever the season.
 */
function excelHeader(column: CsvColumn, timeZone: string): string {
  const label = column.label ?? column.header;
  return column.kind === "timestamp" ? `${label} (${timeZone})` : label;
}

/** The header row, preceded by the BOM in the Excel dialect (the start of the file). */
export function csvHeaderRow(columns: readonly CsvColumn[], style: CsvStyle = PLAIN_CSV): string {
  const names = columns.map((c) => (style.dialect === "excel" ? excelHeader(c, style.timeZone) : c.header));
  // Header names are ours, but quoting them the same way keeps every field quoted.
  return (style.dialect === "excel" ? UTF8_BOM : "") + names.map(quote).join(separatorOf(style)) + CSV_LINE_END;
}

export function csvRow(columns: readonly CsvColumn[], row: Readonly<Record<string, unknown>>, style: CsvStyle = PLAIN_CSV): string {
  return columns.map((c) => quote(csvCellText(row[c.key], c.kind, style, c.display))).join(separatorOf(style)) + CSV_LINE_END;
}

/** A whole small table as CSV text (header plus rows). Streaming exports use csvHeaderRow/csvRow. */
export function toCsv(columns: readonly CsvColumn[], rows: readonly Readonly<Record<string, unknown>>[], style: CsvStyle = PLAIN_CSV): string {
  let out = csvHeaderRow(columns, style);
  for (const row of rows) out += csvRow(columns, row, style);
  return out;
}
