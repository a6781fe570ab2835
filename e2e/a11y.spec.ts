// The theme toggle and the keyboard's skip link. (axe on every page in both themes, and no page
// scrolling sideways at 375 px, are checked on the tour of every page: tour.spec.ts.)
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers/session";

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
