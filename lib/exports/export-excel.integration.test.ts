// "CSV for Excel" is what the screen showed, over real HTTP against a sandbox: date-times in the
// viewer's zone (named in the header), sources, platforms, intents and sentiments by their labels,
// the list separator of the viewer's language (";" for German, French, Dutch; "," for English), the
// range's calendar days in the file name; `tz` and `locale` refused with a 400 naming them before
// any upstream call; plain CSV unchanged by them. Expected cells are worked out here with the
// runtime's own Intl (the `sv-SE` locale writes `2026-11-21 00:30:00`), not with lib/csv.
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { intentLabelOf } from "@/lib/columns/labels";
import type { Sandbox } from "@/sandbox/server";
import { DEMO_KEYS } from "@/sandbox/keys";
import { ORIGIN, withProUpstream, type ErrorJson } from "@/testing/in-process";
import { routeFileAt } from "@/testing/api-routes";

const { GET: exportMentions } = await routeFileAt("export/mentions");
const { GET: exportVisitors } = await routeFileAt("export/visitors");

type Row = Record<string, unknown>;

let sandbox: Sandbox;
let cookie: string;
withProUpstream((s, c) => ([sandbox, cookie] = [s, c]), { visitors: 2000 });

/** Berlin's 28 Oct – 19 Nov (the sandbox's today is 20 Nov) as the visitor list asks for it: that zone's instants. */
const BERLIN_RANGE = { from: "2026-10-27T23:00:00.000Z", to: "2026-11-19T22:59:59.999Z" };

async function exportFile(resource: "visitors" | "mentions", query: Record<string, string>): Promise<{ res: Response; text: string }> {
  const req = new Request(`${ORIGIN}/api/export/${resource}?${new URLSearchParams(query)}`, { headers: { cookie, "sec-fetch-site": "same-origin" } });
  const res = await (resource === "visitors" ? exportVisitors : exportMentions)(req, undefined);
  // Decoded keeping the BOM (Response.text() would drop it).
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
  return { res, text };
}

