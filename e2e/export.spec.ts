// Exports in Chromium: the Export button on /visitors and /mentions hands the file to the browser's
// own download (checked against paging the Data API directly), in CSV, CSV for Excel or JSON; the
// exports tray of the app shell shows its progress on every page, through navigation and a reload,
// until the download completes with every row; Cancel in the tray stops it and saves nothing; an
// upstream failure mid-way fails the download and the tray says why, with the request id.
import { readFile } from "node:fs/promises";
import Papa from "papaparse";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { clearFaults, DEMO_KEYS, numberText, SANDBOX_URL, sandboxGet, setFaults } from "./helpers/sandbox";
import { expectNoSeriousViolations } from "./helpers/a11y";
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

type LogEntry = { key: string; path: string; query: string; status: number; request_id: string };

/** Export page requests (limit=100) the sandbox has seen from the "limited" demo key, in this run so far. */
async function exportPageLog(): Promise<LogEntry[]> {
  const stats = (await (await fetch(`${SANDBOX_URL}/sandbox/stats`)).json()) as { log: LogEntry[] };
  const hint = `…${DEMO_KEYS.limited.slice(-4)}`;
  return stats.log.filter((e) => e.key === hint && e.path === "/v1/visitors" && /(^|&)limit=100(&|$)/.test(e.query));
}

const exportPagesSeen = async () => (await exportPageLog()).length;

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

/** The newest export in the tray (a test's context is a fresh session: its exports only). */
const exportItem = (page: Page) => page.getByTestId("exports-tray").getByTestId("export-item").first();

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
  // The tray reports the outcome with the file's name.
  const item = exportItem(page);
  await expect(item).toHaveAttribute("data-state", "complete");
  await expect(item.getByTestId("export-detail")).toContainText(`Done: ${numberText(expected.length)} rows`);
  await expect(item).toContainText(`visitors_source-chatgpt_converted-true_${today()}.csv`);
  await expect(region).toContainText("follow it under Exports");
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
   * Signs in with the limited key (Pro plan, its own rate limit), slows its /visitors pages by
   * `latencyMs` so the export is still running while the test looks at it, and starts a CSV export
   * of every visitor. Returns the download (its event) and the export's tray item.
   */
  async function startSlowExport(page: Page, latencyMs: number) {
    await signIn(page, "limited");
    await openPage(page, "/visitors");
    const total = (await sandboxGet<List<Row>>("/visitors?limit=1", DEMO_KEYS.limited)).meta.total;
    const { button } = await exportButton(page, "visitors", total);
    await setFaults({ latencyMs, paths: ["/visitors"], keys: [DEMO_KEYS.limited] });
    const downloading = page.waitForEvent("download", { timeout: 30_000 });
    await button.click();
    const item = exportItem(page);
    return { total, item, bar: item.getByRole("progressbar"), download: await downloading };
  }

  /** The rows written as the tray's progress bar says, once it says more than `after`. */
  async function progressPast(bar: Locator, after: number): Promise<number> {
    let now = after;
    await expect
      .poll(async () => (now = Number(await bar.getAttribute("aria-valuenow"))), { timeout: 30_000, message: "the tray's progress should move" })
      .toBeGreaterThan(after);
    return now;
  }

  test("the download goes on through three other pages and a reload, the tray following it, and holds every row", async ({ page }) => {
    test.setTimeout(150_000);
    const { total, bar, download } = await startSlowExport(page, 1500);
    await expect(bar).toHaveAttribute("aria-valuemax", String(total));
    let rows = await progressPast(bar, 0);
    await expectNoSeriousViolations(page, "/visitors with an export running in the tray");

    // Three other pages, by the navigation and by loading a URL: the tray shows the export moving on each.
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Mentions" }).click();
    await expect(page).toHaveURL(/\/mentions/);
    rows = await progressPast(bar, rows);
    await page.goto("/settings");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    rows = await progressPast(bar, rows);
    await nav.getByRole("link", { name: "Intelligence" }).click();
    await expect(page).toHaveURL(/\/intelligence/);
    rows = await progressPast(bar, rows);
    // A full reload loses nothing: the list is the server's.
    await page.reload();
    await progressPast(bar, rows);
    await expect(exportItem(page).getByTestId("export-detail")).toContainText(/of [\d,]+ rows · (about .* left|waiting)/);

    // The browser's own download completes with every row.
    expect(await download.failure()).toBeNull();
    const text = await readFile((await download.path())!, "utf8");
    const parsed = parseCsv(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.data.length).toBe(total);
    expect(new Set(parsed.data.map((r) => r.id)).size).toBe(total);
    const item = exportItem(page);
    await expect(item).toHaveAttribute("data-state", "complete", { timeout: 15_000 });
    await expect(item.getByTestId("export-detail")).toContainText(`Done: ${numberText(total)} rows`);
    await expect(item.getByRole("progressbar")).toHaveCount(0);
  });

  test("Cancel in the tray stops the download and the upstream paging; no file is saved", async ({ page }) => {
    const before = await exportPagesSeen();
    const { total, item, bar, download } = await startSlowExport(page, 400);
    await progressPast(bar, 0);
    await item.getByRole("button", { name: /^Cancel/ }).click();

    // The browser marks the download failed: nothing is saved.
    expect(await download.failure()).not.toBeNull();
    await expect(download.path()).rejects.toThrow();
    await expect(item).toHaveAttribute("data-state", "cancelled", { timeout: 15_000 });
    await expect(item.getByTestId("export-detail")).toContainText("Cancelled after");
    // The keyboard user's place moves to the item's Dismiss button.
    await expect(item.getByRole("button", { name: /^Dismiss/ })).toBeFocused();

    // The server stopped paging the upstream within a page (pages already on the wire may land).
    await page.waitForTimeout(1000);
    const settled = await exportPagesSeen();
    await page.waitForTimeout(1500);
    expect(await exportPagesSeen()).toBe(settled);
    expect(settled - before).toBeLessThan(Math.ceil(total / 100));
  });

  test("an upstream failure mid-way fails the download, and the tray says why with the request id", async ({ page }) => {
    const { item, bar, download } = await startSlowExport(page, 400);
    await progressPast(bar, 0);
    // From now on every page fails, beyond the server's retries.
    await setFaults({ errorCount: 10_000, paths: ["/visitors"], keys: [DEMO_KEYS.limited] });

    expect(await download.failure()).not.toBeNull();
    await expect(download.path()).rejects.toThrow();
    await expect(item).toHaveAttribute("data-state", "failed", { timeout: 25_000 });
    await expect(item.getByTestId("export-detail")).toContainText("Failed after");
    const error = item.getByTestId("export-error");
    // In plain words, not the API's "The Data API failed (500)…", with the request id to quote.
    await expect(error).toContainText(/Workspace Analytics had a problem\..*Request ID: req_[A-Za-z0-9]+/);
    await expect(error).not.toContainText("(500)");
    // The id is that of a page request the upstream failed (its X-Request-ID), not one the app made up.
    const shown = /Request ID: (req_[A-Za-z0-9]+)/.exec((await error.textContent()) ?? "")?.[1];
    const failed = (await exportPageLog()).filter((e) => e.status === 500).map((e) => e.request_id);
    expect(failed).toContain(shown);
  });
});
