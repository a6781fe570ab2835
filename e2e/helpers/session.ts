// Signing in from tests. `signIn` uses the app's own session API (as the demo buttons do) so a test
// that is not about the sign-in page starts on its page at once; sign-in.spec.ts drives the form.
import { expect, type Page } from "@playwright/test";

/** The dashboard under test (playwright.config.ts starts it on this port). */
export const BASE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3107)}`;

export type DemoKind = "free" | "pro" | "empty" | "limited";

/**
 * Signs in as a demo workspace. Like the sign-in page, it keeps the browser's zone in the viewer's
 * cookie, so pages open at once in it; `{ zone: false }` leaves it out, for a browser that has never
 * been here (its first page is the proxy's step that stores the zone).
 */
export async function signIn(page: Page, demo: DemoKind = "pro", options: { zone?: boolean } = {}): Promise<void> {
  const res = await page.request.post(`${BASE_URL}/api/session`, { data: { demo }, headers: { Origin: BASE_URL } });
  expect(res.status(), await res.text()).toBe(200);
  if (options.zone !== false) await keepBrowserZone(page);
}

/** Signs in with a pasted key (any key the upstream accepts, e.g. a sandbox key the sign-in page does not offer). */
export async function signInWithKey(page: Page, apiKey: string, options: { zone?: boolean } = {}): Promise<void> {
  const res = await page.request.post(`${BASE_URL}/api/session`, { data: { apiKey }, headers: { Origin: BASE_URL } });
  expect(res.status(), await res.text()).toBe(200);
  if (options.zone !== false) await keepBrowserZone(page);
}

/** The viewer's zone cookie as the sign-in page stores it: the browser's own zone. */
async function keepBrowserZone(page: Page): Promise<void> {
  const cookies = await page.context().cookies(BASE_URL);
  if (cookies.some((c) => c.name === "viewer_tz")) return;
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
  await page.context().addCookies([{ name: "viewer_tz", value: encodeURIComponent(zone), url: BASE_URL }]);
}

/** Waits until no widget on the page is still loading (the overview's range insights count cold: give them time). */
export async function waitForWidgets(page: Page): Promise<void> {
  await expect(page.getByTestId("loading")).toHaveCount(0, { timeout: 45_000 });
}

/** Opens `url` and waits until its widgets have loaded. */
export async function openPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await waitForWidgets(page);
}
