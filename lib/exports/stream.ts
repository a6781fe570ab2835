// The streaming exporter: turns "fetch page at offset" into a byte stream of every matching row.
//
// - The first page is fetched before anything is returned, so an upstream error there becomes a real
//   HTTP status (the caller answers with the shared error shape) instead of a broken download.
// - Later pages are fetched in offset order, a few ahead of the consumer (`lookahead`) so the
//   per-key scheduler, not round-trip latency, sets the pace; pages are emitted strictly in order.
// - Pull-based: a page is only fetched when the consumer has room, so memory stays constant
//   (at most `lookahead` pages plus one encoded chunk), whatever the size of the export.
// - Odd rows never stop an export: items the normaliser could not read at all arrive as a per-page
//   `unreadable` count; every readable row is written, the unreadable ones are counted (with the
//   upstream request ids) and reported through `onProgress`/`onEnd`.
// - The total is the first page's meta.total. An export larger than `maxRows` is refused before it
//   starts (ExportTooLargeError); an absurd total can never plan an endless export. When the upstream
//   gives no usable total, pages are read until a short page, still within `maxRows`.
// - The consumer going away (stream cancel) or the caller's abort signal (the client went away, or
//   the user cancelled) aborts in-flight page requests and stops paging; an abort also errors the
//   stream at once, whether or not the consumer is reading, so the download fails rather than ends.
// - While the page the file needs next waits for the key's rate budget, `onWait` says until when.
// - A body nobody reads ends the export: when a chunk has sat unread for `idleMs` (a paused download,
//   a client that stopped reading, a request such as HEAD whose body is never read), the export fails
//   with ExportIdleError and frees its place. Only time spent waiting for the consumer counts: while
//   the consumer waits for us (a page on its way, however long the rate limit holds it) nothing does.
// - A failure after the first page ERRORS the stream. The HTTP layer then aborts the response
//   instead of ending it, so the client's download fails: a file is never silently truncated.
import { errorBrand } from "@/lib/error-brand";
import type { ExportEncoder } from "./encoders";

/** What the exporter needs of a list page (the canonical list envelope satisfies it). */
export type ExportPage<T> = {
  data: T[];
  meta: { total?: number | null; limit?: number | null };
  /** Items of this page the normaliser could not read at all. */
  unreadable?: { count: number; request_id?: string };
};

/** Fetches the page at `offset`; `onWait` is told while it waits for the rate budget (ms left, 0 once sent). */
export type FetchPage<T> = (offset: number, signal: AbortSignal, onWait?: (ms: number) => void) => Promise<ExportPage<T>>;

export type ExportProgress = {
  /** Rows written to the file so far. */
  rowsWritten: number;
  /** Bytes of the file so far. */
  bytesWritten: number;
  /** Upstream items left out because they could not be read. */
  unreadable: number;
  /** Request ids of the upstream responses that held unreadable items (the first few). */
  unreadableRequestIds: string[];
  /** Rows the export will hold (meta.total of the first page), or null when the upstream gave none. */
  total: number | null;
  pagesFetched: number;
};

export type ExportOutcome = ExportProgress & { status: "complete" | "failed" | "cancelled"; error?: unknown };

export type ExportStreamOptions<T> = {
  fetchPage: FetchPage<T>;
  encoder: ExportEncoder;
  /** Aborted when the client goes away (the route handler passes request.signal). */
  signal?: AbortSignal;
  /** Pages fetched ahead of the consumer. */
  lookahead?: number;
  /** The most rows one export may hold; a larger total is refused before streaming starts. */
  maxRows?: number;
  /** After every page written (and once for the first page). */
  onProgress?: (progress: ExportProgress) => void;
  /** Called once if the export fails after it started streaming (for logging; no key in it). */
  onError?: (error: unknown, progress: ExportProgress) => void;
  /** Called once when the stream ends for any reason (complete, failed, cancelled). */
  onEnd?: (outcome: ExportOutcome) => void;
  /**
   * While the page the file needs next waits for the key's rate budget: until when (epoch ms);
   * null once it no longer waits.
   */
  onWait?: (until: number | null) => void;
  /** How long a chunk may sit unread before the export ends (ExportIdleError); default EXPORT_IDLE_MS. */
  idleMs?: number;
  /** Since when (epoch ms) the stream has been waiting for its consumer to read; null once it reads again. */
  onIdle?: (since: number | null) => void;
};

