// Share links in Chromium, in a workspace of this spec's own (a derived demo key, watched here): a
// member shares /platforms from "Share" beside "Save view" with a password, by keyboard, and copies
// the link; a browser without any session opens it, is asked the password (a wrong one said on the
// field), then sees the page read-only: its figures, no link out of the shared page, `noindex` and
// `no-referrer`, axe in both themes and no sideways scroll at 375 px. Settings lists the link with how
// often it was opened; revoked, it answers the one "does not exist or has expired" page, as an unknown
// link does. SHARE_SHOTS=<dir> keeps screenshots of the shared page and Settings' links.
import { expect, test, type Page } from "@playwright/test";
import { deriveDemoKey } from "../sandbox/keys";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { BASE_URL, signInWithKey, waitForWidgets } from "./helpers/session";

const KEY = deriveDemoKey("pro", "e2eshares");
const SHOTS = process.env.SHARE_SHOTS;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Every link on the page that leads somewhere other than the shared page itself. */
async function linksOut(page: Page, base: string): Promise<string[]> {
  const hrefs = await page.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  return hrefs.filter((h) => !h.startsWith(base) && !h.startsWith("#") && !h.startsWith("?"));
}

test.describe.configure({ mode: "serial" });

let link = "";

test("a member shares a page with a password from beside Save view, and Settings lists the link", async ({ page }) => {
  await signInWithKey(page, KEY);
  expect((await page.request.put(`${BASE_URL}/api/workspace/watch`, { headers: { Origin: BASE_URL } })).status()).toBe(200);
  await page.goto("/platforms?range=7d");
  await expect(page).toHaveURL(/from=/);
  const share = page.getByTestId("share-button");
  await expect(share).toBeVisible();
  await share.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByTestId("share-dialog");
  await expect(dialog.getByTestId("share-name")).toBeFocused();
  await dialog.getByTestId("share-name").fill("AI traffic for the board");
  await dialog.getByTestId("share-password").fill("short");
  await dialog.getByTestId("share-submit").click();
  await expect(dialog).toContainText("Use a password of 6 to 128 characters");
  await dialog.getByTestId("share-password").fill("correct horse");
  await dialog.getByTestId("share-submit").click();
  const made = dialog.getByTestId("share-link");
  await expect(made).toHaveValue(/\/s\/[A-Za-z0-9_-]{32}$/);
  link = await made.inputValue();
  await expect(page.getByRole("status").filter({ hasText: "Made the link" })).toHaveCount(1);
  // "Share" is only on the five pages that may be shared.
  await page.goto("/visitors");
  await expect(page.getByTestId("save-view-button")).toBeVisible();
  await expect(page.getByTestId("share-button")).toHaveCount(0);

  await page.goto("/settings");
  const card = page.getByTestId("share-links-card");
  const item = card.getByTestId("share-link-item");
  await expect(item).toHaveCount(1);
  await expect(item).toContainText("AI traffic for the board");
  await expect(item).toContainText("Last 7 days");
  await expect(item.getByTestId("share-link-password")).toHaveText("Yes");
  await expect(item.getByTestId("share-link-opened")).toHaveText("Never");
  await expect(item.getByTestId("share-link-url")).toHaveValue(link);
  await expectNoSeriousViolations(page, "Settings' share links", '[data-testid="share-links-card"]');
  await shot(page, "settings-links-light");
});

