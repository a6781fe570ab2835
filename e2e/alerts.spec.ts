// Alerts in Settings, in Chromium against the running app: a webhook destination added by keyboard
// alone, its signing secret shown once (copied, then gone for good), "Send a test" delivered to a
// real HTTP receiver this spec starts on 127.0.0.1 (testing/webhook-receiver.ts; the request verified
// with that secret by the Standard Webhooks library) and listed as delivered with its 2xx; a refused URL said on its field; a rule
// with the live preview (the sentence matches the preview route's count), added and deleted; a
// destination deleted with its rule and the digest it received, the confirmation saying so; axe in
// both themes on the section with data in it, and at 375 px no sideways scroll with deliveries as
// cards. The e2e app allows private addresses (WEBHOOK_ALLOW_PRIVATE=true, playwright.config.ts).
// The store outlives a run, so names are unique and every destination made here is deleted.
import { expect, test, type Page } from "@playwright/test";
import { startReceiver, verifySignature, type Receiver } from "../testing/webhook-receiver";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { BASE_URL, signIn } from "./helpers/session";

type Destination = { id: string; name: string };

let receiver: Receiver;
let receiverUrl = "";

test.beforeAll(async () => {
  receiver = await startReceiver();
  receiverUrl = receiver.url;
});

test.afterAll(async () => {
  await receiver.close();
});

const RUN = `${Date.now()}`;
const writeHeaders = { Origin: BASE_URL };
const destinations = async (page: Page) => ((await (await page.request.get("/api/alerts/destinations")).json()) as { data: Destination[] }).data;

/** Deletes what this run made (by its names), whatever the test's outcome. */
async function cleanUp(page: Page) {
  for (const d of await destinations(page)) {
    if (d.name.includes(RUN)) await page.request.delete(`/api/alerts/destinations/${d.id}`, { headers: writeHeaders });
  }
}

test.beforeEach(async ({ page }) => {
  await signIn(page, "pro");
});

test.afterEach(async ({ page }) => {
  await cleanUp(page);
});

