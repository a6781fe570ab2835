// @vitest-environment jsdom
// The "Save view" dialog and the header's "Views" over a URL (nuqs' testing adapter) and a stand-in
// for /api/views kept in memory in this file (the routes themselves are tested over HTTP on both
// databases in lib/server/view-routes.test.ts, and end to end in e2e/saved-views.spec.ts): what is
// saved from the URL (the page's own parameters, no paging, a preset range relative or fixed as
// chosen), errors in plain words on their field, the list as links, rename and delete in place, and
// the keyboard and accessible names of both.
import { screen, waitFor, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { presetRange } from "@/lib/range/date-range";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import { SaveView, viewQuery } from "./save-view";
import { ViewsMenu } from "./views-menu";

let pathname = "/visitors";
vi.mock("next/navigation", async (original) => ({ ...(await original<typeof import("next/navigation")>()), usePathname: () => pathname }));

type Stored = { id: string; name: string; path: string; query: Record<string, string>; created_at: string };
type Sent = { method: string; url: string; body: unknown };

/** The contract of /api/views, in memory: names unique without case (409 name_taken), a bound (422). */
function fakeViewsApi(initial: Stored[] = [], options: { limitReached?: boolean; offline?: boolean } = {}) {
  const views = [...initial];
  const sent: Sent[] = [];
  const answer = (status: number, body?: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const taken = (name: string, except?: string) => views.some((v) => v.id !== except && v.name.toLowerCase() === name.trim().toLowerCase());
  const conflict = () => answer(409, { error: { code: "name_taken", message: "A view named this exists.", param: "name" } });
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? "GET";
    const body: unknown = init.body ? JSON.parse(String(init.body)) : undefined;
    sent.push({ method, url, body });
    if (options.offline) throw new TypeError("Failed to fetch");
    const id = url.split("/")[3];
    if (method === "GET") return answer(200, { data: [...views].sort((a, b) => a.name.localeCompare(b.name)) });
    if (method === "POST") {
      const view = body as Omit<Stored, "id" | "created_at">;
      if (options.limitReached) return answer(422, { error: { code: "limit_reached", message: "200 views." } });
      if (taken(view.name)) return conflict();
      const made = { ...view, id: `view_${views.length}`, created_at: "2026-11-18T10:00:00.000Z" };
      views.push(made);
      return answer(201, made);
    }
    const at = views.findIndex((v) => v.id === id);
    if (at < 0) return answer(404, { error: { code: "not_found", message: "No such view." } });
    if (method === "PATCH") {
      const { name } = body as { name: string };
      if (taken(name, id)) return conflict();
      views[at] = { ...views[at]!, name };
      return answer(200, views[at]);
    }
    views.splice(at, 1);
    return answer(204);
  });
  return { views, sent, writes: () => sent.filter((s) => s.method !== "GET") };
}

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
    const api = fakeViewsApi();
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
    expect(api.writes()).toEqual([{ method: "POST", url: "/api/views", body: { name: "ChatGPT this week", path: "/visitors", query: { source: "chatgpt", range: "7d" } } }]);
    expect(document.activeElement).toBe(button);
    expect(screen.getByRole("status").textContent).toContain("Saved “ChatGPT this week”");
  });

  it("keeps the dates when asked to; a range that is no preset is kept as its dates without asking", async () => {
    const api = fakeViewsApi();
    const { user, unmount } = renderAt(<SaveView />, "/mentions", `?platform=claude&from=${week.from}&to=${week.to}`);
    await user.click(screen.getByRole("button", { name: "Save view" }));
    await user.click(screen.getByRole("radio", { name: /Keep the dates fixed/ }));
    await user.type(screen.getByRole("textbox", { name: "Name" }), "Claude, fixed");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]!.body).toEqual({ name: "Claude, fixed", path: "/mentions", query: { platform: "claude", from: week.from, to: week.to } });
    unmount();

    const custom = renderAt(<SaveView />, "/platforms", "?from=2026-11-02&to=2026-11-12&tz=UTC");
    await custom.user.click(screen.getByRole("button", { name: "Save view" }));
    expect(screen.queryByRole("radio")).toBeNull();
    expect(screen.getByTestId("save-view-range-note").textContent).toBe("Range: the dates stay fixed (2 Nov – 12 Nov 2026).");
  });

  it("says what went wrong in plain words: no name, a name taken (on the field), the bound, the connection", async () => {
    fakeViewsApi([{ id: "view_a", name: "Weekly", path: "/", query: {}, created_at: "2026-11-01T00:00:00.000Z" }]);
    const { user } = renderAt(<SaveView />, "/", "");
    await user.click(screen.getByRole("button", { name: "Save view" }));
    await user.click(screen.getByRole("button", { name: "Save" }));
    const name = screen.getByRole("textbox", { name: "Name" });
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByTestId("save-view-name-error").textContent).toMatch(/^Give the view a name/);
    await user.type(name, "  WEEKLY ");
    await user.keyboard("{Enter}");
    await waitFor(() => expect(screen.getByTestId("save-view-name-error").textContent).toBe("A view with this name already exists in this workspace. Choose another name."));
    expect(name.getAttribute("aria-describedby")).toBe(screen.getByTestId("save-view-name-error").id);
    expect(screen.getByRole("dialog")).toBeTruthy();

    fakeViewsApi([], { limitReached: true });
    await user.keyboard("{Enter}");
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("This workspace already keeps 200 saved views, the most it may. Delete one to save another."));
    fakeViewsApi([], { offline: true });
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
    expect(viewQuery({ ...values, tz: "Europe/Berlin" }, null, "Europe/Berlin")).toEqual({ source: "chatgpt", from: "2026-11-12", to: "2026-11-18", tz: "Europe/Berlin" });
  });

  it("is not offered where a page takes no query (Settings, a visitor's page)", () => {
    fakeViewsApi();
    renderAt(<SaveView />, "/settings", "");
    expect(screen.queryByRole("button", { name: "Save view" })).toBeNull();
    renderAt(<SaveView />, "/visitors/vis_abc", "");
    expect(screen.queryByRole("button", { name: "Save view" })).toBeNull();
  });
});

