// Exports of the lists the dashboard filters itself (lib/lists: mentions by `query` and
// `competitor`, visitors with `source=ai`), through the export handlers against a sandbox over real
// HTTP: the file holds exactly the rows the list route pages for the same filters, in its order, in
// CSV and JSON; its total and record say as many; its name says the filters; none of them reaches the
// Data API; and a list over the listing cap is refused before any byte, as the list route refuses it.
import Papa from "papaparse";
import { afterEach, describe, expect, it } from "vitest";
import type { ListEnvelope } from "@/lib/data-api/schemas";
import type { Sandbox } from "@/sandbox/server";
import { DEMO_KEYS } from "@/sandbox/keys";
import { call, callApi, withProUpstream, ORIGIN, type ErrorJson } from "@/testing/in-process";
import { EXPORT_COLUMNS, type ExportResource } from "./columns";
import { routeFileAt } from "@/testing/api-routes";

const { GET: exportMentions } = await routeFileAt("export/mentions");
const { GET: exportStatus } = await routeFileAt("export/status");
const { GET: exportVisitors } = await routeFileAt("export/visitors");

type Row = Record<string, unknown> & { id: string };

let sandbox: Sandbox;
let cookie: string;
withProUpstream((s, c) => ([sandbox, cookie] = [s, c]), { visitors: 2000 });

afterEach(() => {
  delete process.env.INSIGHTS_MAX_LISTED_ROWS;
});

const RANGE = { from: "2026-10-22", to: "2026-11-20" };

function exportRequest(resource: ExportResource, query: Record<string, string>): Promise<Response> {
  const req = new Request(`${ORIGIN}/api/export/${resource}?${new URLSearchParams(query)}`, { headers: { cookie } });
  return (resource === "visitors" ? exportVisitors : exportMentions)(req, undefined);
}

/** Every row the list route pages for `filters` (pages of 100): what the page shows, the reference. */
async function routeRows(resource: ExportResource, filters: Record<string, string>): Promise<Row[]> {
  const rows: Row[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await callApi<ListEnvelope<Row>>(`/api/${resource}?${new URLSearchParams({ ...filters, limit: "100", offset: String(offset) })}`, { cookie });
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    rows.push(...res.body.data);
    if (offset + 100 >= res.body.meta.total!) return rows;
  }
}

/** The range's most named competitor and most asked question (lower-cased), read from the sandbox's own rows. */
async function frequent(): Promise<{ question: string; competitor: string; platform: string }> {
  const res = await fetch(`${sandbox.baseUrl}/mentions?${new URLSearchParams({ ...RANGE, limit: "100" })}`, {
    headers: { Authorization: `Bearer ${DEMO_KEYS.limited}` },
  });
  const rows = ((await res.json()) as { data: Array<{ query: string; platform: string; competitors_mentioned: string[] }> }).data;
  const top = (keys: string[]) => [...keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>())].sort((a, b) => b[1] - a[1])[0]![0];
  return {
    question: top(rows.map((m) => m.query.trim().toLowerCase())),
    competitor: top(rows.flatMap((m) => m.competitors_mentioned)),
    platform: rows[0]!.platform,
  };
}

/** What the Data API was asked with the export's key (the sandbox's request log). */
const upstreamQueries = () =>
  sandbox
    .stats()
    .log.filter((l) => l.key === `…${DEMO_KEYS.pro.slice(-4)}` && (l.path === "/v1/mentions" || l.path === "/v1/visitors"))
    .map((l) => new URLSearchParams(l.query));

