// The export routes' handlers (mounted by app/api/export/**/route.ts, which declare their access):
// - GET /api/export/visitors|mentions?…filters&format&id: the download itself, meant for the browser's
//   own download (a link with `download`; cross-site requests are refused where the route is mounted,
//   lib/server/csrf.ts): the session (401), the export id (the browser makes it, so the tray knows it
//   before the first byte; 409 if taken), the filters (400 naming the parameter), a place among the
//   key's running exports (429 beyond MAX_RUNNING_EXPORTS), then the first upstream page (its failure
//   answered in the shared error shape) and the streamed file. Every refusal after the id is known is
//   recorded under it too, so the tray says why a download failed (a browser shows no error body).
//   A download nobody reads (paused, stalled, never read) ends after EXPORT_IDLE_MS as failed
//   (`download_idle`), and stops heartbeating once nothing has read it for that long.
// - HEAD on a download: 405 (EXPORT_HEAD_REFUSED, the route's `headRefused`). Next would answer it by
//   running GET without reading the body: an export started, held running by its heartbeat, taking one
//   of the key's places.
// - GET /api/export/status?id=exp_…: one export of the session's key; without an id, the session's
//   recent exports (the tray's list, which so survives a reload).
// - POST /api/export/cancel?id=exp_…: stops a running export (a write: from this app's pages only).
// While it streams, an export writes its record (progress, rate-limit wait, estimate) every
// TICK_MS when something changed and every HEARTBEAT_MS regardless, and looks for a cancel request.
import "server-only";
import { isDataApiError } from "@/lib/data-api/errors";
import { mentionExportParams, visitorExportParams } from "@/lib/data-api/params";
import { getEnv } from "@/lib/server/env";
import { errorForBrowser, finalError, invalidParameter, json } from "@/lib/server/http";
import { keyId } from "@/lib/server/key-id";
import { serverContext } from "@/lib/server/context";
import { queryOf } from "@/lib/server/route";
import type { Session } from "@/lib/server/session";
import { maskKey, rateBudgetForKey } from "@/lib/server/upstream";
import type { ExportResource } from "./columns";
import { EXPORT_PAGE_SIZE, exportFilenameFor, exportResponse, type ExportRequest } from "./export-response";
import { minSecondsForRequests, pagesFor } from "./rate-bound";
import {
  EXPORT_ID_PATTERN,
  EXPORT_TTL_MS,
  HEARTBEAT_MS,
  isActive,
  MAX_RUNNING_EXPORTS,
  newExportId,
  STALE_MS,
  statusOf,
  type ExportRecord,
  type ExportState,
} from "@/lib/shared-state/export-status";
import { EXPORT_IDLE_MS, isExportIdleError, isExportIntegrityError, isExportTooLargeError, type ExportProgress } from "./stream";

/** How often a running export writes its progress (when it changed) and looks for a cancel request. */
const TICK_MS = 500;
/** A rate-limit wait shorter than this is the normal per-second pacing, not "waiting". */
const NOTICEABLE_WAIT_MS = 1500;
/** Exports the tray lists: a session's most recent. */
const LISTED = 10;

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const extra = error as Error & { code?: unknown; status?: unknown; requestId?: unknown };
    const parts = [typeof extra.status === "number" ? String(extra.status) : "", typeof extra.code === "string" ? extra.code : error.name];
    const id = typeof extra.requestId === "string" ? ` (request ${extra.requestId})` : "";
    return `${parts.filter(Boolean).join(" ")}: ${error.message}${id}`;
  }
  return "non-error thrown";
}

export const EXPORT_SUBJECT: Record<ExportResource, string> = { visitors: "the visitor export", mentions: "the mention export" };

/** What the browser is told about a failure (the error shape's fields): as the route would answer it. */
function statusError(error: unknown, resource: ExportResource): NonNullable<ExportRecord["error"]> {
  if (isExportTooLargeError(error)) return { code: "export_too_large", message: error.message };
  if (isExportIntegrityError(error)) return { code: "unexpected_response", message: error.message };
  if (isExportIdleError(error)) return { code: "download_idle", message: error.message };
  if (isDataApiError(error)) {
    const mapped = errorForBrowser(error, EXPORT_SUBJECT[resource]).error;
    return { code: mapped.code, message: mapped.message, ...(mapped.requestId ? { request_id: mapped.requestId } : {}) };
  }
  return { code: "export_failed", message: "The export failed on the server." };
}

