// `/intelligence` and `/settings`: score, components and full ranking from the Data API; key and environment.
import { expect, test } from "@playwright/test";
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
  // The trend said in words carries the sign its direction gives, as the badge does (a "down" trend
  // may report its change as a magnitude): never "down, +3.0 pts".
  const { direction, change } = score.trend ?? {};
  if ((direction === "down" || direction === "up") && typeof change === "number" && change !== 0) {
    await expect(page.getByTestId("score-card")).toContainText(`Trend: ${direction}, ${direction === "down" ? "\u2212" : "+"}${Math.abs(change).toFixed(1)} pts`);
  }
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

test("settings show the environment and the masked key", async ({ page }) => {
  await signIn(page, "pro");
  await page.goto("/settings");
  await expect(page.getByTestId("environment")).toContainText("Test");
  await expect(page.getByTestId("key-hint")).toHaveText(/^svc_sk_test_…[A-Za-z0-9]{4}$/);
});
