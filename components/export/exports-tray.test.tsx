// @vitest-environment jsdom
// The exports tray's states as the viewer meets them, moved here from the end-to-end tests (which keep
// what needs a real layout engine: the tray's size, and that it never covers a page's end): a running
// export with its progress bar, the header's Hide and Cancel; a finished export shrunk to a one-line
// notice with a Dismiss named after its file; "said once" (a finished export the first answer already
// lists is old news and not shown; one finished while shown goes for good when the viewer leaves the
// page, a reload included, while a new export still shows); a failure that stays, in plain words with
// its request id, until dismissed, also after a reload; Hide remembered across a reload; a phone
// starting with the tray hidden as one line that still says how far the export is; and the live
// region announcing a completion. These are states of one component over the server's answers, so
// they are checked here, in milliseconds and without a browser, against answers the test chooses.
import { act, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { EXPORTS_KEY, type ExportStatus } from "@/lib/queries/exports";
import { ExportsTray } from "./exports-tray";
import { addStartedExport, forgetStartedExports } from "./started-exports";

const nav = vi.hoisted(() => ({ pathname: "/visitors" }));
vi.mock("next/navigation", async (original) => ({ ...(await original<typeof import("next/navigation")>()), usePathname: () => nav.pathname }));

const PHONE = "(max-width: 480px)";
const FILENAME = "visitors_source-gemini_2026-11-01_2026-11-30.csv";

/** What the server lists for this session (GET /api/export/status answers it), and the cancels it was asked for. */
let server: { exports: ExportStatus[]; cancels: string[] };
/** Exports a test put in the tab's "just started" store (a module shared by the worker's files): forgotten after it. */
const startedIds = new Set<string>();

function status(id: string, fields: Partial<ExportStatus> = {}): ExportStatus {
  return {
    id,
    resource: "visitors",
    format: "csv",
    filename: FILENAME,
    state: "running",
    rows_written: 250,
    total: 1000,
    bytes: 20_000,
    unreadable: { count: 0, request_ids: [] },
    seconds_left: 30,
    started_at: "2026-11-30T12:00:00.000Z",
    updated_at: "2026-11-30T12:00:05.000Z",
    ...fields,
  };
}

/** The server's list changes: export `id` is now as `fields` say (added if the server did not list it). */
function serverSays(id: string, fields: Partial<ExportStatus> = {}) {
  const before = server.exports.find((e) => e.id === id);
  const now = { ...(before ?? status(id)), ...fields };
  server.exports = before ? server.exports.map((e) => (e.id === id ? now : e)) : [now, ...server.exports];
}

/**
 * A stand-in for HTTP: the app's fetch answered as the status and cancel routes answer, from `server`
 * (a cancelled export is listed as cancelled from then on, as the server's export stops at its next
 * check). The routes themselves are tested on their own; here only the tray's reading of them counts.
 */
async function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : String(input), "http://dashboard.test");
  const method = init?.method ?? "GET";
  if (method === "GET" && url.pathname === "/api/export/status") return Response.json({ data: structuredClone(server.exports) });
  if (method === "POST" && url.pathname === "/api/export/cancel") {
    const id = url.searchParams.get("id") ?? "";
    server.cancels.push(id);
    serverSays(id, { state: "cancelled" });
    return new Response(null, { status: 202 });
  }
  return Response.json({ error: { code: "not_found", message: `No route ${method} ${url.pathname}.` } }, { status: 404 });
}

