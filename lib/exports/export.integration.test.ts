// The export route handlers against a sandbox over real HTTP: completeness and order for several
// filter combinations (compared with paging the upstream directly), both formats through standard
// parsers, validation and session before any upstream call, cancel stops paging, and an upstream
// failure mid-way errors the body stream instead of ending it.
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "@/sandbox/server";
import { DEMO_KEYS } from "@/sandbox/keys";
import { serverContext, setServerContext } from "@/lib/server/context";
import { call, onServerFakeTime, sessionCookie, withProUpstream, ORIGIN, type ErrorJson } from "@/testing/in-process";
import { EXPORT_COLUMNS, type ExportResource } from "./columns";
import { routeFileAt } from "@/testing/api-routes";

const { GET: exportMentions } = await routeFileAt("export/mentions");
const { GET: exportStatus } = await routeFileAt("export/status");
const { GET: exportVisitors } = await routeFileAt("export/visitors");

type Row = Record<string, unknown>;

let sandbox: Sandbox;
let cookie: string;
withProUpstream((s, c) => ([sandbox, cookie] = [s, c]), { visitors: 2000 });

const handlerFor = (resource: ExportResource) => (resource === "visitors" ? exportVisitors : exportMentions);

function exportRequest(resource: ExportResource, query: string, init: { signal?: AbortSignal; withCookie?: boolean } = {}): Promise<Response> {
  const headers = new Headers();
  if (init.withCookie !== false) headers.set("cookie", cookie);
  const req = new Request(`${ORIGIN}/api/export/${resource}?${query}`, { headers, signal: init.signal });
  return handlerFor(resource)(req, undefined);
}

/**
 * Every row the upstream returns for `filters`, paging it directly with limit=100. Uses the
 * "limited" demo key (same workspace and Pro plan, its own rate-limit counter) so the reference
 * reads do not eat into the budget the export under test uses.
 */
async function upstreamRows(resource: ExportResource, filters: Record<string, string>): Promise<{ total: number; rows: Row[] }> {
  const rows: Row[] = [];
  let total = Infinity;
  for (let offset = 0; offset < total; offset += 100) {
    const qs = new URLSearchParams({ ...filters, limit: "100", offset: String(offset) });
    let res: Response;
    for (;;) {
      res = await fetch(`${sandbox.baseUrl}/${resource}?${qs}`, { headers: { Authorization: `Bearer ${DEMO_KEYS.limited}` } });
      if (res.status !== 429) break;
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get("retry-after") ?? 1)));
    }
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Row[]; meta: { total: number } };
    total = body.meta.total;
    rows.push(...body.data);
    if (body.data.length === 0) break;
  }
  return { total: total === Infinity ? 0 : total, rows };
}

/** What a spreadsheet cell should read for an upstream value (written independently of lib/csv). */
function expectedCell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return expectedCell(value.join("; "));
  if (typeof value === "string") return /^[=+\-@\t\r\n]/.test(value) ? `'${value}` : value;
  return String(value);
}

const cases: { resource: ExportResource; filters: Record<string, string> }[] = [
  { resource: "visitors", filters: {} },
  { resource: "visitors", filters: { source: "chatgpt", converted: "true" } },
  { resource: "visitors", filters: { intent: "problem_research", from: "2026-11-01", to: "2026-11-15" } },
  { resource: "visitors", filters: { source: "organic", converted: "false", from: "2026-10-01" } },
  { resource: "mentions", filters: {} },
  { resource: "mentions", filters: { platform: "claude", sentiment: "negative" } },
  { resource: "mentions", filters: { sentiment: "positive", from: "2026-11-01", to: "2026-11-20" } },
];

