// The system tests (*.system.test.ts): what the production build answers, route by route, as
// `npm start` serves it, where the unit tests call the handlers in-process and cannot see what the
// build changes (bundling, the entry, the front server). testing/system-setup.ts starts one
// production server for each of two projects, one on the embedded store and one on a PostgreSQL it
// starts (the store's refusals and races are the database's as much as the route's); the files call
// it over HTTP, one file at a time, each in a workspace of its own. Run after `next build`
// (`npm run test:system`, part of `npm test`).
import { defineConfig } from "vitest/config";
import base from "./vitest.config";

const system = (store: "embedded" | "postgres") => ({
  extends: true as const,
  test: {
    name: `system-${store}`,
    include: ["{lib,app,testing}/**/*.system.test.ts"],
    globalSetup: ["./testing/system-setup.ts"],
  },
});

export default defineConfig({
  resolve: base.resolve,
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 90_000,
    pool: "forks",
    // The servers do the work, on cores they share with the runner: files in parallel only compete for them.
    fileParallelism: false,
    projects: [system("embedded"), system("postgres")],
  },
});