export type StartedExport = {
  /** meta.total of the first page: the number of rows the export will hold (null: not known). */
  total: number | null;
  /** Rows per upstream page, as the upstream applied it. */
  pageSize: number;
  /** Upstream pages the whole export takes (the first one already fetched), when the total is known. */
  pages: number | null;
  stream: ReadableStream<Uint8Array>;
};

/** Thrown into the stream when the upstream's answers stop adding up (short page, empty page). */
// Each failure of an export is recognised by its brand (lib/error-brand.ts), not `instanceof`, as every
// error the route layer maps to an answer is.
const integrityBrand = errorBrand<ExportIntegrityError>("ExportIntegrityError");
const idleBrand = errorBrand<ExportIdleError>("ExportIdleError");
const tooLargeBrand = errorBrand<ExportTooLargeError>("ExportTooLargeError");

export class ExportIntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExportIntegrityError";
    integrityBrand.mark(this);
  }
}

/** Thrown into the stream when nothing read it for `idleMs`: nobody is downloading the file. */
export class ExportIdleError extends Error {
  constructor(readonly idleMs: number) {
    super(
      `Nothing read the download for ${Math.round(idleMs / 1000)} s (a paused download, or a client that does not read it), so the export was stopped and its place freed. Export again.`,
    );
    this.name = "ExportIdleError";
    idleBrand.mark(this);
  }
}

/** An export larger than this app will plan (its total, or rows seen when the total is unknown). */
export class ExportTooLargeError extends Error {
  constructor(
    readonly total: number,
    readonly maxRows: number,
  ) {
    super(
      `This view has ${total.toLocaleString("en-US")} rows; an export holds at most ${maxRows.toLocaleString("en-US")}. Narrow the filters (a date range, a source) and export the parts.`,
    );
    this.name = "ExportTooLargeError";
    tooLargeBrand.mark(this);
  }
}

export const isExportIntegrityError = integrityBrand.is;
export const isExportIdleError = idleBrand.is;
export const isExportTooLargeError = tooLargeBrand.is;

// Enough pages in flight to keep Pro's 50 requests/s going at ~150 ms upstream latency, while the
// pages held stay around 100 KB.
const DEFAULT_LOOKAHEAD = 8;
/**
 * How long an export's body may sit unread before the export ends. A reading client, however slow its
 * link, drains the socket's buffers and pulls again well within it; a rate-limit wait does not count.
 */
export const EXPORT_IDLE_MS = 30_000;
export const DEFAULT_MAX_EXPORT_ROWS = 1_000_000;
/** Request ids kept for the "could not be read" report: enough to quote, bounded for any export. */
const MAX_REPORTED_REQUEST_IDS = 5;
/** Page sizes an upstream may apply (the Data API's limit is 1 to 100). */
const MAX_PAGE_SIZE = 1000;

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException("The export was cancelled.", "AbortError");
}

const isCount = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

const unreadableOf = (page: ExportPage<unknown>): number => (isCount(page.unreadable?.count) ? page.unreadable.count : 0);

/** Items the upstream sent on a page, readable or not. */
const itemsOn = (page: ExportPage<unknown>): number => page.data.length + unreadableOf(page);

/**
 * Fetches the first page (throws its error, ExportTooLargeError, or ExportIntegrityError when the
 * first page does not add up), then returns the total and a stream of the whole export. Rows are taken up to the first page's meta.total, the count promised.
 */
