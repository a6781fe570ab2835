// The CSV writer: this project's encoder (lib/csv.ts) against csv-stringify (the `csv` project, the
// Node field's maintained CSV writer), both producing the same file: every field quoted, CRLF, UTF-8,
// formula-like text neutralised (through csv-stringify's `cast` hooks), arrays joined. Issue 10 asks
// to adopt a maintained streaming writer if it is at least as fast; this prints rows/s for 100,000
// visitor rows through each (sync and streaming), median of 3 alternating rounds, and checks that
// the outputs are byte-identical.
import { stringify } from "csv-stringify";
import { stringify as stringifySync } from "csv-stringify/sync";
import { csvCellText, csvHeaderRow, csvRow } from "../lib/csv";
import { EXPORT_COLUMNS } from "../lib/exports/columns";

export const name = "CSV writer: lib/csv.ts vs csv-stringify (100,000 visitor rows, identical output)";

const ROWS = 100_000;
const columns = EXPORT_COLUMNS.visitors;
const SOURCES = ["chatgpt", "organic", "=cmd", "direct"];

function makeRows(): Record<string, unknown>[] {
  return Array.from({ length: ROWS }, (_, i) => ({
    id: `vis_${i.toString(36).padStart(9, "0")}`,
    first_seen: "2026-11-19T10:12:13.000Z",
    last_seen: "2026-11-20T11:12:13.000Z",
    source: SOURCES[i % SOURCES.length],
    intent: i % 7 ? "problem_research" : undefined,
    pages_viewed: i % 23,
    converted: i % 5 === 0,
    email: i % 3 ? `person${i}@example.com` : undefined,
    country: "BR",
    city: i % 2 ? 'São "Paulo", SP' : "Zürich",
  }));
}

function ours(rows: Record<string, unknown>[]): string {
  let out = csvHeaderRow(columns);
  // Pages of 100 rows, as an export writes them.
  for (let p = 0; p < rows.length; p += 100) {
    let page = "";
    for (let i = p; i < Math.min(rows.length, p + 100); i++) page += csvRow(columns, rows[i]!);
    out += page;
  }
  return out;
}

/** csv-stringify with the same cell rules: its cast hooks delegate to the same cell text. */
const options = {
  header: true,
  columns: columns.map((c) => ({ key: c.key, header: c.header })),
  quoted: true,
  quoted_empty: true,
  record_delimiter: "\r\n",
  cast: {
    string: (v: string) => csvCellText(v),
    boolean: (v: boolean) => csvCellText(v),
    number: (v: number) => csvCellText(v),
  },
};

function theirsSync(rows: Record<string, unknown>[]): string {
  return stringifySync(rows, options);
}

function theirsStream(rows: Record<string, unknown>[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: string[] = [];
    const s = stringify(options);
    s.on("data", (c: Buffer | string) => chunks.push(c.toString()));
    s.on("error", reject);
    s.on("end", () => resolve(chunks.join("")));
    for (const row of rows) s.write(row);
    s.end();
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<void> {
  const rows = makeRows();
  const reference = ours(rows);
  const sync = theirsSync(rows);
  const streamed = await theirsStream(rows);
  console.log(`outputs identical: csv-stringify sync ${sync === reference}, streaming ${streamed === reference} (${(reference.length / 1e6).toFixed(1)} MB)`);
  const times: Record<string, number[]> = { "lib/csv.ts": [], "csv-stringify sync": [], "csv-stringify stream": [] };
  for (let round = 0; round < 3; round++) {
    let t = performance.now();
    ours(rows);
    times["lib/csv.ts"]!.push(performance.now() - t);
    t = performance.now();
    theirsSync(rows);
    times["csv-stringify sync"]!.push(performance.now() - t);
    t = performance.now();
    await theirsStream(rows);
    times["csv-stringify stream"]!.push(performance.now() - t);
  }
  for (const [label, ms] of Object.entries(times)) {
    const m = median(ms);
    console.log(`${label.padEnd(22)} median ${m.toFixed(0)} ms  ${Math.round((ROWS / m) * 1000).toLocaleString("en-US")} rows/s`);
  }
}
