// Settings' "History and watching" card in Chromium, with the keyboard: watching turned on and off
// (the state said in words, the result announced in the live region, each change a line of the
// activity list with this session's key, axe on it and no sideways scroll at 375 px), another
// workspace's key refused in plain words on its field, and a key of the same workspace linked and
// listed by its hint (Settings' unlink and delete: components/settings/settings-keys-delete.test.tsx;
// every demo key is shared by the specs, whose sessions an unlink or a delete would end).
// The empty demo workspace is toggled (no other spec changes its watching); the end state is the start state.
import { expect, test } from "@playwright/test";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { DEMO_KEYS } from "./helpers/sandbox";
import { signIn } from "./helpers/session";

test("watching on and off, said plainly and announced", async ({ page }) => {
  await signIn(page, "empty");
  await page.goto("/settings");
  const card = page.getByTestId("watching-card");
  const state = card.getByTestId("watching-state");
  await expect(state).toBeVisible();
  // A run stopped half-way leaves it on: start from off.
  if ((await state.textContent())?.includes("On")) {
    await card.getByRole("button", { name: "Stop watching" }).click();
    await expect(state).toContainText("Off");
  }
  await expect(state).toContainText("History is kept only when someone opens the score or the ranking.");
  await expect(card).toContainText("Turning it off deletes the kept key at once");

  const on = card.getByRole("button", { name: "Start watching" });
  await on.focus();
  await page.keyboard.press("Enter");
  await expect(card.getByRole("status")).toHaveText("Watching is on: your key is kept sealed on this server.");
  await expect(state).toContainText("On");
  await expect(state).toContainText("collected every hour");

  await card.getByRole("button", { name: "Stop watching" }).click();
  await expect(card.getByRole("status")).toHaveText("Watching is off: the kept key was deleted.");
  await expect(state).toContainText("Off");
  // Each change is a line of the activity list, newest first, with the key it was made with.
  const activity = page.getByTestId("activity-card").getByTestId("activity-row");
  await expect(activity.nth(0)).toContainText("Stopped watching");
  await expect(activity.nth(1)).toContainText("Started watching");
  await expect(activity.nth(0)).toContainText("svc_sk_test_…3f1dthis key");
  await expectNoSeriousViolations(page, "the activity list", '[data-testid="activity-card"]');
  // On a phone each change stacks (when and key, what below) and nothing scrolls sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(activity.nth(0)).toContainText("Stopped watching");
  await expectNoHorizontalOverflow(page, "Settings at 375 px");
  await expectNoSeriousViolations(page, "the activity list at 375 px", '[data-testid="activity-card"]');
  await page.setViewportSize({ width: 1280, height: 800 });
  // Turning watching off keeps the history: the card says where it begins, as the workspace route does
  // (other specs' page views of this workspace may already have kept a score).
  const { history_since } = (await (await page.request.get("/api/workspace")).json()) as { history_since: string | null };
  await expect(card.getByTestId("history-since")).toContainText(history_since === null ? "no history yet" : /History since \d{1,2} [A-Z][a-z]{2} \d{4}/);
});

test("another workspace's key is refused in plain words; a key of this workspace is linked", async ({ page }) => {
  await signIn(page, "empty");
  await page.goto("/settings");
  const card = page.getByTestId("watching-card");
  const field = card.getByLabel("Link another key of this workspace");
  await field.fill(DEMO_KEYS.pro);
  await page.keyboard.press("Enter");
  await expect(card.getByTestId("link-key-error")).toHaveText(/That key opens another workspace/);
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(card.getByTestId("linked-keys").getByRole("listitem")).toHaveCount(1);

  await signIn(page, "limited");
  await page.goto("/settings");
  await field.fill(DEMO_KEYS.free);
  await card.getByRole("button", { name: "Link key" }).click();
  // The free key may have opened a workspace of its own in another spec first: then the two are merged.
  await expect(card.getByRole("status")).toHaveText(
    /^Key svc_sk_test_…5b2d linked(: signing in with it opens this workspace\.|\. It had been used on its own: .+)$/,
  );
  await expect(card.getByTestId("linked-keys")).toContainText("svc_sk_test_…5b2d");
  await expect(field).toHaveValue("");
  await expect(page.locator("body")).not.toContainText(DEMO_KEYS.free);
});
