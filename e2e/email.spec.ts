// E-mail destinations in Chromium, against the built dashboard and the mail catcher Playwright starts
// beside it (a real SMTP server on loopback; the dashboard's SMTP_URL points there), in a workspace of
// this spec's own: a member adds an address in Settings; its confirmation arrives with RFC 8058's
// headers; the confirmation page (light, and dark at 375 px, axe in both) changes nothing when opened
// and confirms with its button; the confirmed address gets a test and the weekly digest, whose HTML
// is read in Chromium in light and dark (axe); a mail client's one-click POST to the List-Unsubscribe
// address, through the production front server with no cookie and no Origin, stops the destination,
// which Settings and its activity then say; the unsubscribe page answers the same again. No console
// error or warning nor page error on a recipient's pages (the tour leaves these pages to this spec).
// MAIL_SHOTS=<dir> keeps screenshots of the pages and the digest.
import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { deriveDemoKey } from "../sandbox/keys";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { linkIn, mailsTo, type CaughtMail } from "./helpers/mail";
import { BASE_URL, signInWithKey } from "./helpers/session";

const KEY = deriveDemoKey("pro", "e2email");
// A new address each run: the mail catcher keeps what arrived for as long as it runs.
const ADDRESS = `digest-${Date.now().toString(36)}@example.org`;
const HINT = "d…@example.org";
const SHOTS = process.env.MAIL_SHOTS;
const LINK = /^<(http:\/\/127\.0\.0\.1:\d+\/mail\/unsubscribe\/[A-Za-z0-9_-]{43})>$/;

async function shot(page: Page | Locator, name: string) {
  if (!SHOTS) return;
  if ("goto" in page) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  else await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

test.describe.configure({ mode: "serial" });

let confirmation: CaughtMail | undefined;

/** The destination as the member's routes list it. */
async function listed(page: Page) {
  const res = await page.request.get(`${BASE_URL}/api/alerts/destinations`);
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as { data: Array<{ id: string; name: string; status: string; to_hint: string | null }> };
  return data.find((d) => d.name === "Maria")!;
}

/**
 * A page of its own (no session, as a recipient's browser), in `colorScheme`, narrow when asked; closed,
 * it fails on any console error or warning or page error it saw (as the tour does for other pages).
 */
async function recipientPage(browser: Browser, colorScheme: "light" | "dark", narrow = false) {
  const context = await browser.newContext({ colorScheme, ...(narrow ? { viewport: { width: 375, height: 760 } } : {}) });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  return {
    page,
    close: async () => {
      await context.close();
      expect(problems, `the recipient's page (${colorScheme})`).toEqual([]);
    },
  };
}

test("a member adds an e-mail address in Settings, and it is sent a confirmation with one-click unsubscribe", async ({ page }) => {
  await signInWithKey(page, KEY);
  await page.goto("/settings");
  const card = page.getByTestId("destinations-card");
  await card.getByLabel("Kind").selectOption("email");
  await card.getByLabel("Name").fill("Maria");
  await card.getByLabel("E-mail address").fill(ADDRESS);
  await card.getByTestId("destination-add").click();
  await expect(card.getByTestId("destinations-status")).toHaveText(
    `Confirmation sent to ${HINT}. Nothing else goes to Maria until its recipient presses Confirm in that e-mail.`,
  );
  const item = card.getByTestId("destination-item").filter({ hasText: "Maria" });
  await expect(item.getByTestId("destination-status")).toHaveText("Waiting for confirmation");
  await expect(item.getByTestId("destination-url")).toHaveText(`Address, masked: ${HINT}`);
  await expect(item.getByRole("button", { name: /Send a test/ })).toHaveCount(0);
  await expect(card).not.toContainText(ADDRESS);
  await expectNoSeriousViolations(page, "Settings' destinations with an e-mail address", '[data-testid="destinations-card"]');
  await shot(card, "settings-email-destination");

  const [mail] = await mailsTo(ADDRESS, 1);
  expect(mail!.subject).toBe("Confirm that Workspace Analytics may e-mail you");
  expect(mail!.list_unsubscribe).toMatch(LINK);
  expect(mail!.list_unsubscribe_post).toBe("List-Unsubscribe=One-Click");
  expect(mail!.html).toContain(linkIn(mail!.text, "/mail/confirm/"));
  confirmation = mail;
});

test("the confirmation page changes nothing when opened, and its button confirms (light; dark at 375 px)", async ({ browser, page }) => {
  expect(confirmation).toBeDefined();
  const link = linkIn(confirmation!.text, "/mail/confirm/");
  for (const [colorScheme, narrow] of [
    ["light", false],
    ["dark", true],
  ] as const) {
    const recipient = await recipientPage(browser, colorScheme, narrow);
    const opened = await recipient.page.goto(link);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()["x-robots-tag"]).toMatch(/noindex/);
    expect(opened?.headers()["referrer-policy"]).toBe("no-referrer");
    await expect(recipient.page.getByRole("heading", { name: "Confirm your address" })).toBeVisible();
    await expect(recipient.page.getByRole("button", { name: "Confirm" })).toBeVisible();
    await expectNoSeriousViolations(recipient.page, `the confirmation page (${colorScheme})`);
    if (narrow) await expectNoHorizontalOverflow(recipient.page, "the confirmation page at 375 px");
    await shot(recipient.page, `mail-confirm-${colorScheme}`);
    await recipient.close();
  }
  // Opened twice, as a mail scanner would: still waiting.
  await signInWithKey(page, KEY);
  expect((await listed(page)).status).toBe("unconfirmed");

  const recipient = await recipientPage(browser, "light");
  await recipient.page.goto(link);
  await recipient.page.getByRole("button", { name: "Confirm" }).click();
  await expect(recipient.page.getByTestId("mail-done")).toHaveText(
    "Confirmed: alerts and digests of “Maria” will be e-mailed to this address. Every e-mail has a link to unsubscribe.",
  );
  await recipient.close();
  expect((await listed(page)).status).toBe("active");
});

