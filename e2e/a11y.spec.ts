// Accessibility and layout of every page: axe finds no serious or critical violations in the light
// and the dark theme, and at 375 px the page never scrolls sideways. Also the theme toggle.
import { expect, test } from "@playwright/test";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { sandboxGet } from "./helpers/sandbox";
import { signIn, waitForWidgets } from "./helpers/session";

let visitorId = "";
test.beforeAll(async () => {
  visitorId = (await sandboxGet<{ data: Array<{ id: string }> }>("/visitors?limit=1&source=chatgpt")).data[0]!.id;
});

// Lists at a short page size: axe's cost grows with the rows (15 s for 20 mentions on 2 cores), and
// every row is the same component; the full-size tables are checked in data-table.spec.ts.
const pages = () => [
  "/",
  "/visitors?limit=5",
  `/visitors/${visitorId}`,
  "/mentions?limit=5",
  "/locations",
  "/intelligence",
  "/queries",
  "/settings",
  "/visitors/vis_unknown",
  "/no-such-page",
];

// A tour per theme and half of the pages: one browser context walks several pages (its cache keeps
// the app's scripts, which a new context per page would load and compile again: measured 327 s for
// a test per page against 216 s for one tour per theme), in halves so that each stays well inside its
// time on a loaded machine.
for (const scheme of ["light", "dark"] as const) {
  for (const half of [0, 1] as const) {
    test(`axe: no serious violations (${scheme}, pages ${half === 0 ? "1-5 and sign-in" : "6-10"})`, async ({ browser }) => {
      // Five pages and sign-in: about 1.6 min each on a loaded 2-core machine, 2 min at worst seen.
      test.setTimeout(180_000);
      const context = await browser.newContext({ colorScheme: scheme });
      const page = await context.newPage();
      if (half === 0) {
        await page.goto("/sign-in");
        await expectNoSeriousViolations(page, `/sign-in ${scheme}`);
      }
      await signIn(page, "pro");
      const all = pages();
      for (const path of half === 0 ? all.slice(0, 5) : all.slice(5)) {
        await page.goto(path);
        await waitForWidgets(page);
        await expectNoSeriousViolations(page, `${path} ${scheme}`);
      }
      await context.close();
    });
  }
}

test("375 px: no page scrolls sideways", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await expectNoHorizontalOverflow(page, "/sign-in");
  await signIn(page, "pro");
  for (const path of pages()) {
    await page.goto(path);
    await waitForWidgets(page);
    await expectNoHorizontalOverflow(page, path);
  }
  await context.close();
});

// --color-bg in each theme (app/globals.css), as computed styles report it.
const LIGHT_BG = "rgb(245, 246, 250)";
const DARK_BG = "rgb(11, 15, 25)";

test("the theme toggle switches theme, and the choice survives a reload (cookie read on the server)", async ({ page }) => {
  await signIn(page, "pro");
  await page.goto("/settings");
  const html = page.locator("html");
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await expect(html).not.toHaveAttribute("data-theme", /./);
  expect(await background()).toBe(LIGHT_BG);
  await page.getByTestId("theme-toggle").click();
  await expect(html).toHaveAttribute("data-theme", "dark");
  expect(await background()).toBe(DARK_BG);
  await page.reload();
  await expect(html).toHaveAttribute("data-theme", "dark");
  expect(await background()).toBe(DARK_BG);
  await page.getByRole("button", { name: "Follow system" }).click();
  await expect(html).not.toHaveAttribute("data-theme", /./);
  expect(await background()).toBe(LIGHT_BG);
  // Following the system: a dark OS gives the dark colours without any choice made.
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await background()).toBe(DARK_BG);
});

test("keyboard: the skip link is first and moves focus to the content", async ({ page }) => {
  await signIn(page, "pro");
  await page.goto("/visitors");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});
