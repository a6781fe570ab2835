// `/`: one window per screen. Every figure on the overview is read as people read it (a KPI's name
// and value, a table cell under its row and column headers) and no name shows two values; the
// range's figures agree with the insights routes and with each other, and what only the Data API's
// periods give (pageviews, the funnel) is its matching period's, named so. Every headline figure
// that counts visitors is a real link to them (a new tab too), AI visitors as one list of the four AI
// platforms' visitors, as many as the figure.
// Old `?period=` URLs still mean their window; the funnel is drawn without a scroll; the note under
// the KPI cards keeps clear of them.
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { numberText, sandboxGet } from "./helpers/sandbox";
import { rangeText, shiftDate, utcDate } from "./helpers/clock";
import { signIn, waitForWidgets } from "./helpers/session";

type Overview = { pageviews: { total: number } };
type Funnel = { from: string; to: string; data: Array<{ stage: string; label: string; count: number }> };
type Ranking = { data: Array<{ rank: number; name: string; score: number }> };
type TrendAnswer = { from: string; to: string; tz: string; data: Array<{ visitors: number; ai_visitors: number; conversions: number }> };
type SourcesAnswer = { data: Array<{ source: string; visitors: number; conversions: number; conversion_rate: number | null }> };

/** A past fortnight the sandbox's rows cover, and its first 12 days (a custom range between the API's periods). */
const FROM = utcDate(-28);
const TO = shiftDate(FROM, 14);
const TWELFTH = shiftDate(FROM, 11);
const AI = ["chatgpt", "perplexity", "claude", "gemini"] as const;
const LABEL: Record<string, string> = { chatgpt: "ChatGPT", perplexity: "Perplexity", claude: "Claude", gemini: "Gemini", organic: "Organic search" };

// The range's first count is computed cold from the sandbox; on a loaded test machine that can
// outlast the default timeout.
test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await signIn(page, "pro");
});

/**
 * Every figure on the page with the name it is read under: a KPI's label, a table cell as "row ·
 * column", the score. Values are the figure's own text (a cell's change
 * badge and notes left out).
 */
async function figures(page: Page): Promise<Array<[string, string]>> {
  return page.locator("main").evaluate((main) => {
    const out: Array<[string, string]> = [];
    const text = (el: Element | null) => ((el as HTMLElement | null)?.innerText ?? "").trim().split("\n")[0]!.trim();
    for (const label of main.querySelectorAll(".kpi-label")) {
      const value = label.parentElement?.querySelector(".kpi-value");
      if (value) out.push([text(label), text(value)]);
    }
    for (const table of main.querySelectorAll("table")) {
      // A header's words as written (innerText would give its CSS capitals); of a wide and a narrow form, the first; a sort button's arrow left out.
      const words = (th: Element) => [...th.querySelectorAll("span")].find((s) => s.children.length === 0 && !s.closest("[aria-hidden=true]")) ?? th;
      const columns = [...table.querySelectorAll("thead th")].map((th) => words(th).textContent!.trim());
      for (const row of table.querySelectorAll("tbody tr")) {
        const header = row.querySelector("th[scope=row]");
        if (!header) continue;
        [...row.querySelectorAll("td")].forEach((td, i) => out.push([`${text(header)} · ${columns[i + 1] ?? i}`, text(td)]));
      }
    }
    const score = main.querySelector("[data-testid=score-value]");
    if (score) out.push(["AI Positioning Score", text(score)]);
    return out;
  });
}

const params = (href: string | null) => Object.fromEntries(new URL(href ?? "", "http://x").searchParams);

