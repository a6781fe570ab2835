// The header's date range and the viewer's time zone in Chromium: presets and typed dates set the URL
// and the lists' numbers (checked against the sandbox), a bad date is said on its field, the range
// travels with the nav links and Back, a range in Berlin asks the Data API for Berlin's instants, the
// time zone comes from Settings (or the browser on a first visit), pages the range does not drive say
// what they show in its place and keep it for the others, and the shell works at 375 px: every page
// in reach behind the pages button, the header a small part of the screen, sign-out from the account menu.
import { expect, test, type Page } from "@playwright/test";
import { DEMO_KEYS, numberText, SANDBOX_URL, sandboxGet } from "./helpers/sandbox";
import { rangeText, shiftDate, utcDate, zoneDayEnd, zoneMidnight } from "./helpers/clock";
import { signIn, waitForWidgets } from "./helpers/session";

type List = { data: Array<{ id: string }>; meta: { total: number } };

/** A past stretch of days the sandbox's rows cover: its first day, and 5 or 10 days from it. */
const FIRST = utcDate(-28);
const FIFTH = shiftDate(FIRST, 4);
const TENTH = shiftDate(FIRST, 9);

const rowIds = (page: Page) => page.getByTestId("visitor-row").getByRole("rowheader").allTextContents();

/** The visitors list shows exactly the sandbox's answer for these upstream filters. */
async function expectVisitors(page: Page, upstream: string) {
  const api = await sandboxGet<List>(`/visitors?${upstream}&limit=20`);
  await expect(page.getByTestId("range")).toContainText(api.meta.total === 0 ? "0 results" : `of ${numberText(api.meta.total)} visitors`);
  await waitForWidgets(page);
  if (api.meta.total > 0) expect(await rowIds(page)).toEqual(api.data.map((v) => v.id));
}

const rangeButton = (page: Page) => page.getByTestId("range-button");

test("presets set the URL and the list's numbers", async ({ page }) => {
  await signIn(page, "pro");
  await page.goto("/visitors");
  await waitForWidgets(page);
  await expect(page.getByTestId("range-label")).toHaveText("All time");
  await expect(page.getByTestId("range-tz")).toHaveText("Time zone: UTC");

  await rangeButton(page).click();
  await page.getByTestId("range-preset-7d").click();
  const from = utcDate(-6);
  const to = utcDate();
  await expect(page).toHaveURL(new RegExp(`/visitors\\?from=${from}&to=${to}&tz=UTC$`));
  await expect(page.getByTestId("range-label")).toHaveText("Last 7 days");
  await expectVisitors(page, `from=${from}&to=${to}`);
  // The list's own date fields show the same range.
  await expect(page.getByRole("textbox", { name: "First seen from" })).toHaveValue(from);
  await expect(page.getByRole("textbox", { name: "First seen to" })).toHaveValue(to);

  await rangeButton(page).click();
  await page.getByTestId("range-preset-today").click();
  await expect(page).toHaveURL(new RegExp(`from=${to}&to=${to}&tz=UTC$`));
  await expect(page.getByTestId("range-label")).toHaveText("Today");

  // All time (lists only) removes the range again; Back returns to the previous one.
  await rangeButton(page).click();
  await page.getByTestId("range-preset-all").click();
  await expect(page).toHaveURL(/\/visitors$/);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`from=${to}&to=${to}`));
  await expect(page.getByTestId("range-label")).toHaveText("Today");
});

