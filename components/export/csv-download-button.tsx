"use client";
// A small "Download" menu for tables already in the browser (overview KPIs, traffic, funnel, ranking,
// a visitor's timeline): plain CSV for tools, or CSV for Excel (BOM, readable headers), built here with
// the same encoder as the server exports. The file name gets the day of the download (UTC) when it
// does not carry a date yet, so it says what it holds and when, like the server's export names.
// A native <details> disclosure: keyboard and screen readers get its open/closed state for free.
import { useRef } from "react";
import { toCsv, type CsvColumn, type CsvDialect } from "@/lib/csv";
import { utcDay } from "@/lib/export-filename";
import { downloadBlob } from "./download-blob";
import styles from "./export.module.css";

export type CsvDownloadButtonProps = {
  filename: string;
  columns: readonly CsvColumn[];
  rows: readonly Record<string, unknown>[];
  label?: string;
};

/** `traffic_30d` -> `traffic_30d_2026-11-22.csv`; only file-name-safe characters are kept. */
export function csvDownloadName(filename: string, now: Date = new Date(), variant = ""): string {
  const base = filename
    .replace(/\.csv$/i, "")
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "") || "table";
  const suffix = variant ? `_${variant}` : "";
  return /\d{4}-\d{2}-\d{2}$/.test(base) ? `${base}${suffix}.csv` : `${base}_${utcDay(now)}${suffix}.csv`;
}

const CHOICES: readonly { dialect: CsvDialect; label: string; variant: string }[] = [
  { dialect: "rfc4180", label: "CSV", variant: "" },
  { dialect: "excel", label: "CSV for Excel", variant: "excel" },
];

export function CsvDownloadButton({ filename, columns, rows, label = "Download" }: CsvDownloadButtonProps) {
  const menu = useRef<HTMLDetailsElement>(null);
  const rowsText = `${rows.length} ${rows.length === 1 ? "row" : "rows"}`;
  const download = (dialect: CsvDialect, variant: string) => {
    downloadBlob(new Blob([toCsv(columns, rows, dialect)], { type: "text/csv;charset=utf-8" }), csvDownloadName(filename, new Date(), variant));
    if (menu.current) menu.current.open = false;
  };
  return (
    <details className={styles.menu} ref={menu} data-testid="csv-download">
      <summary className={styles.secondary} title={`Download ${rowsText}`}>
        {label}
      </summary>
      <div className={styles.menuItems}>
        {CHOICES.map((c) => (
          <button key={c.dialect} type="button" className={styles.menuItem} onClick={() => download(c.dialect, c.variant)}>
            {c.label}
          </button>
        ))}
      </div>
    </details>
  );
}
