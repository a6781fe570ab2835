import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { csvField, csvHeaderRow, csvRecord, csvRow, excelStyle, looksLikeFormula, toCsv, UTF8_BOM } from "./csv";

const bytes = (s: string) => Array.from(new TextEncoder().encode(s));

describe("csvField", () => {
  it("quotes every field, including plain words and empty ones", () => {
    expect(csvField("organic")).toBe('"organic"');
    expect(csvField("")).toBe('""');
  });

  it("writes missing values as an empty quoted field", () => {
    expect(csvField(undefined)).toBe('""');
    expect(csvField(null)).toBe('""');
  });

  it("doubles quotes inside a field", () => {
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('"')).toBe('""""');
  });

  it("keeps commas, CR, LF and CRLF inside the quoted field", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField("line1\nline2")).toBe('"line1\nline2"');
    expect(csvField("line1\r\nline2")).toBe('"line1\r\nline2"');
    expect(csvField("a\rb")).toBe('"a\rb"');
  });

  it("writes unicode as UTF-8 bytes, unchanged", () => {
    expect(bytes(csvField("São Paulo"))).toEqual([0x22, 0x53, 0xc3, 0xa3, 0x6f, 0x20, 0x50, 0x61, 0x75, 0x6c, 0x6f, 0x22]);
    expect(csvField("Zürich 東京 🚀")).toBe('"Zürich 東京 🚀"');
  });

  it.each([
    ["=", "=SUM(A1:A9)", '"\'=SUM(A1:A9)"'],
    ["+", "+1 555 0100", '"\'+1 555 0100"'],
    ["-", "-2+3", '"\'-2+3"'],
    ["@", "@cmd", '"\'@cmd"'],
    ["TAB", "\tx", '"\'\tx"'],
    ["CR", "\rx", '"\'\rx"'],
    ["LF", "\nx", '"\'\nx"'],
  ])("neutralises a string cell starting with %s", (_name, value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  // Spreadsheets trim these before looking for a formula (the outside review's variants).
  it.each([
    ["space then =", " =1+1"],
    ["spaces then +", "   +1+1"],
    ["NBSP then =", "\u00A0=1+1"],
    ["BOM then =", "\uFEFF=1+1"],
    ["zero-width space then @", "\u200B@SUM(A1)"],
    ["ideographic space then -", "\u3000-1+2"],
    ["TAB then =", "\t=1+1"],
    ["full-width =", "\uFF1D1+1"],
    ["full-width +", "\uFF0B1+1"],
    ["full-width -", "\uFF0D1+1"],
    ["full-width @", "\uFF20SUM(A1)"],
    ["space then full-width =", " \uFF1D1+1"],
  ])("neutralises a cell starting with %s", (_name, value) => {
    expect(looksLikeFormula(value)).toBe(true);
    expect(csvField(value)).toBe(`"'${value}"`);
  });

  it("leaves ordinary text with leading spaces alone", () => {
    expect(csvField("  São Paulo")).toBe('"  São Paulo"');
    expect(csvField("\u00A0")).toBe('"\u00A0"');
    expect(looksLikeFormula("   ")).toBe(false);
  });

  it("neutralises a formula whose quotes also need escaping", () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });

  it("does not neutralise a prefix character later in the cell", () => {
    expect(csvField("a=b")).toBe('"a=b"');
    expect(csvField("x@example.com")).toBe('"x@example.com"');
  });

  it("leaves numbers as numbers, negative ones included", () => {
    expect(csvField(-5)).toBe('"-5"');
    expect(csvField(0)).toBe('"0"');
    expect(csvField(12.5)).toBe('"12.5"');
    expect(csvField(Number.NaN)).toBe('""');
  });

  it("writes booleans as true/false", () => {
    expect(csvField(true)).toBe('"true"');
    expect(csvField(false)).toBe('"false"');
  });

  it("joins arrays readably and neutralises the joined text", () => {
    expect(csvField(["Acme", "Globex"])).toBe('"Acme; Globex"');
    expect(csvField([])).toBe('""');
    expect(csvField(["=evil()", "Acme"])).toBe('"\'=evil(); Acme"');
    expect(csvField(['Big "Co"'])).toBe('"Big ""Co"""');
  });

  it("writes unknown objects as JSON text", () => {
    expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
  });
});

