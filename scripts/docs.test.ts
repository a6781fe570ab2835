// The repository's docs stand on their own: no tracked file (code, comment, test or doc) cites a
// document that is not in the repository (the design notes and API reference kept outside it, or a
// path out of the checkout), and every relative link in the repository's markdown points at a file
// that exists, and at a heading that exists when it names one. The rules the code relies on are
// stated in docs/ (README.md is its front door and map), lib/data-api/README.md and sandbox/README.md,
// which code comments cite.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "..");

// Written in pieces so this file does not cite what it forbids.
const SHARED = "shared";
const OUTSIDE_DOCS = new RegExp(
  [...["DESIGN", "DATA-API", "STYLE"].map((name) => `\\b${name}\\.md\\b`), `\\.\\./${SHARED}\\b`, `/work/${SHARED}\\b`].join("|"),
);

/** Each line of `text` that cites a document outside the repository. */
function outsideCitations(text: string): Array<{ line: number; text: string }> {
  return text.split("\n").flatMap((line, i) => (OUTSIDE_DOCS.test(line) ? [{ line: i + 1, text: line.trim() }] : []));
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

const anchorsOf = (markdown: string): Set<string> => new Set([...markdown.matchAll(/^#{1,6} +(.+)$/gm)].map((m) => anchorOf(m[1]!)));

/** The relative links of a markdown text (not web addresses, not inside code spans or blocks). */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "``");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with the relative links of the markdown file `file` (empty when every one resolves). */
function brokenLinks(file: string, markdown: string, read: (path: string) => string | null): string[] {
  return relativeLinks(markdown).flatMap((target) => {
    const [path, anchor] = target.split("#") as [string, string | undefined];
    const to = path ? join(dirname(file), path) : file;
    const text = read(to);
    if (text === null) return [`${file}: ${target} (no such file)`];
    if (anchor && to.endsWith(".md") && !anchorsOf(text).has(anchor)) return [`${file}: ${target} (no such heading)`];
    return [];
  });
}

const tracked = (): string[] => execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);

const readFile = (path: string): string | null => (existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), "utf8") : null);

describe("the docs cite only the repository", () => {
  it("the checks catch what they look for", () => {
    for (const line of ["see DESIGN" + ".md", `(../${SHARED}/x)`, "DATA-API" + ".md says", `/work/${SHARED}/STYLE` + ".md"])
      expect(outsideCitations(line), line).toHaveLength(1);
    expect(outsideCitations('README.md "Insights"; my_DESIGN_md')).toEqual([]);
    expect(anchorOf("The transport (`lib/server/upstream-transport.ts`)")).toBe("the-transport-libserverupstream-transportts");
    const files: Record<string, string> = { "a/README.md": "# Top\n## Settled unknowns\n", "b.md": "" };
    const read = (p: string) => files[p] ?? null;
    expect(brokenLinks("b.md", "[ok](a/README.md#settled-unknowns) [web](https://x.test/y) `[code](nope.md)`", read)).toEqual([]);
    expect(brokenLinks("b.md", "[gone](a/GONE.md) [bad](a/README.md#nothing-here)", read)).toEqual([
      "b.md: a/GONE.md (no such file)",
      "b.md: a/README.md#nothing-here (no such heading)",
    ]);
  });

  it("no tracked file cites a document outside the repository", () => {
    const files = tracked().filter((f) => !/\.(png|svg|ico|woff2?)$/.test(f) && f !== "package-lock.json");
    expect(files.length).toBeGreaterThan(200);
    const found = files.flatMap((file) => outsideCitations(readFileSync(join(ROOT, file), "utf8")).map((c) => `${file}:${c.line}: ${c.text}`));
    expect(found).toEqual([]);
  });

  it("every relative link in the repository's markdown resolves, to a heading where it names one", () => {
    const docs = tracked().filter((f) => f.endsWith(".md"));
    expect(docs).toEqual(expect.arrayContaining(["README.md", "docs/product.md", "docs/architecture.md", "lib/data-api/README.md", "sandbox/README.md"]));
    const links = docs.flatMap((file) => relativeLinks(readFileSync(join(ROOT, file), "utf8")));
    expect(links.length).toBeGreaterThan(5);
    const broken = docs.flatMap((file) => brokenLinks(file, readFileSync(join(ROOT, file), "utf8"), readFile));
    expect(broken).toEqual([]);
  });
});
