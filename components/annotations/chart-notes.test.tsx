// @vitest-environment jsdom
// A chart's notes as people use them, against the app's own routes: the browser's fetch is handed to
// the /api route handlers in-process (testing/app-fetch.ts), over a real embedded store,
// so what the UI sends is validated and kept exactly as over HTTP (the routes' own behaviour is
// tested in lib/annotations/routes.test.ts). Markers and bands are drawn for the notes of the range
// (in a recharts chart and in the CSS columns of sentiment over time), flags named by the notes and
// showing them on hover and focus; the form's keyboard path and accessible names; the empty and
// error states; a teammate's change said with their text (409); a delete confirmed first; markup in
// a note shown as text.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { Line, LineChart, XAxis } from "recharts";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { appRoutesAsFetch, preloadRoutes } from "@/testing/app-fetch";
import { renderWithProviders } from "@/components/test-utils/render";
import { apiQuery, browserApi } from "@/lib/queries/api";
import type { AnnotationJson } from "@/lib/annotations/limits";
import { StoreUnavailableError } from "@/lib/store/errors";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { storesForFile } from "@/testing/stores";
import { serverContextPerTest, sessionCookie, upstreamForFile } from "@/testing/in-process";
import type { SentimentInsight } from "@/lib/insights/sentiment";
import { SentimentOverTime } from "@/components/platforms/sentiment-over-time";
import { DEMO_KEYS } from "@/sandbox/keys";
import { bucketsOf, noteMarks } from "./annotation-data";
import { ChartNoteMarks } from "./chart-marks";
import { ChartNotes, newNoteDay, type ChartNotesView } from "./chart-notes";
import { AUTHOR_STORAGE_KEY } from "./note-form";

upstreamForFile({ visitors: 10 });
const stores = storesForFile();
const overrideContext = serverContextPerTest();

let store: Store;
let ws: WorkspaceId;

beforeAll(() => preloadRoutes(["/api/annotations", "/api/annotations/ann_x"]));

