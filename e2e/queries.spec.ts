// `/queries` in Chromium against the sandbox: every question of the range's mentions, its mentions
// adding up to the sandbox's count; the platform and "never first" filters in the URL and sent to
// the route; a question opening exactly its mentions of the range, as many as its figure;
// axe-clean and fitting from 375 to 1440 px in both themes.
import { expect, test, type Page } from "@playwright/test";
import { utcDate } from "./helpers/clock";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { sandboxGet } from "./helpers/sandbox";
import { signIn, waitForWidgets } from "./helpers/session";

// A week ending today (the sandbox's rows end now: e2e/helpers/clock.ts), and the 7 days before it.
const WEEK = { from: utcDate(-6), to: utcDate(0) };
const RANGE = `from=${WEEK.from}&to=${WEEK.to}&tz=UTC`;
const total = async (q: string) => (await sandboxGet<{ meta: { total: number } }>(`/mentions?${q}&limit=1`)).meta.total;

test.beforeEach(async ({ page }) => {
  await signIn(page, "pro");
});

/** The table holds the new filters' answer: the previous one stays on screen, dimmed and busy, while it is counted. */
const answered = (page: Page) => expect(page.getByTestId("queries-card").locator("[aria-busy=true]")).toHaveCount(0);

const mentionsOf = async (page: Page) => {
  let n = 0;
  for (const row of await page.getByTestId("query-row").all()) n += Number(((await row.locator("td").first().textContent()) ?? "0").replace(/,/g, ""));
  return n;
};

test("the questions add up to the range's mentions with a question; the filters are in the URL and sent on", async ({ page }) => {
  await page.goto(`/queries?${RANGE}`);
  await waitForWidgets(page);
  await expect(page.getByTestId("query-row").first()).toBeVisible();
  const all = await mentionsOf(page);
  expect(all).toBeGreaterThan(0);
  expect(all).toBeLessThanOrEqual(await total(`from=${WEEK.from}&to=${WEEK.to}`));

  const asked = page.waitForRequest((r) => r.url().includes("/api/insights/queries") && new URL(r.url()).searchParams.get("platform") === "claude");
  await page.getByTestId("query-filters").getByLabel("Platform").selectOption("claude");
  await asked;
  await expect(page).toHaveURL(/platform=claude/);
  await waitForWidgets(page);
  await answered(page);
  // One platform's questions: at most that platform's mentions.
  expect(await mentionsOf(page)).toBeLessThanOrEqual(await total(`from=${WEEK.from}&to=${WEEK.to}&platform=claude`));

  await page.getByTestId("never-first").check();
  await expect(page).toHaveURL(/never_first=true/);
  await waitForWidgets(page);
  await answered(page);
  for (const row of await page.getByTestId("query-row").all()) await expect(row.locator("td").nth(8)).toHaveText("0.0%");
});

test("a question opens its mentions of the range, as many as its figure (of the platform filtered on, too)", async ({ page }) => {
  test.setTimeout(90_000);
  for (const platform of [null, "claude"]) {
    await page.goto(`/queries?${RANGE}${platform ? `&platform=${platform}` : ""}`);
    await waitForWidgets(page);
    const row = page.getByTestId("query-row").first();
    const question = (await row.getByRole("rowheader").textContent())!.trim();
    const figure = (await row.locator("td").first().textContent())!.trim();
    await row.getByRole("link").click();
    await expect(page).toHaveURL(/\/mentions\?.*query=/);
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ ...WEEK, tz: "UTC", query: question, ...(platform ? { platform } : {}) });
    await waitForWidgets(page);
    await expect(page.getByRole("combobox", { name: "Question" })).toHaveValue(question);
    await expect(page.getByTestId("range")).toContainText(`of ${figure} mentions`);
    // Each of them that question, however it was written.
    for (const card of await page.getByTestId("mention-card").all()) {
      const text = (await card.locator(".mention-query").innerText()).replace(/^Query:\s*/, "");
      expect(text.replace(/^“|”$/g, "").trim().toLowerCase()).toBe(question.toLowerCase());
    }
  }
});

for (const scheme of ["light", "dark"] as const) {
  test(`axe-clean and fits at 1440 and 375 px (${scheme})`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, "pro");
    await page.goto(`/queries?${RANGE}`);
    await waitForWidgets(page);
    await expectNoSeriousViolations(page, `/queries ${scheme}`);
    await expectNoHorizontalOverflow(page, `/queries 1440 ${scheme}`);
    await page.setViewportSize({ width: 375, height: 812 });
    await expectNoHorizontalOverflow(page, `/queries 375 ${scheme}`);
    await context.close();
  });
}