test("a webhook added by keyboard: the secret once, a test delivered with 2xx to a real receiver", async ({ page, context }) => {
  // Two axe passes and a delivery on a loaded machine: 66 s measured here.
  test.setTimeout(150_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE_URL });
  const name = `Receiver ${RUN}`;
  await page.goto("/settings");
  const card = page.getByTestId("destinations-card");

  // Keyboard only: the form's fields in order, Enter submits.
  const kind = card.getByLabel("Kind");
  await kind.focus();
  await page.keyboard.press("ArrowDown");
  await expect(kind).toHaveValue("webhook");
  await page.keyboard.press("Tab");
  await expect(card.getByLabel("Name")).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press("Tab");
  await expect(card.getByLabel("URL")).toBeFocused();
  await page.keyboard.type("not a url");
  await page.keyboard.press("Enter");
  // Refused on its field, focus put there.
  const url = card.getByLabel("URL");
  await expect(url).toHaveAttribute("aria-invalid", "true");
  await expect(url).toBeFocused();
  await expect(card.locator(`#${await url.getAttribute("id")}-error`)).toBeVisible();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(receiverUrl);
  await page.keyboard.press("Enter");

  // The secret, once: focused and selected, copied by the button, with the warning.
  const secretBox = card.getByTestId("destination-secret");
  await expect(secretBox).toContainText("It will not be shown again.");
  const secretField = secretBox.getByTestId("destination-secret-value");
  await expect(secretField).toBeFocused();
  const secret = await secretField.inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{16,}$/);
  await expect(card.getByTestId("destinations-status")).toHaveText(`Webhook ${name} added. Copy its signing secret now: it will not be shown again.`);
  await page.keyboard.press("Tab");
  await expect(secretBox.getByRole("button", { name: "Copy" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(card.getByTestId("destinations-status")).toHaveText("Signing secret copied to the clipboard.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(secretBox).toHaveCount(0);

  // Listed with the URL masked; the secret is nowhere on the page, nor after a reload.
  const item = card.getByTestId("destination-item").filter({ hasText: name });
  const listed = (await destinations(page)).find((d) => d.name === name) as (Destination & { url_hint: string }) | undefined;
  expect(listed).toBeDefined();
  await expect(item.getByTestId("destination-url")).toContainText(listed!.url_hint);
  expect(listed!.url_hint).not.toBe(receiverUrl);
  await expect(page.locator("body")).not.toContainText(secret);
  await page.reload();
  await expect(item).toBeVisible();
  expect(await page.content()).not.toContain(secret);

  // Send a test, by keyboard: announced, delivered to the receiver signed with that secret, listed as delivered with its 2xx.
  const before = receiver.received.length;
  await item.getByRole("button", { name: `Send a test to ${name}` }).focus();
  await page.keyboard.press("Enter");
  await expect(card.getByTestId("destinations-status")).toHaveText(`Test sent to ${name}: its delivery shows under Deliveries.`);
  const [request] = (await receiver.waitFor(before + 1, 20_000)).slice(before);
  expect(request!.json).toMatchObject({ type: "test" });
  // The Standard Webhooks library verifies it with the secret the page showed.
  expect(verifySignature(secret, request!)).toBe(true);
  const row = page.getByTestId("deliveries-table").getByTestId("delivery-row").filter({ hasText: name }).first();
  await expect(row).toContainText("Test");
  await expect(row.getByTestId("delivery-status")).toHaveText("Delivered", { timeout: 20_000 });
  await expect(row.getByTestId("delivery-response")).toHaveText("HTTP 200");

  // Axe on the section with a destination and a delivery in it, in this (light) theme and in dark.
  await expectNoSeriousViolations(page, "alerts, light", "[data-testid=alerts-section]");
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoSeriousViolations(page, "alerts, dark", "[data-testid=alerts-section]");

  // Deleted by keyboard, asked first; focus stays in the card.
  await item.getByRole("button", { name: `Delete ${name}` }).focus();
  await page.keyboard.press("Enter");
  await expect(item.getByRole("button", { name: "Yes, delete" })).toBeFocused();
  await expect(item).toContainText("No rule and no digest sends to it.");
  await page.keyboard.press("Enter");
  await expect(card.getByTestId("destinations-status")).toHaveText(`Destination ${name} deleted.`);
  await expect(item).toHaveCount(0);
  expect((await destinations(page)).some((d) => d.name === name)).toBe(false);
});

test("a rule with its preview, and a destination deleted with its rule and the digest", async ({ page }) => {
  test.setTimeout(90_000);
  const name = `Ops ${RUN}`;
  const created = await page.request.post("/api/alerts/destinations", { headers: writeHeaders, data: { kind: "webhook", name, url: receiverUrl } });
  expect(created.status(), await created.text()).toBe(201);
  await page.goto("/settings");
  const card = page.getByTestId("rules-card");
  await card.getByLabel("Notify when").selectOption("score_below");
  const threshold = card.getByTestId("rule-threshold");

  // Out of bounds: said on the field by the preview route, as the create would.
  await threshold.fill("101");
  await expect(threshold).toHaveAttribute("aria-invalid", "true");
  await threshold.fill("60");
  await expect(threshold).not.toHaveAttribute("aria-invalid", "true");
  const preview = (await (await page.request.get("/api/alerts/rules/preview?kind=score_below&threshold=60")).json()) as { fired: number; checks: number };
  const sentence =
    preview.checks === 0 ? /too short to say/ : preview.fired === 0 ? /^Would not have fired in the last 30 days/ : preview.fired === 1 ? /^Would have fired once/ : new RegExp(`^Would have fired ${preview.fired} times`);
  await expect(card.getByTestId("rule-preview-text")).toHaveText(sentence);

  await card.getByLabel("Send to").selectOption({ label: `${name} (webhook)` });
  await card.getByRole("button", { name: "Add rule" }).click();
  await expect(card.getByTestId("rules-status")).toHaveText(`Rule added: The score is below 60, sent to ${name}.`);
  const rule = card.getByTestId("rule-item").filter({ hasText: "The score is below 60" }).filter({ hasText: name });
  await expect(rule.getByTestId("rule-state")).toHaveText(/^(OK|Firing)$/);

  // The digest goes there too.
  const digest = page.getByTestId("digest-card");
  await digest.getByLabel("Send it to").selectOption({ label: name });
  await digest.getByRole("button", { name: "Save" }).click();
  await expect(digest.getByTestId("digest-status")).toHaveText(`The weekly digest goes to ${name}.`);
  await expect(digest.getByTestId("digest-next")).toHaveText(/^Next digest: \d{1,2} [A-Z][a-z]{2} \d{4}, 09:00 \(/);

  // Deleting the destination says what goes with it, and takes it.
  const item = page.getByTestId("destination-item").filter({ hasText: name });
  await item.getByRole("button", { name: `Delete ${name}` }).click();
  await expect(item).toContainText(`Delete ${name}? Its rule is deleted too, and the weekly digest is turned off.`);
  await item.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByTestId("destinations-status")).toHaveText(`Destination ${name} deleted. Its rule was deleted too, and the weekly digest was turned off.`);
  await expect(rule).toHaveCount(0);
  await expect(digest.getByLabel("Send it to")).toHaveValue("");
  await expect(digest.getByTestId("digest-next")).toHaveText("No digest is sent.");
});

test("a rule deleted in place; watching off is said with a link to its card", async ({ page }) => {
  const name = `Rule target ${RUN}`;
  const created = (await (await page.request.post("/api/alerts/destinations", { headers: writeHeaders, data: { kind: "webhook", name, url: receiverUrl } })).json()) as Destination;
  const made = await page.request.post("/api/alerts/rules", { headers: writeHeaders, data: { kind: "rank_passed", threshold: null, destination_id: created.id } });
  expect(made.status(), await made.text()).toBe(201);
  await page.goto("/settings");
  const watching = (await (await page.request.get("/api/workspace")).json()) as { watching: string };
  const notice = page.getByTestId("alerts-watching");
  if (watching.watching === "on") await expect(notice).toHaveCount(0);
  else {
    await expect(notice).toContainText(watching.watching === "off" ? "Watching is off, so no rule is checked and no digest is sent." : "Watching is paused");
    await notice.getByRole("link", { name: "History and watching" }).click();
    await expect(page).toHaveURL(/#watching$/);
  }

  const card = page.getByTestId("rules-card");
  const rule = card.getByTestId("rule-item").filter({ hasText: name });
  await expect(rule).toContainText("A competitor passes us in the ranking");
  await rule.getByRole("button", { name: 'Delete the rule "A competitor passes us in the ranking"' }).click();
  await rule.getByRole("button", { name: "Yes, delete" }).click();
  await expect(card.getByTestId("rules-status")).toHaveText("Rule deleted: A competitor passes us in the ranking.");
  await expect(rule).toHaveCount(0);
});

test("375 px: no sideways scroll, deliveries as cards, axe on the section", async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await signIn(page, "pro");
  const name = `Phone ${RUN}`;
  const created = (await (await page.request.post("/api/alerts/destinations", { headers: writeHeaders, data: { kind: "webhook", name, url: receiverUrl } })).json()) as Destination;
  const test202 = await page.request.post(`/api/alerts/destinations/${created.id}/test`, { headers: writeHeaders });
  expect(test202.status()).toBe(202);
  try {
    await page.goto("/settings");
    const cards = page.getByTestId("deliveries-table-cards");
    await expect(cards.getByTestId("delivery-row-card").filter({ hasText: name }).first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("deliveries-table")).toBeHidden();
    await expectNoHorizontalOverflow(page, "/settings with alerts at 375 px");
    await expectNoSeriousViolations(page, "alerts at 375 px", "[data-testid=alerts-section]");
  } finally {
    await cleanUp(page);
    await context.close();
  }
});
