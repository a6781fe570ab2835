// The header's comparison in Chromium: chosen beside the range by keyboard and mouse, carried in the
// URL and by the navigation, sent on by every insights request of the page, and named on every change
// from the window the answer compared with; a bad comparison in a link is said on the control; and an
// older link that marked a question among the range's mentions (`highlight`) opens that question's
// mentions, filtered.
import { expect, test } from "@playwright/test";
import { rangeText, utcDate, yearBefore } from "./helpers/clock";
import { expectNoSeriousViolations } from "./helpers/a11y";
import { numberText } from "./helpers/sandbox";
import { signIn, waitForWidgets } from "./helpers/session";

// A week ending today (the sandbox's rows end now: e2e/helpers/clock.ts); the same days a year
// before; and a custom window of 7 days (with one of 3 that does not fit) seven weeks earlier.
const WEEK = { from: utcDate(-6), to: utcDate(0) };
const RANGE = `from=${WEEK.from}&to=${WEEK.to}&tz=UTC`;
const YEAR_BEFORE = rangeText(yearBefore(WEEK.from), yearBefore(WEEK.to));
const CUSTOM = { from: utcDate(-55), to: utcDate(-49), short: utcDate(-53) };
const CUSTOM_TEXT = rangeText(CUSTOM.from, CUSTOM.to);

test.beforeEach(async ({ page }) => {
  await signIn(page, "pro");
});

test("a year before, chosen in the header: in the URL, sent by every insights request, kept by the navigation", async ({ page }) => {
  // Three pages' insights counted cold on a shared machine.
  test.setTimeout(120_000);
  await page.goto(`/platforms?${RANGE}`);
  await waitForWidgets(page);
  await expect(page.getByTestId("comparison-label")).toHaveText("vs previous 7 days");
  await page.getByTestId("comparison-button").click();
  await expectNoSeriousViolations(page, "comparison panel", '[data-testid="comparison-panel"]');
  await expect(page.getByTestId("comparison-panel")).toContainText(`Same days a year before ${YEAR_BEFORE}`);
  const asked = page.waitForRequest((r) => r.url().includes("/api/insights/platforms") && new URL(r.url()).searchParams.get("compare") === "year");
  await page.getByTestId("comparison-year").check();
  await page.getByTestId("comparison-apply").click();
  await asked;
  await expect(page).toHaveURL(/compare=year/);
  await expect(page.getByTestId("comparison-label")).toHaveText("vs a year before");
  // Focus goes back to the button the panel was opened from.
  await expect(page.getByTestId("comparison-button")).toBeFocused();
  // The navigation carries it like the range: to a page without changes (no chooser there) and on.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Visitors" }).click();
  await expect(page).toHaveURL(/\/visitors\?.*compare=year/);
  await expect(page.getByTestId("comparison-control")).toHaveCount(0);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
  await expect(page).toHaveURL(/\/\?.*compare=year/);
  await expect(page.getByTestId("comparison-label")).toHaveText("vs a year before");
});

test("every change names the window its answer compared with", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(`/platforms?${RANGE}&compare=year`);
  await waitForWidgets(page);
  await expect(page.getByTestId("platforms-card").getByTestId("window")).toContainText(`changes against the same days a year before (${YEAR_BEFORE})`);
  await page.goto(`/?${RANGE}&compare=custom&compare_from=${CUSTOM.from}&compare_to=${CUSTOM.to}`);
  await waitForWidgets(page);
  await expect(page.getByTestId("range-kpi-note")).toContainText(`changes against the chosen 7 days (${CUSTOM_TEXT})`);
  await expect(page.getByTestId("range-kpi-visitors")).toContainText(`in ${CUSTOM_TEXT}`);
});

test("a comparison in a link that does not fit the range is said on the control, in plain words", async ({ page }) => {
  await page.goto(`/platforms?${RANGE}&compare=custom&compare_from=${CUSTOM.from}&compare_to=${CUSTOM.short}`);
  await expect(page.getByTestId("comparison-label")).toHaveText("Check the comparison");
  await page.getByTestId("comparison-button").click();
  await expect(page.getByTestId("comparison-error")).toHaveText(
    "The comparison in this link does not have as many days as the range. Choose its first day again.",
  );
  // A custom window by keyboard: its first day typed, Enter applies it with the range's length.
  await page.getByTestId("comparison-custom").check();
  await page.getByTestId("comparison-from").fill(CUSTOM.from);
  await expect(page.getByTestId("comparison-custom-window")).toHaveText(`Compares with ${CUSTOM_TEXT}: as many days as the range.`);
  await page.getByTestId("comparison-from").press("Enter");
  await expect(page).toHaveURL(new RegExp(`compare=custom&compare_from=${CUSTOM.from}&compare_to=${CUSTOM.to}`));
  await expect(page.getByTestId("comparison-label")).toHaveText(`vs ${CUSTOM_TEXT}`);
});

type Questions = { data: Array<{ key: string; query: string; mentions: number }> };

test("an older link with highlight= opens the question's mentions: sent on as the filter, as many as the question's figure", async ({ page }) => {
  const questions = (await (await page.request.get(`/api/insights/queries?${RANGE}`)).json()) as Questions;
  const question = questions.data[0]!;
  // Written another way (case, spaces), as links once carried it.
  await page.goto(`/mentions?${RANGE}&limit=20&highlight=${encodeURIComponent(`  ${question.query.toUpperCase()} `)}`);
  await expect(page).toHaveURL(/\/mentions\?.*query=/);
  expect(new URL(page.url()).searchParams.has("highlight")).toBe(false);
  await waitForWidgets(page);
  // The feed's own count, in its region (a clean-clone run found a second, still loading, count beside
  // it for a moment after the old link's parameter was rewritten).
  await expect(page.getByRole("region", { name: "Mentions" }).getByTestId("range")).toContainText(`of ${numberText(question.mentions)} mentions`);
  await expectNoSeriousViolations(page, "a question's mentions", '[data-testid="mentions-feed"]');
});