test("one window: no figure shows twice with two values, and the range's figures agree with the insights routes", async ({ page }) => {
  await page.goto("/");
  await waitForWidgets(page);
  const range = { from: utcDate(-29), to: utcDate(), tz: "UTC" };
  await expect(page.getByTestId("range-label")).toHaveText("Last 30 days");
  // What the words of chance on the badges mean, said once under the cards.
  await expect(page.getByTestId("significance-note")).toContainText("“within normal variation” is one that chance alone makes");
  const q = new URLSearchParams(range).toString();
  const [trend, sources, overview, funnel] = await Promise.all([
    page.request.get(`/api/insights/trend?${q}`).then((r) => r.json() as Promise<TrendAnswer>),
    page.request.get(`/api/insights/sources?${q}`).then((r) => r.json() as Promise<SourcesAnswer>),
    sandboxGet<Overview>("/analytics/overview?period=30d"),
    sandboxGet<Funnel>("/analytics/funnel?period=30d"),
  ]);
  const sum = (key: "visitors" | "ai_visitors" | "conversions") => trend.data.reduce((n, p) => n + p[key], 0);

  const seen = await figures(page);
  const byName = new Map<string, Set<string>>();
  for (const [name, value] of seen) byName.set(name, (byName.get(name) ?? new Set()).add(value));
  const twice = [...byName].filter(([, values]) => values.size > 1).map(([name, values]) => `${name}: ${[...values].join(" / ")}`);
  expect(twice).toEqual([]);
  const value = (name: string) => [...(byName.get(name) ?? [])][0];

  // The range's own figures are the insights routes' answers.
  expect(value("Visitors")).toBe(numberText(sum("visitors")));
  expect(value("AI visitors")).toBe(numberText(sum("ai_visitors")));
  expect(value("Conversions")).toBe(numberText(sum("conversions")));
  for (const row of sources.data) {
    const name = LABEL[row.source];
    if (!name) continue;
    expect(value(`${name} · Visitors`), name).toBe(numberText(row.visitors));
    expect(value(`${name} · Conversions`), name).toBe(numberText(row.conversions));
  }
  // And agree with each other: the AI platforms' group is the AI visitors card.
  const aiVisitors = sources.data.filter((r) => (AI as readonly string[]).includes(r.source)).reduce((n, r) => n + r.visitors, 0);
  expect(aiVisitors).toBe(sum("ai_visitors"));
  await expect(page.getByTestId("group-total-ai")).toContainText(`${numberText(aiVisitors)} visitors`);

  // What only the API's periods give is the period matching the range, named with its window.
  await expect(page.getByTestId("period-card")).toContainText("here the last 30 days up to now, to match your range.");
  expect(value("Pageviews, last 30 days up to now")).toBe(numberText(overview.pageviews.total));
  for (const stage of funnel.data) expect(value(`${stage.label} · Last 30 days up to now`), stage.label).toBe(numberText(stage.count));
  // No rolling figure is left under the range's names: one source table, one set of KPI cards.
  await expect(page.locator("main table")).toHaveCount(3); // conversion by source, the funnel, the trend's figures (closed)
  await expect(page.getByText("Traffic by source")).toHaveCount(0);

  const [score, ranking] = await Promise.all([sandboxGet<{ score: number }>("/intelligence/score"), sandboxGet<Ranking>("/intelligence/ranking")]);
  expect(value("AI Positioning Score")).toBe(String(score.score));
  const top = [...ranking.data].sort((a, b) => a.rank - b.rank).slice(0, 3);
  for (const [i, r] of top.entries()) await expect(page.getByTestId("top-ranking").getByRole("listitem").nth(i)).toContainText(r.name);
});