/** The export id a request names (`id`, at most one, as newExportId makes them), or null for none. */
function exportIdParam(url: URL, required: boolean): string | null {
  const ids = url.searchParams.getAll("id");
  if (ids.length === 0 && !required) return null;
  if (ids.length !== 1 || !EXPORT_ID_PATTERN.test(ids[0]!)) {
    throw invalidParameter("id", "id must be one export id: exp_ followed by 22 letters, digits, _ or -");
  }
  return ids[0]!;
}

/** The tag that lists an export under the session that started it (a keyed hash of its id). */
const sessionTag = (session: Session) => keyId(`session:${session.sessionId}`);

const iso = (ms: number) => new Date(ms).toISOString();

/** A started export's live handle in this process: how the cancel route stops it at once. */
const liveKey = (owner: string, id: string) => `${owner}:${id}`;

/**
 * Seconds the rest of the export should take: the most of what the key's plan allows for the pages
 * left (counting what the minute already spent, and the share left to the dashboard; during a
 * rate-limit wait, the wait plus those pages, where the pace so far would only grow with the wait) and
 * the pace seen so far (a slow upstream).
 */
function secondsLeft(apiKey: string, progress: ExportProgress, waitUntil: number | null, elapsedMs: number, now: number): number | undefined {
  if (progress.total === null) return undefined;
  const rowsLeft = Math.max(0, progress.total - progress.rowsWritten - progress.unreadable);
  if (rowsLeft === 0) return 0;
  const pages = pagesFor(rowsLeft, EXPORT_PAGE_SIZE);
  const budget = rateBudgetForKey(apiKey);
  // The burst as it stands: below the plan's for a while after a 429.
  const plan = { perSecond: budget.burst - budget.reserved.perSecond, perMinute: budget.perMinute - budget.reserved.perMinute };
  const spent = Math.min(budget.sentLastMinute, plan.perMinute);
  // The plan as learned from the first page's headers (or as DATA_API_RATE_BUDGET fixes it).
  const byPlan = minSecondsForRequests(spent + pages, plan) - minSecondsForRequests(spent, plan);
  const done = progress.rowsWritten + progress.unreadable;
  const byPace = elapsedMs >= 2000 && done > 0 ? (rowsLeft * elapsedMs) / done / 1000 : 0;
  // During a wait its end is known: the pages left go from there, in a fresh window.
  if (waitUntil !== null && waitUntil > now) return (waitUntil - now) / 1000 + minSecondsForRequests(pages, plan);
  return Math.max(byPlan, byPace);
}

