// Builds the HTTP response of an export from parsed filters and the session's key: the first page is
// fetched first (its error is answered as a real status by the caller), then the body streams every
// matching row with download headers. A list the dashboard filters itself (mentions by `query` or
// `competitor`, visitors with `source=ai`: lib/lists) is read as its route reads it, so the
// file holds exactly the rows the page lists: its matching rows are listed before the first page
// (bounded by the listing cap, at bulk priority), then streamed from them in pages. Kept apart from
// the route handler so the integration tests and the benchmark drive exactly this code against the
// sandbox.
import "server-only";
import type { DataApi } from "@/lib/data-api/api";
import type { MentionExportParams, VisitorExportParams } from "@/lib/data-api/params";
import { exportFilename } from "@/lib/export-filename";
import { insightsContext } from "@/lib/insights/context";
import type { Matching } from "@/lib/lists/filtered";
import { filtersMentions, matchingMentions } from "@/lib/lists/mentions";
import { filtersVisitors, matchingAiVisitors } from "@/lib/lists/visitors";
import { dataApiForKey } from "@/lib/server/upstream";
import { EXPORT_COLUMNS, type ExportResource } from "./columns";
import { encoderFor } from "./encoders";
import { startExport, type ExportOutcome, type ExportProgress, type FetchPage } from "./stream";

export const EXPORT_PAGE_SIZE = 100;

export type ExportRequest = { resource: "visitors"; params: VisitorExportParams } | { resource: "mentions"; params: MentionExportParams };

export type ExportResponseOptions = {
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
  now?: Date;
  /** After every page written, with the rows written and the unreadable ones left out so far. */
  onProgress?: (progress: ExportProgress) => void;
  /** Failure after streaming began (no key in it: callers log masked data only). */
  onError?: (error: unknown, info: ExportProgress & { resource: ExportResource }) => void;
  onEnd?: (outcome: ExportOutcome & { resource: ExportResource }) => void;
  /** While the page the file needs next waits for the key's rate budget: until when (epoch ms), or null. */
  onWait?: (until: number | null) => void;
  /** Since when the body has sat unread (epoch ms), or null once it is read again (see startExport). */
  onIdle?: (since: number | null) => void;
  /** How long the body may sit unread before the export ends (default EXPORT_IDLE_MS). */
  idleMs?: number;
  lookahead?: number;
  /** The most rows an export may hold (see startExport). */
  maxRows?: number;
  /** Extra response headers (e.g. the export's id). */
  headers?: Record<string, string>;
};

/**
 * The filters of an export (what the Data API is asked for): its params without format, limit,
 * offset and the viewer's `tz` and `locale`, in schema order.
 */
export function exportFilters(request: ExportRequest): Record<string, string | undefined> {
  const { format: _format, limit: _limit, offset: _offset, tz: _tz, locale: _locale, ...filters } = request.params;
  return filters;
}

/** Who the file is written for (the zone and language "CSV for Excel" follows). */
const viewerOf = (request: ExportRequest) => ({ timeZone: request.params.tz, locale: request.params.locale });

type Row = Readonly<Record<string, unknown>>;

function pageFetcher(api: DataApi, request: ExportRequest): FetchPage<Row> {
  const query = { ...exportFilters(request), limit: EXPORT_PAGE_SIZE };
  const path = request.resource === "visitors" ? "/visitors" : "/mentions";
  return (offset, signal, onWait) => api.get(path, { query: { ...query, offset } }, { priority: "bulk", signal, onWait });
}

/**
 * The rows of a list the dashboard filters itself, or null for a Data API list as it is: the
 * listing of its route (lib/lists), started on the first page's call with the export's signal.
 */
function filteredRows(apiKey: string, request: ExportRequest): ((signal: AbortSignal) => Promise<Matching<Row>>) | null {
  // Narrowed here, not inside the closures (which would see the union again).
  if (request.resource === "mentions") {
    const { params } = request;
    return filtersMentions(params) ? (signal) => matchingMentions({ ...insightsContext(apiKey), signal }, params, "bulk") : null;
  }
  const { params } = request;
  return filtersVisitors(params) ? (signal) => matchingAiVisitors({ ...insightsContext(apiKey), signal }, params, "bulk") : null;
}

