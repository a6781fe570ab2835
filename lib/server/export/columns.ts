// The columns of each export, in file order. Exports carry exactly these fields (CSV columns and
// JSON keys): unknown fields never leak into a file by surprise. `header` is the plain CSV's machine
// name (the Data API's field name), `label` the "CSV for Excel" header people read.
import type { CsvColumn } from "@/lib/csv";

export type ExportResource = "visitors" | "mentions";

export const EXPORT_COLUMNS: Record<ExportResource, readonly CsvColumn[]> = {
  visitors: [
    { key: "id", header: "id", label: "Visitor ID" },
    { key: "first_seen", header: "first_seen", label: "First seen (UTC)", kind: "timestamp" },
    { key: "last_seen", header: "last_seen", label: "Last seen (UTC)", kind: "timestamp" },
    { key: "source", header: "source", label: "Source" },
    { key: "intent", header: "intent", label: "Intent" },
    { key: "pages_viewed", header: "pages_viewed", label: "Pages viewed" },
    { key: "converted", header: "converted", label: "Converted", kind: "boolean" },
    { key: "email", header: "email", label: "Email" },
    { key: "country", header: "country", label: "Country" },
    { key: "city", header: "city", label: "City" },
  ],
  mentions: [
    { key: "id", header: "id", label: "Mention ID" },
    { key: "created_at", header: "created_at", label: "Mentioned at (UTC)", kind: "timestamp" },
    { key: "platform", header: "platform", label: "AI platform" },
    { key: "sentiment", header: "sentiment", label: "Sentiment" },
    { key: "position", header: "position", label: "Position in answer" },
    { key: "query", header: "query", label: "Query" },
    { key: "response_snippet", header: "response_snippet", label: "Answer excerpt" },
    { key: "competitors_mentioned", header: "competitors_mentioned", label: "Competitors mentioned" },
  ],
};

/** A row reduced to the export's columns, in column order; absent values stay absent. */
export function projectRow(columns: readonly CsvColumn[], row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key } of columns) {
    if (row[key] !== undefined) out[key] = row[key];
  }
  return out;
}
