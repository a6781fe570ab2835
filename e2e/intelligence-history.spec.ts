// `/intelligence` over a range: the score over time and the rank over time from the snapshots the
// dashboard kept (the demo workspace starts with the sandbox's last 90 days, labelled), their tables
// agreeing with the Data API's own answer for today, a day nobody opened shown as a gap, a CSV of the
// series; at 375 px no sideways scroll, and axe finds nothing serious.
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { dayText, utcDate } from "./helpers/clock";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { SANDBOX_URL, sandboxGet } from "./helpers/sandbox";
import { signIn, waitForWidgets } from "./helpers/session";

type Score = { score: number; updated_at: string };
type Ranking = { data: Array<{ rank: number; name: string; is_workspace?: boolean }> };

// The last 90 days: the demo history covers them (e2e/helpers/clock.ts: the sandbox's today is ours).
const RANGE = `from=${utcDate(-89)}&to=${utcDate(0)}&tz=UTC`;
const DAY = 86_400_000;

const openTable = async (page: Page, testId: string) => {
  const table = page.getByTestId(testId);
  await page.locator("details", { has: table }).locator("summary").click();
  return table;
};

test("with a range, the score over time and the ranks over time from the kept history", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "pro");
  await page.goto(`/intelligence?${RANGE}`);
  await waitForWidgets(page);
  // The range drives the page: the header shows the control, not a note that it does not apply.
  await expect(page.getByTestId("range-label")).toHaveText("Last 90 days");
  await expect(page.getByTestId("range-not-used")).toHaveCount(0);

  const card = page.getByTestId("score-history-card");
  await expect(card.getByTestId("history-since")).toContainText(/History since \d+ \w+ \d{4}/);
  await expect(card.getByTestId("demo-history")).toHaveText("Demo history");
  await expect(page.getByTestId("score-history-chart").locator("svg.recharts-surface")).toBeVisible({ timeout: 20_000 });

  const [score, ranking] = await Promise.all([sandboxGet<Score>("/intelligence/score"), sandboxGet<Ranking>("/intelligence/ranking")]);
  const scoreTable = await openTable(page, "score-history-table");
  const scoreRows = scoreTable.locator("tbody tr");
  await expect(scoreRows).toHaveCount(90);
  await expect(scoreRows.last().locator("th")).toHaveText(dayText(utcDate(0), false));
  await expect(scoreRows.last().locator("td").first()).toHaveText(String(score.score));

  const rankTable = await openTable(page, "rank-history-table");
  const own = ranking.data.find((r) => r.is_workspace)!;
  await expect(rankTable.locator("thead th")).toHaveCount(ranking.data.length + 1);
  const ownColumn = await rankTable.locator("thead th").evaluateAll((ths, name) => ths.findIndex((th) => th.textContent === `${name} (us)`), own.name);
  expect(ownColumn).toBeGreaterThan(0);
  await expect(rankTable.locator("tbody tr").last().locator("th, td").nth(ownColumn)).toHaveText(`#${own.rank}`);
  await expect(page.getByTestId("passings").getByRole("listitem").first()).toHaveText(/^(We passed .+|.+ passed us) on \d+ \w+ \d{4}$/);
  await expect(page.getByTestId("rank-history-chart").locator("svg.recharts-surface")).toBeVisible();

  // The score series as CSV: one row per snapshot, with the plain machine names.
  const downloading = page.waitForEvent("download");
  await page.getByTestId("score-history-card").getByTestId("csv-download").locator("summary").click();
  await page.getByTestId("score-history-card").getByRole("button", { name: "CSV", exact: true }).click();
  const csv = await readFile((await (await downloading).path())!, "utf8");
  const lines = csv.trim().split("\r\n");
  expect(lines[0]).toBe('"updated_at","score","visibility","sentiment","authority","coverage","direction","change"');
  expect(lines).toHaveLength(91);
  const last = lines
    .at(-1)!
    .split(",")
    .map((cell) => cell.replace(/^"|"$/g, ""));
  expect(Date.parse(last[0]!), lines.at(-1)).toBe(Date.parse(score.updated_at));
  expect(last[1], lines.at(-1)).toBe(String(score.score));

  await expectNoSeriousViolations(page, "/intelligence with a range");
});

test("a day nobody opened is a gap, in the table and in the drawn line", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "pro");
  const clock = (body: object) => fetch(`${SANDBOX_URL}/sandbox/clock`, { method: "POST", body: JSON.stringify(body) });
  // Two sandbox days later someone opens the page (the day after tomorrow); tomorrow nobody did.
  const days = `from=${utcDate(-2)}&to=${utcDate(2)}&tz=UTC`;
  await clock({ advance_ms: 2 * DAY });
  try {
    await page.goto(`/intelligence?${days}`);
    await waitForWidgets(page);
  } finally {
    await clock({ reset: true });
  }
  await page.goto(`/intelligence?${days}`);
  await waitForWidgets(page);
  const rows = (await openTable(page, "score-history-table")).locator("tbody tr");
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(3)).toHaveText(new RegExp(`${dayText(utcDate(1), false)}\\s*No snapshot`));
  await expect(rows.nth(4).locator("th")).toHaveText(dayText(utcDate(2), false));
  await expect(page.getByTestId("score-history-card")).toContainText("4 of 5 days have a snapshot; the others are gaps.");
  // The score's line is drawn in two pieces: recharts starts a new subpath after a missing value.
  const path = page.getByTestId("score-history-chart").locator(".recharts-line-curve").first();
  await expect(path).toBeVisible({ timeout: 20_000 });
  const d = (await path.getAttribute("d")) ?? "";
  expect(d.match(/M/g)?.length).toBe(2);
});

test("at 375 px the history does not scroll the page sideways", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, "pro");
  await page.goto(`/intelligence?${RANGE}`);
  await waitForWidgets(page);
  await openTable(page, "score-history-table");
  await openTable(page, "rank-history-table");
  await expect(page.getByTestId("rank-history-chart").locator("svg.recharts-surface")).toBeVisible({ timeout: 20_000 });
  await expectNoHorizontalOverflow(page, "/intelligence at 375 px");
  await expectNoSeriousViolations(page, "/intelligence at 375 px");
});
