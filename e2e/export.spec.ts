// Exports in Chromium: the Export button on /visitors and /mentions downloads every row matching the
// filters on screen (checked against paging the Data API directly), in CSV or JSON; progress shows
// while it runs and the page stays usable; Cancel stops it; an upstream failure mid-way fails the
// export visibly and saves nothing.
import { readFile } from "node:fs/promises";
import Papa from "papaparse";
import { expect, test, type Page } from "@playwright/test";
import { clearFaults, DEMO_KEYS, numberText, SANDBOX_URL, sandboxGet, setFaults } from "./helpers/sandbox";
import { openPage, signIn } from "./helpers/session";

type List<T> = { data: T[]; meta: { total: number } };
type Row = Record<string, unknown>;

/** Every row of a filtered list, paging the sandbox with limit=100 as the export does. */
async function allRows(resource: "visitors" | "mentions", filters: string, key?: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await sandboxGet<List<Row>>(`/${resource}?${filters}&limit=100&offset=${offset}`, key);
    rows.push(...page.data);
    if (rows.length >= page.meta.total || page.data.length === 0) return rows;
  }
}

/** Export page requests (limit=100) the sandbox has seen from the "limited" demo key. */
async function exportPagesSeen(): Promise<number> {
  const stats = (await (await fetch(`${SANDBOX_URL}/sandbox/stats`)).json()) as { log: { key: string; path: string; query: string }[] };
  const hint = `…${DEMO_KEYS.limited.slice(-4)}`;
  return stats.log.filter((e) => e.key === hint && e.path === "/v1/visitors" && /(^|&)limit=100(&|$)/.test(e.query)).length;
}

const today = () => new Date().toISOString().slice(0, 10);

async function exportButton(page: Page, resource: "visitors" | "mentions", total: number) {
  const region = page.getByTestId(`export-${resource}`);
  const button = region.getByRole("button", { name: `Export ${numberText(total)} rows` });
  await expect(button).toBeEnabled();
  return { region, button };
}

/**
 * Signs in with Pro, opens the list with `filters`, exports every matching row (in `format`, else the
 * default CSV) and returns the download, the rows the export must hold (paged from the sandbox) and
 * the export's region.
 */
async function exportList(page: Page, resource: "visitors" | "mentions", filters: string, format?: string | { label: string }) {
  await signIn(page, "pro");
  await openPage(page, `/${resource}?${filters}`);
  const expected = await allRows(resource, filters);
  const { region, button } = await exportButton(page, resource, expected.length);
  if (format) await region.getByLabel("Format").selectOption(format);
  const downloading = page.waitForEvent("download");
  await button.click();
  return { download: await downloading, expected, region };
}

const parseCsv = (text: string) => Papa.parse<Record<string, string>>(text, { header: true, newline: "\r\n", skipEmptyLines: true });

