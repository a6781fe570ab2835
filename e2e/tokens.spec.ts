// Settings' "Access tokens" card in Chromium, in a workspace of its own (a derived key): tokens need
// watching, said while it is off; a token made by keyboard is shown once with the MCP address, and after
// a reload only its hint is listed; the token reads the insights as bearer and opens the MCP endpoint,
// a write with it is refused; revoked after a confirmation, it opens nothing. Axe on the card, and no
// sideways scroll at 375 px.
import { expect, test } from "@playwright/test";
import { deriveDemoKey } from "../sandbox/keys";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { BASE_URL, signInWithKey } from "./helpers/session";

test("a token made in Settings, shown once, read with, and revoked", async ({ page, playwright }) => {
  await signInWithKey(page, deriveDemoKey("pro", "e2etokens"));
  await page.goto("/settings");
  const card = page.getByTestId("tokens-card");
  await expect(card.getByTestId("tokens-watching-required")).toContainText("need watching");
  await expect(card.getByRole("button", { name: "Make token" })).toBeDisabled();

  await page.getByTestId("watching-card").getByRole("button", { name: "Start watching" }).click();
  await expect(card.getByTestId("tokens-watching-required")).toHaveCount(0);
  const name = card.getByPlaceholder("What it is for, e.g. Weekly report script");
  await name.fill("Assistant");
  await page.keyboard.press("Enter");
  const secret = card.getByTestId("token-secret");
  await expect(secret).toHaveValue(/^wa_[A-Za-z0-9_-]{43}$/);
  const token = await secret.inputValue();
  await expect(card.getByTestId("mcp-url")).toHaveText(`${new URL(BASE_URL).origin}/api/mcp`);
  await expect(card.getByRole("status")).toContainText("Copy it now");
  await expectNoSeriousViolations(page, "the access tokens card", '[data-testid="tokens-card"]');

  // Shown once: after a reload, the hint only.
  await page.reload();
  const row = card.getByTestId("token-row");
  await expect(row).toContainText(`wa_…${token.slice(-4)}`);
  await expect(card.getByTestId("token-secret")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(token);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoHorizontalOverflow(page, "Settings with a token at 375 px");
  await page.setViewportSize({ width: 1280, height: 800 });

  // A script's client: the token and nothing else (no cookie).
  const script = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  expect((await script.get("/api/insights/trend?from=2026-11-01&to=2026-11-07")).status()).toBe(200);
  const mcp = await script.post("/api/mcp", {
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    data: {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } },
    },
  });
  expect(mcp.status()).toBe(200);
  expect(((await mcp.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe("workspace-analytics");
  const write = await script.post("/api/annotations", { data: { date: "2026-11-02", text: "from a script" } });
  expect(write.status()).toBe(403);
  expect(((await write.json()) as { error: { code: string } }).error.code).toBe("token_read_only");

  await row.getByRole("button", { name: "Revoke token Assistant" }).click();
  await card.getByTestId("token-revoke-confirm").click();
  await expect(card.getByRole("status")).toContainText("revoked");
  await expect(card.getByTestId("tokens-empty")).toBeVisible();
  expect((await script.get("/api/insights/trend")).status()).toBe(401);
  await script.dispose();

  await page.getByTestId("watching-card").getByRole("button", { name: "Stop watching" }).click();
});
