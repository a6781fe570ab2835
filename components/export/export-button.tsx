"use client";
// The Export control of the visitors and mentions pages: exports every row matching the page's
// filters as CSV or JSON. It fetches the export route itself (not a plain link) so it can count rows
// as they stream in, show progress with an estimate and a Cancel, and refuse to save a file when the
// stream fails part-way: a truncated export is never saved. The rest of the page stays usable.
import { useEffect, useId, useRef, useState } from "react";
import { downloadBlob, filenameFromDisposition } from "./download-blob";
import {
  estimateSecondsLeft,
  EXPORT_FORMAT_OPTIONS,
  exportUrl,
  formatDuration,
  isExportFormat,
  unreadableMessage,
  type ExportFilters,
  type ExportFormat,
  type ExportResource,
  type UnreadableReport,
} from "./export-query";
import { csvRecordCounter, jsonArrayRecordCounter } from "./record-counter";
import styles from "./export.module.css";

export type ExportButtonProps = {
  resource: ExportResource;
  /** The page's filters, without limit/offset. */
  filters: ExportFilters;
  /** Matching rows, when the page already knows it (meta.total). */
  total?: number;
};

type State =
  | { phase: "idle" }
  | { phase: "starting" }
  | { phase: "running"; done: number; total: number; secondsLeft?: number }
  | { phase: "done"; rows: number; filename: string; unreadable?: string }
  | { phase: "cancelled"; done: number }
  | { phase: "failed"; message: string; done?: number };

const numberFormat = new Intl.NumberFormat("en-US");
const fmt = (n: number) => numberFormat.format(n);
const PROGRESS_UPDATE_MS = 150;

const MEDIA_TYPE: Record<ExportFormat, string> = { csv: "text/csv;charset=utf-8", "csv-excel": "text/csv;charset=utf-8", json: "application/json" };

/**
 * What the server recorded about the export once the download ended: the rows it left out because
 * they could not be read. The record may trail the last byte by a moment (a shared store), so a
 * "running" answer is asked again a few times; no answer at all is no report, never an error.
 */
async function unreadableReport(exportId: string | null): Promise<UnreadableReport | undefined> {
  if (!exportId) return undefined;
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      const res = await fetch(`/api/export/status?${new URLSearchParams({ id: exportId })}`, { cache: "no-store" });
      if (!res.ok) return undefined;
      const status = (await res.json()) as { state?: string; unreadable?: UnreadableReport };
      if (status.state !== "running") return status.unreadable;
    } catch {
      return undefined;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return undefined;
}

async function errorMessage(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { message?: string; request_id?: string } };
    const message = body.error?.message ?? `The export could not start (HTTP ${res.status}).`;
    return body.error?.request_id ? `${message} (request ${body.error.request_id})` : message;
  } catch {
    return `The export could not start (HTTP ${res.status}).`;
  }
}

