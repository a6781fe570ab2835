"use client";
// The exports tray of the app shell, on every signed-in page: each running or recent export of this
// session with its progress bar, rows and total, an estimate that keeps counting down (also through
// a rate-limit wait: "waiting 38 s for the rate limit"), Cancel, and its outcome (rows, size, rows
// that could not be read; why it failed, with the request id). The list is the server's
// (GET /api/export/status), so leaving the page or reloading it loses nothing; it is polled every
// second while an export runs. Changes are announced politely, at milestones rather than every tick.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { EXPORTS_KEY, exportsQuery, isRunning, requestCancel, type ExportStatus } from "@/lib/queries/exports";
import { formatBytes, formatDuration, formatNumber as fmt } from "@/lib/format/format";
import { exportErrorText } from "@/lib/ui/messages";
import { formatLabel, unreadableMessage } from "./export-query";
import { forgetStartedExports, useStartedExports, type StartedExport } from "./started-exports";
import styles from "./exports-tray.module.css";

/** An export this tab started that the server still does not know after this long did not start. */
const START_TIMEOUT_MS = 20_000;
const DISMISSED_KEY = "wa_exports_dismissed";

type Item = { kind: "server"; status: ExportStatus } | { kind: "starting"; started: StartedExport; lost: boolean };

const nameOf = (s: Pick<ExportStatus, "resource" | "format" | "filename">) => s.filename || `${s.resource} (${formatLabel(s.format)})`;
const what = (resource: string) => `${resource.charAt(0).toUpperCase()}${resource.slice(1)} export`;

function readDismissed(): ReadonlySet<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(DISMISSED_KEY) ?? "[]") as string[]);
  } catch {
    // Storage unavailable or unreadable: nothing dismissed.
    return new Set();
  }
}

/**
 * Ids the user dismissed, kept for this tab (sessionStorage): finished exports stay listed on the
 * server for an hour. (On the server nothing is dismissed; the tray renders nothing there anyway,
 * its list being fetched in the browser.)
 */
function useDismissed(): [ReadonlySet<string>, (id: string) => void] {
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => (typeof window === "undefined" ? new Set() : readDismissed()));
  const dismiss = (id: string) =>
    setDismissed((prev) => {
      const next = new Set(prev).add(id);
      try {
        sessionStorage.setItem(DISMISSED_KEY, JSON.stringify([...next].slice(-50)));
      } catch {
        // Not kept across a reload; the tray still hides it now.
      }
      return next;
    });
  return [dismissed, dismiss];
}

/** The time now, ticking every second while `active`: the estimates count down between polls. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

type Announced = { data: readonly ExportStatus[] | undefined; lines: ReadonlyMap<string, string>; text: string };

/**
 * What the polite live region says: what changed since the last answer (worked out while rendering
 * a new answer, React's pattern for state that follows a prop). An export seen for the first time is
 * announced only if it runs (one just started); the finished ones a reload lists are old news.
 */
function useAnnouncement(data: readonly ExportStatus[] | undefined): string {
  const [state, setState] = useState<Announced>({ data: undefined, lines: new Map(), text: "" });
  if (data && data !== state.data) {
    const lines = new Map(state.lines);
    const changed: string[] = [];
    for (const s of data) {
      const line = milestone(s);
      const before = lines.get(s.id);
      lines.set(s.id, line);
      if (before === line || (before === undefined && !isRunning(s))) continue;
      changed.push(line);
    }
    setState({ data, lines, text: changed.length ? changed.join(" ") : state.text });
  }
  return state.text;
}

/** What a screen reader hears about an export when it changes state or passes a quarter. */
function milestone(s: ExportStatus): string {
  if (s.state === "complete") return `${what(s.resource)} done: ${fmt(s.rows_written)} rows.`;
  if (s.state === "failed") return `${what(s.resource)} failed. ${s.error ? exportErrorText(s.error) : ""}`;
  if (s.state === "cancelled") return `${what(s.resource)} cancelled.`;
  if (s.state === "waiting") return `${what(s.resource)} waiting for the rate limit.`;
  const quarter = s.total ? Math.floor((s.rows_written / s.total) * 4) : 0;
  return quarter === 0 ? `${what(s.resource)} started.` : `${what(s.resource)} ${quarter * 25}% done.`;
}