/** GET /api/export/visitors|mentions: the download of `resource` for the session's key. */
export async function handleExport(session: Session, req: Request, resource: ExportResource): Promise<Response> {
  const url = new URL(req.url);
  const id = exportIdParam(url, false) ?? newExportId();
  const ctx = serverContext();
  const store = ctx.stores.exportStatus;
  const owner = keyId(session.apiKey);
  const startedMs = ctx.now();
  const rawFormat = url.searchParams.get("format") ?? "csv";
  let record: ExportRecord = {
    id,
    session: sessionTag(session),
    resource,
    format: /^[a-z-]{1,20}$/.test(rawFormat) ? rawFormat : "",
    filename: "",
    state: "running",
    rows_written: 0,
    total: null,
    bytes: 0,
    unreadable: { count: 0, request_ids: [] },
    started_at: iso(startedMs),
    updated_at: iso(startedMs),
  };
  const write = (next: ExportRecord) => {
    record = next;
    return store.put(owner, next, EXPORT_TTL_MS).catch((err: unknown) => console.error(`[export] could not record the status of ${id}: ${describeError(err)}`));
  };
  /** Records a refusal under the id (the tray shows it), then refuses. */
  const refuse = async (error: unknown): Promise<never> => {
    await write({ ...record, state: "failed", error: statusError(error, resource), updated_at: iso(ctx.now()) });
    throw error;
  };

  // An id already used is never reused: a browser retrying a failed download must not start it again.
  if (await store.get(owner, id)) {
    throw finalError({ status: 409, code: "export_exists", message: "This export id is already used; start a new export." });
  }
  let request: ExportRequest;
  try {
    request = resource === "visitors" ? { resource, params: queryOf(req, visitorExportParams) } : { resource, params: queryOf(req, mentionExportParams) };
  } catch (error) {
    return refuse(error);
  }
  record = { ...record, format: request.params.format, filename: exportFilenameFor(request, new Date(startedMs)) };
  const begun = await store.begin(owner, record, { maxRunning: MAX_RUNNING_EXPORTS, freshSince: iso(startedMs - STALE_MS), ttlMs: EXPORT_TTL_MS });
  if (begun === "exists") throw finalError({ status: 409, code: "export_exists", message: "This export id is already used; start a new export." });
  if (begun === "busy") {
    return refuse(
      finalError({
        status: 429,
        code: "too_many_exports",
        message: `${MAX_RUNNING_EXPORTS} exports of this workspace key are already running. Wait for one to finish, or cancel one, then export again.`,
        retryAfter: 10,
      }),
    );
  }

  // The export stops on the user's cancel (this process: at once, through `live`; another instance:
  // at the next tick, through the store) or when the browser drops the download. `live` is held in
  // the context until the export ends, and the listeners hold it from the request's own signal: no
  // weakly held combined signal (AbortSignal.any) that could be collected before it fires.
  const live = new AbortController();
  let cancelledByUser = false;
  const cancel = () => {
    cancelledByUser = true;
    live.abort(new DOMException("The export was cancelled.", "AbortError"));
  };
  const onClientGone = () => live.abort(new DOMException("The browser stopped the download.", "AbortError"));
  if (req.signal.aborted) onClientGone();
  else req.signal.addEventListener("abort", onClientGone, { once: true });
  ctx.runningExports.set(liveKey(owner, id), cancel);

  let progress: ExportProgress = { rowsWritten: 0, bytesWritten: 0, unreadable: 0, unreadableRequestIds: [], total: null, pagesFetched: 0 };
  let waitUntil: number | null = null;
  /** Since when the download has sat unread (null while it is read, or waits for a page). */
  let idleSince: number | null = null;
  let changed = true;
  let lastWrite = 0;
  let ended = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const snapshotRecord = (state: ExportState, now: number, error?: unknown): ExportRecord => {
    const { wait_until: _w, estimated_end: _e, error: _err, ...base } = record;
    const next: ExportRecord = {
      ...base,
      state,
      rows_written: progress.rowsWritten,
      total: progress.total,
      bytes: progress.bytesWritten,
      unreadable: { count: progress.unreadable, request_ids: progress.unreadableRequestIds },
      updated_at: iso(now),
    };
    if (isActive(state)) {
      if (state === "waiting") next.wait_until = iso(waitUntil!);
      const left = secondsLeft(session.apiKey, progress, waitUntil, now - startedMs, now);
      if (left !== undefined) next.estimated_end = iso(now + left * 1000);
    }
    if (error !== undefined) next.error = statusError(error, resource);
    return next;
  };
  // The per-second pacing makes pages wait for fractions of a second all the time; only a wait the
  // user would notice (a used-up minute, a Retry-After) is worth saying.
  const activeState = (now: number): ExportState => (waitUntil !== null && waitUntil - now >= NOTICEABLE_WAIT_MS ? "waiting" : "running");

  const tick = async () => {
    timer = undefined;
    if (ended) return;
    if (await store.isCancelRequested(owner, id).catch(() => false)) cancel();
    const now = ctx.now();
    // The heartbeat says "still running" only of a download someone reads: one unread for the idle
    // limit is ended by the stream; should that ever not happen, its record still goes stale.
    const read = idleSince === null || now - idleSince < EXPORT_IDLE_MS;
    if (!ended && (changed || (read && now - lastWrite >= HEARTBEAT_MS))) {
      changed = false;
      lastWrite = now;
      await write(snapshotRecord(activeState(now), now));
    }
    if (!ended) timer = setTimeout(() => void tick(), TICK_MS);
  };
  const end = (state: ExportState, error?: unknown) => {
    if (ended) return;
    ended = true;
    if (timer) clearTimeout(timer);
    req.signal.removeEventListener("abort", onClientGone);
    ctx.runningExports.delete(liveKey(owner, id));
    void write(snapshotRecord(state, ctx.now(), error));
  };

  const keyHint = maskKey(session.apiKey);
  timer = setTimeout(() => void tick(), TICK_MS);
  try {
    return await exportResponse(session.apiKey, request, {
      signal: live.signal,
      now: new Date(startedMs),
      maxRows: getEnv().exportMaxRows,
      headers: { "X-Export-Id": id },
      onProgress: (p) => {
        progress = p;
        changed = true;
      },
      onWait: (until) => {
        waitUntil = until;
        changed = true;
      },
      onIdle: (since) => {
        idleSince = since;
      },
      onEnd: (outcome) => {
        progress = outcome;
        if (outcome.status === "cancelled" && !cancelledByUser) {
          end(
            "cancelled",
            finalError({
              status: 499,
              code: "download_stopped",
              message: "The browser stopped the download (cancelled in its downloads, or the connection closed).",
            }),
          );
        } else end(outcome.status, outcome.error);
      },
      onError: (error, info) => {
        // The key itself never reaches a log: only its masked hint.
        console.error(
          `[export] ${info.resource} for ${keyHint} failed after ${info.rowsWritten} of ${info.total ?? "?"} rows; download aborted. ${describeError(error)}`,
        );
      },
    });
  } catch (error) {
    // Before the first byte: the first page failed, the export is too large, or it was cancelled.
    const mapped = isExportTooLargeError(error)
      ? finalError({ status: 422, code: "export_too_large", message: error.message })
      : isExportIntegrityError(error)
        ? finalError({ status: 502, code: "unexpected_response", message: error.message })
        : error;
    if (live.signal.aborted) end("cancelled");
    else end("failed", mapped);
    throw mapped;
  }
}

