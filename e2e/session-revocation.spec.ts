// Sign-out ends the session on the server (outside review, finding 2): a session cookie saved before
// signing out and replayed afterwards is refused: 401 on the API, the sign-in page on pages.
import { expect, test } from "@playwright/test";
import { BASE_URL, signIn } from "./helpers/session";

test("session revocation: a cookie replayed after sign-out gets 401 on /api/* and the sign-in page on pages", async ({ request }) => {
  const res = await request.post("/api/session", { data: { demo: "pro" }, headers: { origin: BASE_URL } });
  expect(res.status()).toBe(200);
  const saved = res.headers()["set-cookie"]!.split(";")[0]!;
  // Works before sign-out (the unseal cache now holds it, which must not outlive the revocation).
  expect((await request.get("/api/intelligence/score", { headers: { cookie: saved } })).status()).toBe(200);
  expect((await request.get("/settings", { headers: { cookie: saved }, maxRedirects: 0 })).status()).toBe(200);

  const out = await request.delete("/api/session", { headers: { cookie: saved, origin: BASE_URL } });
  expect(out.status()).toBe(200);

  for (const path of ["/api/intelligence/score", "/api/visitors?limit=1", "/api/export/visitors?format=json"]) {
    const api = await request.get(path, { headers: { cookie: saved } });
    expect(api.status(), path).toBe(401);
    expect((await api.json()).error.code, path).toBe("unauthorized");
  }
  expect(await (await request.get("/api/session", { headers: { cookie: saved } })).json()).toEqual({ signedIn: false });
  for (const path of ["/", "/settings", "/visitors?source=chatgpt"]) {
    const page = await request.get(path, { headers: { cookie: saved }, maxRedirects: 0 });
    expect(page.status(), path).toBe(307);
    expect(new URL(page.headers()["location"]!, BASE_URL).pathname, path).toBe("/sign-in");
  }
});

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
