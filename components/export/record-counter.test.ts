import { describe, expect, it } from "vitest";
import { toCsv } from "@/lib/csv";
import { csvRecordCounter, jsonArrayRecordCounter, type RecordCounter } from "./record-counter";

const enc = new TextEncoder();

/** Feeds the text in chunks of `size` bytes, so boundaries fall inside quotes, escapes and UTF-8 sequences. */
function feed(counter: RecordCounter, text: string, size: number): number {
  const all = enc.encode(text);
  let n = 0;
  for (let i = 0; i < all.length; i += size) n = counter.push(all.subarray(i, i + size));
  return n;
}

const columns = ["id", "text"].map((k) => ({ key: k, header: k }));
// Texts that break naive counting: quotes, line breaks inside fields, brackets, multi-byte characters.
const rows = ["plain", 'quote " and\r\nnewline, comma', "\n\n\r\n", 'ends with quote "', "Zürich 東京 🚀 { [ ] }"].map((text, i) => ({ id: String(i + 1), text }));

describe("csvRecordCounter", () => {
  it.each([1, 2, 3, 7, 64, 4096])("counts records, not line breaks inside quotes (chunks of %i bytes)", (size) => {
    expect(feed(csvRecordCounter(), toCsv(columns, rows), size)).toBe(rows.length);
  });

  it("does not count the header row or a record still in flight", () => {
    const c = csvRecordCounter();
    expect(c.push(enc.encode('"id","text"\r\n'))).toBe(0);
    expect(c.push(enc.encode('"1","a\r\nb'))).toBe(0);
    expect(c.push(enc.encode('"\r\n'))).toBe(1);
  });
});

describe("jsonArrayRecordCounter", () => {
  const json = "[" + rows.map((r) => JSON.stringify({ ...r, nested: { list: ["a", "}"] }, arr: [[1], { x: "\\\"" }] })).join(",") + "]";

  it.each([1, 2, 5, 64, 4096])("counts top-level items only (chunks of %i bytes)", (size) => {
    expect(JSON.parse(json)).toHaveLength(rows.length);
    expect(feed(jsonArrayRecordCounter(), json, size)).toBe(rows.length);
  });

  it("counts nothing for an empty array", () => {
    expect(feed(jsonArrayRecordCounter(), "[]", 1)).toBe(0);
  });
});