/**
 * HEAD /api/export/visitors|mentions is refused with this: a download's headers (its total, its id)
 * exist only once an export has fetched its first page, and a HEAD never reads the body.
 */
export const EXPORT_HEAD_REFUSED = "HEAD would start an export nobody reads; GET the export to download it.";

/**
 * GET /api/export/status?id=exp_…: an export of this session's key, as ExportStatus.
 * GET /api/export/status: `{data: ExportStatus[]}`, the session's most recent exports, newest first.
 */
export async function exportStatus({ session }: { session: Session }, req: Request): Promise<Response> {
  const owner = keyId(session.apiKey);
  const store = serverContext().stores.exportStatus;
  const now = serverContext().now();
  const id = exportIdParam(new URL(req.url), false);
  if (id === null) {
    const tag = sessionTag(session);
    const records = (await store.list(owner)).filter((r) => r.session === tag).slice(0, LISTED);
    return json({ data: records.map((r) => statusOf(r, now)) });
  }
  const record = await store.get(owner, id);
  if (!record)
    throw finalError({ status: 404, code: "not_found", message: "No export with this id for this API key (finished exports are kept for an hour)." });
  return json(statusOf(record, now));
}

/**
 * POST /api/export/cancel?id=exp_…: stops a running export of this key. 202 with its status when a
 * cancel was asked for (the export ends within a page, its download fails and nothing is saved);
 * 200 with its status when it had already ended.
 */
export async function cancelExport({ session }: { session: Session }, req: Request): Promise<Response> {
  const id = exportIdParam(new URL(req.url), true)!;
  const ctx = serverContext();
  const owner = keyId(session.apiKey);
  const record = await ctx.stores.exportStatus.get(owner, id);
  if (!record) throw finalError({ status: 404, code: "not_found", message: "No export with this id for this API key." });
  const status = statusOf(record, ctx.now());
  if (!isActive(status.state)) return json(status);
  await ctx.stores.exportStatus.requestCancel(owner, id, EXPORT_TTL_MS);
  ctx.runningExports.get(liveKey(owner, id))?.();
  return json(status, { status: 202 });
}
