"use client";
// A small "Download" menu for tables already in the browser (overview KPIs, traffic, funnel, ranking,
// a visitor's timeline): plain CSV for tools, or CSV for Excel, built here with the same encoder and
// the same rules as the server's exports: Excel gets the labels the screen shows, date-times in the
// zone the header names and the list separator of the browser's language. The file name gets the day
// of the download in that zone when it does not carry a date yet, so it says what it holds and when,
// like the server's export names.
// A native <details> disclosure: keyboard and screen readers get its open/closed state for free.
import { useRef } from "react";
import { useAppRange } from "@/components/range/use-app-range";
import { excelStyle, PLAIN_CSV, toCsv, type CsvColumn, type CsvStyle } from "@/lib/csv";
import { dayIn } from "@/lib/export-filename";
import { downloadBlob } from "./download-blob";
import { browserLocale } from "./export-query";
import styles from "./export.module.css";

export type CsvDownloadButtonProps = {
  filename: string;
  columns: readonly CsvColumn[];
  rows: readonly Record<string, unknown>[];
  label?: string;
};

/** `traffic_30d` -> `traffic_30d_2026-11-22.csv` (the day in `tz`, UTC without one); only file-name-safe characters are kept. */
export function csvDownloadName(filename: string, now: Date = new Date(), variant = "", tz?: string): string {
  const base =
    filename
      .replace(/\.csv$/i, "")
      .replace(/[^A-Za-z0-9_.-]+/g, "-")
      .replace(/^[-.]+|[-.]+$/g, "") || "table";
  const suffix = variant ? `_${variant}` : "";
  return /\d{4}-\d{2}-\d{2}$/.test(base) ? `${base}${suffix}.csv` : `${base}_${dayIn(now, tz)}${suffix}.csv`;
}

type Choice = { label: string; variant: string; style: (tz: string) => CsvStyle };

const CHOICES: readonly Choice[] = [
  { label: "CSV", variant: "", style: () => PLAIN_CSV },
  { label: "CSV for Excel", variant: "excel", style: (tz) => excelStyle(tz, browserLocale()) },
];

export function CsvDownloadButton({ filename, columns, rows, label = "Download" }: CsvDownloadButtonProps) {
  const menu = useRef<HTMLDetailsElement>(null);
  const { tz } = useAppRange().range;
  const rowsText = `${rows.length} ${rows.length === 1 ? "row" : "rows"}`;
  const download = (choice: Choice) => {
    const style = choice.style(tz);
    const name = csvDownloadName(filename, new Date(), choice.variant, tz);
    downloadBlob(new Blob([toCsv(columns, rows, style)], { type: "text/csv;charset=utf-8" }), name);
    if (menu.current) menu.current.open = false;
  };
  return (
    <details className={styles.menu} ref={menu} data-testid="csv-download">
      <summary className={styles.secondary} title={`Download ${rowsText}`}>
        {label}
      </summary>
      <div className={styles.menuItems}>
        {CHOICES.map((c) => (
          <button key={c.label} type="button" className={styles.menuItem} onClick={() => download(c)}>
            {c.label}
          </button>
        ))}
      </div>
    </details>
  );
}
