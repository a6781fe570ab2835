// @vitest-environment jsdom
// Settings' linked keys and "Delete everything kept" against the app's own /api/workspace handlers
// over a real embedded store (testing/app-fetch.ts): the confirmation names what goes,
// counted from what the workspace keeps, closes on Escape with focus back where it was, deletes only
// once "delete" is typed (then the browser goes to the sign-in page saying why); the current key has
// no Unlink, another's asks first (saying its sessions end), and once unlinked it leaves the list,
// the result announced and focus on the list's heading; a key used on its own before, linked, says
// that what was kept for it joined this workspace.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { appRoutesAsFetch, preloadRoutes, type SentRequest } from "@/testing/app-fetch";
import { renderWithProviders } from "@/components/test-utils/render";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { storesForFile } from "@/testing/stores";
import { serverContextPerTest, sessionCookie, upstreamForFile } from "@/testing/in-process";
import { DEMO_KEYS } from "@/sandbox/keys";
import { DeleteKeptCard } from "./delete-kept-card";
import { unlinkConsequences } from "./linked-keys";
import { WatchingCard } from "./watching-card";

upstreamForFile({ visitors: 10 });
const stores = storesForFile();
const overrideContext = serverContextPerTest();

let store: Store;
let ws: WorkspaceId;
let sent: SentRequest[];
let assign: ReturnType<typeof vi.fn>;

// The route files the UI calls, loaded before the first test (not raced against its first read).
beforeAll(() => preloadRoutes(["/api/workspace", "/api/workspace/keys", "/api/workspace/keys/lk_x"]));

beforeEach(async () => {
  store = await stores.open("embedded");
  overrideContext({ store: async () => store });
  ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
  sent = [];
  vi.stubGlobal("fetch", appRoutesAsFetch(await sessionCookie(DEMO_KEYS.pro), sent));
  assign = vi.fn();
  vi.stubGlobal("location", { ...window.location, assign });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const inUtc = (ui: React.ReactElement) => renderWithProviders(<ViewerTimeZoneProvider tz="UTC">{ui}</ViewerTimeZoneProvider>);

/** A workspace keeping a little of everything: 3 snapshots from 1 Nov, 2 notes, 1 view, an alert, the kept key, a second key, 2 changes in its activity list. */
async function keepSome(): Promise<void> {
  for (const day of [1, 2, 3]) {
    await store.snapshots.recordScore(ws, {
      at: Date.UTC(2026, 10, day, 9),
      score: 60,
      direction: "up",
      change: 1,
      breakdown: { visibility: 1, sentiment: 2, authority: 3, coverage: 4 },
    });
  }
  await store.annotations.create(ws, { date: "2026-11-02", text: "Campaign started" });
  await store.annotations.create(ws, { date: "2026-11-03", text: "Pricing page changed" });
  await store.views.create(ws, { name: "AI visitors", path: "/visitors", query: { source: "chatgpt" } });
  const destination = await store.alerts.createDestination(ws, {
    kind: "webhook",
    name: "Team hook",
    url: "https://hooks.example/x",
    urlHint: "https://hooks.example/…x",
    secret: "whsec_c2VjcmV0",
  });
  await store.alerts.createRule(ws, { kind: "score_below", threshold: 50, destinationId: destination.id, cooldownMs: 3_600_000 });
  await store.workspaces.setWatching(ws, DEMO_KEYS.pro);
  await store.workspaces.linkKey(ws, DEMO_KEYS.free);
  await store.activity.record(ws, { keyHint: "svc_sk_test_…9d1f", action: "watching.started", subject: "" });
  await store.activity.record(ws, { keyHint: "svc_sk_test_…9d1f", action: "key.linked", subject: "svc_sk_test_…5b2d" });
  await store.tokens.create(ws, { name: "Script", token: `wa_${"t".repeat(43)}`, hint: "wa_…tttt", expiresAt: null });
}

describe("Delete everything kept", () => {
  it("the confirmation names what goes, counted; Escape keeps everything; only the typed word deletes, then the sign-in page says so", async () => {
    await keepSome();
    const { user } = inUtc(<DeleteKeptCard />);
    const card = await screen.findByTestId("delete-kept-card");
    const open = within(card).getByRole("button", { name: "Delete everything kept…" });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    await user.click(open);

    const form = within(card).getByRole("form", { name: "Delete everything kept for this workspace?" });
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByRole("heading", { name: "Delete everything kept for this workspace?" })));
    expect(
      within(form)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      "The history since 1 Nov 2026: 3 snapshots of the score and ranking, and the daily figures kept",
      "2 notes",
      "1 saved view",
      "1 alert destination and 1 alert rule, with their deliveries and the weekly digest",
      "The key kept for watching: nothing is collected in the background any more",
      "1 access token: the scripts and assistants using it stop working",
      "The activity list: 2 changes and the keys that made them",
      "The links of this workspace's 2 keys: each opens a new, empty workspace when next used",
    ]);
    expect(form.textContent).toContain("Everyone signed in to this workspace is signed out, you included. This cannot be undone.");
    // No product-foreign words on the page.
    expect(card.textContent).not.toMatch(/Data API|period|updated_at/);

    await user.keyboard("{Escape}");
    expect(within(card).queryByRole("form")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(within(card).getByRole("button", { name: "Delete everything kept…" })));

    await user.click(within(card).getByRole("button", { name: "Delete everything kept…" }));
    // The confirmation takes the focus when it opens (a frame later): type only after that, as a person would.
    await waitFor(() => expect(document.activeElement?.tagName).toBe("H3"));
    const word = within(card).getByRole("textbox", { name: 'Type "delete" to confirm' });
    await user.type(word, "yes{Enter}");
    expect((await within(card).findByRole("alert")).textContent).toContain('Type "delete" to confirm: nothing has been deleted.');
    expect(word.getAttribute("aria-invalid")).toBe("true");
    expect(sent.filter((r) => r.method === "DELETE")).toEqual([]);
    expect(await store.workspaces.workspace(ws)).toBeDefined();

    await user.clear(word);
    await user.type(word, "Delete");
    await user.click(within(card).getByRole("button", { name: "Delete everything" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/sign-in?reason=deleted"));
    expect(sent.filter((r) => r.method === "DELETE")).toEqual([{ method: "DELETE", url: "/api/workspace", body: { confirm: "delete" } }]);
    expect(await store.workspaces.workspace(ws)).toBeUndefined();
  });

  it("a workspace with nothing but its key: the confirmation names only that, in the singular", async () => {
    const { user } = inUtc(<DeleteKeptCard />);
    const open = await screen.findByRole("button", { name: "Delete everything kept…" });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    await user.click(open);
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "The daily figures kept (there is no score or ranking history yet)",
      "The link of your key: it opens a new, empty workspace when next used",
    ]);
  });
});