export function ExportButton({ resource, filters, total }: ExportButtonProps) {
  const [format, setFormat] = useState<ExportFormat>("csv");
  const [state, setState] = useState<State>({ phase: "idle" });
  const controller = useRef<AbortController | null>(null);
  const formatId = useId();

  // Leaving the page cancels a running export (and so stops the server's upstream paging).
  useEffect(() => () => controller.current?.abort(), []);

  const running = state.phase === "starting" || state.phase === "running";

  async function start() {
    const abort = new AbortController();
    controller.current = abort;
    setState({ phase: "starting" });
    let done = 0;
    try {
      const res = await fetch(exportUrl(resource, filters, format), { signal: abort.signal, cache: "no-store" });
      if (!res.ok || !res.body) {
        setState({ phase: "failed", message: await errorMessage(res) });
        return;
      }
      const expected = Number(res.headers.get("X-Total-Count") ?? total ?? 0);
      const estimateHeader = res.headers.get("X-Export-Estimated-Seconds");
      const serverEstimateSeconds = estimateHeader === null ? undefined : Number(estimateHeader);
      const filename = filenameFromDisposition(res.headers.get("Content-Disposition"), `${resource}.${format === "json" ? "json" : "csv"}`);
      const exportId = res.headers.get("X-Export-Id");
      const counter = format === "json" ? jsonArrayRecordCounter() : csvRecordCounter();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      const startedAt = performance.now();
      let lastUpdate = 0;
      setState({ phase: "running", done: 0, total: expected, secondsLeft: serverEstimateSeconds });

      const reader = res.body.getReader();
      let lastByte = 0;
      for (;;) {
        // A server-side failure errors the response stream, so this read rejects: nothing is saved.
        const { done: finished, value } = await reader.read();
        if (finished) break;
        chunks.push(value);
        if (value.length > 0) lastByte = value[value.length - 1]!;
        done = counter.push(value);
        const now = performance.now();
        if (now - lastUpdate >= PROGRESS_UPDATE_MS) {
          lastUpdate = now;
          const secondsLeft = estimateSecondsLeft({ done, total: expected, elapsedMs: now - startedAt, serverEstimateSeconds });
          setState({ phase: "running", done, total: Math.max(expected, done), secondsLeft });
        }
      }
      // A JSON export that ended without its closing bracket was cut short somewhere on the way.
      if (format === "json" && lastByte !== 0x5d) throw new Error("the download ended before the end of the data");
      downloadBlob(new Blob(chunks, { type: MEDIA_TYPE[format] }), filename);
      setState({ phase: "done", rows: done, filename });
      const unreadable = unreadableMessage(await unreadableReport(exportId));
      if (unreadable) setState({ phase: "done", rows: done, filename, unreadable });
    } catch (err) {
      if (abort.signal.aborted) {
        setState({ phase: "cancelled", done });
        return;
      }
      const reason = err instanceof Error && err.message && !/network|fetch|terminated/i.test(err.message) ? err.message : "the connection was closed before the end";
      setState({
        phase: "failed",
        done,
        message: `The export failed after ${fmt(done)} rows (${reason}). Nothing was saved; try again.`,
      });
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  }

  function cancel() {
    controller.current?.abort();
  }

  const label = total === undefined ? "Export" : `Export ${fmt(total)} ${total === 1 ? "row" : "rows"}`;
  const nothing = total === 0;

  let status = "";
  if (state.phase === "starting") status = "Starting the export…";
  else if (state.phase === "running") {
    const eta = state.secondsLeft === undefined ? "estimating time left" : `about ${formatDuration(state.secondsLeft)} left`;
    status = `${fmt(state.done)} of ${fmt(state.total)} rows, ${eta}`;
  } else if (state.phase === "done") status = `Saved ${fmt(state.rows)} rows as ${state.filename}.${state.unreadable ? ` ${state.unreadable}` : ""}`;
  else if (state.phase === "cancelled") status = `Export cancelled after ${fmt(state.done)} rows. Nothing was saved.`;

  const percent = state.phase === "running" && state.total > 0 ? Math.min(100, Math.round((state.done / state.total) * 100)) : 0;

  return (
    <div className={styles.root} data-testid={`export-${resource}`}>
      <div className={styles.controls}>
        <label className={styles.label} htmlFor={formatId}>
          Format
        </label>
        <select
          id={formatId}
          className={styles.select}
          value={format}
          disabled={running}
          onChange={(e) => setFormat(isExportFormat(e.target.value) ? e.target.value : "csv")}
        >
          {EXPORT_FORMAT_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        {running ? (
          <button type="button" className={styles.secondary} onClick={cancel}>
            Cancel export
          </button>
        ) : (
          <button
            type="button"
            className={styles.button}
            onClick={() => void start()}
            disabled={nothing}
            title={nothing ? "No rows match these filters" : undefined}
          >
            {label}
          </button>
        )}
      </div>
      {/* Progress and messages take a space kept for them from the start, so the page never moves. */}
      <div className={styles.feedback}>
        <div className={styles.progress} hidden={state.phase !== "running"}>
          {state.phase === "running" && (
            <div
              className={styles.track}
              role="progressbar"
              aria-label={`Exporting ${resource}`}
              aria-valuemin={0}
              aria-valuemax={state.total}
              aria-valuenow={state.done}
              aria-valuetext={`${fmt(state.done)} of ${fmt(state.total)} rows`}
            >
              <div className={styles.bar} style={{ width: `${percent}%` }} />
            </div>
          )}
        </div>
        <p className={state.phase === "done" ? styles.success : styles.status} role="status" aria-live="polite">
          {status}
        </p>
        {state.phase === "failed" && (
          <p className={styles.error} role="alert">
            {state.message}
          </p>
        )}
      </div>
    </div>
  );
}
