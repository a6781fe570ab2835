// Exports in Chromium: the Export button on /visitors and /mentions hands the file to the browser's
// own download (checked against paging the Data API directly), in CSV, CSV for Excel or JSON; the
// exports tray of the app shell shows its progress on every page, through navigation and a reload,
// until the download completes with every row; Cancel in the tray stops it and saves nothing; an
// upstream failure mid-way fails the download and the tray says why, with the request id. The tray
// stays out of the way, as boxes in a real layout: a finished export's notice is a line high, and no
// page's end is ever under it, on a phone or at 1440 px. What the tray shows in each state (said once,
// dismissed across reloads, Hide remembered, a phone starting hidden) is its component test's
// (components/export/exports-tray.test.tsx).
import { readFile } from "node:fs/promises";
import Papa from "papaparse";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { utcDate, zoneDayEnd, zoneMidnight } from "./helpers/clock";
import { deriveDemoKey } from "../sandbox/keys";
import { clearFaults, endHold, hold, holdState, numberText, release, SANDBOX_URL, sandboxGet, setFaults } from "./helpers/sandbox";
import { expectNoSeriousViolations } from "./helpers/a11y";
import { BASE_URL, openPage, signIn, signInWithKey } from "./helpers/session";

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

/** Export page requests (limit=100) of /visitors the sandbox has answered for `key`, in this run so far. */
async function exportPageLog(key: string): Promise<LogEntry[]> {
  const stats = (await (await fetch(`${SANDBOX_URL}/sandbox/stats`)).json()) as { log: LogEntry[] };
  const hint = `…${key.slice(-4)}`;
  return stats.log.filter((e) => e.key === hint && e.path === "/v1/visitors" && /(^|&)limit=100(&|$)/.test(e.query));
}

const exportPagesSeen = async (key: string) => (await exportPageLog(key)).length;

/** An export's pages (limit=100), as the sandbox holds them; a list's own page (limit=20) is never held. */
const EXPORT_PAGES = { limit: "100" };

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

  const downloading = page
    .getByTestId("csv-download")
    .getByText("Download")
    .click()
    .then(() => page.waitForEvent("download"));
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
  expect(download.suggestedFilename()).toBe(`visitors_source-organic_converted-true_${today()}_excel.csv`);
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  // What Excel does with a BOM: decode as UTF-8.
  const text = new TextDecoder("utf-8").decode(bytes);
  const parsed = parseCsv(text);
  expect(parsed.errors).toEqual([]);
  expect(parsed.meta.fields).toEqual([
    "Visitor ID",
    "First seen (UTC)",
    "Last seen (UTC)",
    "Source",
    "Intent",
    "Pages viewed",
    "Converted",
    "Email",
    "Country",
    "City",
  ]);
  expect(parsed.data.map((r) => r["Visitor ID"])).toEqual(expected.map((r) => r.id));
  const cities = new Set(expected.map((r) => r.city).filter((c): c is string => typeof c === "string"));
  expect(cities.has("São Paulo"), "the filter should include a visitor from São Paulo").toBe(true);
  expect(parsed.data.filter((r) => r.City === "São Paulo").length).toBe(expected.filter((r) => r.city === "São Paulo").length);
  expect(text).not.toContain("SÃ£o");
  // Excel reads these as date-times and Yes/No as text people read.
  expect(parsed.data[0]!["First seen (UTC)"]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  expect(new Set(parsed.data.map((r) => r.Converted))).toEqual(new Set(["Yes"]));
});

