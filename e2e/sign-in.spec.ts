// Sign-in page: demo keys, a pasted key, the three kinds of bad key, ?next=, and sign out.
import { expect, test } from "@playwright/test";
import { DEMO_KEYS } from "./helpers/sandbox";
import { signIn } from "./helpers/session";
import { REVOKED_KEY } from "../sandbox/keys";

test.describe("sign in", () => {
  test("a page without a session goes to sign-in and comes back to the same view after a demo key", async ({ page }) => {
    await page.goto("/visitors?source=chatgpt");
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await page.getByTestId("demo-pro").click();
    await expect(page).toHaveURL(/\/visitors\?source=chatgpt$/);
    await expect(page.getByRole("heading", { level: 1, name: "Visitors" })).toBeVisible();
    await expect(page.getByTestId("test-data-badge")).toBeVisible();
  });

  test("a pasted key signs in; the key never appears in the page", async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByLabel("API key").fill(DEMO_KEYS.pro);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    await page.goto("/settings");
    await expect(page.getByTestId("key-hint")).toHaveText(/^svc_sk_test_…/);
    expect(await page.content()).not.toContain(DEMO_KEYS.pro);
  });

  const badKeys = [
    { name: "a malformed key", key: "not-a-key", title: "That is not an API key" },
    { name: "a revoked key", key: REVOKED_KEY, title: "Key rejected" },
    { name: "an unknown live key", key: "svc_sk_live_0123456789abcdef", title: "Key rejected" },
  ];
  for (const { name, key, title } of badKeys) {
    test(`${name} is refused with a clear message`, async ({ page }) => {
      await page.goto("/sign-in");
      await page.getByLabel("API key").fill(key);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      const error = page.getByTestId("sign-in-error");
      await expect(error).toContainText(title);
      // What to do, in plain words: not the API's message ("apiKey must …", a status code).
      await expect(error).not.toContainText(/must be|must start|HTTP|\b[45]\d\d\b|Data API|apiKey/);
      await expect(page.getByLabel("API key")).toHaveAttribute("aria-invalid", "true");
      await expect(page).toHaveURL(/\/sign-in/);
    });
  }

  test("the demo workspaces are described for the people choosing one: no paths, status codes or developer notes", async ({ page }) => {
    await page.goto("/sign-in");
    const descriptions = page.getByTestId("demo-description");
    await expect(descriptions).toHaveCount(4);
    for (const text of await descriptions.allTextContents()) {
      expect(text).not.toMatch(/\/|\{|\*|\b\d{3}\b|forbidden|sandbox|requests\/minute|endpoint/i);
    }
    await expect(page.getByTestId("demo-limited")).toContainText("cannot see the AI Positioning Score");
    expect(await page.content()).not.toContain("403 forbidden");
  });

  test("?next= pointing to another site is ignored", async ({ page }) => {
    await page.goto("/sign-in?next=//evil.example/x");
    await page.getByTestId("demo-pro").click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  });

  test("sign out ends the session and says so", async ({ page }) => {
    await signIn(page, "pro");
    await page.goto("/settings");
    await expect(page.getByTestId("environment")).toContainText("Test");
    await page.getByTestId("sign-out").click();
    await expect(page).toHaveURL(/\/sign-in\?reason=signed-out/);
    await expect(page.getByTestId("sign-in-reason")).toContainText("signed out");
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in\?next=%2F/);
  });

  test("a session that ends while a page is open sends the user to sign in, back to the same view", async ({ page, context }) => {
    await signIn(page, "pro");
    await page.goto("/visitors?source=claude");
    await expect(page.getByTestId("visitor-row").first()).toBeVisible();
    // Hydrated (the filters wait for it) and settled: a refetch of the server's rows after hydration
    // would otherwise be what finds the session gone, before the click.
    await expect(page.getByLabel("Source")).toBeEnabled();
    await page.waitForLoadState("networkidle");
    await context.clearCookies();
    await page.getByRole("link", { name: "Next →" }).click();
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fvisitors%3F/);
    await page.getByTestId("demo-pro").click();
    await expect(page).toHaveURL(/\/visitors\?(offset=20&source=claude|source=claude&offset=20)$/);
  });
});