beforeEach(async () => {
  store = await stores.open("embedded");
  overrideContext({ store: async () => store });
  ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
  vi.stubGlobal("fetch", appRoutesAsFetch(await sessionCookie(DEMO_KEYS.pro)));
  window.localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const RANGE = { from: "2026-11-01", to: "2026-11-07", tz: "UTC" };
const DAYS = ["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06", "2026-11-07"];
const BUCKETS = bucketsOf(
  DAYS.map((d) => ({ key: `day ${d.slice(8)}`, date: d })),
  RANGE.to,
);

const note = (date: string, text: string, extra: { endDate?: string; author?: string } = {}) =>
  store.annotations.create(ws, { date, text, endDate: extra.endDate ?? null, author: extra.author ?? null });

/** The shared notes frame around a stand-in chart that shows how many marks it was given. */
function renderNotes() {
  return renderWithProviders(
    <ChartNotes range={RANGE} buckets={BUCKETS} subject="the trend">
      {(view) => <p data-testid="marks-given">{view.marks.length}</p>}
    </ChartNotes>,
  );
}

describe("markers on a recharts chart", () => {
  it("draws a marker line for a day's note and a band for a span, only in range, with flags named by the notes", async () => {
    const user = (await import("@testing-library/user-event")).default.setup();
    const notes: AnnotationJson[] = [
      { id: "ann_a", date: "2026-11-03", end_date: null, text: "Campaign paused", author: "Ana", created_at: "", updated_at: "" },
      { id: "ann_b", date: "2026-10-30", end_date: "2026-11-02", text: "Launch week", author: null, created_at: "", updated_at: "" },
      { id: "ann_c", date: "2026-11-20", end_date: null, text: "Out of range", author: null, created_at: "", updated_at: "" },
    ];
    const layer = document.createElement("div");
    document.body.append(layer);
    const view: ChartNotesView = { marks: noteMarks(notes, BUCKETS), buckets: BUCKETS, layer, pickDate: () => {} };
    const { container } = renderWithProviders(
      <LineChart width={700} height={240} data={BUCKETS.map((b) => ({ label: b.key, v: 1 }))}>
        <XAxis dataKey="label" />
        <Line dataKey="v" isAnimationActive={false} />
        <ChartNoteMarks view={view} />
      </LineChart>,
    );
    await waitFor(() => expect(container.querySelectorAll(".recharts-reference-line")).toHaveLength(1));
    expect(container.querySelectorAll(".recharts-reference-area")).toHaveLength(1);
    const flags = within(layer).getAllByRole("button");
    expect(flags.map((f) => f.getAttribute("aria-label"))).toEqual(["Note, 30 Oct – 2 Nov 2026: Launch week", "Note, 3 Nov 2026: Campaign paused (Ana)"]);
    // Placed by the chart's own scale: the band's flag at the first day, the line's further right.
    const lefts = flags.map((f) => Number.parseFloat((f.parentElement as HTMLElement).style.left));
    expect(lefts[0]).toBeLessThan(lefts[1]!);
    expect(screen.queryByRole("tooltip")).toBeNull();
    await user.hover(flags[1]!);
    expect(screen.getByRole("tooltip").textContent).toContain("Campaign paused");
    await user.unhover(flags[1]!);
    expect(screen.queryByRole("tooltip")).toBeNull();
    act(() => flags[0]!.focus());
    expect(screen.getByRole("tooltip").textContent).toContain("Launch week");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("tooltip")).toBeNull();
    layer.remove();
  });
});

describe("notes of a chart's range", () => {
  it("says there are none, then lists the range's notes by date with their author", async () => {
    renderNotes();
    expect(await screen.findByText("No notes in this range.")).toBeTruthy();
    expect(screen.getByTestId("marks-given").textContent).toBe("0");
  });

  it("lists the notes touching the range, hands their marks to the chart, and shows markup as text", async () => {
    await note("2026-11-05", "Second", { author: "Ben" });
    await note("2026-10-28", "Span into the range", { endDate: "2026-11-01" });
    await note("2026-11-09", "After the range");
    await note("2026-11-02", `<img src=x onerror="alert(1)"><b>bold</b>`);
    renderNotes();
    const list = await screen.findByRole("list", { name: "Notes on the trend" });
    const items = within(list).getAllByTestId("note-item");
    expect(items.map((i) => within(i).getByTestId("note-text").textContent)).toEqual([
      "Span into the range",
      `<img src=x onerror="alert(1)"><b>bold</b>`,
      "Second",
    ]);
    expect(items[2]!.textContent).toContain("— Ben");
    expect(items[0]!.textContent).toContain("28 Oct – 1 Nov 2026");
    expect(list.querySelector("img, b")).toBeNull();
    expect(screen.getByTestId("marks-given").textContent).toBe("3");
  });

  it("says when the notes cannot be read, and reads them again on Try again", async () => {
    overrideContext({
      store: async () => {
        throw new StoreUnavailableError("down for the test");
      },
    });
    const { user } = renderNotes();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/Try again/);
    overrideContext({ store: async () => store });
    await note("2026-11-04", "Back");
    await user.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Back")).toBeTruthy();
  });

  it("adds a note by keyboard: named fields, a live count, the author remembered, the save announced", async () => {
    window.localStorage.setItem(AUTHOR_STORAGE_KEY, "Ana");
    const { user } = renderNotes();
    await screen.findByText("No notes in this range.");
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Add note" }));
    await user.keyboard("{Enter}");
    const form = screen.getByTestId("note-form");
    // The text field has the focus; every field is named.
    expect(document.activeElement).toBe(within(form).getByLabelText("Note"));
    // The range is over: the note starts on its last day (today, were the range to hold it).
    expect((within(form).getByLabelText("Day (first day of a span)") as HTMLInputElement).value).toBe("2026-11-07");
    expect((within(form).getByLabelText("Last day (optional)") as HTMLInputElement).value).toBe("");
    expect((within(form).getByLabelText("Your name (optional)") as HTMLInputElement).value).toBe("Ana");
    expect(within(form).getByRole("button", { name: "Open a calendar for the note's day" })).toBeTruthy();
    await user.keyboard("Campaign 🚀 paused");
    // Characters as people count them: the emoji is one.
    expect(within(form).getByTestId("note-count").textContent).toBe("17 of 280 characters");
    const day = within(form).getByLabelText("Day (first day of a span)");
    await user.clear(day);
    await user.type(day, "2026-11-03");
    const last = within(form).getByLabelText("Last day (optional)");
    await user.type(last, "2026-11-04");
    const name = within(form).getByLabelText("Your name (optional)");
    await user.clear(name);
    await user.type(name, "Ana B.");
    await user.type(name, "{Enter}");
    await waitFor(() => expect(screen.getByTestId("notes-status").textContent).toBe("Note on 3 Nov – 4 Nov 2026 saved."));
    const kept = await store.annotations.list(ws, { from: "2026-11-01", to: "2026-11-30" });
    expect(kept).toMatchObject([{ date: "2026-11-03", endDate: "2026-11-04", text: "Campaign 🚀 paused", author: "Ana B." }]);
    expect(window.localStorage.getItem(AUTHOR_STORAGE_KEY)).toBe("Ana B.");
    expect(await screen.findByText("Campaign 🚀 paused")).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Add note" })));
  });

  it("says what is wrong on the field before sending anything", async () => {
    const { user } = renderNotes();
    await user.click(await screen.findByRole("button", { name: "Add note" }));
    const form = screen.getByTestId("note-form");
    await user.type(within(form).getByLabelText("Last day (optional)"), "2026-10-30");
    await user.click(within(form).getByRole("button", { name: "Save note" }));
    expect(form.textContent).toContain("The last day cannot be before the first day.");
    expect(form.textContent).toContain("Write what happened");
    expect(within(form).getByLabelText("Note").getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(within(form).getByLabelText("Note"), { target: { value: "x".repeat(281) } });
    expect(within(form).getByTestId("note-count").textContent).toBe("281 of 280 characters");
    expect(await store.annotations.count(ws)).toBe(0);
  });

  it("a note a teammate changed meanwhile: says so with their text; saving mine replaces it", async () => {
    const original = await note("2026-11-03", "First words", { author: "Ana" });
    const { user } = renderNotes();
    await user.click(await screen.findByRole("button", { name: "Edit the note of 3 Nov 2026" }));
    const form = screen.getByTestId("note-form");
    // Meanwhile, in another session:
    await store.annotations.update(ws, original.id, original.updatedAt, { text: "Their newer words", author: "Ben" });
    const text = within(form).getByLabelText("Note");
    await user.clear(text);
    await user.type(text, "My words");
    await user.click(within(form).getByRole("button", { name: "Save changes" }));
    const conflict = await within(form).findByTestId("note-conflict");
    expect(conflict.textContent).toContain("A teammate changed this note while you were editing it.");
    expect(conflict.textContent).toContain("“Their newer words”");
    expect(conflict.textContent).toContain("by Ben");
    expect((await store.annotations.note(ws, original.id))?.text).toBe("Their newer words");
    await user.click(within(form).getByRole("button", { name: "Save mine over theirs" }));
    await waitFor(async () => expect((await store.annotations.note(ws, original.id))?.text).toBe("My words"));
    expect(await screen.findByText("My words")).toBeTruthy();
    expect(screen.getByTestId("notes-status").textContent).toBe("Note on 3 Nov 2026 saved.");
  });

  it("keeping the teammate's version closes the form and shows theirs", async () => {
    const original = await note("2026-11-03", "First words");
    const { user } = renderNotes();
    await user.click(await screen.findByRole("button", { name: "Edit the note of 3 Nov 2026" }));
    await store.annotations.update(ws, original.id, original.updatedAt, { text: "Their newer words" });
    await user.type(screen.getByLabelText("Note"), " and mine");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await user.click(await screen.findByRole("button", { name: "Keep theirs" }));
    expect(await screen.findByText("Their newer words")).toBeTruthy();
    expect(screen.queryByTestId("note-form")).toBeNull();
  });

  it("a delete asks first; keeping the note changes nothing, confirming deletes it", async () => {
    const kept = await note("2026-11-03", "Keep or not");
    const { user } = renderNotes();
    await user.click(await screen.findByRole("button", { name: "Delete the note of 3 Nov 2026" }));
    const ask = screen.getByRole("group", { name: "Delete the note of 3 Nov 2026?" });
    await waitFor(() => expect(document.activeElement).toBe(within(ask).getByRole("button", { name: "Yes, delete" })));
    await user.click(within(ask).getByRole("button", { name: "Keep it" }));
    expect(await store.annotations.note(ws, kept.id)).toBeDefined();
    await user.click(screen.getByRole("button", { name: "Delete the note of 3 Nov 2026" }));
    await user.click(screen.getByRole("button", { name: "Yes, delete" }));
    expect(await screen.findByText("No notes in this range.")).toBeTruthy();
    expect(await store.annotations.note(ws, kept.id)).toBeUndefined();
    expect(screen.getByTestId("notes-status").textContent).toBe("Note on 3 Nov 2026 deleted.");
  });
});

describe("sentiment over time with notes", () => {
  const none = { positive: 0, neutral: 0, negative: 0 };
  const answer: SentimentInsight = {
    ...RANGE,
    bucket: "day",
    data: DAYS.map((d, i) => ({
      start: `${d}T00:00:00.000Z`,
      positive: i + 1,
      neutral: 1,
      negative: 1,
      platforms: { chatgpt: { positive: i + 1, neutral: 1, negative: 1 }, claude: none, perplexity: none, gemini: none },
    })),
  };

  it("draws a line through a day's column and a band over a span's columns, with named flags outside the hidden drawing", async () => {
    await note("2026-11-02", "Price change");
    await note("2026-11-05", "Conference", { endDate: "2026-11-06" });
    renderWithProviders(<SentimentOverTime answer={answer} />);
    const line = await screen.findByTestId("note-line");
    const band = screen.getByTestId("note-band");
    // Seven equal columns: day 2's middle, and days 5 to 6.
    expect(Number.parseFloat(line.style.left)).toBeCloseTo((1.5 / 7) * 100, 5);
    expect([Number.parseFloat(band.style.left), Number.parseFloat(band.style.width)].map((v) => Math.round(v * 100) / 100)).toEqual([57.14, 28.57]);
    const flags = screen.getAllByTestId("note-flag");
    expect(flags.map((f) => f.getAttribute("aria-label"))).toEqual(["Note, 2 Nov 2026: Price change", "Note, 5 Nov – 6 Nov 2026: Conference"]);
    for (const f of flags) expect(f.closest("[aria-hidden='true']")).toBeNull();
    expect(line.closest("[aria-hidden='true']")).not.toBeNull();
  });
});

describe("newNoteDay", () => {
  it("is today in the range's zone when the range holds it, else the range's day nearest to today", () => {
    const at = Date.parse("2026-11-18T23:30:00Z");
    expect(newNoteDay({ from: "2026-11-01", to: "2026-11-30", tz: "UTC" }, at)).toBe("2026-11-18");
    // 23:30 UTC is the next day in Berlin.
    expect(newNoteDay({ from: "2026-11-01", to: "2026-11-30", tz: "Europe/Berlin" }, at)).toBe("2026-11-19");
    expect(newNoteDay({ from: "2026-10-01", to: "2026-10-31", tz: "UTC" }, at)).toBe("2026-10-31");
    expect(newNoteDay({ from: "2026-12-01", to: "2026-12-31", tz: "UTC" }, at)).toBe("2026-12-01");
  });
});

describe("hydration", () => {
  it("a chart hydrating after the page's notes have arrived renders what the server sent, then the notes", async () => {
    await note("2026-11-03", "Launch day");
    // The server's HTML: nothing prefetched, so the notes are loading.
    const serverClient = new QueryClient();
    const ui = (client: QueryClient) => (
      <QueryClientProvider client={client}>
        <ChartNotes range={RANGE} buckets={BUCKETS} subject="the trend">
          {(view) => <p data-testid="marks-given">{view.marks.length}</p>}
        </ChartNotes>
      </QueryClientProvider>
    );
    const html = renderToString(ui(serverClient));
    expect(html).toContain("Loading notes…");

    // The browser: another chart of the page has already read the same notes when this one hydrates.
    const browserClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
    await browserClient.fetchQuery({ ...apiQuery(browserApi, "/annotations", { query: RANGE }) });
    const container = document.createElement("div");
    container.innerHTML = html;
    document.body.appendChild(container);
    const mismatches: unknown[] = [];
    let root: Root | undefined;
    await act(async () => {
      root = hydrateRoot(container, ui(browserClient), { onRecoverableError: (error) => mismatches.push(error) });
    });
    expect(mismatches).toEqual([]);
    // Once hydrated, the notes the cache holds show at once.
    await waitFor(() => expect(within(container).getByText("Launch day")).toBeTruthy());
    expect(within(container).getByTestId("marks-given").textContent).toBe("1");
    act(() => root!.unmount());
    container.remove();
  });
});
