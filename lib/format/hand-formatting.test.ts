// A guard: the UI formats numbers, rates, dates, times and zones only through lib/format, so a figure
// or an instant reads the same on every page. It reads every UI source file (pages, components and
// the browser-side libraries) and fails on a hand-made format: toLocale*String, an Intl formatter
// built outside lib/format, toFixed/toPrecision, or a zone abbreviation asked of Intl.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");

/** The UI's sources: what renders or words anything people read. */
const SCANNED = ["app", "components", "lib/range", "lib/ui", "lib/columns", "lib/queries"];

const RULES: Array<{ name: string; pattern: RegExp }> = [
  { name: "toLocaleString / toLocaleDateString / toLocaleTimeString", pattern: /\.toLocale(?:Date|Time)?String\(/ },
  // `Intl.DateTimeFormat().resolvedOptions()` asks the browser's zone; it formats nothing.
  {
    name: "an Intl formatter",
    pattern: /\bIntl\.(?:DateTimeFormat|NumberFormat|RelativeTimeFormat|DisplayNames|ListFormat|PluralRules)\((?!\)\.resolvedOptions\(\))/,
  },
  { name: "toFixed / toPrecision", pattern: /\.to(?:Fixed|Precision)\(/ },
  { name: "a zone abbreviation (timeZoneName)", pattern: /\btimeZoneName\b/ },
];

/** Each line of `source` that formats by hand, with the rule it breaks. */
function handFormatting(source: string): Array<{ line: number; rule: string; text: string }> {
  const found: Array<{ line: number; rule: string; text: string }> = [];
  source.split("\n").forEach((text, i) => {
    for (const rule of RULES) if (rule.pattern.test(text)) found.push({ line: i + 1, rule: rule.name, text: text.trim() });
  });
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "test-utils" ? [] : sourceFiles(path);
    // Tests may work out what they expect any way they like.
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("formatting goes through lib/format", () => {
  it("the guard catches each kind of hand formatting", () => {
    const offending = [
      "const a = d.toLocaleString();",
      "const b = new Date(x).toLocaleDateString('en-GB');",
      "const c = d.toLocaleTimeString();",
      'const f = new Intl.DateTimeFormat("en-GB", { month: "short" });',
      "const n = Intl.NumberFormat('en-US').format(3);",
      "const r = new Intl.RelativeTimeFormat('en');",
      "const p = `${rate.toFixed(1)}%`;",
      "const q = x.toPrecision(2);",
      '{ timeZoneName: "short" }',
    ];
    for (const line of offending) expect(handFormatting(line), line).toHaveLength(1);
    expect(handFormatting("const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;")).toEqual([]);
    expect(handFormatting("const text = formatPercent(rate);")).toEqual([]);
  });

  it("no UI source formats by hand", () => {
    const files = SCANNED.flatMap((dir) => sourceFiles(join(ROOT, dir)));
    // The scan really read the UI (a wrong root would pass on nothing).
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.endsWith(join("components", "ui", "date-time.tsx")))).toBe(true);
    const offences = files.flatMap((file) => handFormatting(readFileSync(file, "utf8")).map((o) => `${relative(ROOT, file)}:${o.line} ${o.rule}: ${o.text}`));
    expect(offences).toEqual([]);
  });
});
