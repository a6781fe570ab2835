// knip: unused files, exports, types and dependencies (part of `npm run lint`). Its plugins find the
// entry points of Next (app router files, proxy.ts, next.config), vitest, Playwright and the package
// scripts (scripts/run.ts, sandbox/main.ts, scripts/env-example.ts, bench/run.ts); what they cannot see
// is declared here, each with its reason.
import type { KnipConfig } from "knip";

const config: KnipConfig = {
  // bench/run.ts loads every bench/*.bench.ts by listing the folder, which no import shows;
  // bench/export-memory-probe.ts is a diagnostic run by hand (npx tsx).
  // testing/fixtures/ are programs the store's tests start as other processes (by path).
  // e2e/clock.setup.ts is the Playwright project every other depends on (its testMatch, not a spec name).
  // testing/mail-catcher.ts is a program Playwright's webServer starts (a command, not an import).
  entry: ["bench/*.bench.ts", "bench/export-memory-probe.ts", "testing/fixtures/*.ts", "e2e/clock.setup.ts", "testing/mail-catcher.ts"],
  // An export also used in its own file is live code, only exported wider than needed: knip is here
  // for dead code. (Turn this off to see those exports.)
  ignoreExportsUsedInFile: true,
  // bench/pages.bench.ts runs Lighthouse's CLI by path (node_modules/lighthouse/cli/index.js) in a
  // child process, which no import shows.
  ignoreDependencies: ["lighthouse"],
};

export default config;
