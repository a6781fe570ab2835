// `/platforms` and the movement on `/intelligence`: every number against the sandbox's own counts for
// a range typed into the URL (its lists' `meta.total` with the same filters, and its mentions listed
// and tallied here), the drill-down links landing on those rows (a competitor's on exactly its
// mentions, as many as its figure), both pages at desktop and phone
// widths without sideways scrolling and without serious accessibility violations.
import { expect, test, type Page } from "@playwright/test";
import { rangeText, shiftDate, utcDate } from "./helpers/clock";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { numberText, percentText, sandboxGet } from "./helpers/sandbox";
import { signIn, waitForWidgets } from "./helpers/session";

type Total = { meta: { total: number } };
type Mention = { sentiment: string; competitors_mentioned: string[] };
type Score = { breakdown: Record<string, number>; updated_at: string };
type Ranking = { data: Array<{ name: string; is_workspace?: boolean }> };

// A week ending today (the sandbox's rows end now: e2e/helpers/clock.ts), and the 7 days before it.
const RANGE = { from: utcDate(-6), to: utcDate(0), tz: "UTC" };
const PREVIOUS = rangeText(shiftDate(RANGE.from, -7), shiftDate(RANGE.to, -7));
const RANGE_QUERY = new URLSearchParams(RANGE).toString();
const PLATFORMS = ["chatgpt", "claude", "perplexity", "gemini"];
// The same days as the Data API's own filters: in UTC a date-only `to` includes that whole day.
const upstreamRange = `from=${RANGE.from}&to=${RANGE.to}`;
const total = async (path: string) => (await sandboxGet<Total>(`${path}${path.includes("?") ? "&" : "?"}limit=1`)).meta.total;

/** Every mention of a window, page by page, from the sandbox directly. */
async function listMentions(query: string): Promise<Mention[]> {
  const rows: Mention[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await sandboxGet<{ data: Mention[]; meta: { total: number } }>(`/mentions?${query}&limit=100&offset=${offset}`);
    rows.push(...page.data);
    if (rows.length >= page.meta.total || page.data.length === 0) return rows;
  }
}

async function openPlatforms(page: Page) {
  await page.goto(`/platforms?${RANGE_QUERY}`);
  await waitForWidgets(page);
}

test.beforeEach(async ({ page }) => {
  await signIn(page, "pro");
});

test("all four platforms, each figure equal to the sandbox's own count for the typed range", async ({ page }) => {
  await openPlatforms(page);
  await expect(page.getByTestId("platforms-card").getByTestId("window")).toContainText(
    `${rangeText(RANGE.from, RANGE.to)}, days counted in UTC; changes against the previous 7 days (${PREVIOUS})`,
  );
  const rows = page.getByTestId("platform-row");
  await expect(rows).toHaveCount(4);
  for (const platform of PLATFORMS) {
    const row = page.locator(`[data-testid="platform-row"][data-platform="${platform}"]`);
    const [mentions, visitors, conversions] = await Promise.all([
      total(`/mentions?platform=${platform}&${upstreamRange}`),
      total(`/visitors?source=${platform}&${upstreamRange}`),
      total(`/visitors?source=${platform}&converted=true&${upstreamRange}`),
    ]);
    expect(mentions, `${platform} has mentions in the range (an all-zero page could not pass)`).toBeGreaterThan(0);
    await expect(row.getByTestId("chain-mentions"), platform).toContainText(numberText(mentions));
    await expect(row.getByTestId("chain-visitors"), platform).toContainText(numberText(visitors));
    await expect(row.getByTestId("chain-conversions"), platform).toContainText(numberText(conversions));
    const rate = visitors === 0 ? "—" : percentText((conversions * 100) / visitors);
    await expect(row.getByTestId("chain-rate"), platform).toContainText(rate);
    const split = row.getByTestId("sentiment-split");
    for (const sentiment of ["positive", "neutral", "negative"]) {
      const count = await total(`/mentions?platform=${platform}&sentiment=${sentiment}&${upstreamRange}`);
      await expect(split.locator(`[data-sentiment="${sentiment}"]`).getByTestId("sentiment-count"), `${platform} ${sentiment}`).toHaveText(numberText(count));
    }
    // Each figure has its change against the previous period: its base on screen, the window in words for screen readers.
    await expect(row.getByTestId("change").first()).toContainText(`in the previous 7 days (${PREVIOUS})`);
    await expect(row.getByTestId("chain-mentions").getByTestId("change-base")).toHaveText(/^from [\d,]+$/);
  }

  // Sentiment over time: one row per day, the days adding up to the range's mentions of each sentiment.
  const sentimentCard = page.getByTestId("sentiment-card");
  await sentimentCard.getByText("Figures per day").click();
  const days = sentimentCard.getByTestId("sentiment-row");
  await expect(days).toHaveCount(7);
  const negative = await total(`/mentions?sentiment=negative&${upstreamRange}`);
  const perDay = await days.evaluateAll((trs) => trs.map((tr) => Number(tr.querySelectorAll("td")[2]!.textContent!.replace(/,/g, ""))));
  expect(perDay.reduce((a, b) => a + b, 0)).toBe(negative);
  await sentimentCard.getByTestId("sentiment-platform").selectOption("gemini");
  const geminiNegative = await total(`/mentions?platform=gemini&sentiment=negative&${upstreamRange}`);
  const geminiPerDay = await days.evaluateAll((trs) => trs.map((tr) => Number(tr.querySelectorAll("td")[2]!.textContent!.replace(/,/g, ""))));
  expect(geminiPerDay.reduce((a, b) => a + b, 0)).toBe(geminiNegative);
});

