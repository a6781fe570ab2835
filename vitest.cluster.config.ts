// The several-instances tests (*.cluster.test.ts): they start redis-server and production instances of
// the built app, so they run after `next build`, on their own (`npm run test:cluster`, part of `npm test`).
import { defineConfig } from "vitest/config";
import base from "./vitest.config";

export default defineConfig({
  resolve: base.resolve,
  test: {
    include: ["{lib,testing}/**/*.cluster.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 1,
  },
});
