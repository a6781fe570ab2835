// `/` for a date range: the KPI cards, the trend and conversion by source show the sandbox's own
// counts (listed straight from the sandbox with from/to), the previous period is drawn, a source's
// figures and a funnel stage open the visitors behind them (with the same count), and a new range is
// fetched and shown.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { dayText, rangeText, shiftDate, utcDate } from "./helpers/clock";
import { numberText, percentText, sandboxGet } from "./helpers/sandbox";
import { signIn } from "./helpers/session";

type List = { meta: { total: number } };

/** A past fortnight of 15 days and the 15 before it; then 3 days inside it and the 3 before those. */
const F = { from: utcDate(-28), to: utcDate(-14) };
const F_BEFORE = { from: shiftDate(F.from, -15), to: shiftDate(F.from, -1) };
const THREE = { from: shiftDate(F.from, 7), to: shiftDate(F.from, 9) };
const THREE_BEFORE = { from: shiftDate(F.from, 4), to: shiftDate(F.from, 6) };
const F_QUERY = `from=${F.from}&to=${F.to}&tz=UTC`;
const AI = ["chatgpt", "perplexity", "claude", "gemini"] as const;

/** Visitors first seen in from..to (UTC dates, both inclusive), counted by the sandbox itself. */
async function count(from: string, to: string, filters: Record<string, string> = {}): Promise<number> {
  const q = new URLSearchParams({ ...filters, from, to, limit: "1" });
  return (await sandboxGet<List>(`/visitors?${q.toString()}`)).meta.total;
}

async function rangeCounts(from: string, to: string) {
  const [visitors, conversions, ...ai] = await Promise.all([
    count(from, to),
    count(from, to, { converted: "true" }),
    ...AI.map((source) => count(from, to, { source })),
  ]);
  return { visitors: visitors!, conversions: conversions!, ai: ai.reduce((a, b) => a + b, 0) };
}

const rate = (part: number, whole: number) => percentText((part * 100) / whole);
const kpi = (page: Page, id: string) => page.getByTestId(id).getByTestId("kpi-value");

/** Follows `link` to the visitor list: its URL matches `url` and it counts `total` visitors. */
async function opensVisitors(page: Page, link: Locator, url: RegExp, total: number): Promise<void> {
  await link.click();
  await expect(page).toHaveURL(url);
  await expect(page.getByTestId("range")).toContainText(`of ${numberText(total)} visitors`);
}

// A range's first count is computed cold from the sandbox (dozens of counted requests); on a loaded
// test machine that can outlast the default 30 s.
test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await signIn(page, "pro");
});

test("KPI cards for a typed range equal the sandbox's counts, each against the previous period it names", async ({ page }) => {
  await page.goto(`/?${F_QUERY}`);
  const [now, then] = await Promise.all([rangeCounts(F.from, F.to), rangeCounts(F_BEFORE.from, F_BEFORE.to)]);
  await expect(page.getByRole("heading", { name: rangeText(F.from, F.to) })).toBeVisible();
  await expect(kpi(page, "range-kpi-visitors")).toHaveText(numberText(now.visitors), { timeout: 90_000 });
  await expect(kpi(page, "range-kpi-ai")).toHaveText(numberText(now.ai));
  await expect(kpi(page, "range-kpi-conversions")).toHaveText(numberText(now.conversions));
  await expect(kpi(page, "range-kpi-rate")).toHaveText(rate(now.conversions, now.visitors));
  const change = Math.round(((now.visitors - then.visitors) / then.visitors) * 1000) / 10;
  const words = change === 0 ? "no change" : `${change > 0 ? "up" : "down"} ${Math.abs(change).toFixed(1)}%`;
  // The change says the count it is compared with, on screen and in words.
  await expect(page.getByTestId("range-kpi-visitors").getByTestId("change")).toContainText(
    `${words} from ${numberText(then.visitors)} in ${rangeText(F_BEFORE.from, F_BEFORE.to)}`,
  );
  await expect(page.getByTestId("range-kpi-visitors").getByTestId("change-base")).toHaveText(`from ${numberText(then.visitors)}`);
  // The previous period is drawn behind the current one, and its buckets are in the table.
  const trend = page.getByTestId("trend-card");
  await trend.scrollIntoViewIfNeeded();
  await expect(trend.locator("[data-testid=trend-chart] .trend-previous path.recharts-line-curve")).toHaveAttribute("stroke-dasharray", "5 4");
  await expect(trend.locator("[data-testid=trend-chart] .trend-current path.recharts-line-curve")).toBeVisible();
  // A range that is over has no day still counting.
  await expect(trend.getByTestId("trend-in-progress")).toHaveCount(0);
  await trend.getByText("Show every day as a table").click();
  const rows = trend.getByTestId("trend-table").locator("tbody tr");
  await expect(rows).toHaveCount(15);
  await expect(rows.first()).toContainText(dayText(F.from, false));
  await expect(rows.first()).toContainText(dayText(F_BEFORE.from, false));
});

