// Sorting a figure table in Chromium, by keyboard, against the route's own answer: the header's
// button reached with Tab and pressed with Enter and Space, the order written to the URL and kept on
// reload (the server renders it), the rows in the order the answer's figures give, the sorted header
// saying so with aria-sort; the totals row equal to the answer's sums; axe-clean once sorted.
import { expect, test, type Page } from "@playwright/test";
import { utcDate } from "./helpers/clock";
import { expectNoSeriousViolations } from "./helpers/a11y";
import { numberText } from "./helpers/sandbox";
import { signIn, waitForWidgets } from "./helpers/session";

// A week ending today (the sandbox's rows end now: e2e/helpers/clock.ts).
const RANGE = `from=${utcDate(-6)}&to=${utcDate(0)}&tz=UTC`;

type CountryRow = { country: string; visitors: number; ai_visitors: number; conversions: number; conversion_rate: number | null };

test.beforeEach(async ({ page }) => {
  await signIn(page, "pro");
});

/** The answer's rows ordered as the table must show them: by `rate`, unknown rates last, ties in the answer's order. */
function byRate(rows: readonly CountryRow[], desc: boolean): string[] {
  const known = rows.filter((r) => r.conversion_rate !== null);
  const unknown = rows.filter((r) => r.conversion_rate === null);
  const sorted = known
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (desc ? b.r.conversion_rate! - a.r.conversion_rate! : a.r.conversion_rate! - b.r.conversion_rate!) || a.i - b.i);
  return [...sorted.map((x) => x.r.country), ...unknown.map((r) => r.country)];
}

const shownOrder = (page: Page) => page.getByTestId("country-row").evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.key));

test("/locations: the countries sort by keyboard, the order in the URL and as the answer's rates give it; the totals are the answer's sums", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(`/locations?${RANGE}`);
  await waitForWidgets(page);
  const answer = (await (await page.request.get(`/api/insights/countries?${RANGE}`)).json()) as { data: CountryRow[] };
  expect(answer.data.length, "the range has countries to sort").toBeGreaterThan(2);
  const table = page.getByTestId("countries-table");
  const rate = table.getByRole("columnheader", { name: /^Conversion rate/ });

  // From the Conversions header's button, Tab reaches the Conversion rate header's; Enter sorts by it, highest first.
  await table.getByRole("button", { name: /^Conversions/ }).focus();
  await page.keyboard.press("Tab");
  await expect(table.getByRole("button", { name: /^Conversion rate/ })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]sort=-conversion_rate(&|$)/);
  await expect(rate).toHaveAttribute("aria-sort", "descending");
  await expect(table.getByRole("columnheader", { name: /^Visitors/ })).not.toHaveAttribute("aria-sort");
  expect(await shownOrder(page)).toEqual(byRate(answer.data, true));

  // Space turns it round: lowest first, the countries without a rate still last.
  await page.keyboard.press("Space");
  await expect(page).toHaveURL(/[?&]sort=conversion_rate(&|$)/);
  await expect(rate).toHaveAttribute("aria-sort", "ascending");
  expect(await shownOrder(page)).toEqual(byRate(answer.data, false));

  // The URL is the view: reloaded (or opened from a link), the page is sorted as it was.
  await page.reload();
  await waitForWidgets(page);
  await expect(rate).toHaveAttribute("aria-sort", "ascending");
  expect(await shownOrder(page)).toEqual(byRate(answer.data, false));

  // The totals row is every country's figures summed, whatever the order.
  const total = page.getByTestId("countries-total");
  const sum = (key: "visitors" | "ai_visitors" | "conversions") => answer.data.reduce((n, r) => n + r[key], 0);
  const figure = async (i: number) => Number(((await total.locator("td").nth(i).textContent()) ?? "").split(/\s/)[0]!.replace(/,/g, ""));
  expect(await figure(0)).toBe(sum("visitors"));
  expect(await figure(1)).toBe(sum("ai_visitors"));
  expect(await figure(2)).toBe(sum("conversions"));

  await expectNoSeriousViolations(page, "/locations sorted by rate", "[data-testid=countries-card]");
});

test("/queries: sorted by negative mentions by keyboard, in the URL, axe-clean", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(`/queries?${RANGE}`);
  await waitForWidgets(page);
  const answer = (await (await page.request.get(`/api/insights/queries?${RANGE}`)).json()) as {
    data: Array<{ key: string; mentions: number; sentiment: { negative: number } }>;
  };
  const table = page.getByTestId("queries-table");
  await table.getByRole("button", { name: /^Negative/ }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]sort=-negative(&|$)/);
  await expect(table.getByRole("columnheader", { name: /^Negative/ })).toHaveAttribute("aria-sort", "descending");
  const expected = answer.data
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.sentiment.negative - a.r.sentiment.negative || a.i - b.i)
    .map((x) => x.r.key);
  expect(await page.getByTestId("query-row").evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.key))).toEqual(expected);
  await expect(page.getByTestId("queries-total").locator("td").first()).toHaveText(numberText(answer.data.reduce((n, r) => n + r.mentions, 0)));
  await expectNoSeriousViolations(page, "/queries sorted by negative mentions", "[data-testid=queries-card]");
});
