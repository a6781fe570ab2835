"use client";
// A small "Download CSV" button for tables already in the browser (overview KPIs, traffic, funnel,
// ranking, a visitor's timeline): the CSV is built here with the same encoder as the server exports.
import { toCsv, type CsvColumn } from "@/lib/csv";
import { downloadBlob } from "./download-blob";
import styles from "./export.module.css";

export type CsvDownloadButtonProps = {
  filename: string;
  columns: CsvColumn[];
  rows: Record<string, unknown>[];
  label?: string;
};

export function CsvDownloadButton({ filename, columns, rows, label = "Download CSV" }: CsvDownloadButtonProps) {
  const name = filename.toLowerCase().endsWith(".csv") ? filename : `${filename}.csv`;
  return (
    <button
      type="button"
      className={styles.secondary}
      onClick={() => downloadBlob(new Blob([toCsv(columns, rows)], { type: "text/csv;charset=utf-8" }), name)}
      title={`Download ${rows.length} ${rows.length === 1 ? "row" : "rows"} as ${name}`}
    >
      {label}
    </button>
  );
}
