// @vitest-environment jsdom
// The "Save view" dialog and the header's "Views" over a URL (nuqs' testing adapter) and the app's
// own /api/views handlers over a real embedded store (testing/app-fetch.ts; the routes
// themselves are tested over HTTP on both databases in lib/views/routes.test.ts, and end to end
// in e2e/saved-views.spec.ts): what is saved from the URL (the page's own parameters, no paging, a
// preset range relative or fixed as chosen), errors in plain words on their field, the list as links,
// rename and delete in place, and the keyboard and accessible names of both.
import { screen, waitFor, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { appRoutesAsFetch, preloadRoutes, type SentRequest } from "@/testing/app-fetch";
import { renderWithProviders } from "@/components/test-utils/render";
import { presetRange } from "@/lib/range/date-range";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { storesForFile } from "@/testing/stores";
import { serverContextPerTest, sessionCookie, upstreamForFile } from "@/testing/in-process";
import { DEMO_KEYS } from "@/sandbox/keys";
import { SaveView, viewQuery } from "./save-view";
import { ViewsMenu } from "./views-menu";

let pathname = "/visitors";
vi.mock("next/navigation", async (original) => ({ ...(await original<typeof import("next/navigation")>()), usePathname: () => pathname }));

upstreamForFile({ visitors: 10 });
const stores = storesForFile();
const overrideContext = serverContextPerTest();

let store: Store;
let ws: WorkspaceId;
let cookie: string;
/** Every request the UI sent in this test. */
let sent: SentRequest[];
const writes = () => sent.filter((s) => s.method !== "GET");

type Saved = { name: string; path: string; query: Record<string, string> };

/** The workspace's views as stored before the test; the browser's fetch answered by the routes. */
async function withViews(initial: Saved[] = []) {
  const made = [];
  for (const view of initial) made.push(await store.views.create(ws, view));
  vi.stubGlobal("fetch", appRoutesAsFetch(cookie, sent));
  return made;
}

// The route files the UI calls, loaded before the first test (not raced against its first read).
beforeAll(() => preloadRoutes(["/api/views", "/api/views/view_x"]));

beforeEach(async () => {
  store = await stores.open("embedded");
  overrideContext({ store: async () => store });
  ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
  cookie = await sessionCookie(DEMO_KEYS.pro);
  sent = [];
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderAt(ui: ReactNode, path: string, search: string) {
  pathname = path;
  return renderWithProviders(<ViewerTimeZoneProvider tz="UTC">{ui}</ViewerTimeZoneProvider>, { searchParams: search });
}

describe("Save view", () => {
  let week: { from: string; to: string };
  beforeEach(() => {
    week = presetRange(7, "UTC", Date.now());
  });

  it("saves the page's filters with the last 7 days kept relative, paging left out; keyboard only", async () => {
    await withViews();
    const { user } = renderAt(<SaveView />, "/visitors", `?source=chatgpt&from=${week.from}&to=${week.to}&tz=UTC&limit=50&offset=20`);
    const button = screen.getByRole("button", { name: "Save view" });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    await user.tab();
    expect(document.activeElement).toBe(button);
    await user.keyboard("{Enter}");
    const dialog = screen.getByRole("dialog", { name: "Save this view" });
    const name = within(dialog).getByRole("textbox", { name: "Name" });
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(within(dialog).getByRole("radio", { name: "Always the last 7 days" })).toHaveProperty("checked", true);
    expect(within(dialog).getByRole("radio", { name: /^Keep the dates fixed \(.+\)$/ })).toHaveProperty("checked", false);
    await user.keyboard("ChatGPT this week{Enter}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(writes()).toEqual([
      { method: "POST", url: "/api/views", body: { name: "ChatGPT this week", path: "/visitors", query: { source: "chatgpt", range: "7d" } } },
    ]);
    expect((await store.views.list(ws)).map((v) => [v.name, v.path, v.query])).toEqual([
      ["ChatGPT this week", "/visitors", { source: "chatgpt", range: "7d" }],
    ]);
    expect(document.activeElement).toBe(button);
    expect(screen.getByRole("status").textContent).toContain("Saved “ChatGPT this week”");
  });

  it("keeps the dates when asked to; a range that is no preset is kept as its dates without asking", async () => {
    await withViews();
    const { user, unmount } = renderAt(<SaveView />, "/mentions", `?platform=claude&from=${week.from}&to=${week.to}`);
    await user.click(screen.getByRole("button", { name: "Save view" }));
    await user.click(screen.getByRole("radio", { name: /Keep the dates fixed/ }));
    await user.type(screen.getByRole("textbox", { name: "Name" }), "Claude, fixed");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]!.body).toEqual({ name: "Claude, fixed", path: "/mentions", query: { platform: "claude", from: week.from, to: week.to } });
    await waitFor(async () => expect((await store.views.list(ws)).map((v) => v.query)).toEqual([{ platform: "claude", from: week.from, to: week.to }]));
    unmount();

    const custom = renderAt(<SaveView />, "/platforms", "?from=2026-11-02&to=2026-11-12&tz=UTC");
    await custom.user.click(screen.getByRole("button", { name: "Save view" }));
    expect(screen.queryByRole("radio")).toBeNull();
    expect(screen.getByTestId("save-view-range-note").textContent).toBe("Range: the dates stay fixed (2 Nov – 12 Nov 2026).");
  });

  it("says what went wrong in plain words: no name, a name taken (on the field), the bound, the connection", async () => {
    await withViews([{ name: "Weekly", path: "/", query: {} }]);
    const { user } = renderAt(<SaveView />, "/", "");
    await user.click(screen.getByRole("button", { name: "Save view" }));
    await user.click(screen.getByRole("button", { name: "Save" }));
    const name = screen.getByRole("textbox", { name: "Name" });
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByTestId("save-view-name-error").textContent).toMatch(/^Give the view a name/);
    await user.type(name, "  WEEKLY ");
    await user.keyboard("{Enter}");
    await waitFor(() =>
      expect(screen.getByTestId("save-view-name-error").textContent).toBe("A view with this name already exists in this workspace. Choose another name."),
    );
    expect(name.getAttribute("aria-describedby")).toBe(screen.getByTestId("save-view-name-error").id);
    expect(screen.getByRole("dialog")).toBeTruthy();

    // The workspace at its bound: 199 more views make 200.
    for (let i = 0; i < 199; i++) await store.views.create(ws, { name: `View ${i}`, path: "/", query: {} });
    await user.clear(name);
    await user.type(name, "One too many");
    await user.keyboard("{Enter}");
    await waitFor(() =>
      expect(screen.getByRole("alert").textContent).toBe("This workspace already keeps 200 saved views, the most it may. Delete one to save another."),
    );
    // The network itself failing (no answer at all), as fetch reports it.
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    await user.keyboard("{Enter}");
    await waitFor(() => expect(screen.getByRole("alert").textContent).toMatch(/could not be reached/));
    // Escape closes the dialog and gives focus back to its button.
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Save view" }));
  });

  it("a relative view leaves out the viewer's own zone (it is read in each viewer's) but keeps one chosen for the view", () => {
    const values = { source: "chatgpt", from: "2026-11-12", to: "2026-11-18", limit: "50", offset: null };
    expect(viewQuery({ ...values, tz: "Europe/Berlin" }, "7d", "Europe/Berlin")).toEqual({ source: "chatgpt", range: "7d" });
    expect(viewQuery({ ...values, tz: "Asia/Tokyo" }, "7d", "Europe/Berlin")).toEqual({ source: "chatgpt", tz: "Asia/Tokyo", range: "7d" });
    expect(viewQuery({ ...values, tz: "Europe/Berlin" }, null, "Europe/Berlin")).toEqual({
      source: "chatgpt",
      from: "2026-11-12",
      to: "2026-11-18",
      tz: "Europe/Berlin",
    });
  });

  it("is not offered where a page takes no query (Settings, a visitor's page)", async () => {
    await withViews();
    renderAt(<SaveView />, "/settings", "");
    expect(screen.queryByRole("button", { name: "Save view" })).toBeNull();
    renderAt(<SaveView />, "/visitors/vis_abc", "");
    expect(screen.queryByRole("button", { name: "Save view" })).toBeNull();
  });
});

