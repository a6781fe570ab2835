// End-to-end tests in Chromium. Playwright starts the sandbox and the built dashboard on loopback
// (fixed test ports, overridable) and stops them when the run ends.
import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3107);
const sandboxPort = Number(process.env.E2E_SANDBOX_PORT ?? 4117);
export const SANDBOX_URL = `http://127.0.0.1:${sandboxPort}`;
const executablePath = process.env.CHROMIUM_PATH || undefined;

export default defineConfig({
  testDir: "e2e",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath,
      args: executablePath
        ? ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
        : [],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: [
    {
      command: "npx tsx sandbox/main.ts",
      url: `${SANDBOX_URL}/sandbox/health`,
      env: { SANDBOX_PORT: String(sandboxPort), SANDBOX_HOST: "127.0.0.1", SANDBOX_NOW: "2026-11-20T12:00:00Z" },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `npx next start -p ${port} -H 127.0.0.1`,
      url: `http://127.0.0.1:${port}/api/health`,
      env: {
        DATA_API_BASE_URL: `${SANDBOX_URL}/v1`,
        SESSION_SECRET: "e2e-only-session-secret-0123456789abcdef",
        NEXT_TELEMETRY_DISABLED: "1",
      },
      reuseExistingServer: false,
      timeout: 120_000,
    },
  ],
});