export async function startExport<T extends Readonly<Record<string, unknown>>>(options: ExportStreamOptions<T>): Promise<StartedExport> {
  const { encoder, onError, onEnd, onProgress, onWait, onIdle } = options;
  const maxRows = options.maxRows ?? DEFAULT_MAX_EXPORT_ROWS;
  const idleMs = options.idleMs ?? EXPORT_IDLE_MS;
  // One controller for every page request of this export, aborted by the client or on failure.
  const paging = new AbortController();
  const external = options.signal;
  // Set once the stream exists: an abort then errors it at once (see below).
  let onAbortStreaming: ((reason: Error) => void) | undefined;
  const onExternalAbort = () => {
    const reason = abortReason(external!);
    paging.abort(reason);
    onAbortStreaming?.(reason);
  };
  if (external?.aborted) throw abortReason(external);
  external?.addEventListener("abort", onExternalAbort, { once: true });

  // Which pages wait for the rate budget, and until when; the file waits when the page it needs next does.
  const waits = new Map<number, number>();
  let neededOffset = 0;
  const fetchPage = (offset: number, signal: AbortSignal) =>
    options.fetchPage(offset, signal, (ms) => {
      if (ms > 0) waits.set(offset, Date.now() + ms);
      else waits.delete(offset);
      if (offset === neededOffset) onWait?.(ms > 0 ? Date.now() + ms : null);
    });
  const needPage = (offset: number) => {
    waits.delete(neededOffset);
    neededOffset = offset;
    onWait?.(waits.get(offset) ?? null);
  };

  let first: ExportPage<T>;
  try {
    first = await fetchPage(0, paging.signal);
  } catch (err) {
    external?.removeEventListener("abort", onExternalAbort);
    throw err;
  }

  const total = isCount(first.meta.total) ? first.meta.total : null;
  if (total !== null && total > maxRows) {
    external?.removeEventListener("abort", onExternalAbort);
    throw new ExportTooLargeError(total, maxRows);
  }
  // The upstream may apply a smaller page than asked; later offsets follow what it applied.
  const limit = first.meta.limit;
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, isCount(limit) && limit >= itemsOn(first) ? limit : itemsOn(first) || 1));
  const pages = total === null ? null : total <= itemsOn(first) ? 1 : Math.ceil(total / pageSize);
  // Without a total, one page at a time: pages past the end would be requests for nothing.
  const lookahead = total === null ? 1 : Math.max(1, options.lookahead ?? DEFAULT_LOOKAHEAD);
  const textEncoder = new TextEncoder();

  const progress: ExportProgress = { rowsWritten: 0, bytesWritten: 0, unreadable: 0, unreadableRequestIds: [], total, pagesFetched: 1 };
  const snapshot = (): ExportProgress => ({ ...progress, unreadableRequestIds: [...progress.unreadableRequestIds] });
  let nextOffset = pageSize;
  /** No usable total: the export ends after the first page with fewer items than a full page. */
  let sawShortPage = total === null && itemsOn(first) < pageSize;
  let ended = false;
  const inFlight: { offset: number; page: Promise<ExportPage<T>> }[] = [];
  // Armed whenever a chunk waits in the queue for the consumer (after start and after each pull),
  // cleared when the consumer pulls: so a pull waiting for a page (and the rate limit) never counts.
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const clearIdle = () => {
    if (idleTimer === undefined) return;
    clearTimeout(idleTimer);
    idleTimer = undefined;
    onIdle?.(null);
  };

  const finish = (status: ExportOutcome["status"], error?: unknown) => {
    if (ended) return;
    ended = true;
    clearIdle();
    external?.removeEventListener("abort", onExternalAbort);
    if (status !== "complete") paging.abort();
    onEnd?.({ ...snapshot(), status, ...(error === undefined ? {} : { error }) });
  };

  const morePages = () => (total === null ? !sawShortPage : nextOffset < total);

  const fill = () => {
    while (inFlight.length < lookahead && morePages() && !paging.signal.aborted) {
      const offset = nextOffset;
      const page = fetchPage(offset, paging.signal);
      // Awaited in order later; until then a rejection must not count as unhandled.
      page.catch(() => undefined);
      inFlight.push({ offset, page });
      nextOffset += pageSize;
    }
  };

  /**
   * The readable rows of a page that belong to the export, counting its unreadable items. A page
   * with fewer items than the export still needs is a gap, never passed over silently.
   */
  const take = (offset: number, page: ExportPage<T>): T[] => {
    const unreadable = unreadableOf(page);
    const wanted = total === null ? itemsOn(page) : Math.min(pageSize, total - offset);
    if (total === null && itemsOn(page) < pageSize) sawShortPage = true;
    if (itemsOn(page) < wanted) {
      throw new ExportIntegrityError(
        `The Data API returned ${itemsOn(page)} rows at offset ${offset} where ${wanted} were expected; the data may have changed during the export.`,
      );
    }
    // Where on the page the unreadable items were is unknown; they count against what is wanted.
    const skipped = Math.min(unreadable, wanted);
    const rows = page.data.slice(0, wanted - skipped);
    progress.unreadable += skipped;
    const requestId = page.unreadable?.request_id;
    if (skipped > 0 && requestId && progress.unreadableRequestIds.length < MAX_REPORTED_REQUEST_IDS && !progress.unreadableRequestIds.includes(requestId)) {
      progress.unreadableRequestIds.push(requestId);
    }
    if (total === null && progress.rowsWritten + progress.unreadable + rows.length > maxRows) {
      throw new ExportTooLargeError(progress.rowsWritten + progress.unreadable + rows.length, maxRows);
    }
    return rows;
  };

  const done = () => (total === null ? sawShortPage : progress.rowsWritten + progress.unreadable >= total);

  // The first page must add up before a 200 goes out: a gap here is an error status, not a broken file.
  let firstRows: T[];
  try {
    firstRows = take(0, first);
  } catch (err) {
    external?.removeEventListener("abort", onExternalAbort);
    throw err;
  }

  const enqueue = (controller: ReadableStreamDefaultController<Uint8Array>, text: string) => {
    const bytes = textEncoder.encode(text);
    progress.bytesWritten += bytes.length;
    controller.enqueue(bytes);
  };

  const armIdle = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (ended) return;
    clearIdle();
    onIdle?.(Date.now());
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (ended) return;
      const error = new ExportIdleError(idleMs);
      onError?.(error, snapshot());
      finish("failed", error);
      // Errored, not closed: whoever holds the response aborts it rather than ending a short file.
      controller.error(error);
    }, idleMs);
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // An abort (the user's cancel, the client gone) errors the stream whether or not anyone is
        // reading: a download paused by its reader still fails instead of waiting forever.
        onAbortStreaming = (reason) => {
          if (ended) return;
          finish("cancelled");
          controller.error(reason);
        };
        // The first chunk is ready at once: head plus the first page.
        const text = encoder.head() + encoder.page(firstRows, 0);
        progress.rowsWritten = firstRows.length;
        if (done()) {
          enqueue(controller, text + encoder.tail());
          onProgress?.(snapshot());
          controller.close();
          finish("complete");
          return;
        }
        enqueue(controller, text);
        onProgress?.(snapshot());
        needPage(pageSize);
        armIdle(controller);
      },
      async pull(controller) {
        if (ended) return;
        clearIdle();
        try {
          fill();
          const next = inFlight.shift();
          if (!next) throw new ExportIntegrityError("No page left to fetch before the export was complete.");
          const page = await next.page;
          if (ended) return;
          progress.pagesFetched++;
          const rows = take(next.offset, page);
          let text = encoder.page(rows, progress.rowsWritten);
          progress.rowsWritten += rows.length;
          const complete = done();
          if (complete) text += encoder.tail();
          enqueue(controller, text);
          onProgress?.(snapshot());
          if (complete) {
            controller.close();
            finish("complete");
          } else {
            needPage(next.offset + pageSize);
            fill();
            // Pulled again at once if the consumer is already waiting (the timer is then cleared).
            armIdle(controller);
          }
        } catch (err) {
          if (ended) return;
          if (paging.signal.aborted) {
            // The client went away: nobody reads this stream any more.
            finish("cancelled");
            controller.error(abortReason(paging.signal));
            return;
          }
          onError?.(err, snapshot());
          finish("failed", err);
          // Erroring (not closing) makes the HTTP layer abort the response: the download fails.
          controller.error(err);
        }
      },
      cancel() {
        finish("cancelled");
      },
    },
    // Pull one page at a time: the queue holds at most one encoded page.
    { highWaterMark: 1 },
  );

  return { total, pageSize, pages, stream };
}
