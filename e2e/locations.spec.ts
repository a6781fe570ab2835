// `/locations` in Chromium against the sandbox: the countries' table (the map's accessible twin)
// adds up to the sandbox's own count of the range's visitors and conversions, a country opens its
// top cities (`country=XX`, by a row's link or a click on the map) and back, the map's shading
// follows `metric` with its legend, the page says why no country links to a visitor list, on a
// phone the countries and cities are cards with every figure labelled, and the page is axe-clean and
// fits from 375 to 1440 px in both themes.
import { expect, test, type Page } from "@playwright/test";
import { rangeText, shiftDate, utcDate } from "./helpers/clock";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { sandboxGet } from "./helpers/sandbox";
import { signIn, waitForWidgets } from "./helpers/session";

// A week ending today (the sandbox's rows end now: e2e/helpers/clock.ts), and the 7 days before it.
const WEEK = { from: utcDate(-6), to: utcDate(0) };
const RANGE = `from=${WEEK.from}&to=${WEEK.to}&tz=UTC`;
const total = async (q: string) => (await sandboxGet<{ meta: { total: number } }>(`/visitors?${q}&limit=1`)).meta.total;

test.beforeEach(async ({ page }) => {
  await signIn(page, "pro");
});

const figureOf = async (row: ReturnType<Page["getByTestId"]>, column: number) =>
  Number(((await row.locator("td").nth(column).textContent()) ?? "").split(/\s/)[0]!.replace(/,/g, ""));

test("the countries add up to the sandbox's visitors and conversions of the range; a country opens its cities and back", async ({ page }) => {
  await page.goto(`/locations?${RANGE}`);
  await waitForWidgets(page);
  const rows = page.getByTestId("country-row");
  await expect(rows.first()).toBeVisible();
  let visitors = 0;
  let conversions = 0;
  for (const row of await rows.all()) {
    visitors += await figureOf(row, 0);
    conversions += await figureOf(row, 2);
  }
  const [upstreamVisitors, upstreamConversions] = await Promise.all([
    total(`from=${WEEK.from}&to=${WEEK.to}`),
    total(`from=${WEEK.from}&to=${WEEK.to}&converted=true`),
  ]);
  expect(upstreamVisitors).toBeGreaterThan(0);
  // Every visitor is in one row, the unknown ones included: nothing dropped.
  expect(visitors).toBe(upstreamVisitors);
  expect(conversions).toBe(upstreamConversions);
  await expect(page.getByTestId("countries-card").getByTestId("window")).toContainText(
    `changes against the previous 7 days (${rangeText(shiftDate(WEEK.from, -7), shiftDate(WEEK.to, -7))})`,
  );
  await expect(page.getByTestId("countries-note")).toContainText("The visitor list cannot be filtered by country");

  const first = rows.first();
  const code = (await first.getAttribute("data-key"))!;
  const name = (await first.getByRole("rowheader").textContent())!.trim();
  await first.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`country=${code}`));
  const cities = page.getByTestId("cities-card");
  await expect(cities.getByRole("heading", { name: `Top cities in ${name}` })).toBeVisible();
  await waitForWidgets(page);
  // The cities are of that country's visitors: never more than it has.
  const countryVisitors = await figureOf(first, 0);
  let cityVisitors = 0;
  for (const row of await cities.getByTestId("city-row").all()) cityVisitors += await figureOf(row, 0);
  expect(cityVisitors).toBeLessThanOrEqual(countryVisitors);
  await expect(cities.getByTestId("cities-window")).toBeFocused();
  await cities.getByTestId("cities-close").click();
  await expect(page).not.toHaveURL(/country=/);
  await expect(page.getByTestId("cities-card")).toHaveCount(0);
});

test("the map: shaded by visitors or conversion rate (in the URL), with its legend; a click opens a country's cities", async ({ page }) => {
  await page.goto(`/locations?${RANGE}`);
  await waitForWidgets(page);
  const map = page.getByTestId("world-map");
  await expect(map).toBeVisible();
  await expect(map).toHaveAttribute("aria-hidden", "true");
  await expect(page.getByTestId("map-legend")).toContainText("No visitors");
  await expect(map.locator("path[data-step]").first()).toBeVisible();
  await page.getByTestId("metric-conversion_rate").click();
  await expect(page).toHaveURL(/metric=conversion_rate/);
  await expect(page.getByTestId("map-legend")).toContainText("%");
  const top = (await page.getByTestId("country-row").first().getAttribute("data-key"))!;
  await map.locator(`path[data-country="${top}"]`).first().click({ force: true });
  await expect(page).toHaveURL(new RegExp(`country=${top}`));
  await expect(page).toHaveURL(/metric=conversion_rate/);
});

test("on a phone: a card per country with its four figures labelled, and a card per city of the one opened", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/locations?${RANGE}`);
  await waitForWidgets(page);
  await expect(page.getByTestId("countries-table")).toBeHidden();
  const first = page.getByTestId("country-row-card").first();
  const labels = first.locator("dt");
  await expect(labels).toHaveText(["Visitors", "AI visitors", "Conversions", "Conversion rate (%)"]);
  // Every figure within the screen's width: nothing to scroll sideways for.
  for (const figure of await first.locator("dd").all()) {
    const box = (await figure.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
  }
  await expectNoHorizontalOverflow(page, "/locations 375");

  const name = (await first.getByRole("link").textContent())!.trim();
  await first.getByRole("link").click();
  const cities = page.getByTestId("cities-card");
  await expect(cities.getByRole("heading", { name: `Top cities in ${name}` })).toBeVisible();
  await waitForWidgets(page);
  await expect(cities.getByTestId("city-row-card").first().locator("dt")).toHaveText(["Visitors", "Conversions"]);
  await expect(cities.getByTestId("cities-total-card")).toBeVisible();
  await expectNoHorizontalOverflow(page, "/locations 375, a country's cities");
});

for (const scheme of ["light", "dark"] as const) {
  test(`axe-clean and fits at 1440 and 375 px (${scheme})`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, "pro");
    await page.goto(`/locations?${RANGE}&country=US`);
    await waitForWidgets(page);
    await expectNoSeriousViolations(page, `/locations ${scheme}`);
    await expectNoHorizontalOverflow(page, `/locations 1440 ${scheme}`);
    await page.setViewportSize({ width: 375, height: 812 });
    await expectNoHorizontalOverflow(page, `/locations 375 ${scheme}`);
    // The cards a phone shows instead of the tables, and their "Sort by" menus.
    await expectNoSeriousViolations(page, `/locations 375 ${scheme}`);
    await context.close();
  });
}
