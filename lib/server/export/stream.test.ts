// The exporter core over an in-memory page source (the injected fetchPage): order, completeness,
// backpressure, cancellation and failure semantics. The same core runs against the sandbox over
// real HTTP in export.integration.test.ts.
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { EXPORT_COLUMNS } from "./columns";
import { csvEncoder, jsonEncoder } from "./encoders";
import { startExport, type FetchPage } from "./stream";

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
      onError: (e, p) => errors.push([(e as Error).message, p.rowsSent]),
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
});