test("visitors: a filtered CSV export holds exactly the matching rows, in order", async ({ page }) => {
  const { download, expected, region } = await exportList(page, "visitors", "source=chatgpt&converted=true");
  expect(download.suggestedFilename()).toBe(`visitors_source-chatgpt_converted-true_${today()}.csv`);
  const text = await readFile((await download.path())!, "utf8");

  const parsed = parseCsv(text);
  expect(parsed.errors).toEqual([]);
  expect(parsed.meta.fields).toEqual(["id", "first_seen", "last_seen", "source", "intent", "pages_viewed", "converted", "email", "country", "city"]);
  expect(parsed.data.length).toBe(expected.length);
  expect(parsed.data.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  expect(new Set(parsed.data.map((r) => `${r.source}/${r.converted}`))).toEqual(new Set(["chatgpt/true"]));
  expect(parsed.data[0]!.pages_viewed).toBe(String(expected[0]!.pages_viewed));
  await expect(region.getByRole("status")).toHaveText(`Saved ${numberText(expected.length)} rows as visitors_source-chatgpt_converted-true_${today()}.csv.`);
});

test("mentions: a JSON export is a valid array of the matching mentions", async ({ page }) => {
  const { download, expected } = await exportList(page, "mentions", "platform=claude&sentiment=negative", "json");
  expect(download.suggestedFilename()).toBe(`mentions_platform-claude_sentiment-negative_${today()}.json`);
  const items = JSON.parse(await readFile((await download.path())!, "utf8")) as Row[];
  expect(items.map((m) => m.id)).toEqual(expected.map((m) => m.id));
  expect(items[0]).toEqual(
    Object.fromEntries(
      ["id", "created_at", "platform", "sentiment", "position", "query", "response_snippet", "competitors_mentioned"]
        .filter((k) => expected[0]![k] !== undefined)
        .map((k) => [k, expected[0]![k]]),
    ),
  );
});

test("a visitor's timeline downloads as CSV built in the browser", async ({ page }) => {
  await signIn(page, "pro");
  const [visitor] = (await sandboxGet<List<Row>>("/visitors?limit=1")).data;
  const id = String(visitor!.id);
  const timeline = await sandboxGet<{ data: Row[] }>(`/visitors/${encodeURIComponent(id)}/timeline`);
  await openPage(page, `/visitors/${id}?order=oldest`);

  const downloading = page.getByTestId("csv-download").getByText("Download").click().then(() => page.waitForEvent("download"));
  await page.getByRole("button", { name: "CSV", exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`timeline_${id}_${today()}.csv`);
  const text = await readFile((await download.path())!, "utf8");
  expect(text.startsWith('"occurred_at","type","title","url","source","duration_seconds"\r\n')).toBe(true);
  const parsed = parseCsv(text);
  expect(parsed.errors).toEqual([]);
  expect(parsed.data.map((e) => `${e.occurred_at} ${e.type}`)).toEqual(timeline.data.map((e) => `${String(e.occurred_at)} ${String(e.type)}`));
});

test("CSV for Excel: a BOM, readable headers, and São Paulo intact when read as UTF-8 with BOM", async ({ page }) => {
  // Brazilian visitors include São Paulo: a city Excel garbles (SÃ£o Paulo) when a CSV has no BOM.
  const { download, expected } = await exportList(page, "visitors", "source=organic&converted=true", { label: "CSV for Excel" });
  expect(download.suggestedFilename()).toBe(`visitors_source-organic_converted-true_${today()}.csv`);
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  // What Excel does with a BOM: decode as UTF-8.
  const text = new TextDecoder("utf-8").decode(bytes);
  const parsed = parseCsv(text);
  expect(parsed.errors).toEqual([]);
  expect(parsed.meta.fields).toEqual(["Visitor ID", "First seen (UTC)", "Last seen (UTC)", "Source", "Intent", "Pages viewed", "Converted", "Email", "Country", "City"]);
  expect(parsed.data.map((r) => r["Visitor ID"])).toEqual(expected.map((r) => r.id));
  const cities = new Set(expected.map((r) => r.city).filter((c): c is string => typeof c === "string"));
  expect(cities.has("São Paulo"), "the filter should include a visitor from São Paulo").toBe(true);
  expect(parsed.data.filter((r) => r.City === "São Paulo").length).toBe(expected.filter((r) => r.city === "São Paulo").length);
  expect(text).not.toContain("SÃ£o");
  // Excel reads these as date-times and Yes/No as text people read.
  expect(parsed.data[0]!["First seen (UTC)"]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  expect(new Set(parsed.data.map((r) => r.Converted))).toEqual(new Set(["Yes"]));
});

test.describe("long exports (faults limited to the 'limited' demo key)", () => {
  // The sandbox keeps one fault rule per key scope: clearing ours leaves other specs' rules alone.
  test.afterEach(async () => {
    await clearFaults([DEMO_KEYS.limited]);
  });

  /**
   * Signs in with the limited key, slows its /visitors pages so the export is still running while
   * the test looks at it, and starts a CSV export of /visitors. `downloads()` counts saved files.
   */
  async function startSlowExport(page: Page) {
    await signIn(page, "limited");
    await setFaults({ latencyMs: 400, paths: ["/visitors"], keys: [DEMO_KEYS.limited] });
    await openPage(page, "/visitors");
    const total = (await sandboxGet<List<Row>>("/visitors?limit=1", DEMO_KEYS.limited)).meta.total;
    const { region, button } = await exportButton(page, "visitors", total);
    let saved = 0;
    page.on("download", () => saved++);
    await button.click();
    return { region, bar: region.getByRole("progressbar"), total, downloads: () => saved };
  }

  test("shows progress, keeps the page usable, and Cancel stops it without saving", async ({ page }) => {
    const { region, bar, total, downloads } = await startSlowExport(page);
    await expect(bar).toHaveAttribute("aria-valuemax", String(total));
    await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect(region.getByRole("status")).toContainText(`of ${numberText(total)} rows`);

    // The rest of the page keeps working: page through the table while the export runs.
    await page.getByRole("link", { name: /Next/ }).click();
    await expect(page).toHaveURL(/offset=20/);
    await expect(page.getByTestId("range")).toContainText(`21–40 of ${numberText(total)}`);
    await expect(bar).toBeVisible();

    await region.getByRole("button", { name: "Cancel export" }).click();
    await expect(region.getByRole("status")).toContainText("Export cancelled after");
    await expect(region.getByRole("status")).toContainText("Nothing was saved");
    await expect(bar).toHaveCount(0);
    expect(downloads()).toBe(0);

    // The server stopped paging the upstream when the browser went away (pages in flight may land).
    await page.waitForTimeout(1000);
    const settled = await exportPagesSeen();
    await page.waitForTimeout(1500);
    expect(await exportPagesSeen()).toBe(settled);
    expect(settled).toBeLessThan(Math.ceil(total / 100));
  });

  test("an upstream failure mid-way fails the export visibly and saves nothing", async ({ page }) => {
    const { region, bar, downloads } = await startSlowExport(page);
    await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 15_000 }).toBeGreaterThan(0);
    // From now on every page fails, beyond the server's retries.
    await setFaults({ errorCount: 10_000, paths: ["/visitors"], keys: [DEMO_KEYS.limited] });

    const alert = region.getByRole("alert");
    await expect(alert).toContainText("The export failed after", { timeout: 25_000 });
    await expect(alert).toContainText("Nothing was saved");
    expect(downloads()).toBe(0);
  });
});