test.describe("CSV for Excel as a German browser in Berlin opens it", () => {
  test.use({ locale: "de-DE", timezoneId: "Europe/Berlin" });

  const berlinToday = () => new Date().toLocaleDateString("sv-SE", { timeZone: "Europe/Berlin" });
  const berlinClock = (iso: unknown) => new Date(String(iso)).toLocaleString("sv-SE", { timeZone: "Europe/Berlin" });
  const parseExcel = (text: string) => {
    expect(text.charCodeAt(0)).toBe(0xfeff);
    return Papa.parse<Record<string, string>>(text.slice(1), { header: true, delimiter: ";", newline: "\r\n", skipEmptyLines: true });
  };

  test("the list export: the range's days in the name, Berlin times, labels, ';' between fields", async ({ page }) => {
    // 23 of Berlin's days, which the list asks the Data API for as that zone's instants.
    const [from, to] = [utcDate(-32), utcDate(-10)];
    const view = `source=perplexity&from=${from}&to=${to}&tz=Europe/Berlin`;
    const { download, expected } = await (async () => {
      await signIn(page, "pro");
      await openPage(page, `/visitors?${view}`);
      const rows = await allRows("visitors", `source=perplexity&from=${zoneMidnight(from, "Europe/Berlin")}&to=${zoneDayEnd(to, "Europe/Berlin")}`);
      const { region, button } = await exportButton(page, "visitors", rows.length);
      await region.getByLabel("Format").selectOption({ label: "CSV for Excel" });
      const downloading = page.waitForEvent("download");
      await button.click();
      return { download: await downloading, expected: rows };
    })();
    expect(download.suggestedFilename()).toBe(`visitors_source-perplexity_${from}_to_${to}_${berlinToday()}_excel.csv`);
    const parsed = parseExcel(await readFile((await download.path())!, "utf8"));
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([
      "Visitor ID",
      "First seen (Europe/Berlin)",
      "Last seen (Europe/Berlin)",
      "Source",
      "Intent",
      "Pages viewed",
      "Converted",
      "Email",
      "Country",
      "City",
    ]);
    expect(parsed.data.map((r) => r["Visitor ID"])).toEqual(expected.map((r) => r.id));
    expect(parsed.data.map((r) => r["First seen (Europe/Berlin)"])).toEqual(expected.map((r) => berlinClock(r.first_seen)));
    expect(new Set(parsed.data.map((r) => r.Source))).toEqual(new Set(["Perplexity"]));
    // Intents as the table shows them, row for row.
    const shown = await page.getByTestId("visitors-table").locator('tbody td[data-column="intent"]').allTextContents();
    expect(shown.length).toBeGreaterThan(0);
    expect(parsed.data.slice(0, shown.length).map((r) => r.Intent || "—")).toEqual(shown.map((t) => t.trim()));
  });

  test("a card's download: the timeline's events as the page names them, Berlin times, ';'", async ({ page, context }) => {
    // The viewer's zone, as the sign-in page stores it from the browser's.
    await context.addCookies([{ name: "viewer_tz", value: "Europe/Berlin", url: BASE_URL }]);
    await signIn(page, "pro");
    const [visitor] = (await sandboxGet<List<Row>>("/visitors?limit=1")).data;
    const id = String(visitor!.id);
    const timeline = await sandboxGet<{ data: Row[] }>(`/visitors/${encodeURIComponent(id)}/timeline`);
    await openPage(page, `/visitors/${id}?order=oldest`);
    await expect(page.getByTestId("timeline-event").first()).toBeVisible();

    const downloading = page
      .getByTestId("csv-download")
      .getByText("Download")
      .click()
      .then(() => page.waitForEvent("download"));
    await page.getByRole("button", { name: "CSV for Excel", exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`timeline_${id}_${berlinToday()}_excel.csv`);
    const parsed = parseExcel(await readFile((await download.path())!, "utf8"));
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual(["Time (Europe/Berlin)", "Event", "Page title", "URL", "Source", "Time on page (s)"]);
    expect(parsed.data.map((e) => e["Time (Europe/Berlin)"])).toEqual(timeline.data.map((e) => berlinClock(e.occurred_at)));
    const names = await page.getByTestId("timeline-event").locator(".timeline-type").allTextContents();
    expect(parsed.data.map((e) => e.Event)).toEqual(names);
    expect(parsed.data.some((e) => e.Source === "ChatGPT" || e.Source === "Organic search" || e.Source === "Perplexity")).toBe(true);
  });
});

test.describe("long exports (each on a key of its own, its export's pages held by the sandbox)", () => {
  /** Each test's own key (derived: its own budget, faults and holds; the last four characters tell its log apart). */
  const keys = { travels: deriveDemoKey("pro", "exporttravels"), cancel: deriveDemoKey("pro", "exportcancel"), fails: deriveDemoKey("pro", "exportfails") };
  test.afterEach(async () => {
    for (const key of Object.values(keys)) {
      await endHold(key);
      await clearFaults([key]);
    }
  });

  /**
   * Signs in with `key`, holds its export pages at the sandbox so the export is still running while
   * the test looks at it, starts a CSV export of every visitor and lets its first page through.
   * Returns the download (its event) and the export's tray item.
   */
  async function startHeldExport(page: Page, key: string) {
    await signInWithKey(page, key);
    await openPage(page, "/visitors");
    const total = (await sandboxGet<List<Row>>("/visitors?limit=1", key)).meta.total;
    const { button } = await exportButton(page, "visitors", total);
    await hold(key, ["/visitors"], EXPORT_PAGES);
    const downloading = page.waitForEvent("download", { timeout: 30_000 });
    await button.click();
    // The browser's download starts with the first page.
    await release(key, 1);
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
    test.setTimeout(120_000);
    const key = keys.travels;
    const { total, bar, download } = await startHeldExport(page, key);
    await expect(bar).toHaveAttribute("aria-valuemax", String(total));
    let rows = await progressPast(bar, 0);
    await expectNoSeriousViolations(page, "/visitors with an export running in the tray", '[data-testid="exports-tray"]');

    // Three other pages, by the navigation and by loading a URL: the tray shows the export moving on
    // each, a page let through at a time.
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Mentions" }).click();
    await expect(page).toHaveURL(/\/mentions/);
    await release(key, 1);
    rows = await progressPast(bar, rows);
    await page.goto("/settings");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await release(key, 1);
    rows = await progressPast(bar, rows);
    await nav.getByRole("link", { name: "Intelligence" }).click();
    await expect(page).toHaveURL(/\/intelligence/);
    await release(key, 1);
    rows = await progressPast(bar, rows);
    // A full reload loses nothing: the list is the server's.
    await page.reload();
    await release(key, 1);
    await progressPast(bar, rows);
    await expect(exportItem(page).getByTestId("export-detail")).toContainText(/of [\d,]+ rows · (about .* left|waiting)/);

    // Let the rest go: the browser's own download completes with every row.
    await endHold(key);
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
    const key = keys.cancel;
    const before = await exportPagesSeen(key);
    const { total, item, bar, download } = await startHeldExport(page, key);
    await progressPast(bar, 0);
    await item.getByRole("button", { name: /^Cancel/ }).click();

    // The browser marks the download failed: nothing is saved.
    expect(await download.failure()).not.toBeNull();
    await expect(download.path()).rejects.toThrow();
    await expect(item).toHaveAttribute("data-state", "cancelled", { timeout: 15_000 });
    await expect(item.getByTestId("export-detail")).toContainText("Cancelled after");
    // The keyboard user's place moves to the item's Dismiss button.
    await expect(item.getByRole("button", { name: /^Dismiss/ })).toBeFocused();

    // The server stopped paging the upstream. The page it was waiting for is given up (the sandbox
    // no longer holds any request of the key), and then, with the way opened for every page a running
    // export would ask for at once, none comes: the hold lets nothing more through.
    await expect.poll(async () => (await holdState(key)).waiting, { timeout: 15_000, message: "the held page should be given up" }).toBe(0);
    const { passed } = await holdState(key);
    await release(key, 1_000);
    await page.waitForTimeout(1500);
    expect((await holdState(key)).passed).toBe(passed);
    await endHold(key);
    expect((await exportPagesSeen(key)) - before).toBeLessThan(Math.ceil(total / 100));
  });

  test("an upstream failure mid-way fails the download, and the tray says why with the request id", async ({ page }) => {
    const key = keys.fails;
    const { item, bar, download } = await startHeldExport(page, key);
    await progressPast(bar, 0);
    // From now on every page fails, beyond the server's retries; the held ones too once let go.
    await setFaults({ errorCount: 10_000, paths: ["/visitors"], keys: [key] });
    await endHold(key);

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
    const failed = (await exportPageLog(key)).filter((e) => e.status === 500).map((e) => e.request_id);
    expect(failed).toContain(shown);

    // A failure is not news to leave behind: it follows the viewer to the next page and a second tab
    // until dismissed, and a dismissal in one tab takes it from the other at once (the storage event).
    const id = (await item.getAttribute("data-export-id"))!;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
    const here = page.getByTestId("exports-tray").locator(`[data-export-id="${id}"]`);
    await expect(here).toHaveAttribute("data-state", "failed");
    const other = await page.context().newPage();
    await other.goto("/settings");
    const there = other.getByTestId("exports-tray").locator(`[data-export-id="${id}"]`);
    await expect(there).toBeVisible();
    await here.getByRole("button", { name: /^Dismiss/ }).click();
    await expect(there).toHaveCount(0);
  });
});

