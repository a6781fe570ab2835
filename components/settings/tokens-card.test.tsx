// @vitest-environment jsdom
// Settings' access tokens against the app's own routes over a real embedded store
// (testing/app-fetch.ts): without watching the card says tokens need it and the form is off; with it,
// a token is made by keyboard, shown once with the MCP address, then listed by its hint only; an empty
// name is said on the field, which takes focus; revoking asks first and then says it in the live region.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { appRoutesAsFetch, preloadRoutes } from "@/testing/app-fetch";
import { renderWithProviders } from "@/components/test-utils/render";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { storesForFile } from "@/testing/stores";
import { serverContextPerTest, sessionCookie, upstreamForFile } from "@/testing/in-process";
import { DEMO_KEYS } from "@/sandbox/keys";
import { TokensCard } from "./tokens-card";

upstreamForFile({ visitors: 10 });
const stores = storesForFile();
const overrideContext = serverContextPerTest();

let store: Store;
let ws: WorkspaceId;

beforeAll(() => preloadRoutes(["/api/tokens", "/api/tokens/[id]", "/api/workspace"]));

beforeEach(async () => {
  store = await stores.open("embedded");
  overrideContext({ store: async () => store });
  ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
  vi.stubGlobal("fetch", appRoutesAsFetch(await sessionCookie(DEMO_KEYS.pro)));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const renderCard = () =>
  renderWithProviders(
    <ViewerTimeZoneProvider tz="UTC">
      <TokensCard />
    </ViewerTimeZoneProvider>,
  );

describe("the access tokens card", () => {
  it("says tokens need watching, with the form off, while the workspace is not watched", async () => {
    renderCard();
    expect((await screen.findByTestId("tokens-watching-required")).textContent).toMatch(/need watching/);
    expect(await screen.findByTestId("tokens-empty")).toBeTruthy();
    expect((screen.getByTestId("token-submit") as HTMLButtonElement).closest("fieldset")!.disabled).toBe(true);
  });

  it("makes a token by keyboard, shows it once with the MCP address, then lists its hint only", async () => {
    await store.workspaces.setWatching(ws, DEMO_KEYS.pro);
    const user = userEvent.setup();
    renderCard();
    await screen.findByTestId("tokens-empty");
    await waitFor(() => expect((screen.getByTestId("token-submit") as HTMLButtonElement).closest("fieldset")!.disabled).toBe(false));

    // An empty name is said on the field, which takes focus; nothing is made.
    await user.click(screen.getByTestId("token-submit"));
    expect(screen.getByTestId("token-error").textContent).toMatch(/Name the token/);
    expect(document.activeElement).toBe(screen.getByTestId("token-name"));

    await user.type(screen.getByTestId("token-name"), "Weekly report{Enter}");
    const secret = (await screen.findByTestId("token-secret")) as HTMLInputElement;
    expect(secret.value).toMatch(/^wa_[A-Za-z0-9_-]{43}$/);
    expect(screen.getByTestId("mcp-url").textContent).toMatch(/\/api\/mcp$/);
    expect(screen.getByTestId("tokens-status").textContent).toMatch(/Copy it now/);
    const row = await screen.findByTestId("token-row");
    expect(within(row).getByText("Weekly report")).toBeTruthy();
    expect(within(row).getByText(`wa_…${secret.value.slice(-4)}`)).toBeTruthy();
    expect(row.textContent).not.toContain(secret.value);
    expect((await store.tokens.list(ws)).map((t) => t.name)).toEqual(["Weekly report"]);
  });

  it("revokes after asking, and says so", async () => {
    await store.workspaces.setWatching(ws, DEMO_KEYS.pro);
    await store.tokens.create(ws, { name: "Old script", token: `wa_${"x".repeat(43)}`, hint: "wa_…xxxx", expiresAt: null });
    const user = userEvent.setup();
    renderCard();
    await user.click(await screen.findByRole("button", { name: "Revoke token Old script" }));
    expect(screen.getByRole("group", { name: "Revoke token Old script?" }).textContent).toMatch(/stop working at once/);
    await user.click(screen.getByTestId("token-revoke-confirm"));
    await waitFor(() => expect(screen.getByTestId("tokens-status").textContent).toMatch(/Old script \(wa_…xxxx\) revoked/));
    expect(await screen.findByTestId("tokens-empty")).toBeTruthy();
    expect(await store.tokens.list(ws)).toEqual([]);
  });
});