describe("an export of a list filtered here holds exactly the rows its page lists", () => {
  const cases: Array<{ name: string; resource: ExportResource; filters: () => Promise<Record<string, string>>; named: RegExp }> = [
    {
      name: "mentions of a question written in capitals",
      resource: "mentions",
      filters: async () => ({ ...RANGE, query: (await frequent()).question.toUpperCase() }),
      named: /^mentions_query-[A-Za-z0-9_.-]+_2026-10-22_to_2026-11-20_\d{4}-\d{2}-\d{2}\.(csv|json)$/,
    },
    {
      name: "mentions naming a competitor on one platform",
      resource: "mentions",
      filters: async () => {
        const { competitor, platform } = await frequent();
        return { ...RANGE, platform, competitor };
      },
      named: /^mentions_platform-\w+_competitor-[A-Za-z0-9_.-]+_2026-10-22_to_2026-11-20_/,
    },
    {
      name: "the AI platforms' converted visitors",
      resource: "visitors",
      filters: async () => ({ source: "ai", converted: "true" }),
      named: /^visitors_source-ai_converted-true_\d{4}-/,
    },
    {
      name: "the AI platforms' visitors of the range",
      resource: "visitors",
      filters: async () => ({ ...RANGE, source: "ai" }),
      named: /^visitors_source-ai_2026-10-22_to_2026-11-20_/,
    },
  ];

  it.each(cases)("$name, in CSV and JSON", async ({ resource, filters, named }) => {
    const query = await filters();
    const expected = await routeRows(resource, query);
    expect(expected.length).toBeGreaterThan(1);
    const columns = EXPORT_COLUMNS[resource].map((c) => c.key);
    sandbox.reset();

    const csv = await exportRequest(resource, { ...query, format: "csv", limit: "5", offset: "10" });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("x-total-count")).toBe(String(expected.length));
    expect(csv.headers.get("content-disposition")!.match(/filename="([^"]+)"/)![1]).toMatch(named);
    const parsed = Papa.parse<Record<string, string>>(await csv.text(), { header: true, newline: "\r\n", skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    // Every matching row, not the page that limit and offset name.
    expect(parsed.data.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    const status = await call<{ state: string; rows_written: number; total: number }>(exportStatus, `/api/export/status?id=${csv.headers.get("x-export-id")}`, {
      cookie,
    });
    expect(status.body).toMatchObject({ state: "complete", rows_written: expected.length, total: expected.length });

    const json = await exportRequest(resource, { ...query, format: "json" });
    const items = JSON.parse(await json.text()) as Row[];
    expect(items).toEqual(expected.map((r) => Object.fromEntries(columns.filter((c) => r[c] !== undefined).map((c) => [c, r[c]]))));

    // The Data API was asked for its own filters only.
    const asked = upstreamQueries();
    expect(asked.length).toBeGreaterThan(0);
    for (const q of asked) {
      expect(q.has("query") || q.has("competitor") || q.has("format")).toBe(false);
      expect(q.get("source")).not.toBe("ai");
    }
  });

  it("a list over the listing cap: a 422 listing_too_large before any byte, recorded for the tray", async () => {
    process.env.INSIGHTS_MAX_LISTED_ROWS = "300";
    const res = await exportRequest("mentions", { ...RANGE, query: "anything", format: "csv" });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-disposition")).toBeNull();
    const body = (await res.json()) as ErrorJson;
    expect(body.error.code).toBe("listing_too_large");
    const status = await call<{ state: string; error: { code: string } }>(exportStatus, "/api/export/status", { cookie });
    expect((status.body as unknown as { data: Array<{ state: string; error?: { code: string } }> }).data[0]).toMatchObject({
      state: "failed",
      error: { code: "listing_too_large" },
    });
  });

  it("bad values are a 400 naming them, before any upstream call", async () => {
    sandbox.reset();
    for (const [resource, query, param] of [
      ["mentions", { query: "   " }, "query"],
      ["mentions", { competitor: "" }, "competitor"],
      ["visitors", { source: "all_ai" }, "source"],
    ] as const) {
      const res = await exportRequest(resource, query);
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorJson).error).toMatchObject({ code: "invalid_parameter", param });
    }
    expect(upstreamQueries()).toEqual([]);
  });
});
