// @vitest-environment jsdom
// Settings' activity list against the app's own GET /api/workspace/activity over a real embedded store
// (testing/app-fetch.ts): loading, then the empty state in words; the records newest
// first in a table named by its caption, each with when, the key hint (the session's own marked "this
// key") and what was done to what, in the product's words; the latest 20 at first and more on
// request; a failure said in words, in an alert.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { appRoutesAsFetch, preloadRoutes } from "@/testing/app-fetch";
import { renderWithProviders } from "@/components/test-utils/render";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { storesForFile } from "@/testing/stores";
import { serverContextPerTest, sessionCookie, upstreamForFile } from "@/testing/in-process";
import { DEMO_KEYS, REVOKED_KEY } from "@/sandbox/keys";
import { ACTIVITY_PAGE, ActivityCard } from "./activity-card";

upstreamForFile({ visitors: 10 });
const stores = storesForFile();
const overrideContext = serverContextPerTest();

const MINE = "svc_sk_test_…9d1f";
const TEAMMATE = "svc_sk_test_…5b2d";

let store: Store;
let ws: WorkspaceId;
let now = Date.UTC(2026, 10, 20, 12);

// The route files the UI calls, loaded before the first test (not raced against its first read).
beforeAll(() => preloadRoutes(["/api/workspace/activity"]));

beforeEach(async () => {
  now = Date.UTC(2026, 10, 20, 12);
  store = await stores.open("embedded", { now: () => now });
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
      <ActivityCard keyHint={MINE} />
    </ViewerTimeZoneProvider>,
  );

describe("the activity card", () => {
  it("says it is loading, then that nothing was changed yet", async () => {
    renderCard();
    expect(screen.getByTestId("activity-loading").textContent).toBe("Loading…");
    expect((await screen.findByTestId("activity-empty")).textContent).toMatch(/^No changes yet\./);
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("lists the changes newest first: when, the key (this session's marked), and what was done to what", async () => {
    await store.activity.record(ws, { keyHint: MINE, action: "watching.started", subject: "" });
    now += 60_000;
    await store.activity.record(ws, { keyHint: TEAMMATE, action: "destination.added", subject: "Ops (https://hooks.example.com/…1234)" });
    now += 60_000;
    await store.activity.record(ws, { keyHint: TEAMMATE, action: "digest.set", subject: "Ops (https://hooks.example.com/…1234)" });
    now += 60_000;
    await store.activity.record(ws, { keyHint: MINE, action: "key.linked", subject: TEAMMATE });

    renderCard();
    const table = await screen.findByRole("table", { name: "Changes to this workspace's settings, newest first" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["When", "Key", "What"]);
    const rows = within(table).getAllByTestId("activity-row");
    const cells = rows.map((r) =>
      within(r)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    );
    expect(cells.map((c) => [c[1], c[2]])).toEqual([
      [`${MINE}this key`, `Linked a key: ${TEAMMATE}`],
      [TEAMMATE, "Set where the weekly digest goes: Ops (https://hooks.example.com/…1234)"],
      [TEAMMATE, "Added a destination: Ops (https://hooks.example.com/…1234)"],
      [`${MINE}this key`, "Started watching"],
    ]);
    // When: the exact time in the viewer's zone under the relative one, the instant in <time>.
    expect(cells[3]![0]).toContain("20 Nov 2026, 12:00");
    expect(
      within(rows[0]!)
        .getByText((_, el) => el?.tagName === "TIME")
        .getAttribute("datetime"),
    ).toBe("2026-11-20T12:03:00.000Z");
    expect(screen.queryByTestId("activity-more")).toBeNull();
  });

  it(`shows the latest ${ACTIVITY_PAGE}, and more on request`, async () => {
    for (let i = 0; i < ACTIVITY_PAGE + 5; i++) {
      now += 1_000;
      await store.activity.record(ws, { keyHint: MINE, action: "rule.added", subject: `rule ${i}` });
    }
    const { user } = renderCard();
    await screen.findByRole("table");
    expect(screen.getAllByTestId("activity-row")).toHaveLength(ACTIVITY_PAGE);
    const more = screen.getByRole("button", { name: "Show 5 older of 5" });
    await user.click(more);
    const rows = screen.getAllByTestId("activity-row");
    expect(rows).toHaveLength(ACTIVITY_PAGE + 5);
    expect(rows.at(-1)!.textContent).toContain("Added an alert rule: rule 0");
    expect(screen.queryByTestId("activity-more")).toBeNull();
  });

  it("says in words, as an alert, when the list cannot be read", async () => {
    vi.stubGlobal("fetch", appRoutesAsFetch(await sessionCookie(REVOKED_KEY)));
    renderCard();
    const error = await screen.findByRole("alert");
    expect(error.textContent).toBe("Your session has ended. Sign in again to continue.");
    await waitFor(() => expect(screen.queryByTestId("activity-loading")).toBeNull());
  });
});
