// End-to-end tests in Chromium. Playwright starts the built dashboard through the production entry,
// which starts the sandbox, on loopback (fixed test ports, overridable) and stops both when the run ends.
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3107);
const sandboxPort = Number(process.env.E2E_SANDBOX_PORT ?? 4117);
export const SANDBOX_URL = `http://127.0.0.1:${sandboxPort}`;
// The mail server the dashboard sends e-mail destinations' messages to, and the HTTP reader of what
// arrived there (testing/mail-catcher.ts): e2e/helpers/mail.ts follows an e-mail's links.
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? sandboxPort + 10);
export const MAIL_CATCHER_URL = `http://127.0.0.1:${smtpPort + 1}`;
const executablePath = process.env.CHROMIUM_PATH || undefined;

export default defineConfig({
  testDir: "e2e",
  // Pages now count insights in the background; on a loaded 2-core machine a page tour can pass 30 s.
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // The browser's time is most of the suite's: Chromium used three quarters of the CPU of a run, on
    // two cores that the browser, the server and the runner share. Measured on 49 tests, in CPU
    // seconds: a failed test's trace keeps its actions, console, network and sources but records no
    // screenshots nor DOM snapshots of every step (170 s with them, 132 s without; the failure's own
    // screenshot is kept); reduced motion stops the loading skeletons' shimmer, which kept the
    // compositor drawing as long as a widget loads, and the GPU thread in the browser's own process
    // (there is no GPU: it composites in software) saves a process and its messages (186 s before
    // these two, 153 s after). No test is about an animation.
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: false, sources: true },
    screenshot: "only-on-failure",
    reducedMotion: "reduce",
    launchOptions: {
      executablePath,
      args: executablePath
        ? [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--in-process-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ]
        : [],
    },
  },
  // One clock for the whole suite (e2e/helpers/clock.ts): the "clock" check runs first and a sandbox
  // on another day stops the run before any test.
  projects: [
    { name: "clock", testMatch: /clock\.setup\.ts$/ },
    // A worker's tests share one browser context, which Playwright resets between them (cookies, cache,
    // local storage and IndexedDB cleared, extra pages closed, options applied again); a test that sets
    // an option a reused context cannot take (`locale`, `timezoneId`…) gets a fresh one. Summed test
    // time on one run each, same build and machine: 787 s with a context per test, 583 and 658 s shared.
    // Not reset: permissions granted (alerts.spec.ts grants the clipboard; no test checks its absence),
    // geolocation, offline and extra headers (no test sets these).
    { name: "chromium", dependencies: ["clock"], use: { ...devices["Desktop Chrome"], channel: undefined, reuseContext: true } },
  ],
  // The production entry (`npm start`, scripts/run.ts): the front server with Next in-process, and the
  // embedded sandbox it starts as a child process on the test port (so the sign-in page offers its
  // demo keys, and tests reach it directly for faults and stats).
  webServer: [
    {
      command: "exec npx tsx testing/mail-catcher.ts",
      url: `${MAIL_CATCHER_URL}/health`,
      env: { MAIL_CATCHER_SMTP_PORT: String(smtpPort), MAIL_CATCHER_PORT: String(smtpPort + 1) },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // A new store for every run: a store kept from an earlier run (in the system's temp directory)
      // would hold that run's days and notes, and the tests count from today.
      command: 'rm -rf "$DATA_DIR" && exec npx tsx scripts/run.ts start',
      url: `http://127.0.0.1:${port}/api/health`,
      env: {
        PORT: String(port),
        HOSTNAME: "127.0.0.1",
        DATA_API_BASE_URL: "",
        SANDBOX_PORT: String(sandboxPort),
        // The real time, as the browser and this server read it: the sandbox's rows end now, and the
        // tests count every date from the same clock (e2e/helpers/clock.ts). Empty, not left out, so a
        // SANDBOX_NOW in the caller's environment cannot pin it to another day.
        SANDBOX_NOW: "",
        SESSION_SECRET: "e2e-only-session-secret-0123456789abcdef",
        // The server's own embedded store, apart from the checkout's ./data (which `npm start` may hold),
        // emptied before each run by the command above.
        DATA_DIR: path.join(tmpdir(), `wa-e2e-data-${port}`),
        NEXT_TELEMETRY_DISABLED: "1",
        // Alerts' e2e sends to a receiver it starts on 127.0.0.1, which the app refuses otherwise.
        WEBHOOK_ALLOW_PRIVATE: "true",
        // E-mail destinations go to the mail catcher above (any login; plain SMTP on loopback).
        SMTP_URL: `smtp://e2e:e2e@127.0.0.1:${smtpPort}`,
        // Required with SMTP_URL (every e-mail links back): this server's own address.
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        MAIL_FROM: "Workspace Analytics <alerts@e2e.example>",
      },
      reuseExistingServer: false,
      timeout: 120_000,
    },
  ],
});
