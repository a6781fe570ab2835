// The columns of each export, in file order. Exports carry exactly these fields (CSV columns and
// JSON keys): unknown fields never leak into a file by surprise. The columns themselves are declared
// once per resource in lib/columns (plain CSV header, "CSV for Excel" label, value kind).
import type { CsvColumn } from "@/lib/csv";
import { MENTION_COLUMNS } from "@/lib/columns/mentions";
import { VISITOR_COLUMNS } from "@/lib/columns/visitors";

export type ExportResource = "visitors" | "mentions";

export const EXPORT_COLUMNS: Record<ExportResource, readonly CsvColumn[]> = {
  visitors: VISITOR_COLUMNS,
  mentions: MENTION_COLUMNS,
};

/** A row reduced to the export's columns, in column order; absent values stay absent. */
export function projectRow(columns: readonly CsvColumn[], row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key } of columns) {
    if (row[key] !== undefined) out[key] = row[key];
  }
  return out;
}