export function ExportsTray() {
  const started = useStartedExports();
  const [dismissed, dismiss] = useDismissed();
  const queryClient = useQueryClient();
  const query = useQuery(exportsQuery((data) => started.length > 0 || (data ?? []).some(isRunning)));
  const statuses = useMemo(() => query.data ?? [], [query.data]);
  const [expanded, setExpanded] = useState(true);
  const announcement = useAnnouncement(query.data);
  const listId = useId();

  // Exports the server now lists are no longer "starting"; nor are those it never heard of in time.
  const knownIds = useMemo(() => new Set(statuses.map((s) => s.id)), [statuses]);
  const active = statuses.some(isRunning) || started.length > 0;
  const now = useNow(active);
  useEffect(() => {
    forgetStartedExports(knownIds);
  }, [knownIds]);

  const items: Item[] = [
    ...started
      .filter((s) => !knownIds.has(s.id) && !dismissed.has(s.id))
      .map((s): Item => ({ kind: "starting", started: s, lost: now - s.startedAt > START_TIMEOUT_MS })),
    ...statuses.filter((s) => !dismissed.has(s.id)).map((s): Item => ({ kind: "server", status: s })),
  ];
  const running = items.filter((i) => i.kind === "starting" || isRunning(i.status)).length;
  // Seconds since the last answer: the estimates count down from it.
  const sinceAnswer = Math.max(0, (now - query.dataUpdatedAt) / 1000);

  async function cancel(id: string) {
    await requestCancel(id).catch(() => undefined);
    await queryClient.invalidateQueries({ queryKey: EXPORTS_KEY });
  }

  return (
    <>
      <div className="visually-hidden" role="status" aria-live="polite" data-testid="exports-announcer">
        {announcement}
      </div>
      {items.length > 0 && (
        <section className={styles.tray} aria-labelledby={`${listId}-title`} data-testid="exports-tray">
          <div className={styles.header}>
            <h2 id={`${listId}-title`} className={styles.title}>
              Exports
              <span className={styles.summary}>{running > 0 ? ` · ${running} running` : ""}</span>
            </h2>
            <button type="button" className={styles.toggle} aria-expanded={expanded} aria-controls={listId} onClick={() => setExpanded((e) => !e)}>
              {expanded ? "Hide" : "Show"}
              <span className="visually-hidden"> exports</span>
            </button>
          </div>
          <ul id={listId} className={styles.list} hidden={!expanded}>
            {items.map((item) =>
              item.kind === "starting" ? (
                <StartingItem key={item.started.id} item={item} onDismiss={() => dismiss(item.started.id)} />
              ) : (
                <ExportItem key={item.status.id} status={item.status} sinceAnswer={sinceAnswer} onCancel={() => cancel(item.status.id)} onDismiss={() => dismiss(item.status.id)} />
              ),
            )}
          </ul>
        </section>
      )}
    </>
  );
}

function StartingItem({ item, onDismiss }: { item: Extract<Item, { kind: "starting" }>; onDismiss: () => void }) {
  const { started, lost } = item;
  const name = `${started.resource} (${formatLabel(started.format)})`;
  return (
    <li className={styles.item} data-testid="export-item" data-state={lost ? "lost" : "starting"}>
      <p className={styles.name}>{name}</p>
      {lost ? (
        <>
          <p className={styles.error}>The export did not start: the server never received it. Check your connection and export again.</p>
          <div className={styles.actions}>
            <button type="button" className={styles.secondary} onClick={onDismiss}>
              Dismiss<span className="visually-hidden"> {name}</span>
            </button>
          </div>
        </>
      ) : (
        <>
          <div className={styles.track} role="progressbar" aria-label={`Export of ${name}`} aria-valuetext="Starting">
            <div className={`${styles.bar} ${styles.indeterminate}`} />
          </div>
          <p className={styles.status}>Starting…</p>
        </>
      )}
    </li>
  );
}

