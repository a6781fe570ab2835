// The exporter core over an in-memory page source (the injected fetchPage): order, completeness,
// backpressure, cancellation and failure semantics. The same core runs against the sandbox over
// real HTTP in export.integration.test.ts.
import Papa from "papaparse";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EXPORT_COLUMNS } from "./columns";
import { csvEncoder, jsonEncoder } from "./encoders";
import {
  EXPORT_IDLE_MS,
  ExportIdleError,
  ExportIntegrityError,
  ExportTooLargeError,
  startExport,
  type ExportOutcome,
  type ExportPage,
  type FetchPage,
} from "./stream";

type Row = { id: string; source?: string; pages_viewed?: number; converted?: boolean };

const makeRows = (n: number): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: `vis_${i}`, source: i % 2 ? "chatgpt" : "=cmd()", pages_viewed: i, converted: i % 3 === 0 }));

/** A page source over an array, recording each offset asked; `hold` keeps pages pending until released. */
function source(rows: Row[], opts: { pageSize?: number; failAt?: number; shortAt?: number } = {}) {
  const pageSize = opts.pageSize ?? 100;
  const asked: number[] = [];
  const fetchPage: FetchPage<Row> = async (offset, signal) => {
    asked.push(offset);
    await new Promise((r) => setTimeout(r, 1));
    if (signal.aborted) throw signal.reason;
    if (opts.failAt !== undefined && offset >= opts.failAt) throw new Error("upstream 500 after retries");
    const end = opts.shortAt !== undefined && offset >= opts.shortAt ? offset + 10 : offset + pageSize;
    return { data: rows.slice(offset, end), meta: { total: rows.length, limit: pageSize, offset } };
  };
  return { fetchPage, asked };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

const columns = EXPORT_COLUMNS.visitors;

describe("startExport", () => {
  it("streams every row in order as CSV, header first, parseable", async () => {
    const rows = makeRows(1234);
    const { fetchPage, asked } = source(rows);
    const started = await startExport({ fetchPage, encoder: csvEncoder(columns) });
    expect(started.total).toBe(1234);
    expect(started.pages).toBe(13);
    const text = await readAll(started.stream);
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, newline: "\r\n", skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(parsed.data[0]!.source).toBe("'=cmd()");
    expect(parsed.data[3]!.converted).toBe("true");
    expect(asked).toEqual(Array.from({ length: 13 }, (_, i) => i * 100));
  });

  it("streams a valid JSON array with exactly the export columns", async () => {
    const rows = makeRows(250).map((r) => ({ ...r, secret_extra: "x" }));
    const { fetchPage } = source(rows);
    const started = await startExport({ fetchPage, encoder: jsonEncoder(columns) });
    const items = JSON.parse(await readAll(started.stream)) as Record<string, unknown>[];
    expect(items).toHaveLength(250);
    expect(items[1]).toEqual({ id: "vis_1", source: "chatgpt", pages_viewed: 1, converted: false });
  });

  it("writes a header-only CSV and an empty JSON array when nothing matches", async () => {
    const csv = await startExport({ fetchPage: source([]).fetchPage, encoder: csvEncoder(columns) });
    expect(await readAll(csv.stream)).toBe(columns.map((c) => `"${c.key}"`).join(",") + "\r\n");
    const json = await startExport({ fetchPage: source([]).fetchPage, encoder: jsonEncoder(columns) });
    expect(JSON.parse(await readAll(json.stream))).toEqual([]);
  });

  it("follows a smaller page size applied by the upstream", async () => {
    const rows = makeRows(130);
    const { fetchPage, asked } = source(rows, { pageSize: 50 });
    const started = await startExport({ fetchPage, encoder: jsonEncoder(columns) });
    expect((JSON.parse(await readAll(started.stream)) as unknown[]).length).toBe(130);
    expect(asked).toEqual([0, 50, 100]);
  });

  it("throws the first page's error before any stream exists", async () => {
    const { fetchPage } = source(makeRows(10), { failAt: 0 });
    await expect(startExport({ fetchPage, encoder: csvEncoder(columns) })).rejects.toThrow("upstream 500");
  });

  it("errors the stream (never ends it cleanly) when a later page fails, and reports it once", async () => {
    const { fetchPage } = source(makeRows(1000), { failAt: 500 });
    const errors: unknown[] = [];
    const outcomes: string[] = [];
    const started = await startExport({
      fetchPage,
      encoder: csvEncoder(columns),
      onError: (e, p) => errors.push([(e as Error).message, p.rowsWritten]),
      onEnd: (o) => outcomes.push(o.status),
    });
    await expect(readAll(started.stream)).rejects.toThrow("upstream 500");
    expect(errors).toEqual([["upstream 500 after retries", 500]]);
    expect(outcomes).toEqual(["failed"]);
  });

  it("errors the stream when a page comes back short of the promised total", async () => {
    const { fetchPage } = source(makeRows(400), { shortAt: 200 });
    const started = await startExport({ fetchPage, encoder: csvEncoder(columns) });
    await expect(readAll(started.stream)).rejects.toThrow(/returned 10 rows at offset 200/);
  });

  it("fetches only as far ahead as the reader: no reading, no paging beyond the lookahead", async () => {
    const { fetchPage, asked } = source(makeRows(10_000));
    const started = await startExport({ fetchPage, encoder: csvEncoder(columns), lookahead: 2 });
    const reader = started.stream.getReader();
    await reader.read(); // head + first page
    await reader.read(); // page 2
    await new Promise((r) => setTimeout(r, 50));
    // First page, the page just read, and at most the lookahead plus one queued chunk beyond it.
    expect(asked.length).toBeLessThanOrEqual(1 + 1 + 2 + 1);
    await reader.cancel();
  });

  it("stops paging when the stream is cancelled", async () => {
    const { fetchPage, asked } = source(makeRows(10_000));
    const outcomes: string[] = [];
    const started = await startExport({ fetchPage, encoder: csvEncoder(columns), onEnd: (o) => outcomes.push(o.status) });
    const reader = started.stream.getReader();
    for (let i = 0; i < 5; i++) await reader.read();
    await reader.cancel();
    const after = asked.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(asked.length).toBe(after);
    expect(after).toBeLessThan(100);
    expect(outcomes).toEqual(["cancelled"]);
  });

  it("stops paging when the caller's signal aborts (the client went away)", async () => {
    const { fetchPage, asked } = source(makeRows(10_000));
    const client = new AbortController();
    const started = await startExport({ fetchPage, encoder: csvEncoder(columns), signal: client.signal, lookahead: 3 });
    const reader = started.stream.getReader();
    await reader.read();
    await reader.read();
    client.abort();
    await expect(async () => {
      for (;;) if ((await reader.read()).done) break;
    }).rejects.toThrow();
    const after = asked.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(asked.length).toBe(after);
    expect(after).toBeLessThan(10);
  });

  it("writes every readable row and counts the unreadable ones, with their request ids", async () => {
    // 250 upstream items; every 7th could not be read by the normaliser (left out, counted per page).
    const rows = makeRows(250);
    const unreadableAt = (i: number) => i % 7 === 3;
    const fetchPage: FetchPage<Row> = async (offset) => {
      const items = rows.slice(offset, offset + 100);
      const readable = items.filter((r) => !unreadableAt(Number(r.id.slice(4))));
      const count = items.length - readable.length;
      return { data: readable, meta: { total: rows.length, limit: 100, offset }, ...(count ? { unreadable: { count, request_id: `req_${offset}` } } : {}) };
    };
    const ends: ExportOutcome[] = [];
    const progress: number[] = [];
    const started = await startExport({
      fetchPage,
      encoder: jsonEncoder(columns),
      onEnd: (o) => ends.push(o),
      onProgress: (p) => progress.push(p.rowsWritten + p.unreadable),
    });
    const items = JSON.parse(await readAll(started.stream)) as { id: string }[];
    const expected = rows.filter((r) => !unreadableAt(Number(r.id.slice(4))));
    expect(items.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({
      status: "complete",
      rowsWritten: expected.length,
      unreadable: 250 - expected.length,
      unreadableRequestIds: ["req_0", "req_100", "req_200"],
    });
    expect(progress).toEqual([100, 200, 250]);
  });

  it("keeps the JSON array valid when the first page's items were all unreadable", async () => {
    const fetchPage: FetchPage<Row> = async (offset) =>
      offset === 0 ? { data: [], meta: { total: 3, limit: 2 }, unreadable: { count: 2 } } : { data: [{ id: "vis_2" }], meta: { total: 3, limit: 2 } };
    const started = await startExport({ fetchPage, encoder: jsonEncoder(columns) });
    expect(JSON.parse(await readAll(started.stream))).toEqual([{ id: "vis_2" }]);
  });

  it("refuses an absurd total before streaming, without planning its pages", async () => {
    const asked: number[] = [];
    const fetchPage: FetchPage<Row> = async (offset) => {
      asked.push(offset);
      return { data: makeRows(100), meta: { total: 1e11, limit: 100 } };
    };
    const error = await startExport({ fetchPage, encoder: csvEncoder(columns), maxRows: 1_000_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportTooLargeError);
    expect((error as Error).message).toMatch(/100,000,000,000 rows; an export holds at most 1,000,000/);
    expect(asked).toEqual([0]);
  });

  it("without a usable total, reads pages until a short one", async () => {
    const rows = makeRows(230);
    const asked: number[] = [];
    const fetchPage: FetchPage<Row> = async (offset) => {
      asked.push(offset);
      return { data: rows.slice(offset, offset + 100), meta: { total: null, limit: 100 } } satisfies ExportPage<Row>;
    };
    const started = await startExport({ fetchPage, encoder: jsonEncoder(columns) });
    expect(started.total).toBeNull();
    expect((JSON.parse(await readAll(started.stream)) as unknown[]).length).toBe(230);
    expect(asked).toEqual([0, 100, 200]);
  });

  it("without a usable total, still stops at the row cap (a download failure, not a silent cut)", async () => {
    const fetchPage: FetchPage<Row> = async () => ({ data: makeRows(100), meta: { limit: 100 } });
    const started = await startExport({ fetchPage, encoder: csvEncoder(columns), maxRows: 250 });
    await expect(readAll(started.stream)).rejects.toBeInstanceOf(ExportTooLargeError);
  });

  it("refuses a first page that does not add up before a 200 goes out", async () => {
    const fetchPage: FetchPage<Row> = async () => ({ data: makeRows(30), meta: { total: 500, limit: 100 } });
    await expect(startExport({ fetchPage, encoder: csvEncoder(columns) })).rejects.toBeInstanceOf(ExportIntegrityError);
  });
});

describe("a body nobody reads (fake time)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** startExport over `fetchPage`, its first page let through on the fake clock. */
  async function started(fetchPage: FetchPage<Row>, ends: ExportOutcome[], lookahead?: number) {
    const starting = startExport({ fetchPage, encoder: csvEncoder(columns), lookahead, onEnd: (o) => ends.push(o) });
    await vi.advanceTimersByTimeAsync(1);
    return starting;
  }

  /** Reads the stream to its end, pausing `pauseMs` after each chunk; resolves with the text or the error. */
  async function readSlowly(stream: ReadableStream<Uint8Array>, pauseMs: number): Promise<string | Error> {
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let text = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += decoder.decode(value);
        await new Promise((r) => setTimeout(r, pauseMs));
      }
    } catch (error) {
      return error as Error;
    }
  }

  it("never read at all (what a HEAD does): ends after EXPORT_IDLE_MS as failed with ExportIdleError, and pages no further", async () => {
    const { fetchPage, asked } = source(makeRows(10_000));
    const ends: ExportOutcome[] = [];
    const { stream } = await started(fetchPage, ends);
    await vi.advanceTimersByTimeAsync(EXPORT_IDLE_MS - 1);
    expect(ends).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ends).toHaveLength(1);
    expect(ends[0]!.status).toBe("failed");
    expect(ends[0]!.error).toBeInstanceOf(ExportIdleError);
    expect((ends[0]!.error as Error).message).toMatch(/Nothing read the download for 30 s/);
    // Whoever holds the body sees an error, not a clean (short) end.
    await expect(stream.getReader().read()).rejects.toBeInstanceOf(ExportIdleError);
    const pages = asked.length;
    await vi.advanceTimersByTimeAsync(10 * EXPORT_IDLE_MS);
    expect(asked.length).toBe(pages);
  });

  it("a reader that stops part-way: ends EXPORT_IDLE_MS after the last chunk it left unread", async () => {
    const { fetchPage } = source(makeRows(10_000));
    const ends: ExportOutcome[] = [];
    const { stream } = await started(fetchPage, ends, 2);
    const reader = stream.getReader();
    for (let i = 0; i < 3; i++) {
      const reading = reader.read();
      await vi.advanceTimersByTimeAsync(1);
      expect((await reading).done).toBe(false);
      // Reads well within the limit keep it going however long it runs.
      await vi.advanceTimersByTimeAsync(EXPORT_IDLE_MS - 10);
    }
    expect(ends).toEqual([]);
    await vi.advanceTimersByTimeAsync(EXPORT_IDLE_MS);
    expect(ends.map((e) => e.status)).toEqual(["failed"]);
  });

  it("a slow reader is not ended while the page it waits for is held by the rate limit far longer than the limit", async () => {
    const rows = makeRows(300);
    // Every page after the first waits three idle limits for the key's budget, one at a time.
    const held: FetchPage<Row> = async (offset) => {
      await new Promise((r) => setTimeout(r, offset === 0 ? 1 : 3 * EXPORT_IDLE_MS));
      return { data: rows.slice(offset, offset + 100), meta: { total: rows.length, limit: 100, offset } };
    };
    const ends: ExportOutcome[] = [];
    const { stream } = await started(held, ends, 1);
    // It takes almost the whole limit to read each chunk.
    const text = readSlowly(stream, EXPORT_IDLE_MS - 1000);
    await vi.advanceTimersByTimeAsync(20 * EXPORT_IDLE_MS);
    const result = await text;
    expect(result).not.toBeInstanceOf(Error);
    expect((result as string).split("\r\n").filter(Boolean)).toHaveLength(301);
    expect(ends.map((e) => e.status)).toEqual(["complete"]);
  });

  it("the same export read with pauses just over the limit is ended", async () => {
    const rows = makeRows(300);
    const { fetchPage } = source(rows);
    const ends: ExportOutcome[] = [];
    const { stream } = await started(fetchPage, ends, 1);
    const text = readSlowly(stream, EXPORT_IDLE_MS + 1000);
    await vi.advanceTimersByTimeAsync(20 * EXPORT_IDLE_MS);
    expect(await text).toBeInstanceOf(ExportIdleError);
    expect(ends.map((e) => e.status)).toEqual(["failed"]);
  });
});
