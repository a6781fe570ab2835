// The data tables (visitors, the competitor ranking) at the widths people use: a table that fits the
// window without scrolling sideways at 1440, 1280 and 1024 px (columns that do not fit give way), and
// at 375 px one readable card per row; links reachable by keyboard and no axe violations either way.
import { expect, test, type Page } from "@playwright/test";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { sandboxGet } from "./helpers/sandbox";
import { signIn, waitForWidgets } from "./helpers/session";

type List = { data: Array<{ id: string }>; meta: { total: number } };
type Ranking = { data: Array<{ name: string }> };

/** How far the table's region scrolls sideways (0 when everything fits), and the columns shown. */
async function tableFit(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((table) => {
    const region = table.parentElement!;
    const shown = [...table.querySelectorAll<HTMLElement>("thead th")].filter((th) => getComputedStyle(th).display !== "none");
    return { overflow: region.scrollWidth - region.clientWidth, columns: shown.map((th) => th.dataset.column) };
  });
}

const ALL_VISITOR_COLUMNS = ["id", "first_seen", "last_seen", "source", "intent", "pages_viewed", "converted", "email", "city_country"];
const without = (...columns: string[]) => ALL_VISITOR_COLUMNS.filter((c) => !columns.includes(c));

const wide: Array<[width: number, visitorColumns: string[]]> = [
  [1440, ALL_VISITOR_COLUMNS],
  [1280, without("last_seen")],
  [1024, without("last_seen", "email")],
];

// One page per table, resized through the widths (the columns give way by CSS, as a window being
// resized would see), rather than a new browser and sign-in per width.
test("1440, 1280 and 1024 px: the visitor table and the ranking fit without scrolling sideways", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: wide[0]![0], height: 900 } });
  const page = await context.newPage();
  await signIn(page, "pro");

  // A full page of 100 rows: the widest values of the demo data are on screen.
  await page.goto("/visitors?limit=100");
  await waitForWidgets(page);
  await expect(page.getByTestId("visitor-row")).toHaveCount(100);
  for (const [width, visitorColumns] of wide) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByRole("table", { name: "Visitors" })).toBeVisible();
    await expect(page.getByTestId("visitors-table-cards")).toBeHidden();
    await expect.poll(() => tableFit(page, "visitors-table"), { message: `/visitors at ${width}` }).toEqual({ overflow: 0, columns: visitorColumns });
    await expectNoHorizontalOverflow(page, `/visitors at ${width}`);
  }

  await page.goto("/intelligence");
  await waitForWidgets(page);
  for (const [width] of wide) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByRole("table", { name: "Competitor ranking" })).toBeVisible();
    await expect
      .poll(() => tableFit(page, "ranking-table"), { message: `/intelligence at ${width}` })
      .toEqual({ overflow: 0, columns: ["rank", "name", "score", "change"] });
    await expectNoHorizontalOverflow(page, `/intelligence at ${width}`);
  }
  await context.close();
});

test("375 px: one card per visitor and per competitor, every value under its label, nothing sideways", async ({ browser }) => {
  // Two pages of cards and axe on each: past the default time on a loaded machine (45 s seen in CI).
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await signIn(page, "pro");
  await page.goto("/visitors");
  await waitForWidgets(page);
  const api = await sandboxGet<List>("/visitors?limit=20&offset=0");

  await expect(page.getByRole("table", { name: "Visitors" })).toBeHidden();
  const list = page.getByRole("list", { name: "Visitors" });
  const cards = list.getByRole("listitem");
  await expect(cards).toHaveCount(api.data.length);
  // Each card is titled by its visitor's link, in the API's order.
  expect(await cards.getByRole("link").allTextContents()).toEqual(api.data.map((v) => v.id));
  const first = cards.first();
  for (const label of [/^First seen \(/, /^Last seen \(/, "Source", "Intent", "Pages viewed", "Converted", "Email", "City, Country"]) {
    await expect(first.locator("dt").filter({ hasText: label })).toBeVisible();
  }
  // No card reaches past the window's edge.
  for (const box of await cards.evaluateAll((items) => items.map((li) => li.getBoundingClientRect().right))) expect(box).toBeLessThanOrEqual(375);
  await expectNoHorizontalOverflow(page, "/visitors at 375");
  // The cards are what this test is about (the whole page is the a11y tour's): axe on them alone.
  await expectNoSeriousViolations(page, "/visitors cards", '[data-testid="visitors-table-cards"]');

  await page.goto("/intelligence");
  await waitForWidgets(page);
  const ranking = await sandboxGet<Ranking>("/intelligence/ranking");
  const competitors = page.getByRole("list", { name: "Competitor ranking" }).getByRole("listitem");
  await expect(competitors).toHaveCount(ranking.data.length);
  await expect(page.locator('[data-testid="ranking-row-card"][aria-current="true"]')).toHaveCount(1);
  await expectNoHorizontalOverflow(page, "/intelligence at 375");
  await expectNoSeriousViolations(page, "/intelligence cards", '[data-testid="ranking-table-cards"]');
  await context.close();
});

for (const [layout, viewport] of [
  ["table", { width: 1440, height: 900 }],
  ["cards", { width: 375, height: 812 }],
] as const) {
  test(`keyboard: the visitors' links are in the tab order (${layout})`, async ({ browser }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signIn(page, "pro");
    await page.goto("/visitors");
    await waitForWidgets(page);
    const api = await sandboxGet<List>("/visitors?limit=20&offset=0");
    // Backwards from the paging controls (page size first): the last visitor's link comes just before.
    await page.getByLabel("Per page").focus();
    await page.keyboard.press("Shift+Tab");
    const focused = page.locator(":focus");
    await expect(focused).toHaveText(api.data.at(-1)!.id);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/visitors/${api.data.at(-1)!.id}$`));
    await context.close();
  });
}