function ExportItem({ status: s, sinceAnswer, onCancel, onDismiss }: { status: ExportStatus; sinceAnswer: number; onCancel: () => Promise<void>; onDismiss: () => void }) {
  const [cancelling, setCancelling] = useState(false);
  const dismissRef = useRef<HTMLButtonElement>(null);
  const running = isRunning(s);
  const name = nameOf(s);
  const total = s.total ?? undefined;

  // The Cancel button goes away when the export ends: keep the keyboard user's place on Dismiss.
  useEffect(() => {
    if (cancelling && !running) dismissRef.current?.focus();
  }, [cancelling, running]);

  const rows = total === undefined ? `${fmt(s.rows_written)} rows` : `${fmt(s.rows_written)} of ${fmt(total)} rows`;
  let detail: string;
  if (running) {
    const parts = [rows];
    if (s.state === "waiting" && s.wait_seconds !== undefined) parts.push(`waiting ${formatDuration(Math.max(1, s.wait_seconds - sinceAnswer))} for the rate limit`);
    if (s.seconds_left !== undefined) {
      const left = s.seconds_left - sinceAnswer;
      parts.push(left >= 1 ? `about ${formatDuration(left)} left` : "finishing");
    }
    detail = parts.join(" · ");
  } else if (s.state === "complete") {
    detail = `Done: ${fmt(s.rows_written)} ${s.rows_written === 1 ? "row" : "rows"}, ${formatBytes(s.bytes)}, in your browser's downloads.`;
  } else if (s.state === "cancelled") {
    detail = `Cancelled after ${rows}. The download was stopped; no complete file was saved.`;
  } else {
    detail = `Failed after ${rows}.`;
  }
  const unreadable = s.state === "complete" || running ? unreadableMessage(s.unreadable) : undefined;
  const percent = total ? Math.min(100, Math.round((s.rows_written / total) * 100)) : 0;

  return (
    <li className={styles.item} data-testid="export-item" data-state={s.state} data-export-id={s.id}>
      <p className={styles.name} title={name}>
        {name}
      </p>
      {running && (
        <div
          className={styles.track}
          role="progressbar"
          aria-label={`Export of ${name}`}
          aria-valuemin={0}
          {...(total === undefined ? {} : { "aria-valuemax": total, "aria-valuenow": s.rows_written })}
          aria-valuetext={rows}
        >
          <div className={styles.bar} style={{ width: `${percent}%` }} />
        </div>
      )}
      <p className={s.state === "complete" ? styles.success : s.state === "failed" ? styles.error : styles.status} data-testid="export-detail">
        {detail}
      </p>
      {s.state === "failed" && s.error && (
        <p className={styles.error} data-testid="export-error">
          {exportErrorText(s.error)} The download was stopped and shows as failed in your browser.
          {s.error.request_id ? ` Request ID: ${s.error.request_id}.` : ""}
        </p>
      )}
      {s.state === "cancelled" && s.error && <p className={styles.status}>{exportErrorText(s.error)}</p>}
      {unreadable && <p className={styles.status}>{unreadable}</p>}
      <div className={styles.actions}>
        {running ? (
          <button
            type="button"
            className={styles.secondary}
            disabled={cancelling}
            onClick={() => {
              setCancelling(true);
              void onCancel();
            }}
          >
            {cancelling ? "Cancelling…" : "Cancel"}
            <span className="visually-hidden"> export of {name}</span>
          </button>
        ) : (
          <button type="button" ref={dismissRef} className={styles.secondary} onClick={onDismiss}>
            Dismiss<span className="visually-hidden"> {name}</span>
          </button>
        )}
      </div>
    </li>
  );
}
