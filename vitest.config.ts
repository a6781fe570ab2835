// Unit and integration tests (Node). Integration tests start their own sandbox on a free loopback port.
import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // `server-only` throws outside React Server Components; under Node tests it is a no-op.
      "server-only": fileURLToPath(new URL("./scripts/empty-module.ts", import.meta.url)),
    },
  },
  test: {
    include: ["{lib,sandbox,components,app,scripts,bench}/**/*.test.{ts,tsx}"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
