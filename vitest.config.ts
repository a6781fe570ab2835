// Unit and integration tests (Node). Integration tests start their own sandbox on a free loopback port.
import { configDefaults, defineConfig } from "vitest/config";
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
    include: ["{lib,sandbox,components,app,scripts,bench,deploy,testing}/**/*.test.{ts,tsx}"],
    // Against the built app: vitest.cluster.config.ts (several instances) and vitest.system.config.ts
    // (the routes from the production server) run them after the build.
    exclude: [...configDefaults.exclude, "**/*.cluster.test.ts", "**/*.system.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Both cores: the tests are CPU-bound (their waits run on fake time), and vitest's default on a
    // 2-core machine is one worker.
    maxWorkers: 2,
    // Modules are loaded once per worker instead of once per test file: importing them was a third
    // of the suite's CPU time. vitest.setup.ts gives every file the state a fresh process would have.
    isolate: false,
    setupFiles: ["./vitest.setup.ts"],
  },
});
