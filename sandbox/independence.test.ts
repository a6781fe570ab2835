// The sandbox is the reference the app is tested against, so it must not read the app's own
// definitions: if it imported lib/data-api's schemas, a change there would change the "independent"
// API too and the contract would check itself. Every import of every sandbox source file (tests
// excepted: they may hold the app against the sandbox) must stay inside sandbox/ or name a package.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const sandboxDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(sandboxDir);

/** Source files under sandbox/, subfolders included, tests left out. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Where an import specifier points: a file path for relative and `@/` imports, null for a package. */
function target(specifier: string, from: string): string | null {
  if (specifier.startsWith("@/")) return path.join(root, specifier.slice(2));
  if (specifier.startsWith(".") || specifier.startsWith("/")) return path.resolve(path.dirname(from), specifier);
  return null;
}

/** Imports of one file that leave sandbox/: static, type-only, re-exports, dynamic import() and require(). */
function importsLeavingSandbox(text: string, file: string): string[] {
  // preProcessFile reads every module reference, not just `import` declarations.
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((ref) => ref.fileName)
    .filter((specifier) => {
      const resolved = target(specifier, file);
      return resolved !== null && path.relative(sandboxDir, resolved).startsWith("..");
    });
}

describe("sandbox independence", () => {
  it("no sandbox source file imports the app (lib/, app/, components/ or anything outside sandbox/)", () => {
    const files = sourceFiles(sandboxDir);
    expect(files.length).toBeGreaterThan(10);
    const offending = files.flatMap((file) =>
      importsLeavingSandbox(readFileSync(file, "utf8"), file).map((specifier) => `${path.relative(root, file)} imports ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it("the check sees every kind of import (it would catch a violation)", () => {
    const text = [
      'import { a } from "@/lib/data-api/params";',
      'import type { B } from "../lib/data-api/schemas";',
      'export { c } from "@/components/x";',
      'const d = await import("../app/page");',
      'const f = require("../lib/data-api/constants");',
      'import { z } from "zod";',
      'import { e } from "./contract";',
    ].join("\n");
    expect(importsLeavingSandbox(text, path.join(sandboxDir, "probe.ts"))).toEqual([
      "@/lib/data-api/params",
      "../lib/data-api/schemas",
      "@/components/x",
      "../app/page",
      "../lib/data-api/constants",
    ]);
  });
});
