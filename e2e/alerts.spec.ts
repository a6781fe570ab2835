// Alerts in Settings, in Chromium against the running app: a webhook destination added by keyboard
// alone, its signing secret shown once (copied, then gone for good), "Send a test" delivered to a
// real HTTP receiver this spec starts on 127.0.0.1 (testing/webhook-receiver.ts; the request verified
// with that secret by the Standard Webhooks library) and listed as delivered with its 2xx; a refused URL said on its field; a rule
// with the live preview (the sentence matches the preview route's count), added and deleted; a
// destination deleted with its rule and the digest it received, the confirmation saying so; axe in
// both themes on the section with data in it, and at 375 px no sideways scroll with deliveries as
// cards. On a derived key of its own (a workspace nobody else's test touches), in Berlin time: a
// webhook set up to the receiver, a rule added with watching started from its form and judged at once
// on the kept score, edited in place; the digest's time in the workspace's zone and the reader's, its
// preview (text and e-mail), "Send now" arriving signed at the receiver with the preview's text and
// listed as delivered, no finished delivery said as to come. The e2e app allows private addresses
// (WEBHOOK_ALLOW_PRIVATE=true, playwright.config.ts). The store outlives a test, so names are unique
// and every destination made here is deleted.
import { expect, test, type Page } from "@playwright/test";
import { eventText, type EventBody } from "../lib/alerts/messages";
import { startReceiver, verifySignature, type Receiver } from "../testing/webhook-receiver";
import { deriveDemoKey } from "../sandbox/keys";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { BASE_URL, signIn, signInWithKey } from "./helpers/session";

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
    preview.checks === 0
      ? /too short to say/
      : preview.fired === 0
        ? /^Would not have fired in the last 30 days/
        : preview.fired === 1
          ? /^Would have fired once/
          : new RegExp(`^Would have fired ${preview.fired} times`);
  await expect(card.getByTestId("rule-preview-text")).toHaveText(sentence);

  await card.getByLabel("Send to").selectOption({ label: `${name} (webhook)` });
  // Whether the demo workspace is watched depends on the specs run before: without watching, the rule is added alone.
  const only = card.getByRole("button", { name: "Add the rule only" });
  await ((await only.count()) > 0 ? only : card.getByRole("button", { name: "Add rule" })).click();
  await expect(card.getByTestId("rules-status")).toHaveText(
    new RegExp(
      `^Rule added: The score is below 60, sent to ${name}\\. (Checked against what is kept: (not )?firing|Not checked yet: nothing is kept yet to judge it on)\\.$`,
    ),
  );
  const rule = card.getByTestId("rule-item").filter({ hasText: "The score is below 60" }).filter({ hasText: name });
  await expect(rule.getByTestId("rule-state")).toHaveText(/^(Not checked yet|OK|Firing)$/);

  // The digest goes there too.
  const digest = page.getByTestId("digest-card");
  await digest.getByLabel("Send it to").selectOption({ label: name });
  const saveOnly = digest.getByRole("button", { name: "Save only" });
  await ((await saveOnly.count()) > 0 ? saveOnly : digest.getByRole("button", { name: "Save" })).click();
  await expect(digest.getByTestId("digest-status")).toHaveText(`The weekly digest goes to ${name}.`);
  await expect(digest.getByTestId("digest-next")).toHaveText(/^Next digest: Monday \d{1,2} [A-Z][a-z]{2} \d{4} at 09:00 /);

  // Deleting the destination says what goes with it, and takes it.
  const item = page.getByTestId("destination-item").filter({ hasText: name });
  await item.getByRole("button", { name: `Delete ${name}` }).click();
  await expect(item).toContainText(`Delete ${name}? Its rule is deleted too, and the weekly digest is turned off.`);
  await item.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByTestId("destinations-status")).toHaveText(
    `Destination ${name} deleted. Its rule was deleted too, and the weekly digest was turned off.`,
  );
  await expect(rule).toHaveCount(0);
  await expect(digest.getByLabel("Send it to")).toHaveValue("");
  await expect(digest.getByTestId("digest-next")).toHaveText("No digest is sent.");
});