test("each headline figure that counts visitors is a link to them, also in a new tab; AI visitors too, as one list", async ({ page, context }) => {
  const range = { from: FROM, to: TO, tz: "UTC" };
  await page.goto(`/?${new URLSearchParams(range).toString()}`);
  await expect(page.getByTestId("range-kpi-visitors").getByTestId("kpi-value")).not.toHaveText("", { timeout: 90_000 });
  await waitForWidgets(page);
  const kpiLink = (id: string) => page.getByTestId(id).getByTestId("kpi-value").getByRole("link");
  expect(params(await kpiLink("range-kpi-visitors").getAttribute("href"))).toEqual(range);
  expect(params(await kpiLink("range-kpi-conversions").getAttribute("href"))).toEqual({ ...range, converted: "true" });

  // AI visitors open one list: the four AI platforms' visitors of the range (`source=ai`).
  expect(params(await kpiLink("range-kpi-ai").getAttribute("href"))).toEqual({ ...range, source: "ai" });
  await expect(page.getByTestId("range-kpi-ai-note")).toHaveCount(0);
  await expect(page.getByText("Not one list")).toHaveCount(0);

  // Each source's visitors and conversions.
  for (const source of ["chatgpt", "organic"]) {
    expect(params(await page.getByTestId(`visitors-link-${source}`).getAttribute("href"))).toEqual({ ...range, source });
    expect(params(await page.getByTestId(`conversions-link-${source}`).getAttribute("href"))).toEqual({ ...range, source, converted: "true" });
  }

  // The funnel's stages the list can show open it, over the period's instants; the others say why not.
  const funnel = await sandboxGet<Funnel>("/analytics/funnel?period=30d");
  const window = { from: funnel.from, to: funnel.to };
  expect(params(await page.getByTestId("funnel-step-visitors").getByRole("link").getAttribute("href"))).toEqual(window);
  expect(params(await page.getByTestId("funnel-step-conversions").getByRole("link").getAttribute("href"))).toEqual({ ...window, converted: "true" });
  await expect(page.getByTestId("funnel-step-engaged").getByRole("link")).toHaveCount(0);
  await expect(page.getByTestId("funnel-unlinked-note")).toContainText("the visitor list cannot filter by pages viewed or form submissions");

  // A real link: a modified click opens the list in a new tab, with the same count.
  const opened = context.waitForEvent("page");
  await kpiLink("range-kpi-visitors").click({ modifiers: ["ControlOrMeta"] });
  const tab = await opened;
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe("/visitors");
  const shown = await page.getByTestId("range-kpi-visitors").getByTestId("kpi-value").innerText();
  await expect(tab.getByTestId("range")).toContainText(`of ${shown} visitors`);
  await tab.close();
});

test("AI visitors open one list: the four AI platforms' visitors of the range, as many as the figure", async ({ page }) => {
  const range = { from: FROM, to: TO, tz: "UTC" };
  await page.goto(`/?${new URLSearchParams(range).toString()}`);
  const ai = page.getByTestId("range-kpi-ai").getByTestId("kpi-value");
  await expect(ai).not.toHaveText("", { timeout: 90_000 });
  await waitForWidgets(page);
  const figure = await ai.innerText();
  await ai.getByRole("link").click();
  await expect(page).toHaveURL(/\/visitors\?.*source=ai/);
  await waitForWidgets(page);
  await expect(page.getByTestId("range")).toContainText(`of ${figure} visitors`);
  await expect(page.getByLabel("Source")).toHaveValue("ai");
  await expect(page.getByLabel("Source").locator("option:checked")).toHaveText("All AI platforms");
  // The upstream's own count: the four platforms' lists, one at a time.
  const counts = await Promise.all(AI.map((source) => sandboxGet<{ meta: { total: number } }>(`/visitors?source=${source}&from=${FROM}&to=${TO}&limit=1`)));
  expect(numberText(counts.reduce((n, c) => n + c.meta.total, 0))).toBe(figure);
  const rows = page.getByTestId("visitor-row");
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) await expect(row).toContainText(/ChatGPT|Claude|Perplexity|Gemini/);
});

