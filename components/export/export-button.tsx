"use client";
// The Export control of the visitors and mentions pages: every row matching the page's filters as
// CSV, CSV for Excel or JSON. The file goes straight from the server into the browser's own
// download (a link with `download`), so the page never holds it and the download goes on while the
// user moves around the app; its progress, estimate, cancel and outcome are in the exports tray of
// the app shell, which this control tells about the new export.
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useAppRange } from "@/components/range/use-app-range";
import { formatCount } from "@/lib/format/format";
import { EXPORTS_KEY } from "@/lib/queries/exports";
import {
  browserLocale,
  EXPORT_FORMAT_OPTIONS,
  exportUrl,
  isExportFormat,
  newExportId,
  type ExportFilters,
  type ExportFormat,
  type ExportResource,
} from "./export-query";
import { addStartedExport } from "./started-exports";
import styles from "./export.module.css";

export type ExportButtonProps = {
  resource: ExportResource;
  /** The page's filters, without limit/offset. */
  filters: ExportFilters;
  /** Matching rows, when the page already knows it (meta.total). */
  total?: number;
};

/** Hands a URL to the browser's download manager, as a click on a link with `download` would. */
function download(url: string): void {
  const a = document.createElement("a");
  a.href = url;
  a.download = "";
  a.rel = "noopener";
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function ExportButton({ resource, filters, total }: ExportButtonProps) {
  const [format, setFormat] = useState<ExportFormat>("csv");
  const [started, setStarted] = useState(false);
  const queryClient = useQueryClient();
  const formatId = useId();
  // The zone the header names beside the range: the range's days are counted in it, so the file is
  // named by them and CSV for Excel writes its date-times in it.
  const { tz } = useAppRange().range;

  function start() {
    const id = newExportId();
    addStartedExport({ id, resource, format, startedAt: Date.now() });
    download(exportUrl(resource, filters, format, id, { tz, locale: browserLocale() }));
    setStarted(true);
    void queryClient.invalidateQueries({ queryKey: EXPORTS_KEY });
  }

  const label = total === undefined ? "Export" : `Export ${formatCount(total, "row")}`;
  const nothing = total === 0;

  return (
    <div className={styles.root} data-testid={`export-${resource}`}>
      <div className={styles.controls}>
        <label className={styles.label} htmlFor={formatId}>
          Format
        </label>
        <select id={formatId} className={styles.select} value={format} onChange={(e) => setFormat(isExportFormat(e.target.value) ? e.target.value : "csv")}>
          {EXPORT_FORMAT_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <button type="button" className={styles.button} onClick={start} disabled={nothing} title={nothing ? "No rows match these filters" : undefined}>
          {label}
        </button>
      </div>
      {/* The tray announces the export; this line only says where to look. */}
      <p className={styles.status} aria-hidden={!started}>
        {started ? "Downloading: follow it under Exports, at the bottom." : ""}
      </p>
    </div>
  );
}