/** Every row the sandbox lists for `filters` (the "limited" key: same data, its own rate limit). */
async function upstreamRows(resource: "visitors" | "mentions", filters: Record<string, string>): Promise<Row[]> {
  const rows: Row[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await fetch(`${sandbox.baseUrl}/${resource}?${new URLSearchParams({ ...filters, limit: "100", offset: String(offset) })}`, {
      headers: { Authorization: `Bearer ${DEMO_KEYS.limited}` },
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { data: Row[]; meta: { total: number } };
    rows.push(...page.data);
    if (page.data.length === 0 || rows.length >= page.meta.total) return rows;
  }
}

const wallClock = (iso: string, timeZone: string) => new Date(iso).toLocaleString("sv-SE", { timeZone, hour12: false });

function parse(text: string, delimiter: string) {
  expect(text.startsWith("\uFEFF")).toBe(true);
  const parsed = Papa.parse<Record<string, string>>(text.slice(1), { header: true, delimiter, newline: "\r\n", skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed;
}

const filenameOf = (res: Response) => /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1];

describe("CSV for Excel over HTTP", () => {
  it("writes date-times in the viewer's zone, named in the header: 23:30 UTC is the next day in Berlin", async () => {
    const filters = { source: "perplexity", ...BERLIN_RANGE };
    const expected = await upstreamRows("visitors", filters);
    const { res, text } = await exportFile("visitors", { ...filters, format: "csv-excel", tz: "Europe/Berlin", locale: "en-US" });
    expect(res.status).toBe(200);
    const parsed = parse(text, ",");
    expect(parsed.meta.fields?.slice(0, 3)).toEqual(["Visitor ID", "First seen (Europe/Berlin)", "Last seen (Europe/Berlin)"]);
    expect(parsed.data.map((r) => r["Visitor ID"])).toEqual(expected.map((r) => r.id));
    expect(parsed.data.map((r) => r["First seen (Europe/Berlin)"])).toEqual(expected.map((r) => wallClock(String(r.first_seen), "Europe/Berlin")));

    // The visitors first seen in the last hour of a UTC day are on the next day in Berlin (UTC+1).
    const late = expected.filter((r) => new Date(String(r.first_seen)).getUTCHours() === 23);
    expect(late.length, "the sandbox should have a Perplexity visitor first seen after 23:00 UTC").toBeGreaterThan(0);
    for (const visitor of late) {
      const cell = parsed.data.find((r) => r["Visitor ID"] === visitor.id)!["First seen (Europe/Berlin)"]!;
      const utcDay = String(visitor.first_seen).slice(0, 10);
      const nextDay = new Date(Date.parse(`${utcDay}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      expect(cell.slice(0, 10)).toBe(nextDay);
      expect(cell.slice(11, 13)).toBe("00");
    }
  });

  it("writes sources and intents as the visitor table labels them, and an unknown intent as sent", async () => {
    const filters = { source: "perplexity", ...BERLIN_RANGE };
    const expected = await upstreamRows("visitors", filters);
    const { text } = await exportFile("visitors", { ...filters, format: "csv-excel", tz: "Europe/Berlin", locale: "en-US" });
    const parsed = parse(text, ",");
    expect(new Set(parsed.data.map((r) => r.Source))).toEqual(new Set(["Perplexity"]));
    expect(parsed.data.map((r) => r.Intent)).toEqual(expected.map((r) => (typeof r.intent === "string" ? (intentLabelOf(r.intent) ?? r.intent) : "")));
    expect(
      parsed.data.some((r) => r.Intent === "Problem research"),
      "some visitor is researching a problem",
    ).toBe(true);
    expect(text).not.toContain('"problem_research"');
    expect(text).not.toContain('"perplexity"');
  });

  it.each([
    ["de-DE", ";"],
    ["fr-FR", ";"],
    ["nl-NL", ";"],
    ["en-US", ","],
    ["en-GB", ","],
  ])("a %s browser gets %j between fields", async (locale, separator) => {
    const { res, text } = await exportFile("mentions", { platform: "claude", format: "csv-excel", tz: "Europe/Paris", locale });
    expect(res.status).toBe(200);
    const header = text.split("\r\n")[0]!;
    expect(header).toBe(
      [
        '\uFEFF"Mention ID"',
        '"Mentioned at (Europe/Paris)"',
        '"AI platform"',
        '"Sentiment"',
        '"Position in answer"',
        '"Query"',
        '"Answer excerpt"',
        '"Competitors mentioned"',
      ].join(separator),
    );
    const parsed = parse(text, separator);
    expect(parsed.data.length).toBeGreaterThan(0);
    for (const row of parsed.data) expect(Object.keys(row).length).toBe(8);
    expect(new Set(parsed.data.map((r) => r["AI platform"]))).toEqual(new Set(["Claude"]));
    expect(new Set(parsed.data.map((r) => r.Sentiment)).size).toBeGreaterThan(1);
    for (const r of parsed.data) expect(["Positive", "Neutral", "Negative"]).toContain(r.Sentiment);
  });

  it("names the file by the range's calendar days in the viewer's zone, in every format, CSV for Excel apart from plain CSV", async () => {
    const today = new Date().toLocaleDateString("sv-SE", { timeZone: "Europe/Berlin" });
    for (const [format, end] of [
      ["csv-excel", "_excel.csv"],
      ["csv", ".csv"],
      ["json", ".json"],
    ] as const) {
      const { res } = await exportFile("visitors", { source: "perplexity", ...BERLIN_RANGE, format, tz: "Europe/Berlin", locale: "de-DE" });
      expect(filenameOf(res)).toBe(`visitors_source-perplexity_2026-10-28_to_2026-11-19_${today}${end}`);
    }
    // Without a zone the instants are named as sent (the UTC day of the export last).
    const { res } = await exportFile("visitors", { source: "perplexity", ...BERLIN_RANGE, format: "csv-excel" });
    expect(filenameOf(res)).toBe(
      `visitors_source-perplexity_2026-10-27T23-00-00.000Z_to_2026-11-19T22-59-59.999Z_${new Date().toISOString().slice(0, 10)}_excel.csv`,
    );
  });

  it("leaves plain CSV the machine format: UTC instants, codes, commas, whatever tz and locale say", async () => {
    const filters = { source: "perplexity", ...BERLIN_RANGE, format: "csv" };
    const plain = (await exportFile("visitors", filters)).text;
    expect((await exportFile("visitors", { ...filters, tz: "Europe/Berlin", locale: "de-DE" })).text).toBe(plain);
    expect(plain.startsWith('"id","first_seen","last_seen","source","intent"')).toBe(true);
    expect(plain.split("\r\n")[1]).toMatch(/^"vis_[^"]+","\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z",.*"perplexity"/);
  });

  it("refuses a bad tz or locale with a 400 naming it, before any upstream call", async () => {
    const before = sandbox.stats().requests;
    for (const [query, param] of [
      ["tz=Mars/Olympus", "tz"],
      ["tz=", "tz"],
      ["tz=%2B02:00", "tz"],
      ["locale=de_DE", "locale"],
      ["locale=", "locale"],
      ["locale=not a locale", "locale"],
      [`locale=${"a".repeat(40)}`, "locale"],
    ] as const) {
      const req = new Request(`${ORIGIN}/api/export/visitors?format=csv-excel&${query}`, { headers: { cookie } });
      const res = await exportVisitors(req, undefined);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as ErrorJson;
      expect(body.error, query).toMatchObject({ code: "invalid_parameter", param });
    }
    expect(sandbox.stats().requests).toBe(before);
  });
});
