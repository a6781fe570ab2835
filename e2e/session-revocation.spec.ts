// Sign-out ends the session on the server (outside review, finding 2): a session cookie copied before
// signing out in the browser and replayed in another browser gets the sign-in page. (A saved cookie
// replayed over HTTP, 401 on the API and the sign-in page on pages: testing/security.system.test.ts.)
import { expect, test } from "@playwright/test";
import { BASE_URL, signIn } from "./helpers/session";

test("session revocation: signing out in the browser ends the session a copied cookie still holds", async ({ page, context, browser }) => {
  await signIn(page, "pro");
  await page.goto("/settings");
  const copied = (await context.cookies()).filter((c) => c.name === "wa_session");
  expect(copied).toHaveLength(1);
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/sign-in\?reason=signed-out/);

  // Another browser context with the copied cookie: the sign-in page, not the dashboard.
  const other = await browser.newContext();
  await other.addCookies(copied);
  const replay = await other.newPage();
  await replay.goto(`${BASE_URL}/settings`);
  await expect(replay).toHaveURL(/\/sign-in\?next=%2Fsettings/);
  await expect(replay.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await other.close();
});
