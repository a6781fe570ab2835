// `/mentions`: the feed shows the Data API's mentions; platform/sentiment filters and paging in the URL.
import { expect, test } from "@playwright/test";
import { numberText, sandboxGet } from "./helpers/sandbox";
import { openPage, signIn } from "./helpers/session";

type Mention = { id: string; query: string; platform: string; sentiment: string; position: number; competitors_mentioned: string[] };
type List = { data: Mention[]; meta: { total: number } };

test.beforeEach(async ({ page }) => {
  await signIn(page, "pro");
});

test("cards show the Data API's mentions; filters and paging change the URL and the cards", async ({ page }) => {
  await openPage(page, "/mentions");
  let api = await sandboxGet<List>("/mentions?limit=20");
  const cards = page.getByTestId("mention-card");
  await expect(cards).toHaveCount(20);
  await expect(cards.first()).toContainText(api.data[0]!.query);
  await expect(cards.first()).toContainText(`Position ${api.data[0]!.position}`);
  for (const c of api.data[0]!.competitors_mentioned) await expect(cards.first()).toContainText(c);
  await expect(page.getByTestId("range")).toHaveText(`1–20 of ${numberText(api.meta.total)} mentions`);

  await page.getByLabel("Platform").selectOption("gemini");
  await expect(page).toHaveURL(/\/mentions\?platform=gemini$/);
  await page.getByLabel("Sentiment").selectOption("negative");
  await expect(page).toHaveURL(/\/mentions\?platform=gemini&sentiment=negative$/);
  api = await sandboxGet<List>("/mentions?platform=gemini&sentiment=negative&limit=20");
  await expect(page.getByTestId("range")).toContainText(`of ${numberText(api.meta.total)} mentions`);
  await expect(cards.first()).toContainText(api.data[0]!.query);
  for (const text of await cards.getByTestId("mention-sentiment").allTextContents()) expect(text).toContain("Negative");

  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/offset=20/);
  const page2 = await sandboxGet<List>("/mentions?platform=gemini&sentiment=negative&limit=20&offset=20");
  await expect(cards.first()).toContainText(page2.data[0]!.query);
  await expect(page.getByTestId("range")).toContainText("21–");
});

test("a date range with no mentions shows the empty state", async ({ page }) => {
  await page.goto("/mentions?from=2020-01-01&to=2020-01-31");
  await expect(page.getByTestId("empty-state")).toContainText("No mentions match these filters");
});
