// The streaming exporter: turns "fetch page at offset" into a byte stream of every matching row.
//
// - The first page is fetched before anything is returned, so an upstream error there becomes a real
//   HTTP status (the caller answers with the shared error shape) instead of a broken download.
// - Later pages are fetched in offset order, a few ahead of the consumer (`lookahead`) so the
//   per-key scheduler, not round-trip latency, sets the pace; pages are emitted strictly in order.
// - Pull-based: a page is only fetched when the consumer has room, so memory stays constant
//   (at most `lookahead` pages plus one encoded chunk), whatever the size of the export.
// - The consumer going away (stream cancel or the caller's abort signal) aborts in-flight page
//   requests and stops paging.
// - A failure after the first page ERRORS the stream. The HTTP layer then aborts the response
//   instead of ending it, so the client's download fails: a file is never silently truncated.
import { unexpectedResponse } from "@/lib/data-api/normalize";
import type { ListEnvelope } from "@/lib/data-api/schemas";
import type { ExportEncoder } from "./encoders";

export type FetchPage<T> = (offset: number, signal: AbortSignal) => Promise<ListEnvelope<T>>;

export type ExportStreamOptions<T> = {
  fetchPage: FetchPage<T>;
  encoder: ExportEncoder;
  /** Aborted when the client goes away (the route handler passes request.signal). */
  signal?: AbortSignal;
  /** Pages fetched ahead of the consumer. */
  lookahead?: number;
  /** Called once if the export fails after it started streaming (for logging; no key in it). */
  onError?: (error: unknown, progress: { rowsSent: number; total: number }) => void;
  /** Called once when the stream ends for any reason (complete, failed, cancelled). */
  onEnd?: (outcome: ExportOutcome) => void;
};

export type ExportOutcome = { status: "complete" | "failed" | "cancelled"; rowsSent: number; total: number; pagesFetched: number };

export type StartedExport = {
  /** meta.total of the first page: the number of rows the export will hold. */
  total: number;
  /** Rows per upstream page, as the upstream applied it. */
  pageSize: number;
  /** Upstream pages the whole export takes (the first one already fetched). */
  pages: number;
  stream: ReadableStream<Uint8Array>;
};

/** Thrown into the stream when the upstream's answers stop adding up (short page, empty page). */
export class ExportIntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExportIntegrityError";
  }
}

// Enough pages in flight to keep Pro's 50 requests/s going at ~150 ms upstream latency, while the
// pages held stay around 100 KB.
const DEFAULT_LOOKAHEAD = 8;

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException("The export was cancelled.", "AbortError");
}

/**
 * Fetches the first page (throws its error), then returns the total and a stream of the whole export.
 * Rows are taken up to the first page's meta.total, the count promised to the client.
 */
export async function startExport<T extends Readonly<Record<string, unknown>>>(options: ExportStreamOptions<T>): Promise<StartedExport> {
  const { fetchPage, encoder, onError, onEnd } = options;
  const lookahead = Math.max(1, options.lookahead ?? DEFAULT_LOOKAHEAD);
  // One controller for every page request of this export, aborted by the client or on failure.
  const paging = new AbortController();
  const external = options.signal;
  const onExternalAbort = () => paging.abort(external ? abortReason(external) : undefined);
  if (external?.aborted) throw abortReason(external);
  external?.addEventListener("abort", onExternalAbort, { once: true });

  let first: ListEnvelope<T>;
  try {
    first = await fetchPage(0, paging.signal);
  } catch (err) {
    external?.removeEventListener("abort", onExternalAbort);
    throw err;
  }

  const total = first.meta.total;
  // Without a valid total the export cannot promise (or check) a complete file: refuse it up front.
  if (total === undefined) {
    external?.removeEventListener("abort", onExternalAbort);
    throw unexpectedResponse("the export", undefined, "no valid meta.total");
  }
  // The upstream may apply a smaller page than asked; later offsets follow what it applied.
  const pageSize = Math.max(1, first.data.length || first.meta.limit || 1);
  const pages = total <= first.data.length ? 1 : Math.ceil(total / pageSize);
  const textEncoder = new TextEncoder();

  let rowsSent = 0;
  let pagesFetched = 1;
  let nextOffset = pageSize;
  let ended = false;
  const inFlight: { offset: number; page: Promise<ListEnvelope<T>> }[] = [];

  const finish = (status: ExportOutcome["status"]) => {
    if (ended) return;
    ended = true;
    external?.removeEventListener("abort", onExternalAbort);
    if (status !== "complete") paging.abort();
    onEnd?.({ status, rowsSent, total, pagesFetched });
  };

  const fill = () => {
    while (inFlight.length < lookahead && nextOffset < total && !paging.signal.aborted) {
      const offset = nextOffset;
      const page = fetchPage(offset, paging.signal);
      // Awaited in order later; until then a rejection must not count as unhandled.
      page.catch(() => undefined);
      inFlight.push({ offset, page });
      nextOffset += pageSize;
    }
  };

  /** The rows of a page that belong to the export, checked so a gap can never pass silently. */
  const take = (offset: number, page: ListEnvelope<T>): T[] => {
    const wanted = Math.min(pageSize, total - offset);
    if (page.data.length < wanted) {
      throw new ExportIntegrityError(
        `The Data API returned ${page.data.length} rows at offset ${offset} where ${wanted} were expected; the data may have changed during the export.`,
      );
    }
    return page.data.slice(0, wanted);
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // The first chunk is ready at once: head plus the first page.
        const rows = first.data.slice(0, total);
        let text = encoder.head() + encoder.page(rows, 0);
        rowsSent = rows.length;
        if (rowsSent >= total) {
          text += encoder.tail();
          controller.enqueue(textEncoder.encode(text));
          controller.close();
          finish("complete");
          return;
        }
        controller.enqueue(textEncoder.encode(text));
      },
      async pull(controller) {
        if (ended) return;
        try {
          fill();
          const next = inFlight.shift();
          if (!next) throw new ExportIntegrityError("No page left to fetch before the export was complete.");
          const page = await next.page;
          if (ended) return;
          pagesFetched++;
          const rows = take(next.offset, page);
          let text = encoder.page(rows, rowsSent);
          rowsSent += rows.length;
          const complete = rowsSent >= total;
          if (complete) text += encoder.tail();
          controller.enqueue(textEncoder.encode(text));
          if (complete) {
            controller.close();
            finish("complete");
          } else {
            fill();
          }
        } catch (err) {
          if (ended) return;
          if (paging.signal.aborted) {
            // The client went away: nobody reads this stream any more.
            finish("cancelled");
            controller.error(abortReason(paging.signal));
            return;
          }
          onError?.(err, { rowsSent, total });
          finish("failed");
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