test("a viewer without the key opens it with its password and sees the page read-only", async ({ browser }) => {
  expect(link).not.toBe("");
  const path = new URL(link).pathname;
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    const first = await page.goto(path);
    expect(first?.headers()["x-robots-tag"]).toMatch(/noindex/);
    expect(first?.headers()["referrer-policy"]).toBe("no-referrer");
    const form = page.getByTestId("unlock-form");
    await expect(form).toBeVisible();
    await expectNoSeriousViolations(page, `the password form (${colorScheme})`);
    await page.getByTestId("unlock-password").fill("battery staple");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("unlock-error")).toHaveText("That is not this link's password.");
    await page.getByTestId("unlock-password").fill("correct horse");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "AI platforms" })).toBeVisible();
    await expect(page).toHaveURL(/from=\d{4}-\d\d-\d\d/);
    await waitForWidgets(page);
    await expect(page.getByTestId("shared-by")).toContainText("AI traffic for the board");
    await expect(page.getByTestId("platforms-card")).toContainText("ChatGPT");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
    await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");
    // Nothing leads out of the shared page, and nothing of a member's is there.
    expect(await linksOut(page, path)).toEqual([]);
    await expect(page.getByTestId("save-view-button")).toHaveCount(0);
    await expect(page.getByTestId("share-button")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Add note" })).toHaveCount(0);
    await expectNoSeriousViolations(page, `the shared page (${colorScheme})`);
    await shot(page, `shared-page-${colorScheme}`);
    if (colorScheme === "light") {
      await page.setViewportSize({ width: 375, height: 812 });
      await expectNoHorizontalOverflow(page, "the shared page at 375 px");
      await shot(page, "shared-page-375");
    }
    await context.close();
  }
});

test("Settings counts the openings; a revoked link is the one page of a link that does not open", async ({ page, browser }) => {
  await signInWithKey(page, KEY);
  await page.goto("/settings");
  const item = page.getByTestId("share-links-card").getByTestId("share-link-item");
  await expect(item.getByTestId("share-link-opened")).toContainText(/^2 times, last /);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
  await expectNoSeriousViolations(page, "Settings' share links (dark)", '[data-testid="share-links-card"]');
  await shot(page, "settings-links-dark");

  const viewer = await browser.newContext();
  const anonymous = await viewer.newPage();
  const unknown = await anonymous.goto(`/s/${"A".repeat(32)}`);
  expect(unknown?.status()).toBe(404);
  await expect(anonymous.getByTestId("share-gone")).toHaveText(/This link does not exist or has expired/);
  const unknownText = await anonymous.getByTestId("share-gone").textContent();
  expect(await linksOut(anonymous, "/s/")).toEqual([]);

  await item.getByTestId("share-link-revoke").click();
  await item.getByTestId("share-link-confirm-revoke").click();
  await expect(page.getByTestId("share-links-empty")).toBeVisible();
  const revoked = await anonymous.goto(new URL(link).pathname);
  expect(revoked?.status()).toBe(404);
  await expect(anonymous.getByTestId("share-gone")).toHaveText(unknownText!);
  const malformed = await anonymous.goto("/s/not-a-token");
  expect(malformed?.status()).toBe(404);
  await expect(anonymous.getByTestId("share-gone")).toHaveText(unknownText!);
  await viewer.close();
});

test("each page that may be shared opens read-only: every read answered, nothing leading out", async ({ page, browser }) => {
  await signInWithKey(page, KEY);
  const viewer = await browser.newContext();
  const anonymous = await viewer.newPage();
  for (const path of ["/", "/locations", "/queries", "/intelligence"]) {
    const made = await page.request.post(`${BASE_URL}/api/shares`, {
      headers: { Origin: BASE_URL },
      data: { name: `Shared ${path}`, path, query: { range: "30d" } },
    });
    expect(made.status(), await made.text()).toBe(201);
    const url = new URL(((await made.json()) as { url: string }).url).pathname;
    const refused: string[] = [];
    const onResponse = (res: { url(): string; status(): number }) => {
      if (res.url().includes("/api/") && res.status() >= 400) refused.push(`${res.status()} ${res.url()}`);
    };
    anonymous.on("response", onResponse);
    await anonymous.goto(url);
    await expect(anonymous.getByRole("heading", { level: 1 })).toBeVisible();
    await waitForWidgets(anonymous);
    anonymous.off("response", onResponse);
    expect(refused, path).toEqual([]);
    expect(await linksOut(anonymous, url), path).toEqual([]);
    await expect(anonymous.getByRole("button", { name: "Add note" })).toHaveCount(0);
  }
  await viewer.close();
});
