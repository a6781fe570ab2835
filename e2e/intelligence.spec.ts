// `/intelligence` and `/settings`: score, components and full ranking from the Data API; one truth per
// figure with the header's last 30 days (the score card's change is the history legend's, and the
// components' and our ranking move are too; the overview says the same; the rank chart names every
// competitor); key and environment.
import { expect, test, type Locator } from "@playwright/test";
import { expectNoSeriousViolations } from "./helpers/a11y";
import { rangeText, utcDate } from "./helpers/clock";
import { sandboxGet } from "./helpers/sandbox";
import { signIn, waitForWidgets } from "./helpers/session";

type Score = { score: number; breakdown: Record<string, number>; trend?: { direction?: string; change?: number } };
type Ranking = { data: Array<{ rank: number; name: string; score: number; is_workspace?: boolean }> };

test("score with its range, four components and the full ranking with the workspace highlighted", async ({ page }) => {
  await signIn(page, "pro");
  await page.goto("/intelligence");
  await waitForWidgets(page);
  const [score, ranking] = await Promise.all([sandboxGet<Score>("/intelligence/score"), sandboxGet<Ranking>("/intelligence/ranking")]);
  await expect(page.getByTestId("score-value")).toHaveText(String(score.score));
  await expect(page.getByRole("meter", { name: "AI Positioning Score" })).toHaveAttribute("aria-valuemax", "100");
  // Its change beside it (what it is is the next test's), never the upstream's words.
  await expect(page.getByTestId("score-card").getByTestId("score-change")).toBeVisible();
  await expect(page.locator("main")).not.toContainText(/Data API|updated_at|\bperiod\b/);
  const components = page.getByRole("table", { name: /Score components/ });
  for (const [name, value] of Object.entries(score.breakdown)) {
    await expect(components.getByRole("row", { name: new RegExp(`^${name}`, "i") })).toContainText(String(value));
  }
  const rows = page.getByTestId("ranking-row");
  await expect(rows).toHaveCount(ranking.data.length);
  const own = ranking.data.find((r) => r.is_workspace)!;
  const highlighted = page.locator('[data-testid="ranking-row"][aria-current="true"]');
  await expect(highlighted).toHaveCount(1);
  await expect(highlighted).toContainText(own.name);
  await expect(highlighted).toContainText(`#${own.rank}`);
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A change badge's visible figure without its arrow ("▼−4.0 pts" is "−4.0 pts"), as a legend writes it. */
const badgeFigure = async (badge: Locator) => (await badge.locator(".change").first().textContent())!.slice(1);

test.describe("one truth per figure, with the header's last 30 days", () => {
  // In UTC the score's day (the sandbox computes it at 00:00 UTC) is today at any hour of the run, so
  // the score's window is the header's last 30 days.
  test.use({ timezoneId: "UTC" });

  test("the score card's change is the history legend's, so are the components' and ours in the ranking, and the rank chart names every competitor", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await signIn(page, "pro");
    await page.goto("/intelligence");
    await waitForWidgets(page);
    await expect(page.getByTestId("range-label")).toHaveText("Last 30 days");
    const ranking = await sandboxGet<Ranking>("/intelligence/ranking");
    const window = rangeText(utcDate(-29), utcDate(0));

    // The card: the change worked out from the kept history over the score's window, named by its days.
    const change = page.getByTestId("score-card").getByTestId("score-change");
    await expect(change).toHaveAttribute("data-source", "kept");
    const words = (await change.getByTestId("score-change-words").textContent())!;
    const [, first, last] = new RegExp(`^${escaped(window)}: (\\d+) → (\\d+)$`).exec(words) ?? [];
    expect(first, words).toBeDefined();
    const figure = await badgeFigure(change);

    // The legend of the same days names them in the same words and shows the same change.
    const history = page.getByTestId("score-history-card");
    await expect(history.getByTestId("score-changes-window")).toHaveText(`${window}: each from its first kept day to its last`);
    const series = (key: string) => history.locator(`[data-testid="score-series-change"][data-series="${key}"]`);
    await expect(series("score")).toHaveText(`AI Positioning Score: ${first} → ${last} (${figure})`);

    // What moved alongside: each component as the legend has it (value now, change, the value it came from).
    const movement = page.getByTestId("movement-card");
    for (const key of ["visibility", "sentiment", "authority", "coverage"]) {
      const legend = (await series(key).textContent())!;
      const [, from, now, delta] = /: (\d+) → (\d+) \((.+)\)$/.exec(legend) ?? [];
      expect(delta, legend).toBeDefined();
      const move = movement.locator(`[data-testid="component-move"][data-component="${key}"]`);
      await expect(move).toContainText(`${now} / 100`);
      await expect(move).toContainText(`from ${from}`);
      expect(await badgeFigure(move), key).toBe(delta);
    }
    await expect(movement).not.toContainText("not known");
    // Our move in the ranking is the score's own change over the same days.
    const own = ranking.data.find((r) => r.is_workspace)!;
    const ownMove = movement.getByTestId("ranking-move").filter({ hasText: own.name });
    expect(await badgeFigure(ownMove)).toBe(figure);
    await expect(movement.getByTestId("movement-ranking-note")).toContainText(`Score change over ${window}`);

    // The rank over time: every competitor of the ranking its own line, named in the legend.
    const legendItems = page.getByTestId("rank-legend").getByTestId("rank-legend-item");
    await expect(legendItems).toHaveCount(ranking.data.length);
    expect((await legendItems.allTextContents()).map((t) => t.trim()).sort()).toEqual(
      ranking.data.map((r) => (r.is_workspace ? `${r.name} (us)` : r.name)).sort(),
    );
    await expectNoSeriousViolations(page, "/intelligence, last 30 days");

    // The overview's score card says the same change in the same words.
    await page.goto("/");
    await waitForWidgets(page);
    const overview = page.getByTestId("score-card").getByTestId("score-change");
    await expect(overview.getByTestId("score-change-words")).toHaveText(words);
    expect(await badgeFigure(overview)).toBe(figure);
  });
});

test("settings show the environment and the masked key", async ({ page }) => {
  await signIn(page, "pro");
  await page.goto("/settings");
  await expect(page.getByTestId("environment")).toContainText("Test");
  await expect(page.getByTestId("key-hint")).toHaveText(/^svc_sk_test_…[A-Za-z0-9]{4}$/);
});
