// The system tests (*.system.test.ts): what the production build answers, route by route, as
// `npm start` serves it, where the unit tests call the handlers in-process and cannot see what the
// build changes (bundling, the entry, the front server). testing/system-setup.ts starts one
// production server for the whole layer; the files call it over HTTP, one file at a time, each in a
// workspace of its own. Run after `next build` (`npm run test:system`, part of `npm test`).
import { defineConfig } from "vitest/config";
import base from "./vitest.config";

export default defineConfig({
  resolve: base.resolve,
  test: {
    include: ["{lib,app,testing}/**/*.system.test.ts"],
    environment: "node",
    globalSetup: ["./testing/system-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The server does the work, on cores it shares with the runner: files in parallel only compete for them.
    fileParallelism: false,
  },
});
