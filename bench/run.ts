// `npm run bench`: runs every benchmark module in bench/ in turn and prints its figures.
// Each module exports `name` and `run(): Promise<void>`; ratios are measured within one run.
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);

async function main() {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".bench.ts"))
    .sort();
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { name?: string; run?: () => Promise<void> };
    const name = mod.name ?? file;
    if (only.length && !only.some((o) => file.includes(o))) continue;
    if (typeof mod.run !== "function") continue;
    console.log(`\n### ${name}`);
    await mod.run();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
