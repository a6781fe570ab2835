// @vitest-environment jsdom
// Settings' share links against the app's own routes over a real embedded store (testing/app-fetch.ts):
// the empty state and, without watching, that links show nothing until it is on; a link listed with
// its page, range, password, expiry and openings; a short password refused on its field (nothing
// sent), a password added and announced; a revoke asked once more, then the link gone and announced.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { DEMO_KEYS } from "@/sandbox/keys";
import { appRoutesAsFetch, preloadRoutes } from "@/testing/app-fetch";
import { serverContextPerTest, sessionCookie, upstreamForFile } from "@/testing/in-process";
import { storesForFile } from "@/testing/stores";
import { ShareLinksCard } from "./share-links-card";

upstreamForFile({ visitors: 10 });
const stores = storesForFile();
const overrideContext = serverContextPerTest();

let store: Store;
let ws: WorkspaceId;

beforeAll(() => preloadRoutes(["/api/shares", "/api/shares/shr_AAAAAAAAAAAAAAAAAAAAAA", "/api/workspace"]));

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
      <ShareLinksCard />
    </ViewerTimeZoneProvider>,
  );

describe("Settings' share links", () => {
  it("says there is none yet, and that links show nothing while watching is off", async () => {
    renderCard();
    expect((await screen.findByTestId("share-links-empty")).textContent).toMatch(/^No links yet\./);
    expect((await screen.findByTestId("share-links-watching")).textContent).toMatch(/^Watching is off/);
  });

  it("lists a link; a short password is refused on its field, a good one added and announced; a revoke is asked once more", async () => {
    await store.workspaces.setWatching(ws, DEMO_KEYS.pro);
    const made = await store.shares.create(ws, {
      name: "Board",
      path: "/platforms",
      query: { range: "30d" },
      token: "T".repeat(32),
      passwordHash: null,
      expiresAt: null,
    });
    await store.shares.opened(made.id);
    renderCard();
    const item = await screen.findByTestId("share-link-item");
    expect(item.textContent).toContain("Board");
    expect(item.textContent).toContain("AI platforms");
    expect(item.textContent).toContain("Last 30 days");
    expect(within(item).getByTestId("share-link-password").textContent).toBe("No");
    expect(within(item).getByTestId("share-link-expiry").textContent).toBe("Never");
    expect(within(item).getByTestId("share-link-opened").textContent).toMatch(/^1 time, last /);
    expect((within(item).getByTestId("share-link-url") as HTMLInputElement).value).toBe(`http://localhost:3000/s/${"T".repeat(32)}`);
    expect(screen.queryByTestId("share-links-watching")).toBeNull();

    fireEvent.click(within(item).getByTestId("share-link-change"));
    fireEvent.click(within(item).getByTestId("share-link-set-password"));
    const field = within(item).getByTestId("share-link-password-input");
    fireEvent.change(field, { target: { value: "short" } });
    fireEvent.click(within(item).getByTestId("share-link-save"));
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(field.getAttribute("aria-describedby")!)?.textContent).toBe("Use a password of 6 to 128 characters.");
    expect((await store.shares.share(ws, made.id))!.passwordHash).toBeNull();

    fireEvent.change(field, { target: { value: "correct horse" } });
    fireEvent.click(within(item).getByTestId("share-link-save"));
    await waitFor(() => expect(within(screen.getByTestId("share-link-item")).getByTestId("share-link-password").textContent).toBe("Yes"));
    expect((await store.shares.share(ws, made.id))!.passwordHash).toMatch(/^scrypt\$/);
    expect(screen.getByTestId("share-links-status").textContent).toBe("Changed “Board”.");

    fireEvent.click(within(screen.getByTestId("share-link-item")).getByTestId("share-link-revoke"));
    expect(screen.getByRole("group", { name: "Revoke Board" }).textContent).toContain("It stops opening at once");
    fireEvent.click(screen.getByTestId("share-link-confirm-revoke"));
    await screen.findByTestId("share-links-empty");
    expect(await store.shares.byToken("T".repeat(32))).toBeUndefined();
    expect(screen.getByTestId("share-links-status").textContent).toBe("Revoked “Board”: it no longer opens.");
  });
});
