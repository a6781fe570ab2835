// Saved views in Chromium: a filtered visitors list saved with its dates fixed and opened from the
// header's Views in a new tab (the fields show the filters and the rows are the Data API's for them);
// a mentions view saved as "always the last 30 days" (kept as `range=30d`, opened as the 30 days
// ending today); renamed and deleted in place; axe finds nothing serious in the dialog or the panel. The store outlives a run, so names
// are made unique and every view made here is deleted at the end.
import { expect, test, type Page } from "@playwright/test";
import { utcDate } from "./helpers/clock";
import { expectNoSeriousViolations } from "./helpers/a11y";
import { sandboxGet } from "./helpers/sandbox";
import { openPage, signIn } from "./helpers/session";

test.use({ timezoneId: "UTC" });

type View = { id: string; name: string; path: string; query: Record<string, string> };
const views = async (page: Page) => ((await (await page.request.get("/api/views")).json()) as { data: View[] }).data;

/** `days` calendar days ending today (UTC), as the header's preset makes them. */
const lastDays = (days: number): { from: string; to: string } => ({ from: utcDate(1 - days), to: utcDate(0) });

test.beforeEach(async ({ page }) => {
  await signIn(page, "pro");
});

test("a filtered visitors view is saved, opened from the header in a new tab with its filters, renamed and deleted", async ({ page, context }) => {
  // Two axe passes on a full visitors table, on a loaded machine.
  test.setTimeout(150_000);
  const name = `ChatGPT week ${Date.now()}`;
  const week = lastDays(7);
  await openPage(page, "/visitors");
  await page.getByLabel("Source").selectOption("chatgpt");
  await page.getByTestId("range-button").click();
  await page.getByTestId("range-preset-7d").click();
  await expect(page).toHaveURL(new RegExp(`from=${week.from}.*source=chatgpt|source=chatgpt.*from=${week.from}`));

  await page.getByRole("button", { name: "Save view" }).click();
  const dialog = page.getByRole("dialog", { name: "Save this view" });
  await expect(dialog.getByRole("textbox", { name: "Name" })).toBeFocused();
  await expectNoSeriousViolations(page, "the Save view dialog");
  await dialog.getByRole("textbox", { name: "Name" }).fill(name);
  await dialog.getByRole("radio", { name: /^Keep the dates fixed/ }).check();
  await dialog.getByRole("button", { name: "Save", exact: true }).click();
  await expect(dialog).toBeHidden();
  const saved = (await views(page)).find((v) => v.name === name);
  expect(saved).toMatchObject({ path: "/visitors", query: { source: "chatgpt", from: week.from, to: week.to } });

  // From the header, as a plain link: Ctrl+click opens it in a new tab.
  await page.getByRole("button", { name: /^Views/ }).click();
  const link = page.getByRole("link", { name: new RegExp(`^${name}`) });
  await expect(link).toHaveAttribute("href", /^\/visitors\?/);
  const [tab] = await Promise.all([context.waitForEvent("page"), link.click({ modifiers: ["Control"] })]);
  await tab.waitForLoadState();
  await expect(tab.getByTestId("loading")).toHaveCount(0, { timeout: 45_000 });
  await expect(tab.getByLabel("Source")).toHaveValue("chatgpt");
  await expect(tab.getByTestId("range-label")).toHaveText("Last 7 days");
  const api = await sandboxGet<{ data: { id: string; source: string }[]; meta: { total: number } }>(
    `/visitors?source=chatgpt&from=${week.from}&to=${week.to}&limit=20&offset=0`,
  );
  expect(api.meta.total).toBeGreaterThan(0);
  expect(await tab.getByTestId("visitor-row").getByRole("rowheader").allTextContents()).toEqual(api.data.map((v) => v.id));
  await tab.close();

  // Renamed in place (Enter saves).
  await page.getByRole("button", { name: "Manage" }).click();
  await expectNoSeriousViolations(page, "Views, manage mode");
  await page.getByRole("button", { name: `Rename “${name}”` }).click();
  const input = page.getByRole("textbox", { name: `New name for “${name}”` });
  await input.fill(`${name} (renamed)`);
  await input.press("Enter");
  await expect(page.getByRole("button", { name: `Rename “${name} (renamed)”` })).toBeVisible();
  expect((await views(page)).find((v) => v.id === saved!.id)?.name).toBe(`${name} (renamed)`);

  // Deleted after asking once more.
  await page.getByRole("button", { name: `Delete “${name} (renamed)”` }).click();
  await page
    .getByRole("group", { name: `Delete “${name} (renamed)”?` })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(page.getByRole("button", { name: `Rename “${name} (renamed)”` })).toHaveCount(0);
  expect((await views(page)).some((v) => v.id === saved!.id)).toBe(false);
});

test("a relative view opened in a browser that has never been here reads the viewer's days, not UTC's", async ({ browser }) => {
  // Auckland is 13 hours ahead of UTC: for most of the day its 30 days are not UTC's.
  const context = await browser.newContext({ timezoneId: "Pacific/Auckland" });
  const page = await context.newPage();
  await signIn(page, "pro", { zone: false });
  expect((await context.cookies()).some((c) => c.name === "viewer_tz")).toBe(false);
  await page.goto("/mentions?platform=claude&range=30d");
  const today = new Date().toLocaleDateString("sv-SE", { timeZone: "Pacific/Auckland" });
  const from = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  // The page stores the browser's zone and loads once more; then the range is that zone's days.
  await expect(page).toHaveURL(new RegExp(`/mentions\\?from=${from}&platform=claude&to=${today}&tz=Pacific%2FAuckland$`), { timeout: 30_000 });
  await expect(page.getByTestId("range-tz")).toHaveText("Time zone: Auckland time");
  await expect(page.getByTestId("range-label")).toHaveText("Last 30 days");
  await context.close();
});

test("a relative view keeps 'the last 30 days' and opens as the 30 days ending the day it is opened", async ({ page }) => {
  const name = `Claude, last 30 days ${Date.now()}`;
  await openPage(page, "/mentions?platform=claude");
  await page.getByTestId("range-button").click();
  await page.getByTestId("range-preset-30d").click();
  await expect(page).toHaveURL(/from=/);

  await page.getByRole("button", { name: "Save view" }).click();
  const dialog = page.getByRole("dialog", { name: "Save this view" });
  await expect(dialog.getByRole("radio", { name: "Always the last 30 days" })).toBeChecked();
  await dialog.getByRole("textbox", { name: "Name" }).fill(name);
  await dialog.getByRole("textbox", { name: "Name" }).press("Enter");
  await expect(dialog).toBeHidden();
  const saved = (await views(page)).find((v) => v.name === name)!;
  expect(saved.query).toEqual({ platform: "claude", range: "30d" });

  await page.getByRole("button", { name: /^Views/ }).click();
  await page.getByRole("link", { name: new RegExp(`^${name}`) }).click();
  const month = lastDays(30);
  await expect(page).toHaveURL(new RegExp(`/mentions\\?from=${month.from}&platform=claude&to=${month.to}&tz=UTC$`));
  await expect(page.getByTestId("range-label")).toHaveText("Last 30 days");
  await expect(page.locator(`select[name="platform"]`)).toHaveValue("claude");

  expect((await page.request.delete(`/api/views/${saved.id}`, { headers: { Origin: new URL(page.url()).origin } })).status()).toBe(204);
});