describe("Views in the header", () => {
  const stored: Saved[] = [
    { name: "ChatGPT this week", path: "/visitors", query: { source: "chatgpt", range: "7d" } },
    { name: "<b>Negative</b> mentions", path: "/mentions", query: { sentiment: "negative", from: "2026-11-12", to: "2026-11-18" } },
  ];

  it("says how to save a view when there is none", async () => {
    await withViews();
    const { user } = renderAt(<ViewsMenu />, "/", "");
    const button = screen.getByRole("button", { name: /^Views \(saved views\)$/ });
    await user.click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    expect((await screen.findByTestId("views-empty")).textContent).toMatch(/choose “Save view” beside the range/);
  });

  it("lists each view as a plain link to its page and query, names as text; Tab reaches them, Escape closes", async () => {
    await withViews(stored);
    const { user } = renderAt(<ViewsMenu />, "/", "");
    const button = screen.getByRole("button", { name: /^Views/ });
    button.focus();
    await user.keyboard("{Enter}");
    const list = await screen.findByRole("list", { name: "Saved views" });
    const links = within(list).getAllByRole("link");
    expect(links.map((a) => [a.getAttribute("href"), a.textContent])).toEqual([
      ["/mentions?sentiment=negative&from=2026-11-12&to=2026-11-18", "<b>Negative</b> mentionsMentions"],
      ["/visitors?source=chatgpt&range=7d", "ChatGPT this weekVisitors"],
    ]);
    expect(list.querySelector("b")).toBeNull();
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(links[0]);
    await user.keyboard("{Escape}");
    expect(screen.queryByTestId("views-panel")).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it("renames in place (Enter saves; a taken name is said) and deletes after asking once more", async () => {
    const [chatgpt, negative] = await withViews(stored);
    const { user } = renderAt(<ViewsMenu />, "/", "");
    await user.click(screen.getByRole("button", { name: /^Views/ }));
    await user.click(await screen.findByRole("button", { name: "Manage" }));
    await user.click(screen.getByRole("button", { name: "Rename “ChatGPT this week”" }));
    const input = screen.getByRole("textbox", { name: "New name for “ChatGPT this week”" });
    expect(document.activeElement).toBe(input);
    await user.clear(input);
    await user.type(input, "<b>negative</b> MENTIONS{Enter}");
    expect((await screen.findByRole("alert")).textContent).toBe("A view with this name already exists in this workspace. Choose another name.");
    await user.clear(input);
    await user.type(input, "ChatGPT, last 7 days{Enter}");
    expect(await screen.findByRole("button", { name: "Rename “ChatGPT, last 7 days”" })).toBeTruthy();
    expect((await store.views.list(ws)).map((v) => v.name)).toContain("ChatGPT, last 7 days");

    await user.click(screen.getByRole("button", { name: "Delete “<b>Negative</b> mentions”" }));
    const confirm = screen.getByRole("group", { name: "Delete “<b>Negative</b> mentions”?" });
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: /Negative/ })).toBeNull());
    expect(writes().map((w) => `${w.method} ${w.url}`)).toEqual([
      `PATCH /api/views/${chatgpt!.id}`,
      `PATCH /api/views/${chatgpt!.id}`,
      `DELETE /api/views/${negative!.id}`,
    ]);
    expect((await store.views.list(ws)).map((v) => v.name)).toEqual(["ChatGPT, last 7 days"]);
    expect(screen.getByRole("status").textContent).toBe("Deleted “<b>Negative</b> mentions”.");
  });
});
