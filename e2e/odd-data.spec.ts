// Every page and widget over odd upstream data (lib/data-api/README.md "Tolerance of real data"): the sandbox's
// oddRate fault makes every item odd (nulls, numeric strings, unknown enum values, impossible dates,
// a string for an array) and a fifth of the list items unreadable, for this spec's own demo key only.
// Nothing may crash or blank: bad fields show "—", unknown values show as sent, and each table, feed,
// timeline or chart says how many rows it could not read, with the request id. What to expect is
// read from the sandbox's own answer to the same request (its oddities are fixed per item).
// ODD_DATA_SCREENSHOTS=<dir> also saves every page at 1440 and 375 px.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { secretPart } from "../lib/data-api/redact";
import { clearFaults, DEMO_KEYS, numberText, sandboxGet, setFaults } from "./helpers/sandbox";
import { signInWithKey, waitForWidgets } from "./helpers/session";

const KEY = DEMO_KEYS.odd;
type Item = Record<string, unknown>;
type List = { data: unknown[] };

test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  await setFaults({ oddRate: 1, keys: [KEY] });
});
test.afterAll(async () => {
  await clearFaults([KEY]);
});

const isObject = (v: unknown): v is Item => typeof v === "object" && v !== null && !Array.isArray(v);
/** The sandbox's unreadable items: not an object, or an object without any of its identity fields. */
const isUnreadable = (item: unknown, identity: string[]) => !isObject(item) || identity.every((k) => !(k in item));
const readable = (items: unknown[], identity: string[]) => items.filter((i): i is Item => !isUnreadable(i, identity));
const unreadableCount = (items: unknown[], identity: string[]) => items.filter((i) => isUnreadable(i, identity)).length;

/** What the UI shows for an integer field as sent: the number (also from a numeric string), else "—". */
function integerText(value: unknown): string {
  if (typeof value === "number" && Number.isSafeInteger(value)) return numberText(value);
  if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) return numberText(Number(value));
  return "—";
}

