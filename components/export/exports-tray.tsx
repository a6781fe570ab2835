"use client";
// The exports tray of the app shell, on every signed-in page: each running or recent export of this
// session with its progress bar, rows and total, an estimate that keeps counting down (also through
// a rate-limit wait: "waiting 38 s for the rate limit"), Cancel, and its outcome (rows, size, rows
// that could not be read; why it failed, with the request id). The list is the server's
// (GET /api/export/status), so leaving the page or reloading it loses nothing; it is polled every
// second while an export runs. Changes are announced politely, at milestones rather than every tick,
// by a live region outside the tray, so hiding the tray or dismissing an export silences nothing.
//
// It stays out of the way: a finished export shrinks to a one-line notice (the header and its Hide
// go when nothing runs), said once: it is dismissed for good when the viewer leaves the page it was
// shown on, and one that was already finished when a page first asked (a reload, another tab) is old
// news and not shown; a failed export stays until dismissed, on every page. Hide and Dismiss are
// remembered in this browser (tray-preferences.ts), so a reload or another tab does not bring them
// back, while a new export always shows; on phones the
// tray starts hidden, as a one-line bar that still says how far the export is; and the page keeps
// room for it below its content (a spacer as tall as the tray, measured), so the tray never sits on
// the end of a page, at any width.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type Ref } from "react";
import { CloseIcon } from "@/components/ui/icons";
import { EXPORTS_KEY, exportsQuery, isRunning, requestCancel, type ExportStatus } from "@/lib/queries/exports";
import { formatBytes, formatDuration, formatNumber as fmt } from "@/lib/format/format";
import { exportErrorText } from "@/lib/ui/messages";
import { formatLabel, unreadableMessage } from "./export-query";
import { forgetStartedExports, useStartedExports, type StartedExport } from "./started-exports";
import { dismissExport, setTrayHidden, useTrayPreferences } from "./tray-preferences";
import styles from "./exports-tray.module.css";

/** An export this tab started that the server still does not know after this long did not start. */
const START_TIMEOUT_MS = 20_000;
/** Phones (the tray's CSS switches to the full width there too): the tray starts hidden. */
const NARROW_QUERY = "(max-width: 480px)";

type Item = { kind: "server"; status: ExportStatus } | { kind: "starting"; started: StartedExport; lost: boolean };

const nameOf = (s: Pick<ExportStatus, "resource" | "format" | "filename">) => s.filename || `${s.resource} (${formatLabel(s.format)})`;
const what = (resource: string) => `${resource.charAt(0).toUpperCase()}${resource.slice(1)} export`;

const narrowQuery = () => (typeof window.matchMedia === "function" ? window.matchMedia(NARROW_QUERY) : undefined);

function subscribeNarrow(onChange: () => void): () => void {
  const query = narrowQuery();
  query?.addEventListener("change", onChange);
  return () => query?.removeEventListener("change", onChange);
}

/** Whether the window is phone-wide (false on the server, where the tray renders nothing anyway). */
function useNarrow(): boolean {
  return useSyncExternalStore(
    subscribeNarrow,
    () => narrowQuery()?.matches ?? false,
    () => false,
  );
}

/**
 * Keeps room below the page's content for the fixed tray: the spacer (in the page's flow, after the
 * main content) is as tall as the tray plus its distance from the window's bottom, measured whenever
 * the tray or the window changes size. Returns the ref callback for the tray and the spacer's ref.
 */
