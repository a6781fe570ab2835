// The several-instances tests (*.cluster.test.ts): they start redis-server and production instances of
// the built app, so they run after `next build`, on their own (`npm run test:cluster`, part of `npm test`).
import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      "server-only": fileURLToPath(new URL("./scripts/empty-module.ts", import.meta.url)),
    },
  },
  test: {
    include: ["{lib,bench}/**/*.cluster.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 1,
  },
});