test("typed dates work by keyboard; a bad one is said on its field and not applied", async ({ page }) => {
  await signIn(page, "pro");
  await page.goto("/visitors");
  await waitForWidgets(page);
  await rangeButton(page).focus();
  await page.keyboard.press("Enter");
  await expect(rangeButton(page)).toHaveAttribute("aria-expanded", "true");
  const fromField = page.getByTestId("range-from");
  const toField = page.getByTestId("range-to");
  // Typed character by character: a half-typed year never becomes a filter.
  await fromField.fill("");
  await fromField.pressSequentially(FIRST);
  await toField.fill("");
  await toField.pressSequentially(FIFTH);
  await toField.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/visitors\\?from=${FIRST}&to=${FIFTH}&tz=UTC$`));
  await expect(rangeButton(page)).toBeFocused();
  await expect(page.getByTestId("range-label")).toHaveText(rangeText(FIRST, FIFTH));
  await expectVisitors(page, `from=${FIRST}&to=${FIFTH}`);

  await rangeButton(page).click();
  await fromField.fill("2026-13-01");
  await page.getByTestId("range-apply").click();
  await expect(fromField).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("range-error-from")).toHaveText(
    "This start date is not a date the dashboard can use. Type it as year-month-day, e.g. 2026-11-01.",
  );
  await expect(toField).not.toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(new RegExp(`from=${FIRST}&to=${FIFTH}`));
  await fromField.fill(shiftDate(FIRST, 3));
  await toField.fill(shiftDate(FIRST, 1));
  await toField.press("Enter");
  await expect(page.getByTestId("range-error-to")).toHaveText("The end date is before the start date. Swap them, or pick another date.");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("range-panel")).toHaveCount(0);
  await expect(rangeButton(page)).toBeFocused();
});

test("a bad value in the URL is shown on its field", async ({ page }) => {
  await signIn(page, "pro");
  await page.goto("/mentions?from=2026-11-01&to=2026-11-05&tz=Mars/Base");
  await expect(page.getByTestId("range-label")).toHaveText("Check the range");
  // The list refuses the zone itself, naming it, without asking the Data API.
  await expect(page.getByTestId("param-error")).toContainText("The time zone in this link cannot be used");
  await rangeButton(page).click();
  await expect(page.getByTestId("range-tz-input")).toHaveValue("Mars/Base");
  await expect(page.getByTestId("range-tz-input")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("range-error-tz")).toHaveText(
    "This time zone is not one the dashboard knows. Choose one from the list, e.g. Europe/Berlin or America/New_York.",
  );

  await page.goto("/?from=2026-02-30&to=2026-03-05");
  await rangeButton(page).click();
  await expect(page.getByTestId("range-from")).toHaveValue("2026-02-30");
  await expect(page.getByTestId("range-error-from")).toHaveText(
    "This start date is not a date the dashboard can use. Type it as year-month-day, e.g. 2026-11-01.",
  );
});

test("the range travels with the nav links and Back; pages without one keep theirs", async ({ page }) => {
  await signIn(page, "pro");
  const range = `from=${FIRST}&to=${TENTH}&tz=UTC`;
  await page.goto(`/visitors?${range}`);
  await waitForWidgets(page);
  const nav = page.getByRole("navigation", { name: "Main" });
  // Wide, every page is a link in view; the phones' pages button is not drawn.
  await expect(nav.getByTestId("nav-toggle")).toBeHidden();
  await nav.getByRole("link", { name: "Mentions" }).click();
  await expect(page).toHaveURL(new RegExp(`/mentions\\?${range}$`));
  await expect(page.getByTestId("range-label")).toHaveText(rangeText(FIRST, TENTH));
  const mentions = await sandboxGet<List>(`/mentions?from=${FIRST}&to=${TENTH}&limit=20`);
  await expect(page.getByTestId("range")).toContainText(`of ${numberText(mentions.meta.total)} mentions`);
  await nav.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(new RegExp(`/settings\\?${range}$`));
  await expect(page.getByTestId("range-not-used")).toContainText(`Your range, ${rangeText(FIRST, TENTH)}, stays for the other pages.`);
  await nav.getByRole("link", { name: "Overview" }).click();
  await expect(page).toHaveURL(new RegExp(`/\\?${range}$`));
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/mentions\\?${range}$`));
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/visitors\\?${range}$`));
  await expect(page.getByRole("textbox", { name: "First seen from" })).toHaveValue(FIRST);
});

test("from a page on its default 30 days, the lists open those 30 days, never all time unasked", async ({ page }) => {
  await signIn(page, "pro");
  await page.goto("/platforms?tz=UTC");
  await expect(page.getByTestId("range-label")).toHaveText("Last 30 days");
  const month = `from=${utcDate(-29)}&to=${utcDate(0)}&tz=UTC`;
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Visitors" })).toHaveAttribute("href", `/visitors?${month}`);
  // The pages with the same default carry nothing: they read it themselves.
  await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute("href", "/?tz=UTC");
  await nav.getByRole("link", { name: "Mentions" }).click();
  await expect(page).toHaveURL(new RegExp(`/mentions\\?${month}$`));
  await expect(page.getByTestId("range-label")).toHaveText("Last 30 days");
  const mentions = await sandboxGet<List>(`/mentions?from=${utcDate(-29)}&to=${utcDate(0)}&limit=20`);
  await expect(page.getByTestId("range")).toContainText(`of ${numberText(mentions.meta.total)} mentions`);
  // "All time" is there when chosen: a list without a range keeps it, and its links carry none.
  await page.goto("/visitors");
  await expect(page.getByTestId("range-label")).toHaveText("All time");
  await expect(nav.getByRole("link", { name: "Mentions" })).toHaveAttribute("href", "/mentions");
});

test("pages the range does not drive say what they show in its place, and keep the range for the others", async ({ page }) => {
  // Five pages in a row: more than the default allows on a loaded machine.
  test.setTimeout(120_000);
  await signIn(page, "pro");
  const range = `from=${FIRST}&to=${TENTH}&tz=UTC`;
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [path, says] of [["/settings", "The date range does not apply to Settings."]] as const) {
    await page.goto(`${path}?${range}`);
    await expect(page.getByTestId("range-not-used")).toContainText(says);
    await expect(page.getByTestId("range-button")).toHaveCount(0);
    await expect(page.getByTestId("range-tz")).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute("href", `/?${range}`);
  }
  // The pages it drives show the control.
  await page.goto(`/platforms?${range}`);
  await expect(page.getByTestId("range-label")).toHaveText(rangeText(FIRST, TENTH));
  await expect(page.getByTestId("range-not-used")).toHaveCount(0);

  // To a visitor and back: the range goes along, though the visitor's page shows the whole timeline.
  await page.goto(`/visitors?${range}`);
  await waitForWidgets(page);
  await page.getByTestId("visitor-row").first().getByRole("rowheader").getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/visitors/vis_[^?]+\\?${range}$`));
  await expect(page.getByTestId("range-not-used")).toContainText("this is the visitor's whole timeline");
  const oldest = new URL((await page.getByRole("link", { name: "Oldest first" }).getAttribute("href"))!, "http://x");
  expect(Object.fromEntries(oldest.searchParams)).toEqual({ ...Object.fromEntries(new URLSearchParams(range)), order: "oldest" });
  await page.getByRole("main").getByRole("link", { name: "Visitors", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/visitors\\?${range}$`));
  await expect(page.getByTestId("range-label")).toHaveText(rangeText(FIRST, TENTH));
});

test("a list with a range in Berlin asks the Data API for Berlin's instants, and so does its export", async ({ page }) => {
  await signIn(page, "pro");
  await page.goto(`/visitors?from=${FIRST}&to=${FIFTH}&tz=Europe/Berlin&source=chatgpt`);
  const from = zoneMidnight(FIRST, "Europe/Berlin");
  const to = zoneDayEnd(FIFTH, "Europe/Berlin");
  await expectVisitors(page, `source=chatgpt&from=${from}&to=${to}`);
  // The upstream was asked for exactly these bounds (the sandbox's request log).
  const stats = (await (await fetch(`${SANDBOX_URL}/sandbox/stats`)).json()) as { log: Array<{ key: string; path: string; query: string }> };
  const hint = `…${DEMO_KEYS.pro.slice(-4)}`;
  const asked = stats.log.filter((e) => e.key === hint && e.path === "/v1/visitors").map((e) => new URLSearchParams(e.query));
  expect(asked.some((q) => q.get("from") === from && q.get("to") === to && q.get("source") === "chatgpt")).toBe(true);
  // A UTC reading of the same dates is another window: Berlin's days start an hour (two in summer)
  // before UTC's, so Berlin's list is UTC's plus the hours before its first midnight, less those
  // before the midnight after its last day.
  const total = async (a: string, b: string) => (await sandboxGet<List>(`/visitors?source=chatgpt&from=${a}&to=${b}&limit=1`)).meta.total;
  const before = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 1).toISOString();
  const [utc, berlin, gained, lost] = await Promise.all([
    total(FIRST, FIFTH),
    total(from, to),
    total(from, before(FIRST)),
    total(zoneMidnight(shiftDate(FIFTH, 1), "Europe/Berlin"), before(shiftDate(FIFTH, 1))),
  ]);
  expect(berlin).toBe(utc + gained - lost);

  // The export is the browser's own download: its URL is the download's.
  const downloading = page.waitForEvent("download");
  await page
    .getByTestId("export-visitors")
    .getByRole("button", { name: /^Export/ })
    .click();
  const exportUrl = new URL((await downloading).url());
  expect(exportUrl.pathname).toBe("/api/export/visitors");
  expect(exportUrl.searchParams.get("from")).toBe(from);
  expect(exportUrl.searchParams.get("to")).toBe(to);
  // The instants are the filter; the zone only names the file's days (and CSV for Excel's times).
  expect(exportUrl.searchParams.get("tz")).toBe("Europe/Berlin");
});

test("Settings' time zone is the zone named next to the range, and its presets' zone", async ({ page }) => {
  await signIn(page, "pro");
  await page.goto("/settings");
  await page.getByTestId("time-zone-select").selectOption("Europe/Berlin");
  await expect(page.getByTestId("time-zone-card")).toContainText("start at midnight Berlin time");
  await page.reload();
  await expect(page.getByTestId("time-zone-select")).toHaveValue("Europe/Berlin");
  await page.goto("/platforms");
  await expect(page.getByTestId("range-tz")).toHaveText("Time zone: Berlin time");
  await expect(page.getByTestId("range-tz")).toHaveAttribute("data-tz", "Europe/Berlin");
  await rangeButton(page).click();
  await page.getByTestId("range-preset-30d").click();
  await expect(page).toHaveURL(/tz=Europe%2FBerlin|tz=Europe\/Berlin/);
  // A link's own tz wins over the setting.
  await page.goto(`/mentions?from=${FIRST}&to=${shiftDate(FIRST, 1)}&tz=America/New_York`);
  await expect(page.getByTestId("range-tz")).toHaveText("Time zone: New York time");
});

test.describe("a first visit in Tokyo", () => {
  test.use({ timezoneId: "Asia/Tokyo" });
  test("the browser's zone is detected, stored and used", async ({ page, context }) => {
    await signIn(page, "pro", { zone: false });
    await page.goto("/mentions");
    // The zone is stored, then the page drawn again in it: give a loaded machine time for both.
    await expect(page.getByTestId("range-tz")).toHaveText("Time zone: Tokyo time", { timeout: 30_000 });
    expect((await context.cookies()).find((c) => c.name === "viewer_tz")?.value).toBe("Asia%2FTokyo");
  });
});

test("the header names the plan and the key's environment; sign-out from the account menu, by keyboard", async ({ page }) => {
  await signIn(page, "free");
  await page.goto("/mentions");
  await expect(page.getByTestId("plan-badge")).toHaveText(/Free/);
  await expect(page.getByTestId("test-data-badge")).toBeVisible();
  const menuButton = page.getByRole("button", { name: "Account" });
  await expect(menuButton).toHaveAttribute("aria-haspopup", "menu");
  await menuButton.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu");
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Settings" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: "Sign out" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);
  await expect(menuButton).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/sign-in\?reason=signed-out/);
  await page.goto("/visitors");
  await expect(page).toHaveURL(/\/sign-in/);

  await signIn(page, "pro");
  await page.goto("/intelligence");
  await expect(page.getByTestId("plan-badge")).toHaveText(/Pro/);
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  test("the navigation reaches every page, Settings included, and the range fits", async ({ page }) => {
    await signIn(page, "pro");
    await page.goto(`/visitors?from=${FIRST}&to=${FIFTH}&tz=UTC`);
    await waitForWidgets(page);
    // The header is a small part of the first screen: one row of tools, one for the range.
    const header = (await page.locator(".shell-header").boundingBox())!;
    expect(header.height).toBeLessThanOrEqual(812 * 0.25);
    const nav = page.getByRole("navigation", { name: "Main" });
    // The pages fold behind one button, which says which page this is to a screen reader.
    const toggle = nav.getByRole("button", { name: "Pages (this is Visitors)" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name: "Settings" })).toBeHidden();
    await toggle.tap();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    for (const name of ["Overview", "Visitors", "Mentions", "AI platforms", "Locations", "Queries", "Intelligence", "Settings"]) {
      const box = await nav.getByRole("link", { name }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x, name).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(375);
    }
    await expect(nav.getByRole("link", { name: "Visitors" })).toHaveAttribute("aria-current", "page");
    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press("Escape");
    await expect(nav.getByRole("link", { name: "Settings" })).toBeHidden();
    await expect(toggle).toBeFocused();
    await rangeButton(page).click();
    const panel = await page.getByTestId("range-panel").boundingBox();
    expect(panel!.x).toBeGreaterThanOrEqual(0);
    expect(panel!.x + panel!.width).toBeLessThanOrEqual(375);
    await page.keyboard.press("Escape");
    await toggle.tap();
    await nav.getByRole("link", { name: "Settings" }).tap();
    await expect(page).toHaveURL(new RegExp(`/settings\\?from=${FIRST}`));
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    // The page followed closes the panel.
    await expect(nav.getByRole("link", { name: "Overview" })).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  });
});
