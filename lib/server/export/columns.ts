// The columns of each export, in file order. Exports carry exactly these fields (CSV columns and
// JSON keys): unknown fields that the lenient schemas keep never leak into a file by surprise.
import type { CsvColumn } from "@/lib/csv";

export type ExportResource = "visitors" | "mentions";

const columns = (...keys: string[]): CsvColumn[] => keys.map((key) => ({ key, header: key }));

export const EXPORT_COLUMNS: Record<ExportResource, readonly CsvColumn[]> = {
  visitors: columns("id", "first_seen", "last_seen", "source", "intent", "pages_viewed", "converted", "email", "country", "city"),
  mentions: columns("id", "created_at", "platform", "sentiment", "position", "query", "response_snippet", "competitors_mentioned"),
};

/** A row reduced to the export's columns, in column order; absent values stay absent. */
export function projectRow(columns: readonly CsvColumn[], row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key } of columns) {
    if (row[key] !== undefined) out[key] = row[key];
  }
  return out;
}