/** Pages of EXPORT_PAGE_SIZE cut from a filtered list's rows, listed once (on the first page's call). */
function filteredFetcher(list: (signal: AbortSignal) => Promise<Matching<Row>>, onListed: (matching: Matching<Row>) => void): FetchPage<Row> {
  let listed: Promise<Matching<Row>> | undefined;
  return async (offset, signal) => {
    // Every page shares the export's one signal: the listing stops with the export.
    listed ??= list(signal).then((matching) => {
      onListed(matching);
      return matching;
    });
    const { rows } = await listed;
    return { data: rows.slice(offset, offset + EXPORT_PAGE_SIZE), meta: { total: rows.length, limit: EXPORT_PAGE_SIZE } };
  };
}

/** RFC 6266: a quoted ASCII filename (ours are [A-Za-z0-9._-] only) plus the UTF-8 form. */
function contentDisposition(filename: string): string {
  return `attachment; filename="${filename}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** The download's file name: what it holds (resource, filters, the range's days in `tz`), the day, and "excel" for CSV for Excel. */
export function exportFilenameFor(request: ExportRequest, now: Date): string {
  const { extension } = encoderFor(request.params.format, EXPORT_COLUMNS[request.resource]);
  return exportFilename(
    request.resource,
    exportFilters(request),
    extension,
    now,
    request.params.tz,
    request.params.format === "csv-excel" ? "excel" : undefined,
  );
}

/**
 * Starts the export of `apiKey`'s rows. Throws the first page's error (DataApiError) so the caller
 * can answer it in the shared error shape; resolves to a streaming 200 response otherwise.
 */
export async function exportResponse(apiKey: string, request: ExportRequest, options: ExportResponseOptions = {}): Promise<Response> {
  const { resource } = request;
  const format = request.params.format;
  const columns = EXPORT_COLUMNS[resource];
  const encoder = encoderFor(format, columns, viewerOf(request));
  // A filtered list's rows that could not be read (so not checked against the filter) are reported
  // with the ones left out of its pages: no page holds them.
  let unchecked = 0;
  const withUnchecked = <P extends ExportProgress>(progress: P): P => ({ ...progress, unreadable: progress.unreadable + unchecked });
  const filtered = filteredRows(apiKey, request);
  const started = await startExport({
    fetchPage: filtered
      ? filteredFetcher(filtered, (matching) => {
          unchecked = matching.unchecked;
        })
      : pageFetcher(dataApiForKey(apiKey), request),
    encoder,
    signal: options.signal,
    lookahead: options.lookahead,
    maxRows: options.maxRows,
    onProgress: (progress) => options.onProgress?.(withUnchecked(progress)),
    onError: (error, progress) => options.onError?.(error, { resource, ...withUnchecked(progress) }),
    onEnd: (outcome) => options.onEnd?.({ ...withUnchecked(outcome), resource }),
    onWait: options.onWait,
    onIdle: options.onIdle,
    idleMs: options.idleMs,
  });

  const filename = exportFilenameFor(request, options.now ?? new Date());
  const headers = new Headers({
    "Content-Type": encoder.contentType,
    "Content-Disposition": contentDisposition(filename),
    // no-transform keeps `next start`'s gzip off the file: zlib's native buffers, spread over the
    // allocator's arenas, grew the server's RSS with the export's size (bench/export.bench.ts).
    "Cache-Control": "no-store, no-transform",
    "X-Content-Type-Options": "nosniff",
    ...options.headers,
  });
  if (started.total !== null) headers.set("X-Total-Count", String(started.total));
  if (started.pages !== null) headers.set("X-Export-Pages", String(started.pages));
  return new Response(started.stream, { status: 200, headers });
}
