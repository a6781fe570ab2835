// The export encoders as the route picks them: "CSV for Excel" follows the viewer (zone, labels,
// separator), page by page exactly as one whole file would read; plain CSV and JSON are the same
// bytes whoever asks.
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { EXPORT_COLUMNS } from "./columns";
import { encoderFor, type ExportEncoder } from "./encoders";

const visitors = [
  {
    id: "vis_a",
    first_seen: "2026-11-20T23:30:00.000Z",
    last_seen: "2026-11-21T08:00:00.000Z",
    source: "perplexity",
    intent: "problem_research",
    pages_viewed: 4,
    converted: true,
    city: "São Paulo",
    country: "BR",
  },
  {
    id: "vis_b",
    first_seen: "2026-11-21T10:00:00.000Z",
    source: "direct",
    intent: "webinar_signup",
    pages_viewed: 1,
    converted: false,
    email: '=HYPERLINK("x")',
  },
  { id: "vis_c", first_seen: "2026-11-22T00:15:00.000Z", source: "claude" },
];

/** The whole file an encoder writes for `rows`, two rows a page (as the route streams it). */
function encode(encoder: ExportEncoder, rows: readonly Record<string, unknown>[]): string {
  let out = encoder.head();
  for (let i = 0; i < rows.length; i += 2) out += encoder.page(rows.slice(i, i + 2), i);
  return out + encoder.tail();
}

describe("encoderFor", () => {
  it("CSV for Excel in Berlin for a German browser: zone in header and cells, labels, ';' between fields", () => {
    const text = encode(encoderFor("csv-excel", EXPORT_COLUMNS.visitors, { timeZone: "Europe/Berlin", locale: "de-DE" }), visitors);
    expect(text.startsWith("\uFEFF")).toBe(true);
    const parsed = Papa.parse<Record<string, string>>(text.slice(1), { header: true, delimiter: ";", newline: "\r\n", skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([
      "Visitor ID",
      "First seen (Europe/Berlin)",
      "Last seen (Europe/Berlin)",
      "Source",
      "Intent",
      "Pages viewed",
      "Converted",
      "Email",
      "Country",
      "City",
    ]);
    // 23:30 UTC on the 20th is half past midnight on the 21st in Berlin (UTC+1 in November).
    expect(parsed.data.map((r) => r["First seen (Europe/Berlin)"])).toEqual(["2026-11-21 00:30:00", "2026-11-21 11:00:00", "2026-11-22 01:15:00"]);
    expect(parsed.data.map((r) => r.Source)).toEqual(["Perplexity", "Direct", "Claude"]);
    // A known intent by its label; one this dashboard does not know, as sent.
    expect(parsed.data.map((r) => r.Intent)).toEqual(["Problem research", "webinar_signup", ""]);
    expect(parsed.data.map((r) => r.Converted)).toEqual(["Yes", "No", ""]);
    expect(parsed.data[1]!.Email).toBe('\'=HYPERLINK("x")');
    expect(parsed.data[0]!.City).toBe("São Paulo");
  });

  it("CSV for Excel for an English browser: ',' between fields; without a viewer, UTC", () => {
    const en = encode(encoderFor("csv-excel", EXPORT_COLUMNS.visitors, { timeZone: "America/New_York", locale: "en-US" }), visitors);
    expect(en.split("\r\n")[1]).toBe('"vis_a","2026-11-20 18:30:00","2026-11-21 03:00:00","Perplexity","Problem research","4","Yes","","BR","São Paulo"');
    const none = encode(encoderFor("csv-excel", EXPORT_COLUMNS.visitors), visitors);
    expect(none.split("\r\n")[0]).toContain('"First seen (UTC)","Last seen (UTC)"');
    expect(none.split("\r\n")[1]).toContain('"2026-11-20 23:30:00"');
  });

  it("mentions for Excel: platforms and sentiments as the feed names them", () => {
    const mention = {
      id: "men_1",
      created_at: "2026-11-20T23:00:00Z",
      platform: "chatgpt",
      sentiment: "positive",
      position: 2,
      competitors_mentioned: ["Acme", "Globex"],
    };
    const text = encode(encoderFor("csv-excel", EXPORT_COLUMNS.mentions, { timeZone: "Europe/Paris", locale: "fr-FR" }), [mention]);
    expect(text.split("\r\n")[1]).toBe('"men_1";"2026-11-21 00:00:00";"ChatGPT";"Positive";"2";"";"";"Acme; Globex"');
  });

  it("plain CSV and JSON are the same bytes whatever the viewer: UTC instants, codes, commas", () => {
    const viewer = { timeZone: "Europe/Berlin", locale: "de-DE" };
    for (const format of ["csv", "json"] as const) {
      expect(encode(encoderFor(format, EXPORT_COLUMNS.visitors, viewer), visitors)).toBe(encode(encoderFor(format, EXPORT_COLUMNS.visitors), visitors));
    }
    const csv = encode(encoderFor("csv", EXPORT_COLUMNS.visitors, viewer), visitors);
    expect(csv.split("\r\n")[1]).toBe(
      '"vis_a","2026-11-20T23:30:00.000Z","2026-11-21T08:00:00.000Z","perplexity","problem_research","4","true","","BR","São Paulo"',
    );
    const json = JSON.parse(encode(encoderFor("json", EXPORT_COLUMNS.visitors, viewer), visitors)) as Record<string, unknown>[];
    expect(json[0]).toMatchObject({ first_seen: "2026-11-20T23:30:00.000Z", source: "perplexity", intent: "problem_research", converted: true });
  });
});
