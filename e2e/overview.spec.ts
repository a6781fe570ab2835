// `/`: the overview shows the sandbox's own numbers for the chosen period, in every widget.
import { expect, test } from "@playwright/test";
import { numberText, percentText, sandboxGet } from "./helpers/sandbox";
import { signIn, waitForWidgets } from "./helpers/session";

type Overview = {
  visitors: { total: number; change: number };
  pageviews: { total: number; change: number };
  conversions: { total: number; rate: number; change: number };
  ai_traffic: { total: number; percentage: number };
};
type Traffic = { data: Array<{ source: string; visitors: number }> };
type Funnel = { data: Array<{ stage: string; label: string; count: number }> };
type Ranking = { data: Array<{ rank: number; name: string; score: number }> };

const signed = (n: number) => `${n > 0 ? "+" : n < 0 ? "\u2212" : ""}${Math.abs(n).toFixed(1)}%`;

test.beforeEach(async ({ page }) => {
  await signIn(page, "pro");
});

test("KPIs, traffic, funnel, score and ranking match the Data API; the period lives in the URL", async ({ page }) => {
  await page.goto("/");
  await waitForWidgets(page);
  for (const period of ["30d", "7d"] as const) {
    if (period === "7d") {
      await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "7d" }).click();
      await expect(page).toHaveURL(/\?period=7d$/);
      await expect(page.getByRole("link", { name: "7d" })).toHaveAttribute("aria-current", "true");
    }
    const [o, traffic, funnel] = await Promise.all([
      sandboxGet<Overview>(`/analytics/overview?period=${period}`),
      sandboxGet<Traffic>(`/analytics/traffic?period=${period}`),
      sandboxGet<Funnel>(`/analytics/funnel?period=${period}`),
    ]);
    const kpi = (id: string) => page.getByTestId(id).getByTestId("kpi-value");
    await expect(kpi("kpi-visitors")).toHaveText(numberText(o.visitors.total));
    await expect(kpi("kpi-pageviews")).toHaveText(numberText(o.pageviews.total));
    await expect(kpi("kpi-conversions")).toHaveText(numberText(o.conversions.total));
    await expect(kpi("kpi-ai")).toHaveText(numberText(o.ai_traffic.total));
    await expect(page.getByTestId("kpi-visitors").getByTestId("change")).toContainText(signed(o.visitors.change));
    await expect(page.getByTestId("kpi-conversion-rate")).toContainText(percentText(o.conversions.rate));
    await expect(page.getByTestId("kpi-ai-share")).toContainText(percentText(o.ai_traffic.percentage));

    // The chart's text alternative carries every source's count; AI platforms are marked as such.
    const trafficTable = page.getByRole("table", { name: /Visitors by traffic source/ });
    for (const row of traffic.data) {
      const label = { chatgpt: "ChatGPT", organic: "Organic search" }[row.source];
      if (!label) continue;
      await expect(trafficTable.getByRole("row", { name: new RegExp(`^${label}`) })).toContainText(numberText(row.visitors));
    }
    // AI platforms are set apart: their row group comes first.
    await expect(trafficTable.locator("tbody").first()).toContainText("AI platforms");
    await expect(trafficTable.locator("tbody").first().getByRole("row", { name: /^ChatGPT/ })).toBeVisible();

    const funnelTable = page.getByRole("table", { name: /Conversion funnel/ });
    for (const stage of funnel.data) {
      await expect(funnelTable.getByRole("row", { name: new RegExp(`^${stage.label.replace(/[()+]/g, "\\$&")}`) })).toContainText(numberText(stage.count));
    }
  }

  const [score, ranking] = await Promise.all([sandboxGet<{ score: number }>("/intelligence/score"), sandboxGet<Ranking>("/intelligence/ranking")]);
  await expect(page.getByTestId("score-card").getByTestId("score-value")).toHaveText(String(score.score));
  const top = [...ranking.data].sort((a, b) => a.rank - b.rank).slice(0, 3);
  await expect(page.getByTestId("top-ranking").getByRole("listitem")).toHaveCount(3);
  for (const [i, r] of top.entries()) {
    await expect(page.getByTestId("top-ranking").getByRole("listitem").nth(i)).toContainText(r.name);
  }
});

test("'View these visitors' opens the visitor list of the same window, with the same count", async ({ page }) => {
  await page.goto("/?period=7d");
  const o = await sandboxGet<Overview>("/analytics/overview?period=7d");
  await page.getByTestId("view-visitors").click();
  await expect(page).toHaveURL(/\/visitors\?from=.*&to=/);
  await expect(page.getByTestId("range")).toContainText(`of ${numberText(o.visitors.total)} visitors`);
});

test("an invalid period is reported and the default period shown", async ({ page }) => {
  await page.goto("/?period=1y");
  await expect(page.getByTestId("param-error")).toContainText("Choose 24 hours, 7 days, 30 days or 90 days.");
  await expect(page.getByTestId("param-error")).not.toContainText("must be one of");
  const o = await sandboxGet<Overview>("/analytics/overview?period=30d");
  await expect(page.getByTestId("kpi-visitors").getByTestId("kpi-value")).toHaveText(numberText(o.visitors.total));
});
