// `/visitors` and `/visitors/[id]`: the table shows the Data API's rows; filters chosen in the UI go
// into the URL (Data API names) and change the rows; paging; back/forward; drill-down to a timeline.
import { expect, test, type Page } from "@playwright/test";
import { utcDate } from "./helpers/clock";
import { numberText, sandboxGet } from "./helpers/sandbox";
import { openPage, signIn } from "./helpers/session";

type Visitor = { id: string; source: string; converted: boolean; intent: string };
type List = { data: Visitor[]; meta: { total: number; limit: number; offset: number } };
type Timeline = { data: Array<{ type: string; occurred_at: string }> };

// Each row is named by its visitor id (the row header), a link to the visitor.
const rowIds = (page: Page) => page.getByTestId("visitor-row").getByRole("rowheader").allTextContents();

test.beforeEach(async ({ page }) => {
  await signIn(page, "pro");
});

test("the first page matches the Data API, with the total", async ({ page }) => {
  await openPage(page, "/visitors");
  const api = await sandboxGet<List>("/visitors?limit=20&offset=0");
  expect(await rowIds(page)).toEqual(api.data.map((v) => v.id));
  await expect(page.getByTestId("range")).toHaveText(`1–20 of ${numberText(api.meta.total)} visitors`);
});

test("filters chosen in the UI change the URL and the rows; back and forward restore the view", async ({ page }) => {
  await openPage(page, "/visitors");
  await page.getByLabel("Source").selectOption("chatgpt");
  await expect(page).toHaveURL(/\/visitors\?source=chatgpt$/);
  let api = await sandboxGet<List>("/visitors?source=chatgpt&limit=20");
  await expect(page.getByTestId("range")).toHaveText(`1–20 of ${numberText(api.meta.total)} visitors`);
  expect(await rowIds(page)).toEqual(api.data.map((v) => v.id));

  await page.getByLabel("Converted").selectOption("true");
  await expect(page).toHaveURL(/\/visitors\?converted=true&source=chatgpt$/);
  api = await sandboxGet<List>("/visitors?source=chatgpt&converted=true&limit=20");
  await expect(page.getByTestId("range")).toContainText(`of ${numberText(api.meta.total)} visitors`);
  expect(await rowIds(page)).toEqual(api.data.map((v) => v.id));

  // Intent: free text (known values are suggested), applied with Enter.
  await page.getByLabel("Intent").fill("pricing_research");
  await page.getByLabel("Intent").press("Enter");
  await expect(page).toHaveURL(/intent=pricing_research/);
  api = await sandboxGet<List>("/visitors?source=chatgpt&converted=true&intent=pricing_research&limit=20");
  await expect(page.getByTestId("range")).toContainText(`of ${numberText(api.meta.total)} visitors`);

  // Dates are typed by keyboard and applied with Enter (the header's range shows the same).
  const from = utcDate(-28);
  await page.getByRole("textbox", { name: "First seen from" }).fill(from);
  await page.getByRole("textbox", { name: "First seen from" }).press("Enter");
  await expect(page).toHaveURL(new RegExp(`from=${from}`));
  api = await sandboxGet<List>(`/visitors?source=chatgpt&converted=true&intent=pricing_research&from=${from}&limit=20`);
  await expect(page.getByTestId("range")).toContainText(api.meta.total === 0 ? "0 results" : `of ${numberText(api.meta.total)} visitors`);

  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(/\/visitors\?converted=true&source=chatgpt$/);
  await expect(page.getByLabel("Source")).toHaveValue("chatgpt");
  await expect(page.getByLabel("Intent")).toHaveValue("");
  api = await sandboxGet<List>("/visitors?source=chatgpt&converted=true&limit=20");
  expect(await rowIds(page)).toEqual(api.data.map((v) => v.id));
  await page.goForward();
  await expect(page.getByLabel("Intent")).toHaveValue("pricing_research");

  await page.reload();
  await expect(page.getByLabel("Intent")).toHaveValue("pricing_research");
  await expect(page.getByLabel("Converted")).toHaveValue("true");
});

