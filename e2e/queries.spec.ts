// `/queries` in Chromium against the sandbox: every question of the range's mentions, its mentions
// adding up to the sandbox's count; the platform and "never first" filters in the URL and sent to
// the route; a question opening exactly its mentions of the range, as many as its figure;
// on a phone, a card per question with its figures labelled, the first one's mentions on the first
// screen, the "Sort by" menu used by keyboard keeping `sort` in the URL, the totals the last card;
// axe-clean and fitting from 375 to 1440 px in both themes.
import { expect, test, type Page } from "@playwright/test";
import { utcDate } from "./helpers/clock";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { numberText, sandboxGet } from "./helpers/sandbox";
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

test("on a phone: a card per question, the first one's mentions in the first screen, sorted from the menu by keyboard and kept in the URL", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/queries?${RANGE}`);
  await waitForWidgets(page);
  type Question = { key: string; query: string; mentions: number; sentiment: { negative: number } };
  const answer = (await (await page.request.get(`/api/insights/queries?${RANGE}`)).json()) as { data: Question[] };
  expect(answer.data.length, "the range has questions to sort").toBeGreaterThan(2);
  await expectNoHorizontalOverflow(page, "/queries 375");
  await expect(page.getByTestId("queries-table")).toBeHidden();

  // The most mentioned question first, as its link, its mentions labelled and on the first screen, with nothing scrolled.
  const first = page.getByTestId("query-row-card").first();
  await expect(first.getByRole("link")).toHaveText(answer.data[0]!.query);
  const mentions = first.locator("[data-column=mentions]");
  await expect(mentions.locator("dt")).toHaveText("Mentions");
  await expect(mentions.locator("dd")).toHaveText(numberText(answer.data[0]!.mentions));
  expect(await page.evaluate(() => [window.scrollX, window.scrollY])).toEqual([0, 0]);
  await expect(mentions.locator("dd")).toBeInViewport({ ratio: 1 });

  // "Sort by" reached with Tab from the filters and changed with the keyboard alone: typing a choice's first words picks it.
  const menu = page.getByRole("combobox", { name: "Sort by" });
  await page.getByTestId("never-first").focus();
  await page.keyboard.press("Tab");
  await expect(menu).toBeFocused();
  await page.keyboard.type("Negative");
  await expect(page).toHaveURL(/[?&]sort=-negative(&|$)/);
  const byNegative = answer.data
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.sentiment.negative - a.r.sentiment.negative || a.i - b.i)
    .map((x) => x.r.key);
  const cardOrder = () => page.getByTestId("query-row-card").evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.key));
  expect(await cardOrder()).toEqual(byNegative);

  // The URL is the view: reloaded, the menu and the cards keep the order; the totals stay the last card.
  await page.reload();
  await waitForWidgets(page);
  await expect(menu).toHaveValue("-negative");
  expect(await cardOrder()).toEqual(byNegative);
  const cards = page.getByTestId("queries-table-cards").getByRole("listitem");
  await expect(cards.last()).toHaveAttribute("data-testid", "queries-total-card");
  await expect(cards.last().locator("[data-column=mentions] dd")).toHaveText(numberText(answer.data.reduce((n, r) => n + r.mentions, 0)));
  await expectNoSeriousViolations(page, "/queries 375 sorted by negative mentions");
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
    // The cards a phone shows instead of the tables, and their "Sort by" menus.
    await expectNoSeriousViolations(page, `/queries 375 ${scheme}`);
    await context.close();
  });
}