/** Fails the test on any uncaught error in the page (a crashed widget). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

async function expectWhole(page: Page, errors: string[]) {
  await waitForWidgets(page);
  await expect(page.locator("h1")).toBeVisible();
  await expect(page.getByText("Application error")).toHaveCount(0);
  await expect(page.getByTestId("widget-error")).toHaveCount(0);
  expect(errors).toEqual([]);
}

async function expectNotice(scope: Locator, count: number, noun: readonly [string, string]) {
  const notice = scope.getByTestId("unreadable-notice");
  if (count === 0) {
    await expect(notice).toHaveCount(0);
    return;
  }
  await expect(notice).toContainText(`${count} ${count === 1 ? noun[0] : noun[1]} could not be read`);
  await expect(notice.getByTestId("unreadable-request-id")).toHaveText(/^req_[0-9a-f]+$/);
}

async function screenshots(page: Page, name: string) {
  const dir = process.env.ODD_DATA_SCREENSHOTS;
  if (!dir) return;
  for (const [width, height] of [
    [1440, 900],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    // Charts below the fold are drawn once the browser is idle, without a scroll.
    await expect(page.getByTestId("chart-placeholder")).toHaveCount(0);
    await waitForWidgets(page);
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
    await page.screenshot({ path: `${dir}/${name}-${width}-top.png` });
  }
}

test("overview: KPIs, pageviews, funnel, score and top of the ranking", async ({ page }) => {
  const errors = watchErrors(page);
  await signInWithKey(page, KEY);
  const overview = await sandboxGet<Record<string, Item>>("/analytics/overview?period=30d", KEY);
  const funnel = await sandboxGet<List>("/analytics/funnel?period=30d", KEY);
  const score = await sandboxGet<Item>("/intelligence/score", KEY);
  const ranking = await sandboxGet<List>("/intelligence/ranking", KEY);
  await page.goto("/");
  await expectWhole(page, errors);

  await expect(page.getByTestId("kpi-pageviews").getByTestId("kpi-value")).toHaveText(integerText(overview.pageviews?.total));
  for (const id of ["range-kpi-visitors", "range-kpi-ai", "range-kpi-conversions"])
    await expect(page.getByTestId(id).getByTestId("kpi-value")).toHaveText(/^[\d,]+$/);
  await expect(page.getByTestId("score-value")).toHaveText(integerText(score.score));

  const periodCard = page.getByTestId("period-card");
  await expect(periodCard.getByTestId("funnel-table")).toBeVisible();
  await expectNotice(periodCard, unreadableCount(funnel.data, ["stage"]), ["stage", "stages"]);

  await expect(page.getByTestId("top-ranking")).toBeVisible();
  await expectNotice(page.getByTestId("score-card"), unreadableCount(ranking.data, ["name"]), ["ranking row", "ranking rows"]);
  // Over this much odd data some value is always unreadable somewhere on the page.
  await expect(page.getByText("—").first()).toBeVisible();
  await screenshots(page, "overview");
});

test("visitors: every readable row, '—' for bad fields, numeric strings read, unknown sources as sent, the notice", async ({ page }) => {
  const errors = watchErrors(page);
  await signInWithKey(page, KEY);
  const upstream = await sandboxGet<List & { meta: Item }>("/visitors?limit=100&offset=0", KEY);
  const rows = readable(upstream.data, ["id"]);
  const lost = unreadableCount(upstream.data, ["id"]);
  expect(lost).toBeGreaterThan(0);
  await page.goto("/visitors?limit=100");
  await expectWhole(page, errors);

  await expect(page.getByTestId("visitor-row")).toHaveCount(rows.length);
  await expectNotice(page.locator("main"), lost, ["row", "rows"]);
  await expect(page.getByTestId("range")).toContainText("1–100");

  const rowOf = (v: Item) => page.getByTestId("visitor-row").filter({ hasText: String(v.id) });
  const pagesCell = (v: Item) => rowOf(v).locator('[data-column="pages_viewed"]');
  const missingPages = rows.find((v) => v.pages_viewed === null || !("pages_viewed" in v));
  const textPages = rows.find((v) => typeof v.pages_viewed === "string" && /^\s*\d+\s*$/.test(v.pages_viewed));
  const bing = rows.find((v) => v.source === "bing");
  const newsletter = rows.find((v) => v.intent === "newsletter");
  expect(missingPages && textPages && bing && newsletter, "the sandbox's page holds each kind of oddity").toBeTruthy();
  await expect(pagesCell(missingPages!)).toHaveText("—");
  await expect(pagesCell(textPages!)).toHaveText(integerText(textPages!.pages_viewed));
  await expect(rowOf(bing!).getByTestId("unknown-value")).toHaveText("bing");
  await expect(rowOf(newsletter!).getByTestId("unknown-value")).toHaveText("newsletter");
  await screenshots(page, "visitors");
});

test("visitor detail and timeline: odd fields and unreadable events", async ({ page }) => {
  const errors = watchErrors(page);
  await signInWithKey(page, KEY);
  // A visitor whose timeline holds both an unreadable event and an unknown event type.
  const candidates = readable((await sandboxGet<List>("/visitors?limit=40&offset=0&converted=true", KEY)).data, ["id"]);
  let chosen: { id: string; events: unknown[] } | undefined;
  for (const v of candidates) {
    const events = (await sandboxGet<List>(`/visitors/${String(v.id)}/timeline`, KEY)).data;
    const unknownType = readable(events, ["type", "occurred_at"]).some((e) => e.type === "video_play");
    if (unknownType && unreadableCount(events, ["type", "occurred_at"]) > 0) {
      chosen = { id: String(v.id), events };
      break;
    }
  }
  expect(chosen, "a visitor with an unreadable and an unknown-type event").toBeDefined();
  const { id, events } = chosen!;
  await page.goto(`/visitors/${id}`);
  await expectWhole(page, errors);

  await expect(page.getByTestId("visitor-details")).toContainText(id);
  const timeline = page.getByTestId("timeline-card");
  await expect(timeline.getByTestId("timeline-event")).toHaveCount(readable(events, ["type", "occurred_at"]).length);
  await expectNotice(timeline, unreadableCount(events, ["type", "occurred_at"]), ["event", "events"]);
  await expect(timeline.getByTestId("unknown-value").filter({ hasText: "video_play" }).first()).toBeVisible();
  await page.goto(`/visitors/${id}?order=oldest`);
  await expectWhole(page, errors);
  await screenshots(page, "visitor");
});

test("mentions: unknown platforms and sentiments as sent, '—' for a missing position, the notice", async ({ page }) => {
  const errors = watchErrors(page);
  await signInWithKey(page, KEY);
  const upstream = await sandboxGet<List>("/mentions?limit=100&offset=0", KEY);
  const cards = readable(upstream.data, ["id"]);
  await page.goto("/mentions?limit=100");
  await expectWhole(page, errors);

  await expect(page.getByTestId("mention-card")).toHaveCount(cards.length);
  await expectNotice(page.locator("main"), unreadableCount(upstream.data, ["id"]), ["mention", "mentions"]);
  const cardOf = (m: Item) => page.getByTestId("mention-card").nth(cards.indexOf(m));
  const copilot = cards.find((m) => m.platform === "copilot");
  const mixed = cards.find((m) => m.sentiment === "mixed");
  const noPosition = cards.find((m) => m.position === null || !("position" in m));
  expect(copilot && mixed && noPosition, "the sandbox's page holds each kind of oddity").toBeTruthy();
  await expect(cardOf(copilot!).getByTestId("unknown-value").filter({ hasText: "copilot" })).toBeVisible();
  await expect(cardOf(mixed!).getByTestId("unknown-value").filter({ hasText: "mixed" })).toBeVisible();
  await expect(cardOf(noPosition!)).toContainText("Position —");
  await screenshots(page, "mentions");
});

test("intelligence: score, components and the full ranking", async ({ page }) => {
  const errors = watchErrors(page);
  await signInWithKey(page, KEY);
  const score = await sandboxGet<Item>("/intelligence/score", KEY);
  const ranking = await sandboxGet<List>("/intelligence/ranking", KEY);
  await page.goto("/intelligence");
  await expectWhole(page, errors);

  await expect(page.getByTestId("score-value")).toHaveText(integerText(score.score));
  await expect(page.getByTestId("breakdown-card")).toBeVisible();
  await expect(page.getByTestId("ranking-row")).toHaveCount(readable(ranking.data, ["name"]).length);
  await expectNotice(page.getByTestId("ranking-card"), unreadableCount(ranking.data, ["name"]), ["row", "rows"]);
  await screenshots(page, "intelligence");
});

test("exports: every readable row in the file, and the unreadable ones reported when the download ends", async ({ page }) => {
  const errors = watchErrors(page);
  await signInWithKey(page, KEY);
  const filters = "source=claude&converted=true";
  const items: unknown[] = [];
  for (let offset = 0; ; offset += 100) {
    const pageOf = await sandboxGet<{ data: unknown[]; meta: { total: unknown } }>(`/visitors?${filters}&limit=100&offset=${offset}`, KEY);
    items.push(...pageOf.data);
    if (pageOf.data.length < 100) break;
  }
  const expected = readable(items, ["id"]);
  const skipped = unreadableCount(items, ["id"]);
  expect(skipped).toBeGreaterThan(0);
  await page.goto(`/visitors?${filters}`);
  await expectWhole(page, errors);

  const region = page.getByTestId("export-visitors");
  const downloading = page.waitForEvent("download");
  await region.getByRole("button", { name: /^Export/ }).click();
  const download = await downloading;
  const { readFile } = await import("node:fs/promises");
  const lines = (await readFile((await download.path())!, "utf8")).split("\r\n").filter(Boolean);
  expect(lines.slice(1).map((l) => l.slice(1, l.indexOf('"', 1)))).toEqual(expected.map((v) => String(v.id)));
  // The exports tray reports them once the download has ended.
  await expect(page.getByTestId("exports-tray").getByTestId("export-item").first()).toContainText(
    `${skipped} ${skipped === 1 ? "row" : "rows"} could not be read and ${skipped === 1 ? "was" : "were"} left out (request req_`,
  );
});

test("an upstream that echoes the key: not in any page's HTML (the dehydrated state included) or API response", async ({ page }) => {
  // Twelve page loads (each page's HTML, then the page in the browser), the overview's insights among them.
  test.setTimeout(90_000);
  await setFaults({ oddRate: 1, echoKey: true, keys: [KEY] });
  await signInWithKey(page, KEY);
  const id = String(readable((await sandboxGet<List>("/visitors?limit=5&offset=0", KEY)).data, ["id"])[0]!.id);
  // The upstream does echo it, so the checks below are not vacuous.
  expect(JSON.stringify(await sandboxGet("/visitors?limit=5&offset=0", KEY))).toContain(KEY);

  const seen: string[] = [];
  // Each API answer the browser got, read whole before the checks below (a handler still reading when
  // the test ended once met its page closed, and failed the test).
  const reading: Promise<void>[] = [];
  page.on("response", (res) => {
    if (!res.url().includes("/api/")) return;
    reading.push(
      (async () => {
        const headers = await res.allHeaders().catch(() => ({}));
        seen.push(`${res.url()} ${JSON.stringify(headers)} ${await res.text().catch(() => "")}`);
      })(),
    );
  });
  for (const path of ["/", "/visitors?limit=100", `/visitors/${id}`, "/mentions?limit=100", "/intelligence", "/settings"]) {
    // The server-rendered HTML, with the React Query state the server prefetched into it.
    const html = await page.request.get(path);
    expect(html.status(), path).toBe(200);
    seen.push(`${path} ${await html.text()}`);
    await page.goto(path);
    await waitForWidgets(page);
    seen.push(`${path} DOM ${await page.content()}`);
  }
  await Promise.all(reading);
  const all = seen.join("\n");
  expect(all).toContain("could not be read");
  expect(all).not.toContain(KEY);
  expect(all).not.toContain(secretPart(KEY));
  await setFaults({ oddRate: 1, keys: [KEY] });
});