test("two quick filter changes both apply", async ({ page }) => {
  await openPage(page, "/visitors");
  // The second change is made before the first one's rows arrive.
  await page.getByLabel("Source").selectOption("claude");
  await page.getByLabel("Converted").selectOption("true");
  await expect(page).toHaveURL(/\/visitors\?converted=true&source=claude$/);
  await expect(page.getByLabel("Source")).toHaveValue("claude");
  await expect(page.getByLabel("Converted")).toHaveValue("true");
  const api = await sandboxGet<List>("/visitors?source=claude&converted=true&limit=20");
  await expect(page.getByTestId("range")).toContainText(`of ${numberText(api.meta.total)} visitors`);
  expect(await rowIds(page)).toEqual(api.data.map((v) => v.id));
});

test("pagination and page size", async ({ page }) => {
  await openPage(page, "/visitors?source=organic");
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/offset=20/);
  const api = await sandboxGet<List>("/visitors?source=organic&limit=20&offset=20");
  await expect(page.getByTestId("range")).toHaveText(`21–40 of ${numberText(api.meta.total)} visitors`);
  expect(await rowIds(page)).toEqual(api.data.map((v) => v.id));

  await page.getByLabel("Per page").selectOption("50");
  await expect(page).toHaveURL(/\/visitors\?limit=50&source=organic$/);
  await expect(page.getByTestId("visitor-row")).toHaveCount(50);
  await expect(page.getByText("← Previous")).toHaveAttribute("aria-disabled", "true");
});

test("an invalid filter in the URL is shown on its field, not as a crash", async ({ page }) => {
  await page.goto("/visitors?source=myspace");
  const select = page.getByLabel("Source");
  await expect(select).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("field-error")).toHaveText("This source is not one the dashboard knows. Choose one from the list.");
  await expect(page.getByTestId("param-error")).toBeVisible();
  await page.goto("/visitors?intent=Not%20An%20Intent");
  await expect(page.getByLabel("Intent")).toHaveAttribute("aria-invalid", "true");
});

test("drill-down from a row to the visitor and its complete timeline, newest or oldest first", async ({ page }) => {
  await openPage(page, "/visitors?source=perplexity");
  const first = page.getByTestId("visitor-row").first().getByRole("link");
  const id = (await first.textContent())!;
  await first.click();
  await expect(page).toHaveURL(new RegExp(`/visitors/${id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(id);
  const details = page.getByTestId("visitor-details");
  await expect(details).toContainText("Perplexity");
  const timeline = await sandboxGet<Timeline>(`/visitors/${id}/timeline`);
  const events = page.getByTestId("timeline-event");
  await expect(events).toHaveCount(timeline.data.length);
  // Newest first by default: the upstream's last event (it lists oldest first) comes first.
  await expect(events.first().locator("time")).toHaveAttribute("dateTime", timeline.data[timeline.data.length - 1]!.occurred_at);
  await page.getByRole("link", { name: "Oldest first" }).click();
  await expect(page).toHaveURL(/order=oldest/);
  await expect(events.first().locator("time")).toHaveAttribute("dateTime", timeline.data[0]!.occurred_at);
});

test("an unknown visitor shows a not-found page with a way back, answered as a 404", async ({ page }) => {
  const response = await page.goto("/visitors/vis_doesnotexist");
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("visitor-not-found")).toBeVisible();
  await page.getByRole("link", { name: /Back to all visitors/ }).click();
  await expect(page).toHaveURL(/\/visitors$/);
});

test("times are shown in the viewer's timezone, the zone named as the header names it, exact time on hover", async ({ browser }) => {
  const context = await browser.newContext({ timezoneId: "America/New_York" });
  const page = await context.newPage();
  await signIn(page, "pro");
  await openPage(page, "/visitors");
  // The first visit stores the browser's zone and redraws in it: one name for it, header and headings alike.
  await expect(page.getByRole("columnheader", { name: "First seen (New York time)" })).toBeVisible();
  await expect(page.getByTestId("range-tz")).toHaveText("Time zone: New York time");
  const time = page.getByTestId("visitor-row").first().locator("time").first();
  const iso = (await time.getAttribute("dateTime"))!;
  const clock = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso));
  await expect(time).toHaveText(new RegExp(`^\\d{1,2} [A-Z][a-z]{2} \\d{4}, ${clock}$`));
  // The exact instant, with seconds and the zone, on hover.
  await expect(time).toHaveAttribute("title", /\d{2}:\d{2}:\d{2} \(New York time\)$/);
  await context.close();
});