test("a source row opens that source's visitors of the range, with the same count; its conversions the converted ones", async ({ page }) => {
  await page.goto(`/?${F_QUERY}`);
  const [perplexity, converted] = await Promise.all([
    count(F.from, F.to, { source: "perplexity" }),
    count(F.from, F.to, { source: "perplexity", converted: "true" }),
  ]);
  const opened = new RegExp(`/visitors\\?source=perplexity&${F_QUERY}$`);
  const row = page.getByTestId("source-row-perplexity");
  await expect(row).toContainText(numberText(perplexity), { timeout: 90_000 });
  // The AI platforms are set apart: their group comes first.
  await expect(page.getByTestId("sources-table").locator("tbody").first()).toContainText("AI platforms");
  await opensVisitors(page, row.getByRole("link", { name: "Perplexity", exact: true }), opened, perplexity);
  await page.goBack();
  await opensVisitors(page, page.getByTestId("visitors-link-perplexity"), opened, perplexity);
  await page.goBack();
  await opensVisitors(page, page.getByTestId("conversions-link-perplexity"), /converted=true/, converted);
});

test("a funnel stage's count opens its visitors of the period, with the same count", async ({ page }) => {
  await page.goto("/?period=7d");
  const funnel = await sandboxGet<{ data: Array<{ stage: string; count: number }> }>("/analytics/funnel?period=7d");
  const conversions = funnel.data.find((s) => s.stage === "conversions")!.count;
  const stage = page.getByTestId("funnel-step-conversions");
  await stage.scrollIntoViewIfNeeded();
  await opensVisitors(page, stage.getByRole("link"), /converted=true/, conversions);
});

test("a range that ends today draws today apart, as still counting", async ({ page }) => {
  // The browser's clock is the real one: the default range (the last 30 days) ends today in UTC.
  await page.goto("/?tz=UTC");
  const trend = page.getByTestId("trend-card");
  await trend.scrollIntoViewIfNeeded();
  const today = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" }).format(new Date());
  await expect(trend.getByTestId("trend-in-progress")).toHaveText(`Today so far (${today}, still counting)`, { timeout: 90_000 });
  await expect(trend.locator("[data-testid=trend-chart] .trend-in-progress path.recharts-line-curve")).toHaveAttribute("stroke-dasharray", "3 4");
  await trend.getByText("Show every day as a table").click();
  await expect(trend.getByTestId("trend-table").locator("tbody tr").last().locator("th")).toHaveText(`${today} (so far)`);
});

test("changing the range fetches and shows the new range's counts", async ({ page }) => {
  await page.goto(`/?${F_QUERY}`);
  const first = await rangeCounts(F.from, F.to);
  await expect(kpi(page, "range-kpi-visitors")).toHaveText(numberText(first.visitors), { timeout: 90_000 });
  const second = await rangeCounts(THREE.from, THREE.to);
  const request = page.waitForRequest(
    (r) => r.url().includes("/api/insights/trend?") && r.url().includes(`from=${THREE.from}`) && r.url().includes(`to=${THREE.to}`),
  );
  // A client-side navigation, as the header's range control makes: the page is not reloaded.
  await page.evaluate((url) => window.history.pushState(null, "", url), `/?from=${THREE.from}&to=${THREE.to}&tz=UTC`);
  await request;
  await expect(page.getByRole("heading", { name: rangeText(THREE.from, THREE.to) })).toBeVisible();
  await expect(kpi(page, "range-kpi-visitors")).toHaveText(numberText(second.visitors), { timeout: 90_000 });
  await expect(page.getByTestId("range-kpi-visitors").getByTestId("change")).toContainText(`in ${rangeText(THREE_BEFORE.from, THREE_BEFORE.to)}`);
});