describe.each(cases)("export $resource with $filters", ({ resource, filters }) => {
  const columns = EXPORT_COLUMNS[resource].map((c) => c.key);
  // Both formats are held against the same reference rows: read them once.
  let reference: ReturnType<typeof upstreamRows> | undefined;
  const expectedRows = () => (reference ??= upstreamRows(resource, filters));

  it("CSV holds exactly the upstream rows, in order, and parses with papaparse", async () => {
    const expected = await expectedRows();
    const res = await exportRequest(resource, new URLSearchParams({ ...filters, format: "csv", limit: "5", offset: "40" }).toString());
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(res.headers.get("x-total-count")).toBe(String(expected.total));
    expect(res.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="${resource}_[A-Za-z0-9_.-]+\\.csv"`));
    const text = await res.text();
    expect(text.endsWith("\r\n")).toBe(true);
    const parsed = Papa.parse<string[]>(text, { newline: "\r\n", skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    const [header, ...rows] = parsed.data;
    expect(header).toEqual(columns);
    // limit/offset were ignored: every matching row, not a page.
    expect(rows.length).toBe(expected.total);
    expect(rows).toEqual(expected.rows.map((r) => columns.map((c) => expectedCell(r[c]))));
  });

  it("JSON is one valid array of exactly the upstream rows, in order", async () => {
    const expected = await expectedRows();
    const res = await exportRequest(resource, new URLSearchParams({ ...filters, format: "json" }).toString());
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/\.json"/);
    const items = JSON.parse(await res.text()) as Row[];
    expect(items.length).toBe(expected.total);
    expect(items).toEqual(expected.rows.map((r) => Object.fromEntries(columns.filter((c) => r[c] !== undefined).map((c) => [c, r[c]]))));
  });
});

describe("export requests", () => {
  it("names the file after the filters and the day", async () => {
    const res = await exportRequest("visitors", "source=chatgpt&converted=true&from=2026-11-01&to=2026-11-20&format=csv");
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get("content-disposition")).toContain(`filename="visitors_source-chatgpt_converted-true_2026-11-01_to_2026-11-20_${today}.csv"`);
    await res.body?.cancel();
  });

  it("answers an invalid filter with 400 naming it, before any upstream call", async () => {
    const before = sandbox.stats().byPath["/visitors"] ?? 0;
    for (const [query, param] of [
      ["source=myspace", "source"],
      ["format=xlsx", "format"],
      ["from=2026-13-01", "from"],
      ["from=2026-11-10&to=2026-11-01", "to"],
    ] as const) {
      const res = await exportRequest("visitors", query);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; param?: string } };
      expect(body.error).toMatchObject({ code: "invalid_parameter", param });
    }
    const mention = await exportRequest("mentions", "platform=myspace");
    expect(mention.status).toBe(400);
    expect(sandbox.stats().byPath["/visitors"] ?? 0).toBe(before);
  });

  it("requires a session (401 in the error shape)", async () => {
    const res = await exportRequest("visitors", "format=csv", { withCookie: false });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("unauthorized");
  });

  it("answers a first-page failure with a real status in the error shape, not a broken file", async () => {
    sandbox.setFaults({ errorCount: 100, paths: ["/visitors"] });
    // On fake time: the scheduler's backoff between its retries is waited out on the fake clock.
    const res = await onServerFakeTime(() => exportRequest("visitors", "source=claude&format=csv"));
    expect(res.status).toBe(502);
    expect(res.headers.get("content-disposition")).toBeNull();
    const body = (await res.json()) as { error: { code: string; request_id?: string } };
    expect(body.error.code).toBe("upstream_error");
    expect(body.error.request_id).toBeTruthy();
  });

  it("stops paging the upstream when the client cancels mid-way", async () => {
    sandbox.reset();
    sandbox.setFaults({ latencyMs: 30, paths: ["/visitors"] });
    // What the server sends, and whether the client had cancelled by then. A call whose signal is
    // already aborted never leaves the transport, so it is not a request sent.
    const sent: { cancelled: boolean }[] = [];
    let cancelled = false;
    const transport = serverContext().fetch;
    const restore = setServerContext({
      fetch: (url, init) => {
        if (!init.signal?.aborted) sent.push({ cancelled });
        return transport(url, init);
      },
    });
    try {
      // On fake time: ten seconds pass after the cancel (longer than any retry backoff or budget
      // wait), in no real time.
      await onServerFakeTime(
        async () => {
          const client = new AbortController();
          const res = await exportRequest("visitors", "format=csv", { signal: client.signal });
          expect(res.status).toBe(200);
          const reader = res.body!.getReader();
          for (let i = 0; i < 3; i++) await reader.read();
          client.abort();
          cancelled = true;
          await reader.cancel().catch(() => undefined);
          await new Promise((r) => setTimeout(r, 10_000));
        },
        { sandbox },
      );
    } finally {
      restore();
    }
    expect(sent.filter((s) => !s.cancelled).length).toBeGreaterThan(1);
    expect(sent.filter((s) => s.cancelled)).toEqual([]);
    // 2,000 visitors are 20 pages: far from all of them were asked for.
    expect(sandbox.stats().byPath["/visitors"] ?? 0).toBeLessThan(12);
  });

  it("errors the body stream (not a clean end) when the upstream fails after the first page", async () => {
    // On fake time: the scheduler's backoff between its retries is waited out on the fake clock.
    await onServerFakeTime(async () => {
      const res = await exportRequest("visitors", "format=json");
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      // From now on every /visitors request fails, beyond what the scheduler's retries can absorb.
      sandbox.setFaults({ errorCount: 1000, paths: ["/visitors"] });
      const drain = async () => {
        for (;;) if ((await reader.read()).done) return "ended cleanly";
      };
      // The upstream's error, after the scheduler's retries, is what ends the stream.
      await expect(drain()).rejects.toThrow(/injected by the sandbox/);
    });
  });

  it("records its outcome under X-Export-Id, readable by the same key only", async () => {
    const res = await exportRequest("visitors", "source=claude&format=csv");
    const id = res.headers.get("x-export-id")!;
    expect(id).toMatch(/^exp_[A-Za-z0-9_-]{22}$/);
    const rows = (await res.text()).split("\r\n").filter(Boolean).length - 1;
    const status = await call<{ state: string; rows_written: number; total: number; unreadable: { count: number } }>(
      exportStatus,
      `/api/export/status?id=${id}`,
      { cookie },
    );
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      id,
      resource: "visitors",
      format: "csv",
      state: "complete",
      rows_written: rows,
      total: rows,
      unreadable: { count: 0, request_ids: [] },
    });
    // Another workspace's key cannot see it; a malformed id is a 400 naming `id`.
    const other = await call<ErrorJson>(exportStatus, `/api/export/status?id=${id}`, { cookie: await sessionCookie(DEMO_KEYS.free) });
    expect(other.status).toBe(404);
    for (const bad of ["", "exp_x", "../x", `${id}&id=${id}`]) {
      const res = await call<ErrorJson>(exportStatus, `/api/export/status?id=${bad}`, { cookie });
      expect(res.status, bad).toBe(400);
      expect(res.body.error.param).toBe("id");
    }
    expect((await call(exportStatus, `/api/export/status?id=${id}`)).status).toBe(401);
  });

  it("records a cancelled export as cancelled", async () => {
    sandbox.setFaults({ latencyMs: 30, paths: ["/visitors"] });
    const client = new AbortController();
    const res = await exportRequest("visitors", "format=json", { signal: client.signal });
    const id = res.headers.get("x-export-id")!;
    const reader = res.body!.getReader();
    await reader.read();
    client.abort();
    await reader.cancel().catch(() => undefined);
    const status = await call<{ state: string; rows_written: number }>(exportStatus, `/api/export/status?id=${id}`, { cookie });
    expect(status.body.state).toBe("cancelled");
    expect(status.body.rows_written).toBeGreaterThan(0);
  });

  it("refuses a view larger than EXPORT_MAX_ROWS with 422, before streaming anything", async () => {
    process.env.EXPORT_MAX_ROWS = "500";
    try {
      const res = await exportRequest("visitors", "format=csv");
      expect(res.status).toBe(422);
      expect(res.headers.get("content-disposition")).toBeNull();
      const body = (await res.json()) as ErrorJson;
      expect(body.error.code).toBe("export_too_large");
      expect(body.error.message).toMatch(/2,000 rows; an export holds at most 500\. Narrow the filters/);
    } finally {
      delete process.env.EXPORT_MAX_ROWS;
    }
  });

  it("CSV for Excel: the same rows with a BOM and readable headers", async () => {
    const plain = await (await exportRequest("mentions", "platform=gemini&format=csv")).text();
    const excelBytes = new Uint8Array(await (await exportRequest("mentions", "platform=gemini&format=csv-excel")).arrayBuffer());
    // Response.text() would drop the BOM (UTF-8 decoding strips it), so look at the bytes.
    expect([...excelBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const excel = new TextDecoder("utf-8", { ignoreBOM: true }).decode(excelBytes);
    expect(excel.startsWith('\uFEFF"Mention ID","Mentioned at (UTC)","AI platform"')).toBe(true);
    const rows = (text: string) => Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { newline: "\r\n", skipEmptyLines: true }).data;
    const [plainHead, ...plainRows] = rows(plain);
    const [, ...excelRows] = rows(excel);
    expect(plainHead![0]).toBe("id");
    expect(excelRows.map((r) => r[0])).toEqual(plainRows.map((r) => r[0]));
    expect(excelRows.length).toBeGreaterThan(0);
  });

  it("over odd upstream data: every readable row written in order, the unreadable ones counted with request ids", async () => {
    // The same oddities for the export's key and the reference key: they are seeded by each item's identity.
    sandbox.setFaults({ oddRate: 0.3, paths: ["/visitors"], keys: [DEMO_KEYS.pro, DEMO_KEYS.limited] });
    try {
      const filters = { source: "chatgpt" };
      const raw = await upstreamRows("visitors", filters);
      const readable = raw.rows.filter((r) => typeof r === "object" && r !== null && typeof r.id === "string" && r.id !== "");
      const unreadable = raw.rows.length - readable.length;
      expect(unreadable, "the sandbox should have sent some unreadable rows").toBeGreaterThan(0);

      const res = await exportRequest("visitors", new URLSearchParams({ ...filters, format: "csv" }).toString());
      expect(res.status).toBe(200);
      expect(res.headers.get("x-total-count")).toBe(String(raw.total));
      const parsed = Papa.parse<Record<string, string>>(await res.text(), { header: true, newline: "\r\n", skipEmptyLines: true });
      expect(parsed.errors).toEqual([]);
      expect(parsed.data.map((r) => r.id)).toEqual(readable.map((r) => r.id));

      const id = res.headers.get("x-export-id")!;
      const status = await call<{ state: string; rows_written: number; unreadable: { count: number; request_ids: string[] } }>(
        exportStatus,
        `/api/export/status?id=${id}`,
        { cookie },
      );
      expect(status.body).toMatchObject({ state: "complete", rows_written: readable.length, unreadable: { count: unreadable } });
      expect(status.body.unreadable.request_ids.length).toBeGreaterThan(0);
      for (const rid of status.body.unreadable.request_ids) expect(rid).toMatch(/^req_/);
    } finally {
      sandbox.setFaults({ keys: [DEMO_KEYS.pro, DEMO_KEYS.limited] });
    }
  });

  it("an upstream claiming 1e11 rows: a 422 after one upstream call, nothing planned", async () => {
    sandbox.setFaults({ metaTotal: 1e11, paths: ["/mentions"], keys: [DEMO_KEYS.pro] });
    try {
      const before = sandbox.stats().byPath["/mentions"] ?? 0;
      const res = await exportRequest("mentions", "format=json");
      expect(res.status).toBe(422);
      expect(((await res.json()) as ErrorJson).error.message).toMatch(/100,000,000,000 rows/);
      expect((sandbox.stats().byPath["/mentions"] ?? 0) - before).toBe(1);
    } finally {
      sandbox.setFaults({ keys: [DEMO_KEYS.pro] });
    }
  });
});
