// Runs before every other test (playwright.config.ts: the "clock" project they depend on): the
// sandbox, this runner and the browser must read one clock, or a test's "last 7 days" asks for days
// the sandbox's rows do not reach. A sandbox pinned to another day (SANDBOX_NOW) stops the run here,
// at once, saying so, instead of failing tests one by one with "0 results".
import { expect, test as setup } from "@playwright/test";
import { CLOCK_TOLERANCE_MS } from "./helpers/clock";
import { SANDBOX_URL } from "./helpers/sandbox";

setup("the sandbox, the runner and the browser read one clock", async ({ page }) => {
  const res = await fetch(`${SANDBOX_URL}/sandbox/clock`);
  expect(res.status).toBe(200);
  const clock = (await res.json()) as { now: string; rows_dated_at: string };
  const runner = Date.now();
  for (const [name, iso] of [
    ["rows end at", clock.rows_dated_at],
    ["clock reads", clock.now],
  ] as const) {
    const drift = Math.abs(Date.parse(iso) - runner);
    expect(
      drift,
      `The sandbox's ${name} ${iso} but this machine's clock reads ${new Date(runner).toISOString()}: start it without SANDBOX_NOW (every date in e2e/ is counted from the real clock).`,
    ).toBeLessThan(CLOCK_TOLERANCE_MS);
  }
  await page.goto("about:blank");
  const browser = await page.evaluate(() => Date.now());
  expect(Math.abs(browser - Date.now()), "The browser's clock is not this machine's").toBeLessThan(60_000);
});