function useRoomBelow() {
  const room = useRef<HTMLDivElement>(null);
  const observeTray = useCallback((tray: HTMLElement | null) => {
    if (!tray) return;
    const measure = () => {
      const spacer = room.current;
      if (!spacer) return;
      const before = spacer.offsetHeight;
      const after = Math.max(0, Math.ceil(window.innerHeight - tray.getBoundingClientRect().top));
      if (after === before) return;
      const page = document.documentElement;
      // A reader at the end of the page stays there as the tray grows (a line of progress more):
      // its last lines would otherwise slide under the tray until they scroll again.
      const atEnd = window.scrollY + window.innerHeight >= page.scrollHeight - 2;
      spacer.style.height = `${after}px`;
      if (atEnd && after > before) window.scrollBy(0, after - before);
    };
    measure();
    const observer = typeof ResizeObserver === "undefined" ? undefined : new ResizeObserver(measure);
    observer?.observe(tray);
    window.addEventListener("resize", measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, []);
  return { room, observeTray };
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
 * announced if it runs or this tab started it (a small one may be done by the first answer); the
 * finished ones a reload lists are old news.
 */
function useAnnouncement(data: readonly ExportStatus[] | undefined, startedHere: readonly StartedExport[]): string {
  const [state, setState] = useState<Announced>({ data: undefined, lines: new Map(), text: "" });
  if (data && data !== state.data) {
    const lines = new Map(state.lines);
    const changed: string[] = [];
    for (const s of data) {
      const line = milestone(s);
      const before = lines.get(s.id);
      lines.set(s.id, line);
      if (before === line || (before === undefined && !isRunning(s) && !startedHere.some((e) => e.id === s.id))) continue;
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

const NONE: ReadonlySet<string> = new Set();

/** An export that ended on its own or by Cancel: said once, then out of the way (a failure stays). */
const isFinished = (s: Pick<ExportStatus, "state">) => s.state === "complete" || s.state === "cancelled";

/**
 * Dismisses finished exports once they have been said: those already finished when this page load
 * first heard of them (not started in this tab: a reload's or another tab's old news), and those shown
 * on a page the viewer has since left.
 */
function useSaidOnce(data: readonly ExportStatus[] | undefined, startedHere: readonly StartedExport[]): ReadonlySet<string> {
  const pathname = usePathname();
  const shown = useRef<{ pathname: string; ids: Set<string> }>({ pathname, ids: new Set() });
  // The old news of this page load, fixed at its first answer (read while rendering, so they are never drawn).
  const [oldNews, setOldNews] = useState<ReadonlySet<string> | null>(null);
  const atFirstAnswer =
    data && oldNews === null ? new Set(data.filter((s) => isFinished(s) && !startedHere.some((e) => e.id === s.id)).map((s) => s.id)) : null;
  if (atFirstAnswer) setOldNews(atFirstAnswer);
  useEffect(() => {
    if (!data || oldNews === null) return;
    for (const s of data) {
      if (!isFinished(s)) continue;
      if (oldNews.has(s.id)) dismissExport(s.id);
      else shown.current.ids.add(s.id);
    }
  }, [data, oldNews]);
  useEffect(() => {
    if (shown.current.pathname === pathname) return;
    for (const id of shown.current.ids) dismissExport(id);
    shown.current = { pathname, ids: new Set() };
  }, [pathname]);
  return oldNews ?? atFirstAnswer ?? NONE;
}

/** Running, or starting and not yet given up on. */
const isActiveItem = (i: Item) => (i.kind === "starting" ? !i.lost : isRunning(i.status));

/** What the tray's header says about the running exports, so a hidden tray still tells how far they are. */
function runningSummary(items: readonly Item[]): string {
  const running = items.filter(isActiveItem);
  if (running.length !== 1) return `${running.length} running`;
  const [only] = running;
  if (only!.kind === "starting") return "1 starting";
  const { rows_written, total } = only!.status;
  return total ? `1 running, ${Math.min(100, Math.floor((rows_written / total) * 100))}%` : "1 running";
}

export function ExportsTray() {
  const started = useStartedExports();
  const { dismissed, hidden: storedHidden } = useTrayPreferences();
  const narrow = useNarrow();
  // This page's Hide/Show; before any, phones start hidden and wider windows as last chosen.
  const [choice, setChoice] = useState<boolean | null>(null);
  const queryClient = useQueryClient();
  const query = useQuery(exportsQuery((data) => started.length > 0 || (data ?? []).some(isRunning)));
  const statuses = useMemo(() => query.data ?? [], [query.data]);
  const announcement = useAnnouncement(query.data, started);
  const listId = useId();
  const { room, observeTray } = useRoomBelow();

  // Exports the server now lists are no longer "starting"; nor are those it never heard of in time.
  const knownIds = useMemo(() => new Set(statuses.map((s) => s.id)), [statuses]);
  const active = statuses.some(isRunning) || started.length > 0;
  const now = useNow(active);
  useEffect(() => {
    forgetStartedExports(knownIds);
  }, [knownIds]);

  const oldNews = useSaidOnce(query.data, started);

  // Dismissed ids are kept for every tab; a new export has a new id, so it always shows.
  const items: Item[] = [
    ...started
      .filter((s) => !knownIds.has(s.id) && !dismissed.has(s.id))
      .map((s): Item => ({ kind: "starting", started: s, lost: now - s.startedAt > START_TIMEOUT_MS })),
    ...statuses.filter((s) => !dismissed.has(s.id) && !oldNews.has(s.id)).map((s): Item => ({ kind: "server", status: s })),
  ];
  const running = items.some(isActiveItem);
  const hidden = choice ?? (narrow ? true : (storedHidden ?? false));
  // Only running exports fold away: an outcome is one line, and a failure must be seen.
  const folded = running && hidden;
  // Seconds since the last answer: the estimates count down from it.
  const sinceAnswer = Math.max(0, (now - query.dataUpdatedAt) / 1000);

  const toggle = () => {
    setChoice(!hidden);
    setTrayHidden(!hidden);
  };

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
        <>
          {/* In the page's flow after the main content: the room the fixed tray takes at the bottom. */}
          <div ref={room} className={styles.room} aria-hidden="true" data-testid="exports-tray-room" />
          <section
            ref={observeTray}
            className={`${styles.tray} ${running ? "" : styles.notices}`}
            aria-labelledby={`${listId}-title`}
            data-testid="exports-tray"
            data-folded={folded}
          >
            <div className={running ? styles.header : "visually-hidden"}>
              <h2 id={`${listId}-title`} className={styles.title}>
                Exports
                {running && <span className={styles.summary}> · {runningSummary(items)}</span>}
              </h2>
              {running && (
                <button type="button" className={styles.toggle} aria-expanded={!folded} aria-controls={listId} onClick={toggle}>
                  {folded ? "Show" : "Hide"}
                  <span className="visually-hidden"> exports</span>
                </button>
              )}
            </div>
            <ul id={listId} className={styles.list} hidden={folded}>
              {items.map((item) =>
                item.kind === "starting" ? (
                  <StartingItem key={item.started.id} item={item} onDismiss={() => dismissExport(item.started.id)} />
                ) : (
                  <ExportItem
                    key={item.status.id}
                    status={item.status}
                    sinceAnswer={sinceAnswer}
                    onCancel={() => cancel(item.status.id)}
                    onDismiss={() => dismissExport(item.status.id)}
                  />
                ),
              )}
            </ul>
          </section>
        </>
      )}
    </>
  );
}

/** The ✕ that dismisses a finished export; its name says which one. */
function DismissButton({ name, onDismiss, buttonRef }: { name: string; onDismiss: () => void; buttonRef?: Ref<HTMLButtonElement> }) {
  return (
    <button type="button" ref={buttonRef} className={styles.dismiss} onClick={onDismiss} title="Dismiss">
      <CloseIcon />
      <span className="visually-hidden">Dismiss {name}</span>
    </button>
  );
}

function StartingItem({ item, onDismiss }: { item: Extract<Item, { kind: "starting" }>; onDismiss: () => void }) {
  const { started, lost } = item;
  const name = `${started.resource} (${formatLabel(started.format)})`;
  if (lost) {
    return (
      <li className={`${styles.item} ${styles.notice}`} data-testid="export-item" data-state="lost">
        <div className={styles.noticeText}>
          <p className={styles.name}>{name}</p>
          <p className={styles.error}>The export did not start: the server never received it. Check your connection and export again.</p>
        </div>
        <DismissButton name={name} onDismiss={onDismiss} />
      </li>
    );
  }
  return (
    <li className={styles.item} data-testid="export-item" data-state="starting">
      <p className={styles.name}>{name}</p>
      <div className={styles.track} role="progressbar" aria-label={`Export of ${name}`} aria-valuetext="Starting">
        <div className={`${styles.bar} ${styles.indeterminate}`} />
      </div>
      <p className={styles.status}>Starting…</p>
    </li>
  );
}

function ExportItem({
  status: s,
  sinceAnswer,
  onCancel,
  onDismiss,
}: {
  status: ExportStatus;
  sinceAnswer: number;
  onCancel: () => Promise<void>;
  onDismiss: () => void;
}) {
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

  if (!running) {
    // Finished: a one-line notice (a second for why it failed or what was left out), and its ✕.
    let detail: string;
    if (s.state === "complete") detail = `Done: ${fmt(s.rows_written)} ${s.rows_written === 1 ? "row" : "rows"}, ${formatBytes(s.bytes)}`;
    else if (s.state === "cancelled") detail = `Cancelled after ${rows}. The download was stopped; no complete file was saved.`;
    else detail = `Failed after ${rows}.`;
    const unreadable = s.state === "complete" ? unreadableMessage(s.unreadable) : undefined;
    return (
      <li className={`${styles.item} ${styles.notice}`} data-testid="export-item" data-state={s.state} data-export-id={s.id}>
        <span className={s.state === "complete" ? styles.markDone : styles.markOther} aria-hidden="true">
          {s.state === "complete" ? "✓" : "!"}
        </span>
        <div className={styles.noticeText}>
          <p className={styles.noticeLine}>
            <span className={styles.name} title={name}>
              {name}
            </span>
            <span className={s.state === "complete" ? styles.success : s.state === "failed" ? styles.error : styles.status} data-testid="export-detail">
              {detail}
            </span>
          </p>
          {s.state === "failed" && s.error && (
            <p className={styles.error} data-testid="export-error">
              {exportErrorText(s.error)} The download was stopped and shows as failed in your browser.
              {s.error.request_id ? ` Request ID: ${s.error.request_id}.` : ""}
            </p>
          )}
          {s.state === "cancelled" && s.error && <p className={styles.status}>{exportErrorText(s.error)}</p>}
          {unreadable && <p className={styles.status}>{unreadable}</p>}
        </div>
        <DismissButton name={name} onDismiss={onDismiss} buttonRef={dismissRef} />
      </li>
    );
  }

  const parts = [rows];
  if (s.state === "waiting" && s.wait_seconds !== undefined)
    parts.push(`waiting ${formatDuration(Math.max(1, s.wait_seconds - sinceAnswer))} for the rate limit`);
  if (s.seconds_left !== undefined) {
    const left = s.seconds_left - sinceAnswer;
    parts.push(left >= 1 ? `about ${formatDuration(left)} left` : "finishing");
  }
  const unreadable = unreadableMessage(s.unreadable);
  const percent = total ? Math.min(100, Math.round((s.rows_written / total) * 100)) : 0;

  return (
    <li className={styles.item} data-testid="export-item" data-state={s.state} data-export-id={s.id}>
      <p className={styles.name} title={name}>
        {name}
      </p>
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
      <div className={styles.runningFoot}>
        <p className={styles.status} data-testid="export-detail">
          {parts.join(" · ")}
        </p>
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
      </div>
      {unreadable && <p className={styles.status}>{unreadable}</p>}
    </li>
  );
}