describe("Views in the header", () => {
  const stored: Stored[] = [
    { id: "view_1", name: "ChatGPT this week", path: "/visitors", query: { source: "chatgpt", range: "7d" }, created_at: "2026-11-18T10:00:00.000Z" },
    { id: "view_2", name: "<b>Negative</b> mentions", path: "/mentions", query: { sentiment: "negative", from: "2026-11-12", to: "2026-11-18" }, created_at: "2026-11-18T10:00:00.000Z" },
  ];

  it("says how to save a view when there is none", async () => {
    fakeViewsApi();
    const { user } = renderAt(<ViewsMenu />, "/", "");
    const button = screen.getByRole("button", { name: /^Views \(saved views\)$/ });
    await user.click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    expect((await screen.findByTestId("views-empty")).textContent).toMatch(/choose “Save view” beside the range/);
  });

  it("lists each view as a plain link to its page and query, names as text; Tab reaches them, Escape closes", async () => {
    fakeViewsApi(stored);
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
    const api = fakeViewsApi(stored);
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
    expect(api.views.map((v) => v.name)).toContain("ChatGPT, last 7 days");

    await user.click(screen.getByRole("button", { name: "Delete “<b>Negative</b> mentions”" }));
    const confirm = screen.getByRole("group", { name: "Delete “<b>Negative</b> mentions”?" });
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: /Negative/ })).toBeNull());
    expect(api.writes().map((w) => `${w.method} ${w.url}`)).toEqual(["PATCH /api/views/view_1", "PATCH /api/views/view_1", "DELETE /api/views/view_2"]);
    expect(screen.getByRole("status").textContent).toBe("Deleted “<b>Negative</b> mentions”.");
  });
});