/** The window's width as the tray asks it: phone-wide (`(max-width: 480px)` matches) or not. */
function windowIs(width: "phone" | "wide") {
  vi.stubGlobal(
    "matchMedia",
    (query: string): MediaQueryList =>
      ({
        media: query,
        matches: width === "phone" && query === PHONE,
        onchange: null,
        addEventListener: () => {},
        removeEventListener: () => {},
        addListener: () => {},
        removeListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  );
}

/**
 * Lets what the query cache heard reach the tray: React Query tells its observers on a timer of 0 ms
 * after an answer, so one more such timer (inside act, so React renders what they set) comes after it.
 */
const drawn = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

/**
 * Mounts the tray as a page load does (a fresh query cache: a reload, or another tab) and waits for
 * the server's first answer to be drawn. Returns `nextAnswer` (the tray's next poll, at once),
 * and `goTo` (the viewer moves to another page of the app: the tray stays mounted in the shell).
 */
async function mountTray() {
  let view!: ReturnType<typeof renderWithProviders>;
  await act(async () => {
    view = renderWithProviders(<ExportsTray />);
  });
  const answered = () => (view.queryClient.getQueryState(EXPORTS_KEY)?.dataUpdateCount ?? 0) > 0;
  await vi.waitFor(() => expect(answered()).toBe(true));
  await drawn();
  return {
    ...view,
    async nextAnswer() {
      await act(() => view.queryClient.refetchQueries({ queryKey: EXPORTS_KEY }));
      await drawn();
    },
    goTo(pathname: string) {
      nav.pathname = pathname;
      view.rerender(<ExportsTray />);
    },
  };
}

/** A reload: the tray unmounted and mounted again on a fresh cache (this browser's storage kept). */
async function reload(view: { unmount: () => void }) {
  view.unmount();
  return mountTray();
}

/** Observers a test started, stopped after it. */
const observers: MutationObserver[] = [];

/**
 * Every export the tray draws from now on, even for one render (an item drawn and taken away at once
 * is still seen by the viewer, as a flash): the ids of the items put in the page.
 */
function watchDrawnExports(): () => string[] {
  const ids = new Set<string>();
  const note = (records: MutationRecord[]) => {
    for (const record of records)
      // What was taken away was drawn too: by the time this reads them, an added tray may have lost the item.
      for (const node of [...record.addedNodes, ...record.removedNodes]) {
        if (!(node instanceof Element)) continue;
        for (const el of [node, ...node.querySelectorAll("[data-export-id]")]) {
          const id = el.getAttribute("data-export-id");
          if (id) ids.add(id);
        }
      }
  };
  const observer = new MutationObserver(note);
  observer.observe(document.body, { childList: true, subtree: true });
  observers.push(observer);
  return () => {
    note(observer.takeRecords());
    return [...ids];
  };
}

const tray = () => screen.getByTestId("exports-tray");
const noTray = () => expect(screen.queryByTestId("exports-tray")).toBeNull();
const item = (id: string) => {
  const found = tray().querySelector<HTMLElement>(`[data-export-id="${id}"]`);
  if (!found) throw new Error(`The tray does not list export ${id}.`);
  return found;
};
const announcer = () => screen.getByTestId("exports-announcer");

beforeEach(() => {
  server = { exports: [], cancels: [] };
  nav.pathname = "/visitors";
  localStorage.clear();
  vi.stubGlobal("fetch", fakeFetch);
  windowIs("wide");
  // jsdom lays nothing out and does not scroll: the tray's room below the page asks to scroll by its height.
  vi.stubGlobal("scrollBy", () => {});
});

afterEach(() => {
  for (const observer of observers.splice(0)) observer.disconnect();
  vi.unstubAllGlobals();
  forgetStartedExports(startedIds);
  startedIds.clear();
  localStorage.clear();
});

describe("ExportsTray: a running export", () => {
  it("shows its progress bar, a header saying how far it is with Hide (expanded), and Cancel", async () => {
    serverSays("exp_run", { rows_written: 250, total: 1000, seconds_left: 30 });
    await mountTray();
    expect(tray().getAttribute("data-folded")).toBe("false");
    const running = item("exp_run");
    expect(running.getAttribute("data-state")).toBe("running");
    const bar = within(running).getByRole("progressbar", { name: `Export of ${FILENAME}` });
    expect(bar.getAttribute("aria-valuenow")).toBe("250");
    expect(bar.getAttribute("aria-valuemax")).toBe("1000");
    expect(bar.getAttribute("aria-valuetext")).toBe("250 of 1,000 rows");
    expect(within(running).getByTestId("export-detail").textContent).toMatch(/^250 of 1,000 rows · about \d+ s left$/);
    expect(screen.getByRole("heading", { name: "Exports · 1 running, 25%" })).toBeTruthy();
    expect(within(tray()).getByRole("button", { name: "Hide exports" }).getAttribute("aria-expanded")).toBe("true");
    expect(within(running).getByRole("button", { name: `Cancel export of ${FILENAME}` })).toBeTruthy();
    expect(within(running).queryByRole("button", { name: /^Dismiss/ })).toBeNull();
  });

  it("Cancel asks the server to stop it, the item then says so, and the keyboard's place moves to its Dismiss", async () => {
    serverSays("exp_cancel", { rows_written: 250, total: 1000 });
    const { user } = await mountTray();
    await user.click(within(item("exp_cancel")).getByRole("button", { name: /^Cancel/ }));
    expect(server.cancels).toEqual(["exp_cancel"]);
    await vi.waitFor(() => expect(item("exp_cancel").getAttribute("data-state")).toBe("cancelled"));
    const cancelled = item("exp_cancel");
    expect(within(cancelled).getByTestId("export-detail").textContent).toBe(
      "Cancelled after 250 of 1,000 rows. The download was stopped; no complete file was saved.",
    );
    expect(within(cancelled).queryByRole("progressbar")).toBeNull();
    expect(document.activeElement).toBe(within(cancelled).getByRole("button", { name: `Dismiss ${FILENAME}` }));
  });
});

describe("ExportsTray: a finished export", () => {
  it("shrinks to a one-line notice: no progress bar, no header or Hide, its name, what was written and a Dismiss named after the file", async () => {
    serverSays("exp_done");
    const view = await mountTray();
    expect(within(item("exp_done")).getByRole("progressbar")).toBeTruthy();
    expect(within(tray()).getByRole("button", { name: /^Hide/ })).toBeTruthy();

    serverSays("exp_done", { state: "complete", rows_written: 1234, total: 1234, bytes: 56_789, seconds_left: undefined });
    await view.nextAnswer();
    const done = item("exp_done");
    expect(done.getAttribute("data-state")).toBe("complete");
    expect(within(done).queryByRole("progressbar")).toBeNull();
    expect(within(tray()).queryByRole("button", { name: /^(Hide|Show)/ })).toBeNull();
    expect(within(done).queryByRole("button", { name: /^Cancel/ })).toBeNull();
    // The heading stays (it names the tray's region for a screen reader) but is not drawn, and says no more than "Exports".
    const heading = screen.getByRole("heading", { name: "Exports" });
    expect(heading.textContent).toBe("Exports");
    expect(heading.parentElement!.className).toBe("visually-hidden");
    expect(within(done).getByText(FILENAME)).toBeTruthy();
    expect(within(done).getByTestId("export-detail").textContent).toBe("Done: 1,234 rows, 57 KB");
    expect(within(done).getByRole("button", { name: `Dismiss ${FILENAME}` })).toBeTruthy();
    expect(tray().getAttribute("data-folded")).toBe("false");
  });
});

describe("ExportsTray: a finished export is said once", () => {
  it("one the first answer already lists as finished (a reload's or another tab's old news) is neither shown nor announced", async () => {
    serverSays("exp_old", { state: "complete", rows_written: 1000, seconds_left: undefined });
    serverSays("exp_cancelled_old", { state: "cancelled", seconds_left: undefined });
    // Listed in the same answer and shown: the answer was drawn.
    serverSays("exp_running", { resource: "mentions", filename: "mentions_all.json", format: "json", rows_written: 100 });
    const everDrawn = watchDrawnExports();
    await mountTray();
    expect(item("exp_running").getAttribute("data-state")).toBe("running");
    expect(tray().querySelector('[data-export-id="exp_old"]')).toBeNull();
    expect(tray().querySelector('[data-export-id="exp_cancelled_old"]')).toBeNull();
    expect(within(tray()).getAllByTestId("export-item")).toHaveLength(1);
    // Not even for a moment (a flash of the old notice as the first answer arrives).
    expect(everDrawn()).toEqual(["exp_running"]);
    expect(announcer().textContent).toBe("Mentions export started.");
  });

  it("one this tab started, finished by the tray's first answer (a small export started as the page loads), is news: shown and said", async () => {
    startedIds.add("exp_quick");
    act(() => addStartedExport({ id: "exp_quick", resource: "visitors", format: "csv", startedAt: Date.now() }));
    serverSays("exp_old", { state: "complete", seconds_left: undefined });
    serverSays("exp_quick", { state: "complete", rows_written: 12, total: 12, bytes: 900, seconds_left: undefined });
    await mountTray();
    expect(item("exp_quick").getAttribute("data-state")).toBe("complete");
    expect(within(tray()).getAllByTestId("export-item")).toHaveLength(1);
    expect(announcer().textContent).toBe("Visitors export done: 12 rows.");
  });

  it("one that finishes while shown is shown, then gone for good once the viewer leaves the page, also after a reload; a new export shows", async () => {
    serverSays("exp_said");
    const view = await mountTray();
    serverSays("exp_said", { state: "complete", rows_written: 1000, seconds_left: undefined });
    await view.nextAnswer();
    expect(item("exp_said").getAttribute("data-state")).toBe("complete");

    // Another page of the app (the tray stays mounted in the shell): it was said, it goes.
    view.goTo("/mentions");
    noTray();
    await view.nextAnswer();
    noTray();
    // The way back does not bring it back.
    view.goTo("/visitors");
    await view.nextAnswer();
    noTray();

    // A reload, while the server still lists it (for an hour): not shown.
    expect(server.exports.map((e) => e.id)).toEqual(["exp_said"]);
    const reloaded = await reload(view);
    noTray();

    // A new export has a new id, so it shows, and is said: one started here (its Export button) that is
    // "Starting…" until the server lists it, and done by the server's next answer.
    startedIds.add("exp_new");
    act(() => addStartedExport({ id: "exp_new", resource: "visitors", format: "csv", startedAt: Date.now() }));
    expect(within(tray()).getByRole("progressbar", { name: "Export of visitors (CSV)" }).getAttribute("aria-valuetext")).toBe("Starting");
    serverSays("exp_new", { state: "complete", rows_written: 40, total: 40, bytes: 2_100, seconds_left: undefined });
    await reloaded.nextAnswer();
    expect(item("exp_new").getAttribute("data-state")).toBe("complete");
    expect(tray().querySelector('[data-export-id="exp_said"]')).toBeNull();
    expect(within(tray()).getAllByTestId("export-item")).toHaveLength(1);
    expect(announcer().textContent).toBe("Visitors export done: 40 rows.");
  });
});

describe("ExportsTray: a failed export", () => {
  it("stays, on every page, with why in plain words and the request id, until dismissed, and stays dismissed after a reload", async () => {
    serverSays("exp_failed", {
      state: "failed",
      rows_written: 300,
      total: 1000,
      seconds_left: undefined,
      error: { code: "upstream_error", message: "The Data API failed (500).", request_id: "req_abc123" },
    });
    const view = await mountTray();
    const failed = item("exp_failed");
    expect(failed.getAttribute("data-state")).toBe("failed");
    expect(within(failed).getByTestId("export-detail").textContent).toBe("Failed after 300 of 1,000 rows.");
    const why = within(failed).getByTestId("export-error").textContent;
    expect(why).toBe(
      "Workspace Analytics had a problem. Try again shortly. The download was stopped and shows as failed in your browser. Request ID: req_abc123.",
    );
    expect(why).not.toContain("(500)");

    // Not news to leave behind: it follows the viewer to the next page, and is there after a reload.
    view.goTo("/mentions");
    await view.nextAnswer();
    expect(item("exp_failed").getAttribute("data-state")).toBe("failed");
    const reloaded = await reload(view);
    expect(item("exp_failed").getAttribute("data-state")).toBe("failed");

    await reloaded.user.click(within(item("exp_failed")).getByRole("button", { name: `Dismiss ${FILENAME}` }));
    noTray();
    // Reloaded with the server still listing it (and a new export running, drawn from the same answer): it stays dismissed.
    serverSays("exp_next", { filename: "visitors_all.csv" });
    const again = await reload(reloaded);
    expect(item("exp_next").getAttribute("data-state")).toBe("running");
    expect(tray().querySelector('[data-export-id="exp_failed"]')).toBeNull();
    // It is this browser's storage that keeps the dismissal: cleared (site data removed), a reload shows the failure again.
    localStorage.clear();
    await reload(again);
    expect(item("exp_failed").getAttribute("data-state")).toBe("failed");
  });
});

describe("ExportsTray: Hide and Show", () => {
  it("Hide folds the tray to its header and is remembered after a reload; Show brings the items back", async () => {
    serverSays("exp_hide", { rows_written: 250, total: 1000 });
    const { user, ...view } = await mountTray();
    await user.click(within(tray()).getByRole("button", { name: "Hide exports" }));
    expect(tray().getAttribute("data-folded")).toBe("true");
    expect(within(tray()).queryByRole("progressbar")).toBeNull();

    const reloaded = await reload(view);
    expect(tray().getAttribute("data-folded")).toBe("true");
    const show = within(tray()).getByRole("button", { name: "Show exports" });
    expect(show.getAttribute("aria-expanded")).toBe("false");
    // Folded, it still says how far the export is.
    expect(screen.getByRole("heading", { name: "Exports · 1 running, 25%" })).toBeTruthy();
    expect(within(tray()).queryByRole("progressbar")).toBeNull();

    await reloaded.user.click(show);
    expect(tray().getAttribute("data-folded")).toBe("false");
    expect(within(tray()).getByRole("button", { name: "Hide exports" }).getAttribute("aria-expanded")).toBe("true");
    expect(within(item("exp_hide")).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("250");

    // Show is remembered as well: the next reload starts shown.
    await reload(reloaded);
    expect(tray().getAttribute("data-folded")).toBe("false");
  });

  it("a hidden tray does not fold away an outcome: the export that ends while hidden shows its notice", async () => {
    serverSays("exp_hidden", { rows_written: 250, total: 1000 });
    const { user, ...view } = await mountTray();
    await user.click(within(tray()).getByRole("button", { name: "Hide exports" }));
    expect(tray().getAttribute("data-folded")).toBe("true");

    serverSays("exp_hidden", {
      state: "failed",
      seconds_left: undefined,
      error: { code: "export_lost", message: "The instance stopped.", request_id: "req_lost1" },
    });
    await view.nextAnswer();
    expect(tray().getAttribute("data-folded")).toBe("false");
    expect(within(tray()).queryByRole("button", { name: /^(Hide|Show)/ })).toBeNull();
    expect(within(item("exp_hidden")).getByTestId("export-error").textContent).toContain("The server running this export stopped before it finished.");
    expect(within(item("exp_hidden")).getByRole("button", { name: `Dismiss ${FILENAME}` })).toBeTruthy();
  });

  it("on a phone the tray starts hidden: one line that still says how far the export is, its progress bar hidden", async () => {
    windowIs("phone");
    serverSays("exp_phone", { resource: "mentions", filename: "mentions_all.csv", rows_written: 480, total: 1200 });
    const { user } = await mountTray();
    expect(tray().getAttribute("data-folded")).toBe("true");
    const show = within(tray()).getByRole("button", { name: "Show exports" });
    expect(show.getAttribute("aria-expanded")).toBe("false");
    expect(screen.getByRole("heading").textContent).toBe("Exports · 1 running, 40%");
    expect(within(tray()).queryByRole("progressbar")).toBeNull();
    // In the page, but in a list the browser does not draw.
    const bar = within(tray()).getByRole("progressbar", { hidden: true });
    expect(bar.closest("ul")!.hidden).toBe(true);

    await user.click(show);
    expect(tray().getAttribute("data-folded")).toBe("false");
    expect(within(tray()).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("480");
  });
});

describe("ExportsTray: the live region", () => {
  it("announces a completion, and only what changed, outside the tray (so hiding or dismissing silences nothing)", async () => {
    serverSays("exp_other", { resource: "mentions", filename: "mentions_all.csv", rows_written: 10, total: 500 });
    serverSays("exp_said", { rows_written: 0, total: 1234 });
    const view = await mountTray();
    expect(announcer().textContent).toBe("Visitors export started. Mentions export started.");
    expect(announcer().getAttribute("aria-live")).toBe("polite");
    expect(tray().contains(announcer())).toBe(false);

    // The mentions' export moved on within its first quarter: nothing to say about it.
    serverSays("exp_other", { rows_written: 60 });
    serverSays("exp_said", { state: "complete", rows_written: 1234, bytes: 56_789, seconds_left: undefined });
    await view.nextAnswer();
    expect(announcer().textContent).toBe("Visitors export done: 1,234 rows.");
  });
});