test("each change says whether it is beyond chance as the answer judged it; a muted one says why on focus", async ({ page }) => {
  await openPlatforms(page);
  type Row = { platform: string; conversions: number; previous: { conversions: number }; significant: { conversions: boolean | null } };
  const answer = (await (await page.request.get(`/api/insights/platforms?${RANGE_QUERY}`)).json()) as { data: Row[] };
  for (const row of answer.data) {
    const badge = page.locator(`[data-testid="platform-row"][data-platform="${row.platform}"]`).getByTestId("chain-conversions").getByTestId("change");
    if (row.conversions === row.previous.conversions) continue; // no change, nothing to judge
    const verdict = row.significant.conversions;
    await expect(badge, row.platform).toHaveAttribute("data-significance", verdict === null ? "unknown" : verdict ? "beyond" : "within");
  }
  // A week of a platform's few dozen visitors: some change is within normal variation. It says so in
  // words, and focused by keyboard it says what that means, with its test and p-value.
  const muted = page.locator('[data-testid="change"][data-significance="within"]').first();
  await expect(muted.getByTestId("change-noise")).toHaveText(/normal variation$/);
  await expect(muted.locator(".change")).toHaveClass(/change-muted/);
  const tip = muted.getByRole("tooltip");
  await expect(tip).toBeHidden();
  await muted.focus();
  await expect(tip).toBeVisible();
  await expect(tip).toHaveText(
    /^Within normal variation: a change this large can come by chance alone \((exact test of two Poisson counts|Fisher's exact test), p = (0\.\d+|1)\)\.$/,
  );
  await expect(muted).toHaveAttribute("aria-describedby", (await tip.getAttribute("id"))!);
});

test("a platform's mentions, visitors and conversions link to exactly those rows", async ({ page }) => {
  // A count of 0 is shown without a link (there are no rows to open): take a platform that converted.
  const conversions = await Promise.all(PLATFORMS.map((p) => total(`/visitors?source=${p}&converted=true&${upstreamRange}`)));
  const platform = PLATFORMS[conversions.indexOf(Math.max(...conversions))]!;
  expect(Math.max(...conversions)).toBeGreaterThan(0);
  await openPlatforms(page);
  const row = page.locator(`[data-testid="platform-row"][data-platform="${platform}"]`);

  // Each link opens its list, filtered to the platform over the page's range; back to /platforms between.
  const links = [
    { testId: "link-mentions", list: "/mentions", filter: `platform=${platform}`, noun: "mentions" },
    { testId: "link-visitors", list: "/visitors", filter: `source=${platform}`, noun: "visitors" },
    { testId: "link-conversions", list: "/visitors", filter: `source=${platform}&converted=true`, noun: "visitors" },
  ];
  for (const [i, { testId, list, filter, noun }] of links.entries()) {
    if (i > 0) {
      await page.goBack();
      await waitForWidgets(page);
    }
    await row.getByTestId(testId).click();
    await expect(page).toHaveURL(`${list}?${filter}&${RANGE_QUERY}`);
    await waitForWidgets(page);
    await expect(page.getByTestId("range")).toContainText(`of ${numberText(await total(`${list}?${filter}&${upstreamRange}`))} ${noun}`);
  }
});

test("competitors named with us: each with its mentions and share of the range's mentions, as tallied from the sandbox's rows", async ({ page }) => {
  const mentions = await listMentions(upstreamRange);
  const named = new Map<string, number>();
  for (const m of mentions) for (const name of new Set(m.competitors_mentioned)) named.set(name, (named.get(name) ?? 0) + 1);
  const expected = [...named.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  expect(expected.length).toBeGreaterThan(0);

  await openPlatforms(page);
  const card = page.getByTestId("competitors-card");
  await expect(card.getByTestId("competitors-total")).toContainText(`${numberText(mentions.length)} mentions in the range`);
  const table = card.getByRole("table", { name: "Competitors named with the brand" });
  const rows = table.getByRole("row");
  await expect(rows).toHaveCount(expected.length + 1);
  for (const [i, [name, count]] of expected.entries()) {
    const row = rows.nth(i + 1);
    await expect(row.getByRole("rowheader")).toHaveText(name);
    await expect(row).toContainText(numberText(count));
    await expect(row).toContainText(percentText((count * 100) / mentions.length));
  }
  // A competitor opens the range's mentions naming it: as many as its figure, each naming it.
  await expect(card.getByTestId("competitor-link-note")).toHaveText("A competitor's name opens the range's mentions naming it, as many as its figure here.");
  const [name, count] = expected[0]!;
  await table.getByTestId("competitor-link").first().click();
  await expect(page).toHaveURL(`/mentions?${new URLSearchParams({ competitor: name, ...RANGE })}`);
  await waitForWidgets(page);
  await expect(page.getByTestId("range")).toContainText(`of ${numberText(count)} mentions`);
  await expect(page.getByRole("combobox", { name: "Competitor named" })).toHaveValue(name);
  const cards = page.getByTestId("mention-card");
  await expect(cards).toHaveCount(Math.min(count, 20));
  for (const mention of await cards.all()) await expect(mention.locator(".chip").getByText(name, { exact: true }).first()).toBeVisible();
});

test("/intelligence: what moved alongside the score, over the score's window, labelled as movement and not cause", async ({ page }) => {
  await page.goto("/intelligence");
  await waitForWidgets(page);
  const [score, ranking] = await Promise.all([sandboxGet<Score>("/intelligence/score"), sandboxGet<Ranking>("/intelligence/ranking")]);
  const card = page.getByTestId("movement-card");
  await expect(card).toContainText("shown beside it, not as its cause");
  const components = card.getByTestId("movement-components").getByRole("listitem");
  await expect(components).toHaveCount(4);
  for (const [i, key] of ["visibility", "sentiment", "authority", "coverage"].entries())
    await expect(components.nth(i)).toContainText(`${score.breakdown[key]} / 100`);
  const own = ranking.data.find((r) => r.is_workspace)!;
  await expect(card.getByTestId("ranking-move").filter({ hasText: own.name })).toContainText("You");

  // The platforms over the 30 calendar days ending on the score's day (its updated_at, in UTC).
  const to = score.updated_at.slice(0, 10);
  const from = shiftDate(to, -29);
  await expect(card.getByTestId("movement-window")).toContainText(`${rangeText(from, to)}, days counted in UTC`);
  const moves = card.getByTestId("platform-move");
  await expect(moves).toHaveCount(4);
  for (const platform of PLATFORMS) {
    const count = await total(`/mentions?platform=${platform}&from=${from}&to=${to}`);
    await expect(card.locator(`[data-testid="platform-move"][data-platform="${platform}"]`).getByTestId("platform-move-mentions")).toHaveText(
      numberText(count),
    );
  }
});

for (const width of [1440, 375]) {
  test(`/platforms and /intelligence at ${width} px: no sideways scrolling, no serious accessibility violation`, async ({ page }) => {
    // Two pages, each checked by axe: slower than one page's test.
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    await openPlatforms(page);
    await expectNoHorizontalOverflow(page, `/platforms at ${width}`);
    await expectNoSeriousViolations(page, `/platforms at ${width}`);
    await page.goto("/intelligence");
    await waitForWidgets(page);
    await expect(page.getByTestId("movement-platforms")).toBeVisible();
    await expectNoHorizontalOverflow(page, `/intelligence at ${width}`);
    await expectNoSeriousViolations(page, `/intelligence at ${width}`);
  });
}
