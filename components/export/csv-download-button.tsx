"use client";
// A small "Download CSV" button for tables already in the browser (overview KPIs, traffic, funnel,
// ranking, a visitor's timeline): the CSV is built here with the same encoder as the server exports.
// The file name gets the day of the download (UTC) when it does not carry a date yet, so it says
// what it holds and when, like the server's export names.
import { toCsv, type CsvColumn } from "@/lib/csv";
import { utcDay } from "@/lib/export-filename";
import { downloadBlob } from "./download-blob";
import styles from "./export.module.css";

export type CsvDownloadButtonProps = {
  filename: string;
  columns: CsvColumn[];
  rows: Record<string, unknown>[];
  label?: string;
};

/** `traffic_30d` -> `traffic_30d_2026-11-22.csv`; only file-name-safe characters are kept. */
export function csvDownloadName(filename: string, now: Date = new Date()): string {
  const base = filename
    .replace(/\.csv$/i, "")
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "") || "table";
  return /\d{4}-\d{2}-\d{2}$/.test(base) ? `${base}.csv` : `${base}_${utcDay(now)}.csv`;
}

export function CsvDownloadButton({ filename, columns, rows, label = "Download CSV" }: CsvDownloadButtonProps) {
  const rowsText = `${rows.length} ${rows.length === 1 ? "row" : "rows"}`;
  return (
    <button
      type="button"
      className={styles.secondary}
      onClick={() => downloadBlob(new Blob([toCsv(columns, rows)], { type: "text/csv;charset=utf-8" }), csvDownloadName(filename))}
      title={`Download ${rowsText} as CSV`}
    >
      {label}
    </button>
  );
}