describe("records", () => {
  it("ends each record with CRLF and separates fields with commas", () => {
    expect(csvRecord(["a", 1, true, undefined])).toBe('"a","1","true",""\r\n');
  });

  it("writes a header row and rows by column key, missing keys empty", () => {
    const columns = [
      { key: "id", header: "id" },
      { key: "email", header: "email" },
      { key: "pages_viewed", header: "pages_viewed" },
    ];
    expect(csvHeaderRow(columns)).toBe('"id","email","pages_viewed"\r\n');
    expect(csvRow(columns, { id: "vis_1", pages_viewed: 3, extra: "ignored" })).toBe('"vis_1","","3"\r\n');
  });

  it("is exactly the expected bytes for a small table", () => {
    const csv = toCsv(
      [
        { key: "name", header: "Name" },
        { key: "n", header: "Count" },
      ],
      [
        { name: 'Quote "q", comma', n: -5 },
        { name: "multi\r\nline", n: 0 },
      ],
    );
    expect(csv).toBe('"Name","Count"\r\n"Quote ""q"", comma","-5"\r\n"multi\r\nline","0"\r\n');
  });

  it("round-trips through a standard parser (papaparse)", () => {
    const columns = ["id", "text", "n", "flag", "list"].map((k) => ({ key: k, header: k }));
    const rows = [
      { id: "a", text: 'he said "yes", then\r\nleft', n: -5, flag: true, list: ["x", "y"] },
      { id: "b", text: "Zürich 東京", n: 3.25, flag: false, list: [] },
      { id: "c" },
    ];
    const parsed = Papa.parse<string[]>(toCsv(columns, rows), { newline: "\r\n", skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toEqual([
      ["id", "text", "n", "flag", "list"],
      ["a", 'he said "yes", then\r\nleft', "-5", "true", "x; y"],
      ["b", "Zürich 東京", "3.25", "false", ""],
      ["c", "", "", "", ""],
    ]);
  });
});

describe("the Excel dialect", () => {
  const columns = [
    { key: "id", header: "id", label: "Visitor ID" },
    { key: "city", header: "city", label: "City" },
    { key: "first_seen", header: "first_seen", label: "First seen", kind: "timestamp" as const },
    { key: "converted", header: "converted", label: "Converted", kind: "boolean" as const },
  ];
  const rows = [
    { id: "vis_1", city: "São Paulo", first_seen: "2026-11-20T12:34:56.789Z", converted: true },
    { id: "vis_2", city: "=cmd", first_seen: "not a date", converted: false },
  ];

  it("starts with a UTF-8 BOM and readable headers (a timestamp's names its zone); plain CSV has neither", () => {
    const excel = toCsv(columns, rows, excelStyle());
    expect(excel.startsWith(`${UTF8_BOM}"Visitor ID","City","First seen (UTC)","Converted"\r\n`)).toBe(true);
    const plain = toCsv(columns, rows);
    expect(plain.startsWith('"id","city","first_seen","converted"\r\n')).toBe(true);
    expect(plain.includes(UTF8_BOM)).toBe(false);
  });

  it("keeps São Paulo when the bytes are read as UTF-8 with the BOM (as Excel does)", () => {
    const bytes = new TextEncoder().encode(toCsv(columns, rows, excelStyle()));
    expect(Array.from(bytes.slice(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: false }).decode(bytes);
    expect(text).toContain('"São Paulo"');
  });

  it("writes timestamps Excel reads as date-times, Yes/No, and still neutralises formulas", () => {
    const excel = toCsv(columns, rows, excelStyle());
    expect(excel).toContain('"vis_1","São Paulo","2026-11-20 12:34:56","Yes"\r\n');
    // An unparseable timestamp is written as the text it was, never as an invented date.
    expect(excel).toContain(`"vis_2","'=cmd","not a date","No"\r\n`);
  });

  it("parses back with papaparse to the same number of rows and columns", () => {
    const parsed = Papa.parse<string[]>(toCsv(columns, rows, excelStyle()).slice(1), { newline: "\r\n", skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data.map((r) => r.length)).toEqual([4, 4, 4]);
  });
});

describe("CSV for Excel in the viewer's zone and locale", () => {
  const columns = [
    { key: "id", header: "id", label: "Visitor ID" },
    { key: "first_seen", header: "first_seen", label: "First seen", kind: "timestamp" as const },
    { key: "source", header: "source", label: "Source", kind: "token" as const, display: (v: string) => (v === "perplexity" ? "Perplexity" : undefined) },
    { key: "share", header: "share_pct", label: "Share (%)", kind: "number" as const },
    { key: "note", header: "note", label: "Note" },
  ];
  const row = { id: "vis_1", first_seen: "2026-11-20T23:30:00.000Z", source: "perplexity", share: 12.5, note: "a;b, c" };

  it("writes date-times as the zone's wall clock and names the zone in the header", () => {
    const berlin = toCsv(columns, [row], excelStyle("Europe/Berlin", "en-US"));
    expect(berlin).toBe(
      `${UTF8_BOM}"Visitor ID","First seen (Europe/Berlin)","Source","Share (%)","Note"\r\n"vis_1","2026-11-21 00:30:00","Perplexity","12.5","a;b, c"\r\n`,
    );
    // Across a clock change: New York is UTC-4 in October, UTC-5 in November.
    const ny = excelStyle("America/New_York");
    expect(csvRow([columns[1]!], { first_seen: "2026-10-31T12:00:00Z" }, ny)).toBe('"2026-10-31 08:00:00"\r\n');
    expect(csvRow([columns[1]!], { first_seen: "2026-11-02T12:00:00Z" }, ny)).toBe('"2026-11-02 07:00:00"\r\n');
  });

  it.each([
    ["de-DE", ";"],
    ["fr-FR", ";"],
    ["nl-NL", ";"],
    ["de", ";"],
    ["en-US", ","],
    ["en-GB", ","],
  ])("%s: fields separated by %j, decimals as the locale writes them", (locale, separator) => {
    const text = toCsv(columns, [row], excelStyle("UTC", locale));
    const decimal = separator === ";" ? "12,5" : "12.5";
    expect(text.split("\r\n")[1]).toBe(["vis_1", "2026-11-20 23:30:00", "Perplexity", decimal, "a;b, c"].map((f) => `"${f}"`).join(separator));
    // A standard parser told the separator reads the same cells back (quoting keeps "a;b, c" whole).
    const parsed = Papa.parse<string[]>(text.slice(1), { delimiter: separator, newline: "\r\n", skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data[1]).toEqual(["vis_1", "2026-11-20 23:30:00", "Perplexity", decimal, "a;b, c"]);
  });

  it("still neutralises formulas and keeps unknown values and unreadable times as sent", () => {
    const style = excelStyle("Europe/Berlin", "de-DE");
    expect(csvRow(columns, { id: "=1+1", first_seen: "yesterday", source: "@evil", share: -5, note: "-2" }, style)).toBe(
      `"'=1+1";"yesterday";"'@evil";"-5";"'-2"\r\n`,
    );
  });

  it("leaves plain CSV alone: UTC instants, codes, commas, a decimal point", () => {
    expect(csvRow(columns, row)).toBe('"vis_1","2026-11-20T23:30:00.000Z","perplexity","12.5","a;b, c"\r\n');
  });
});