test.describe("the exports tray stays out of the way", () => {
  // Each test that keeps an export running holds its pages at the sandbox, on a key of its own.
  const keys = { notice: deriveDemoKey("pro", "traynotice"), phone: deriveDemoKey("pro", "trayphone"), wide: deriveDemoKey("pro", "traywide") };
  test.afterEach(async () => {
    for (const key of Object.values(keys)) await endHold(key);
  });

  const tray = (page: Page) => page.getByTestId("exports-tray");

  /**
   * With `key`, an export of the list at `path` kept running: its pages from the Data API held at the
   * sandbox (each going on by itself after `maxMs`) until the test ends the hold. Returns once the tray
   * lists it as running; `download` is the browser's download, when it starts.
   */
  async function startHeldExportOf(page: Page, key: string, path: string, maxMs?: number) {
    const resource = path.startsWith("/mentions") ? "mentions" : "visitors";
    await signInWithKey(page, key);
    await openPage(page, path);
    const filters = path.split("?")[1] ?? "";
    const total = (await sandboxGet<List<Row>>(`/${resource}?${filters}&limit=1`, key)).meta.total;
    const { button } = await exportButton(page, resource, total);
    await hold(key, [`/${resource}`], EXPORT_PAGES, maxMs);
    const download = page.waitForEvent("download", { timeout: 45_000 });
    // A test that cancels before the first page never gets the download: not an error of its own.
    download.catch(() => undefined);
    await button.click();
    const item = exportItem(page);
    await expect(item).toHaveAttribute("data-state", /running|waiting/, { timeout: 20_000 });
    return { total, item, download };
  }

  type Box = { x: number; y: number; width: number; height: number };

  /**
   * Scrolls to the end of the page and returns, read at one instant, the boxes of the main content,
   * of its last element matching `last`, and of the tray (which changes height as progress text wraps).
   * Polled until the main content ends above the tray: a page still drawing (a widget's answer
   * arriving) grows after the scroll, which the next scroll to the end then shows.
   */
  async function boxesAtTheEnd(page: Page, last = "tbody tr:last-child > *") {
    let boxes: Awaited<ReturnType<typeof readBoxesAtTheEnd>> | undefined;
    const overhang = async () => {
      boxes = await readBoxesAtTheEnd(page, last);
      return boxes.main.y + boxes.main.height - boxes.tray.y;
    };
    await expect.poll(overhang, { timeout: 15_000, message: "at the end of the page, the main content should end above the tray" }).toBeLessThanOrEqual(0.5);
    return boxes!;
  }

  async function readBoxesAtTheEnd(page: Page, last: string) {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(200);
    return page.evaluate((selector) => {
      const box = (el: Element | null | undefined): Box | null => {
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      };
      const main = document.querySelector("main");
      const lastOnes = [...(main?.querySelectorAll(selector) ?? [])].filter((el) => el.getBoundingClientRect().height > 0);
      return { main: box(main)!, last: lastOnes.map((el) => box(el)!), tray: box(document.querySelector('[data-testid="exports-tray"]'))! };
    }, last);
  }

  const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  test("a finished export shrinks to a one-line notice", async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    const { item, total, download: downloading } = await startHeldExportOf(page, keys.notice, "/visitors?source=gemini");
    await expect(item.getByRole("progressbar")).toBeVisible();
    await expect(tray(page).getByRole("button", { name: /^Hide/ })).toBeVisible();
    // Read at one instant with the progress bar, so it is the running tray's size.
    const running = await tray(page).evaluate(
      (el) => ({ ...el.getBoundingClientRect().toJSON(), bar: el.querySelector('[role="progressbar"]') !== null }) as DOMRect & { bar: boolean },
    );
    expect(running.bar).toBe(true);

    await endHold(keys.notice);
    const download = await downloading;
    expect(await download.failure()).toBeNull();
    await expect(item).toHaveAttribute("data-state", "complete", { timeout: 30_000 });
    await expect(item.getByTestId("export-detail")).toHaveText(new RegExp(`^Done: ${numberText(total)} rows, [\\d.]+ [KM]?B$`));
    // No progress bar, no header, no Hide: the name, the outcome and a Dismiss, on one line.
    await expect(item.getByRole("progressbar")).toHaveCount(0);
    await expect(tray(page).getByRole("button", { name: /^(Hide|Show)/ })).toHaveCount(0);
    await expect(item.getByRole("button", { name: /^Dismiss visitors_source-gemini_/ })).toBeVisible();
    const notice = (await tray(page).boundingBox())!;
    expect(notice.height).toBeLessThanOrEqual(52);
    expect(notice.height).toBeLessThan(running.height / 2);
    expect(notice.width).toBeLessThanOrEqual(running.width);
    await expectNoSeriousViolations(page, "/visitors with a finished export's notice", '[data-testid="exports-tray"]');
  });

  test("on a 375 px phone the tray starts hidden and never covers the page's end", async ({ page }) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width: 375, height: 812 });
    // The mentions' pages held, each going on after 12 s (under the client's 15 s timeout), eight at a
    // time: about a minute in all, kept until cancelled. The overview lists no mentions, so it loads at
    // its own pace meanwhile.
    const { item } = await startHeldExportOf(page, keys.phone, "/mentions", 12_000);
    const toggle = tray(page).getByRole("button", { name: /^Show/ });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(item.getByRole("progressbar")).toBeHidden();
    // One line that still says how far it is, not 40% of the screen.
    await expect(tray(page)).toContainText(/Exports · 1 (running(, \d+%)?|starting)/);
    const bar = (await tray(page).boundingBox())!;
    expect(bar.height).toBeLessThanOrEqual(56);

    // At the end of the page, its last content ends above the tray: the mentions' cards, and the
    // overview's (its KPIs and score are higher up; its last cards are what the tray could cover).
    for (const path of ["/mentions", "/"]) {
      if (path !== "/mentions") await openPage(page, path);
      await expect(tray(page).getByRole("button", { name: /^Show/ })).toBeVisible();
      const { main, last, tray: box } = await boxesAtTheEnd(page, ".card");
      expect(main.y + main.height, path).toBeLessThanOrEqual(box.y + 0.5);
      expect(last.length, path).toBeGreaterThan(0);
      expect(overlaps(last.at(-1)!, box), `${path}: the last card is under the tray`).toBe(false);
    }

    // Shown, the tray is taller, and the page makes room for that too; keyboard and names stay.
    await tray(page).getByRole("button", { name: /^Show/ }).click();
    await expect(tray(page).getByRole("button", { name: /^Hide/ })).toHaveAttribute("aria-expanded", "true");
    await expect(exportItem(page).getByRole("progressbar")).toBeVisible();
    const { main, tray: shown } = await boxesAtTheEnd(page);
    expect(shown.height).toBeGreaterThan(bar.height);
    expect(main.y + main.height).toBeLessThanOrEqual(shown.y + 0.5);

    await exportItem(page)
      .getByRole("button", { name: /^Cancel/ })
      .click();
    await expect(exportItem(page)).toHaveAttribute("data-state", "cancelled", { timeout: 15_000 });
  });

  test("at 1440 px the table's last columns end above the tray, and Hide survives a reload", async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    const { item } = await startHeldExportOf(page, keys.wide, "/visitors");
    await expect(tray(page)).toHaveAttribute("data-folded", "false");
    await expect(item.getByRole("progressbar")).toBeVisible();
    const { main, last, tray: box } = await boxesAtTheEnd(page);
    expect(main.y + main.height).toBeLessThanOrEqual(box.y + 0.5);
    // Every cell of the table's last row, the last columns (email, city) under the tray's x-range included.
    expect(last.length).toBeGreaterThanOrEqual(8);
    expect(
      last.some((cell) => cell.x + cell.width > box.x),
      "some of the last row's cells are in the tray's columns",
    ).toBe(true);
    for (const cell of last) expect(overlaps(cell, box)).toBe(false);

    await tray(page).getByRole("button", { name: /^Hide/ }).click();
    await expect(tray(page)).toHaveAttribute("data-folded", "true");
    await page.reload();
    await expect(tray(page)).toHaveAttribute("data-folded", "true");
    await expect(tray(page).getByRole("button", { name: /^Show/ })).toHaveAttribute("aria-expanded", "false");
    await expectNoSeriousViolations(page, "/visitors with the tray hidden", '[data-testid="exports-tray"]');
    await tray(page).getByRole("button", { name: /^Show/ }).click();
    await exportItem(page)
      .getByRole("button", { name: /^Cancel/ })
      .click();
    await expect(exportItem(page)).toHaveAttribute("data-state", "cancelled", { timeout: 15_000 });
  });
});