test("old URLs keep working: ?period=7d is the header's last 7 days and the 7-day period; a bad period is named", async ({ page }) => {
  // A real redirect, before the page streams: what a bookmark and the history see.
  const answer = await page.request.get("/?period=7d", { maxRedirects: 0 });
  expect(answer.status()).toBe(307);
  expect(answer.headers().location).toMatch(new RegExp(`/\\?from=${utcDate(-6)}&to=${utcDate()}$`));
  await page.goto("/?period=7d");
  await expect(page).toHaveURL(new RegExp(`/\\?from=${utcDate(-6)}&to=${utcDate()}$`));
  await expect(page.getByTestId("range-label")).toHaveText("Last 7 days");
  await waitForWidgets(page);
  const overview = await sandboxGet<Overview>("/analytics/overview?period=7d");
  await expect(page.getByTestId("kpi-pageviews").locator(".kpi-label")).toHaveText("Pageviews, last 7 days up to now");
  await expect(page.getByTestId("kpi-pageviews").getByTestId("kpi-value")).toHaveText(numberText(overview.pageviews.total));
  await expect(page.getByRole("table", { name: "Conversion funnel, last 7 days up to now" })).toBeVisible();
  // The window is as prominent as the figures' names: in the card's title and the funnel's heading, not only in small print.
  await expect(page.getByTestId("period-card").getByRole("heading", { level: 2 })).toHaveText("Pageviews and funnel, last 7 days up to now");
  await expect(page.getByTestId("period-card").getByRole("heading", { level: 3 })).toHaveText("Conversion funnel, last 7 days up to now");

  await page.goto("/?period=1y");
  await expect(page.getByTestId("param-error")).toContainText("The period in this link cannot be used. Showing the date range in the header.");
  await expect(page.getByTestId("range-label")).toHaveText("Last 30 days");
  await expect(page.getByTestId("kpi-pageviews").locator(".kpi-label")).toHaveText("Pageviews, last 30 days up to now");

  // A custom range takes the nearest period, and says so.
  await page.goto(`/?from=${FROM}&to=${TWELFTH}&tz=UTC`);
  await expect(page.getByTestId("period-card")).toContainText(`here the last 7 days up to now, the nearest to your 12 days (${rangeText(FROM, TWELFTH)}).`);
});

test("the KPI cards download as the range's own figures", async ({ page }) => {
  await page.goto(`/?from=${FROM}&to=${TO}&tz=UTC`);
  const visitors = page.getByTestId("range-kpi-visitors").getByTestId("kpi-value");
  await expect(visitors).toHaveText(/^[\d,]+$/, { timeout: 90_000 });
  const kpis = page.getByTestId("range-kpis");
  const downloading = page.waitForEvent("download");
  await kpis.getByText("Download").click();
  await kpis.getByRole("button", { name: "CSV", exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`overview_${FROM}_${TO}.csv`);
  const lines = (await readFile((await download.path())!, "utf8")).trim().split("\r\n");
  expect(lines[0]).toBe('"metric","total","change_vs_previous_period_pct","rate_or_share_pct"');
  const total = (metric: string) =>
    lines
      .find((l) => l.startsWith(`"${metric}",`))
      ?.split(",")[1]
      ?.replace(/"/g, "");
  expect(total("visitors")).toBe((await visitors.innerText()).replace(/,/g, ""));
  expect(total("ai_visitors")).toBe((await page.getByTestId("range-kpi-ai").getByTestId("kpi-value").innerText()).replace(/,/g, ""));
  expect(total("conversions")).toBe((await page.getByTestId("range-kpi-conversions").getByTestId("kpi-value").innerText()).replace(/,/g, ""));
});

test.describe("in a short window", () => {
  test.use({ viewport: { width: 375, height: 500 }, isMobile: true, hasTouch: true });

  test("the charts below the fold are drawn without a scroll, so a full-page capture has them", async ({ page }) => {
    await page.goto("/");
    await waitForWidgets(page);
    const funnel = page.getByTestId("funnel-table");
    const trend = page.getByTestId("trend-card");
    // Both are well below the fold, and nobody scrolled.
    expect((await funnel.boundingBox())!.y).toBeGreaterThan(500);
    expect((await trend.boundingBox())!.y).toBeGreaterThan(500);
    await expect(trend.locator("[data-testid=trend-chart] .trend-current path.recharts-line-curve")).toHaveCount(1);
    await expect(page.getByTestId("chart-placeholder")).toHaveCount(0);
    const bars = await page.getByTestId("funnel-bar").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
    expect(bars.length).toBe(4);
    expect(bars.every((w) => w > 0)).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.screenshot({ fullPage: true, path: test.info().outputPath("overview-full.png") });
  });

  test("the note under the KPI cards keeps clear of them", async ({ page }) => {
    await page.goto("/");
    await waitForWidgets(page);
    const cards = await page.getByTestId("range-kpis").locator(".grid-kpis").boundingBox();
    const note = await page.getByTestId("range-kpi-note").boundingBox();
    expect(note!.y - (cards!.y + cards!.height)).toBeGreaterThanOrEqual(12);
  });
});