test("a rule deleted in place; watching off is said with a link to its card", async ({ page }) => {
  const name = `Rule target ${RUN}`;
  const created = (await (
    await page.request.post("/api/alerts/destinations", { headers: writeHeaders, data: { kind: "webhook", name, url: receiverUrl } })
  ).json()) as Destination;
  const made = await page.request.post("/api/alerts/rules", {
    headers: writeHeaders,
    data: { kind: "rank_passed", threshold: null, destination_id: created.id },
  });
  expect(made.status(), await made.text()).toBe(201);
  await page.goto("/settings");
  const watching = (await (await page.request.get("/api/workspace")).json()) as { watching: string };
  const notice = page.getByTestId("alerts-watching");
  if (watching.watching === "on") await expect(notice).toHaveCount(0);
  else {
    await expect(notice).toContainText(
      watching.watching === "off"
        ? "Watching is off, so rules are checked only when someone opens the dashboard, and no digest is sent."
        : "Watching is paused",
    );
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
  const created = (await (
    await page.request.post("/api/alerts/destinations", { headers: writeHeaders, data: { kind: "webhook", name, url: receiverUrl } })
  ).json()) as Destination;
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

test.describe("alerts shown to work, on a workspace of its own", () => {
  test.use({ timezoneId: "Europe/Berlin" });

  test("a webhook to the receiver; a rule added with watching and judged at once, edited in place; the digest previewed and sent now, arriving signed and listed", async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const key = deriveDemoKey("pro", "alertstrust");
    await signInWithKey(page, key);
    const name = `Trust ${RUN}`;
    try {
      // A score read (as the overview or /intelligence would) is kept: the rule below is judged on it.
      expect((await page.request.get("/api/intelligence/score")).status()).toBe(200);
      await expect
        .poll(async () => ((await (await page.request.get("/api/workspace")).json()) as { history_since: string | null }).history_since, { timeout: 15_000 })
        .not.toBeNull();

      await page.goto("/settings");
      const destinationsCard = page.getByTestId("destinations-card");
      await destinationsCard.getByLabel("Kind").selectOption("webhook");
      await destinationsCard.getByLabel("Name").fill(name);
      await destinationsCard.getByLabel("URL").fill(receiverUrl);
      await destinationsCard.getByRole("button", { name: "Add destination" }).click();
      const secret = await destinationsCard.getByTestId("destination-secret-value").inputValue();
      await destinationsCard.getByRole("button", { name: "I have copied it" }).click();

      // Not watched: the rule's form offers to start watching, saying what it means; by keyboard, Enter takes it.
      const rules = page.getByTestId("rules-card");
      await expect(rules.getByTestId("rule-watch-offer")).toContainText("which deletes the kept key");
      await rules.getByLabel("Notify when").selectOption("score_below");
      await rules.getByLabel("Send to").selectOption({ label: `${name} (webhook)` });
      const threshold = rules.getByTestId("rule-threshold");
      const sentBefore = receiver.received.length;
      await threshold.fill("100");
      await threshold.press("Enter");
      await expect(rules.getByTestId("rules-status")).toHaveText(
        `Watching is on. Rule added: The score is below 100, sent to ${name}. Checked against what is kept: firing.`,
        { timeout: 20_000 },
      );
      const rule = rules.getByTestId("rule-item").filter({ hasText: "The score is below 100" });
      await expect(rule.getByTestId("rule-state")).toHaveText("Firing");
      await expect(rule.getByTestId("rule-checked")).toHaveText(/^Firing since \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d · Last checked (now|\d+ seconds? ago)$/);
      // Its firing is sent at once, signed.
      const firing = () => receiver.received.slice(sentBefore).find((r) => (r.json as EventBody | undefined)?.type === "alert.firing");
      await expect.poll(() => firing() !== undefined, { timeout: 20_000 }).toBe(true);
      expect(verifySignature(secret, firing()!)).toBe(true);
      // Watching now: the section no longer says it is off.
      await expect(page.getByTestId("alerts-watching")).toHaveCount(0);

      // Edited in place by keyboard: a new threshold, judged at once on the same score.
      await rule.getByRole("button", { name: 'Edit the rule "The score is below 100"' }).press("Enter");
      const edit = rule.getByRole("form", { name: 'Edit the rule "The score is below 100"' });
      const editThreshold = edit.getByLabel("Score below");
      await expect(editThreshold).toBeFocused();
      await expect(editThreshold).toHaveValue("100");
      await editThreshold.fill("1");
      await editThreshold.press("Enter");
      await expect(rules.getByTestId("rules-status")).toHaveText(
        `Rule changed: The score is below 1, sent to ${name}, cooldown 1 hour. Checked against what is kept: not firing.`,
      );
      const edited = rules.getByTestId("rule-item").filter({ hasText: "The score is below 1" });
      await expect(edited.getByTestId("rule-state")).toHaveText("Resolved");
      await expect(edited.getByRole("button", { name: 'Edit the rule "The score is below 1"' })).toBeFocused();

      // The digest: it goes at 09:00 in the zone of the member who sets it up (this Berlin browser's),
      // so the time is said once (both zones are said to a reader elsewhere: alert-text's unit tests).
      const digest = page.getByTestId("digest-card");
      await digest.getByLabel("Send it to").selectOption({ label: name });
      await digest.getByRole("button", { name: "Save" }).click();
      await expect(digest.getByTestId("digest-status")).toHaveText(`The weekly digest goes to ${name}.`);
      await expect(digest.getByTestId("digest-next")).toHaveText(/^Next digest: Monday \d{1,2} [A-Z][a-z]{2} \d{4} at 09:00 \(Berlin time\)\.$/);

      // Watching's first collection keeps the ranking a moment after watching starts: wait until the
      // digest has it, so the preview and the send below read the same kept history.
      const previewText = async () => ((await (await page.request.get("/api/alerts/digest/preview")).json()) as { text: string }).text;
      await expect.poll(previewText, { timeout: 30_000 }).toMatch(/; rank \d+ of \d+/);

      // Preview: the route's text, and the e-mail in its sandboxed frame with its figures as tables.
      await digest.getByRole("button", { name: "Preview" }).click();
      const previewed = (await (await page.request.get("/api/alerts/digest/preview")).json()) as { subject: string; text: string };
      const text = digest.getByTestId("digest-preview-text");
      await expect(text).toHaveText(previewed.text, { timeout: 30_000 });
      await expect(digest.getByTestId("digest-preview-subject")).toHaveText(previewed.subject);
      const email = page.frameLocator("[data-testid=digest-preview-html]");
      await expect(email.getByRole("heading", { level: 1 })).toHaveText(/^\d{1,2} [A-Z][a-z]{2} – \d{1,2} [A-Z][a-z]{2} \d{4}$/);
      await expect(email.getByRole("table", { name: "The week" })).toBeVisible();
      await expect(email.getByRole("rowheader", { name: "Visitors" })).toBeVisible();

      // Send now: one delivery, arriving signed with the preview's text, listed as delivered.
      const before = receiver.received.length;
      await digest.getByRole("button", { name: "Send now" }).click();
      await expect(digest.getByTestId("digest-status")).toHaveText(/^The weekly digest of .+ was sent to .+: its delivery shows under Deliveries\.$/);
      const [arrived] = (await receiver.waitFor(before + 1, 30_000)).slice(before);
      expect(verifySignature(secret, arrived!)).toBe(true);
      const body = arrived!.json as EventBody;
      expect(body.type).toBe("digest.weekly");
      expect(eventText(body)).toBe(previewed.text);
      const deliveries = page.getByTestId("deliveries-table");
      const row = deliveries.getByTestId("delivery-row").filter({ hasText: "Weekly digest" }).first();
      await expect(row.getByTestId("delivery-status")).toHaveText("Delivered", { timeout: 20_000 });
      await expect(row.getByTestId("delivery-response")).toHaveText("HTTP 200");
      // A finished delivery is past: never "in 3 seconds".
      await expect(page.getByTestId("deliveries-card")).not.toContainText(/\bin \d+ seconds?\b/);
      await page.waitForTimeout(1_000);
      expect(receiver.received.slice(before)).toHaveLength(1);

      // Axe on the section with the rule, the digest's preview and its delivery in it; the e-mail on a
      // page of its own (axe cannot run inside the sandboxed frame), read light and dark.
      await expectNoSeriousViolations(page, "alerts with the digest's preview", "[data-testid=alerts-section]", "[data-testid=digest-preview-html]");
      const html = ((await (await page.request.get("/api/alerts/digest/preview")).json()) as { html: string }).html;
      const mail = await page.context().newPage();
      try {
        await mail.setContent(html);
        for (const colorScheme of ["light", "dark"] as const) {
          await mail.emulateMedia({ colorScheme });
          await expectNoSeriousViolations(mail, `the digest's e-mail, ${colorScheme}`);
        }
        // As a phone's mail client shows it: its tables fit, nothing scrolls sideways.
        await mail.setViewportSize({ width: 360, height: 740 });
        await expectNoHorizontalOverflow(mail, "the digest's e-mail at 360 px");
      } finally {
        await mail.close();
      }
    } finally {
      // Everything kept for this workspace goes (watching too), and the file's hooks get their own session back.
      await page.request.delete("/api/workspace", { headers: writeHeaders, data: { confirm: "delete" } });
      await signIn(page, "pro");
    }
  });
});