describe("linked keys", () => {
  it("the current key cannot be unlinked; another asks first, saying its sessions end, and leaves the list once unlinked", async () => {
    await store.workspaces.linkKey(ws, DEMO_KEYS.free);
    const { user } = inUtc(<WatchingCard />);
    const list = await screen.findByTestId("linked-keys");
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(2));
    const [mine, other] = within(list).getAllByRole("listitem");
    expect(mine!.textContent).toContain("svc_sk_test_…9d1f");
    expect(within(mine!).getByText("You are signed in with this key")).toBeTruthy();
    expect(within(mine!).queryByRole("button")).toBeNull();

    const unlink = within(other!).getByRole("button", { name: "Unlink key svc_sk_test_…5b2d" });
    await user.click(unlink);
    const confirmation = within(other!).getByRole("group", { name: /Unlink svc_sk_test_…5b2d\?/ });
    expect(confirmation.textContent).toContain(unlinkConsequences("svc_sk_test_…5b2d"));
    expect(unlinkConsequences("svc_sk_test_…5b2d")).toMatch(/signed out at once/);
    const yes = within(confirmation).getByRole("button", { name: "Yes, unlink it" });
    expect(document.activeElement).toBe(yes);
    await user.click(within(confirmation).getByRole("button", { name: "Keep it" }));
    await waitFor(() => expect(document.activeElement).toBe(within(other!).getByRole("button", { name: "Unlink key svc_sk_test_…5b2d" })));
    expect(sent.filter((r) => r.method === "DELETE")).toEqual([]);

    await user.click(within(other!).getByRole("button", { name: "Unlink key svc_sk_test_…5b2d" }));
    await user.click(within(other!).getByRole("button", { name: "Yes, unlink it" }));
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(1));
    expect(sent.filter((r) => r.method === "DELETE")).toEqual([
      { method: "DELETE", url: `/api/workspace/keys/${store.workspaces.linkIdOf(DEMO_KEYS.free)}`, body: undefined },
    ]);
    expect(screen.getByTestId("watching-status").textContent).toContain("Key svc_sk_test_…5b2d unlinked: everyone signed in with it was signed out.");
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Keys of this workspace" }));
  });

  it("linking a key used on its own before says that what was kept for it joined this workspace", async () => {
    const free = (await store.workspaces.workspaceForKey(DEMO_KEYS.free)).id;
    await store.views.create(free, { name: "Theirs", path: "/visitors", query: {} });
    const { user } = inUtc(<WatchingCard />);
    const input = await screen.findByLabelText("Link another key of this workspace");
    await user.type(input, DEMO_KEYS.free);
    await user.click(screen.getByRole("button", { name: "Link key" }));
    await waitFor(() =>
      expect(screen.getByTestId("watching-status").textContent).toContain(
        "It had been used on its own: the history, notes, saved views and alerts kept for it are now this workspace's.",
      ),
    );
    expect((await store.views.list(ws)).map((v) => v.name)).toEqual(["Theirs"]);
  });
});
