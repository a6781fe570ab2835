import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { csvField, csvHeaderRow, csvRecord, csvRow, toCsv } from "./csv";

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
    ["=", "=SUM(A1:A9)", "\"'=SUM(A1:A9)\""],
    ["+", "+1 555 0100", "\"'+1 555 0100\""],
    ["-", "-2+3", "\"'-2+3\""],
    ["@", "@cmd", "\"'@cmd\""],
    ["TAB", "\tx", "\"'\tx\""],
    ["CR", "\rx", "\"'\rx\""],
    ["LF", "\nx", "\"'\nx\""],
  ])("neutralises a string cell starting with %s", (_name, value, expected) => {
    expect(csvField(value)).toBe(expected);
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
    expect(csvField(["=evil()", "Acme"])).toBe("\"'=evil(); Acme\"");
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
