// How an export's rows become bytes: CSV (lib/csv.ts, plain or "CSV for Excel") or a JSON array, all
// written page by page so the whole file is never held in memory. JSON is one valid array:
// "[" + items joined by "," + "]". Only "CSV for Excel" depends on the viewer (the zone its date-times
// are written in, the locale's separators); plain CSV and JSON are the same for everyone.
import { csvHeaderRow, csvRow, excelStyle, PLAIN_CSV, type CsvColumn, type CsvStyle } from "@/lib/csv";
import type { ExportFormat } from "@/lib/data-api/params";
import { projectRow } from "./columns";

export type { ExportFormat };

export interface ExportEncoder {
  readonly contentType: string;
  readonly extension: string;
  /** Text before the first row (CSV header row, "["). */
  head(): string;
  /** One page of rows; `firstIndex` is the index of the page's first row in the whole export. */
  page(rows: readonly Readonly<Record<string, unknown>>[], firstIndex: number): string;
  /** Text after the last row ("]" for JSON). */
  tail(): string;
}

export function csvEncoder(columns: readonly CsvColumn[], style: CsvStyle = PLAIN_CSV): ExportEncoder {
  return {
    contentType: "text/csv; charset=utf-8",
    extension: "csv",
    head: () => csvHeaderRow(columns, style),
    page: (rows) => {
      let out = "";
      for (const row of rows) out += csvRow(columns, row, style);
      return out;
    },
    tail: () => "",
  };
}

export function jsonEncoder(columns: readonly CsvColumn[]): ExportEncoder {
  return {
    contentType: "application/json; charset=utf-8",
    extension: "json",
    head: () => "[",
    page: (rows, firstIndex) => {
      let out = "";
      rows.forEach((row, i) => {
        // One item per line keeps large files readable and diff-able; it is still one JSON array.
        out += (firstIndex + i === 0 ? "\n" : ",\n") + JSON.stringify(projectRow(columns, row));
      });
      return out;
    },
    tail: () => "\n]",
  };
}

/** Who the file is for: the zone and browser language the export route was given (defaults UTC, en-US). */
export type ExportViewer = { timeZone?: string; locale?: string };

export function encoderFor(format: ExportFormat, columns: readonly CsvColumn[], viewer: ExportViewer = {}): ExportEncoder {
  if (format === "json") return jsonEncoder(columns);
  return csvEncoder(columns, format === "csv-excel" ? excelStyle(viewer.timeZone, viewer.locale) : PLAIN_CSV);
}