test("confirmed, it gets a test and the weekly digest as text and HTML that reads in light and dark", async ({ page }) => {
  await signInWithKey(page, KEY);
  expect((await page.request.put(`${BASE_URL}/api/workspace/watch`, { headers: { Origin: BASE_URL } })).status()).toBe(200);
  await page.goto("/settings");
  const item = page.getByTestId("destinations-card").getByTestId("destination-item").filter({ hasText: "Maria" });
  await expect(item.getByTestId("destination-status")).toHaveText("Active");
  await item.getByRole("button", { name: "Send a test to Maria" }).click();
  const test = (await mailsTo(ADDRESS, 2))[1]!;
  expect(test.subject).toMatch(/^Test message: A test from Workspace Analytics to “Maria”/);
  expect(test.list_unsubscribe).toBe(confirmation!.list_unsubscribe);

  const destination = await listed(page);
  const headers = { Origin: BASE_URL };
  expect((await page.request.put(`${BASE_URL}/api/alerts/digest`, { headers, data: { destination_id: destination.id } })).status()).toBe(200);
  expect((await page.request.post(`${BASE_URL}/api/alerts/digest/send`, { headers })).status()).toBe(202);
  const digest = (await mailsTo(ADDRESS, 3))[2]!;
  expect(digest.subject).toMatch(/^Weekly digest, /);
  expect(digest.list_unsubscribe).toBe(confirmation!.list_unsubscribe);
  expect(digest.list_unsubscribe_post).toBe("List-Unsubscribe=One-Click");
  expect(digest.text).toContain("Unsubscribe");
  expect(digest.html).toMatch(/<table[\s>]/);
  // Its links lead to this dashboard (PUBLIC_URL), and the unsubscribe link is the header's.
  const hrefs = [...digest.html!.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
  expect(hrefs.length).toBeGreaterThan(1);
  for (const href of hrefs) expect(href.startsWith(`${BASE_URL}/`), href).toBe(true);
  expect(hrefs).toContain(LINK.exec(digest.list_unsubscribe!)![1]);

  // Read as a mail client shows it: the HTML on its own, in both schemes.
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setContent(digest.html!);
    await expect(page.locator("table").first()).toBeVisible();
    await expectNoSeriousViolations(page, `the digest's HTML (${colorScheme})`);
    await shot(page, `digest-email-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: null });
});

test("for recipients without the key, the digest's links open a share link chosen in Settings, the shared page's figures only", async ({ page }) => {
  await signInWithKey(page, KEY);
  const made = await page.request.post(`${BASE_URL}/api/shares`, {
    headers: { Origin: BASE_URL },
    data: { name: "AI traffic for the team", path: "/platforms", query: { range: "30d" } },
  });
  expect(made.status(), await made.text()).toBe(201);
  const shared = new URL(((await made.json()) as { url: string }).url).pathname;

  await page.goto("/settings");
  const card = page.getByTestId("digest-form");
  await expect(card.getByTestId("digest-destination")).toHaveValue((await listed(page)).id);
  await card.getByLabel("Links in the digest").selectOption({ label: "Share link: AI traffic for the team (AI platforms)" });
  await card.getByTestId("digest-save").click();
  await expect(page.getByTestId("digest-status")).not.toBeEmpty();
  await expectNoSeriousViolations(page, "Settings' digest with its links", '[data-testid="digest-form"]');
  await shot(card, "settings-digest-links");
  await page.getByTestId("digest-send").click();

  const digest = (await mailsTo(ADDRESS, 4))[3]!;
  const hrefs = [...digest.html!.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
  const unsubscribe = LINK.exec(digest.list_unsubscribe!)![1]!;
  const figures = hrefs.filter((h) => h !== unsubscribe);
  // The AI platforms' figures (and the "open" link) go to the shared page for the week; the overview's
  // and Intelligence's figures have none: nothing asks the recipient for a key.
  expect(figures.length).toBeGreaterThanOrEqual(2);
  for (const href of figures) expect(href, href).toMatch(new RegExp(`^${BASE_URL}${shared}\\?from=\\d{4}-\\d{2}-\\d{2}&to=\\d{4}-\\d{2}-\\d{2}&tz=`));
  expect(`${digest.text}${digest.html}`).not.toContain("~share.");
  // The link as sent opens the shared page.
  const opened = await fetch(figures[0]!, { redirect: "manual" });
  expect(opened.status).toBe(200);
});

test("a mail client's one-click unsubscribe stops it; Settings and its activity say so; the page answers the same again", async ({ browser, page }) => {
  const target = LINK.exec(confirmation!.list_unsubscribe ?? "")![1]!;
  // RFC 8058: the client's POST, from its own servers: no cookie, no Origin, a form body.
  const res = await fetch(target, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
    redirect: "manual",
  });
  expect(res.status).toBe(200);

  await signInWithKey(page, KEY);
  expect((await listed(page)).status).toBe("unsubscribed");
  await page.goto("/settings");
  const item = page.getByTestId("destinations-card").getByTestId("destination-item").filter({ hasText: "Maria" });
  await expect(item.getByTestId("destination-status")).toHaveText("Unsubscribed");
  await expect(item.getByTestId("destination-stopped")).toHaveText("Its recipient unsubscribed: nothing more is sent there.");
  const activity = page.getByTestId("activity-row").filter({ hasText: "Unsubscribed from an e-mail destination" });
  await expect(activity).toHaveCount(1);
  await expect(activity).toContainText(HINT);

  const light = await recipientPage(browser, "light");
  await light.page.goto(target);
  await expect(light.page.getByRole("heading", { name: "Unsubscribe" })).toBeVisible();
  await expectNoSeriousViolations(light.page, "the unsubscribe page (light)");
  await light.close();
  const recipient = await recipientPage(browser, "dark", true);
  await recipient.page.goto(target);
  await expect(recipient.page.getByRole("heading", { name: "Unsubscribe" })).toBeVisible();
  await expectNoSeriousViolations(recipient.page, "the unsubscribe page (dark)");
  await expectNoHorizontalOverflow(recipient.page, "the unsubscribe page at 375 px");
  await recipient.page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(recipient.page.getByTestId("mail-done")).toHaveText("Unsubscribed: nothing more from “Maria” is sent to this address.");
  await shot(recipient.page, "mail-unsubscribe-dark");
  await recipient.close();
});
