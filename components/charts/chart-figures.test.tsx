// @vitest-environment jsdom
// The chart widgets from API rows to what people get: the rows go through the charts' real data
// mapping (AI platforms first, unknown counts as "—") into the legend, the bar tables and the text
// alternative (a table screen readers read), with the links behind the figures; a drawn chart waits
// until the figure comes near the viewport or the browser is idle, never for a scroll.
import { act, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { toBreakdownData } from "./breakdown-chart-data";
import { BreakdownFigure, IDLE_DRAW_TIMEOUT_MS, TrendFigure } from "./chart-figures";
import { ConversionBySourceTable } from "./source-tables";
import { toFunnelChartData } from "./funnel-chart-data";
import { FunnelTable } from "./funnel-table";
import { toTrendChartData } from "./trend-chart-data";

/**
 * jsdom has no IntersectionObserver. This stand-in reports nothing until a test says the figure
 * scrolled near (`scrollNear`), as a browser would for a figure below the fold.
 */
class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe() {}
  disconnect() {}
  near() {
    this.callback([{ isIntersecting: true } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
  }
}
const scrollNear = () => act(() => FakeIntersectionObserver.instances.forEach((o) => o.near()));

beforeEach(() => {
  FakeIntersectionObserver.instances = [];
  globalThis.IntersectionObserver = FakeIntersectionObserver as unknown as typeof IntersectionObserver;
});
afterEach(() => {
  delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
});

/** A table's body rows as arrays of cell texts (the row header first). */
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole("row")
    .slice(1)
    .map((tr) => [...tr.children].map((c) => c.textContent));

describe("FunnelTable", () => {
  const stages = toFunnelChartData([
    { stage: "visitors", label: "Visitors", count: 1000 },
    { stage: "engaged", label: "Engaged (2+ pages)", count: 400 },
    { stage: "leads", label: "Leads" },
    { stage: "conversions", label: "Conversions", count: 20 },
  ]);
  const window = { from: "2026-11-13T12:00:00.000Z", to: "2026-11-20T12:00:00.000Z" };

  it("heads the counts with the period, so no stage reads as the date range's figure of the same name", () => {
    renderWithProviders(<FunnelTable bars={stages} windowLabel="last 7 days up to now" window={window} />);
    const table = screen.getByRole("table", { name: "Conversion funnel, last 7 days up to now" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((th) => th.querySelector("span")?.textContent ?? th.textContent),
    ).toEqual(["Stage", "Last 7 days up to now", "From previous stage", "From first stage"]);
    expect(rowsOf(table)).toEqual([
      ["Visitors", "1,000", "—", "100.0%"],
      ["Engaged (2+ pages)", "400", "40.0%", "40.0%"],
      ["Leads", "—", "—", "—"],
      ["Conversions", "20", "—", "2.0%"],
    ]);
  });

  it("draws each stage's bar at once, as wide as its share of the largest stage (none for an unknown count)", () => {
    renderWithProviders(<FunnelTable bars={stages} windowLabel="last 7 days up to now" window={window} />);
    expect(screen.getAllByTestId("funnel-bar").map((b) => b.style.width)).toEqual(["100%", "40%", "0%", "2%"]);
  });

  it("opens the visitors and conversions behind their counts; the stages the list cannot filter say why and open nothing", () => {
    renderWithProviders(<FunnelTable bars={stages} windowLabel="last 7 days up to now" window={window} />);
    const bounds = "from=2026-11-13T12%3A00%3A00.000Z&to=2026-11-20T12%3A00%3A00.000Z";
    expect(screen.getAllByRole("link").map((a) => [a.getAttribute("aria-label"), a.getAttribute("href")])).toEqual([
      ["1,000 Visitors, last 7 days up to now: view these visitors", `/visitors?${bounds}`],
      ["20 Conversions, last 7 days up to now: view these visitors", `/visitors?${bounds}&converted=true`],
    ]);
    const note = screen.getByTestId("funnel-unlinked-note");
    expect(note.textContent).toBe("Engaged (2+ pages) and Leads open no list: the visitor list cannot filter by pages viewed or form submissions.");
    // The unlinked count is described by that reason.
    const engaged = within(screen.getByTestId("funnel-step-engaged")).getByText("400");
    expect(engaged.getAttribute("aria-describedby")).toBe(note.id);
  });

  it("draws no links when the API did not say the period's window", () => {
    renderWithProviders(<FunnelTable bars={stages} windowLabel="last 7 days up to now" window={null} />);
    expect(screen.queryAllByRole("link")).toHaveLength(0);
  });
});

describe("ConversionBySourceTable", () => {
  const figures = (visitors: number, conversions: number) => ({
    visitors,
    conversions,
    conversion_rate: visitors ? Math.round((conversions * 1000) / visitors) / 10 : null,
  });
  const rows = [
    { source: "organic" as const, ...figures(500, 10), previous: figures(400, 8) },
    { source: "chatgpt" as const, ...figures(120, 12), previous: figures(100, 5) },
    { source: "claude" as const, ...figures(30, 0), previous: figures(0, 0) },
  ];
  const window = { from: "2026-11-01", to: "2026-11-30", tz: "Europe/Berlin" };

  it("opens each source's visitors and its conversions from their own figures, over the range in its zone", () => {
    renderWithProviders(<ConversionBySourceTable rows={rows} windowLabel="1 Nov – 30 Nov 2026" previousLabel="2 Oct – 31 Oct 2026" window={window} />);
    const params = (testId: string) => Object.fromEntries(new URL(screen.getByTestId(testId).getAttribute("href")!, "http://x").searchParams);
    const range = { from: "2026-11-01", to: "2026-11-30", tz: "Europe/Berlin" };
    expect(screen.getByTestId("visitors-link-chatgpt").textContent).toBe("120");
    expect(params("visitors-link-chatgpt")).toEqual({ source: "chatgpt", ...range });
    expect(screen.getByTestId("conversions-link-chatgpt").textContent).toBe("12");
    expect(params("conversions-link-chatgpt")).toEqual({ source: "chatgpt", converted: "true", ...range });
    expect(params("visitors-link-organic")).toEqual({ source: "organic", ...range });
    // The AI platforms' total opens their one list, `source=ai`; the other sources' total has none.
    expect(screen.getByTestId("group-visitors-link-ai").textContent).toBe("150 visitors");
    expect(params("group-visitors-link-ai")).toEqual({ source: "ai", ...range });
    expect(screen.getByTestId("group-conversions-link-ai").textContent).toBe("12 conversions");
    expect(params("group-conversions-link-ai")).toEqual({ source: "ai", converted: "true", ...range });
    expect(screen.getByTestId("group-total-other").querySelectorAll("a")).toHaveLength(0);
    // All sources' totals open the range's visitors, unfiltered by source, and the converted ones.
    expect(params("visitors-link-all")).toEqual(range);
    expect(params("conversions-link-all")).toEqual({ converted: "true", ...range });
    // Every figure that counts visitors is a link: three sources, each its name, visitors and
    // conversions, the AI platforms' visitors and conversions together, and all sources'.
    expect(screen.getAllByRole("link")).toHaveLength(13);
  });
});

describe("TrendFigure", () => {
  const point = (start: string, visitors: number, ai_visitors: number, conversions: number) => ({ start, visitors, ai_visitors, conversions });
  const answer = {
    bucket: "day" as const,
    tz: "UTC",
    from: "2026-11-01",
    to: "2026-11-02",
    data: [point("2026-11-01T00:00:00.000Z", 100, 30, 4), point("2026-11-02T00:00:00.000Z", 300, 90, 8)],
    previous: [point("2026-10-30T00:00:00.000Z", 150, 20, 3), point("2026-10-31T00:00:00.000Z", 250, 20, 3)],
  };
  const data = toTrendChartData(answer, Date.parse("2026-11-03T08:00:00Z"));
  const render = (d = data) => renderWithProviders(<TrendFigure data={d} windowLabel="1 Nov – 2 Nov 2026" previousLabel="30 Oct – 31 Oct 2026" />);

  it("says the drawn metric in words, against the previous period, and switches metric by button", async () => {
    const { user } = render();
    expect(screen.getByTestId("trend-summary").textContent).toBe(
      "Visitors per day, 1 Nov – 2 Nov 2026: 400 in total against 400 in 30 Oct – 31 Oct 2026; most on 2 Nov (300).",
    );
    expect(screen.getByRole("button", { name: "Visitors" }).getAttribute("aria-pressed")).toBe("true");
    await user.click(screen.getByRole("button", { name: "AI visitors" }));
    expect(screen.getByRole("button", { name: "AI visitors" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("trend-summary").textContent).toBe(
      "AI visitors per day, 1 Nov – 2 Nov 2026: 120 in total against 40 in 30 Oct – 31 Oct 2026; most on 2 Nov (90).",
    );
    // The legend names both windows, the previous period's as such.
    expect(screen.getByRole("list", { name: "Legend" }).textContent).toContain("Previous period, 30 Oct – 31 Oct 2026");
    expect(screen.queryByTestId("trend-in-progress")).toBeNull();
  });

  it("says which day is still counting, in the legend, the summary and the table", () => {
    render(toTrendChartData(answer, Date.parse("2026-11-02T15:00:00Z")));
    expect(screen.getByTestId("trend-in-progress").textContent).toBe(" Today so far (2 Nov, still counting)");
    expect(screen.getByTestId("trend-summary").textContent).toContain("; 2 Nov is still counting.");
    const table = screen.getByRole("table", { name: /Visitors, AI visitors and conversions per day/ });
    expect(rowsOf(table).map((r) => r[0])).toEqual(["1 Nov", "2 Nov (so far)"]);
  });

  it("has every bucket of every metric, the previous period's beside it, as a table", () => {
    render();
    const table = screen.getByRole("table", { name: /Visitors, AI visitors and conversions per day, 1 Nov – 2 Nov 2026/ });
    expect(rowsOf(table)).toEqual([
      ["1 Nov", "100", "30", "4", "30 Oct", "150", "20", "3"],
      ["2 Nov", "300", "90", "8", "31 Oct", "250", "20", "3"],
    ]);
  });

  describe("the drawn chart", () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it("waits in a box of the chart's height, and is drawn once the figure comes near the viewport", () => {
      render();
      const placeholder = screen.getByTestId("chart-placeholder");
      expect(placeholder.closest('[aria-hidden="true"]')).toBeTruthy();
      expect((placeholder as HTMLElement).style.height).toBe("260px");
      scrollNear();
      expect(screen.queryByTestId("chart-placeholder")).toBeNull();
    });

    it("is drawn without a scroll once the browser has had time (below the fold, in a capture or a print)", () => {
      render();
      act(() => vi.advanceTimersByTime(IDLE_DRAW_TIMEOUT_MS - 1));
      expect(screen.getByTestId("chart-placeholder")).toBeTruthy();
      act(() => vi.advanceTimersByTime(1));
      expect(screen.queryByTestId("chart-placeholder")).toBeNull();
    });
  });
});

describe("BreakdownFigure", () => {
  it("names the four components in order, a missing one as '—' rather than 0", () => {
    renderWithProviders(<BreakdownFigure bars={toBreakdownData({ breakdown: { visibility: 0, authority: 61, coverage: 40 } })} />);
    const table = screen.getByRole("table", { name: "Score components, each out of 100" });
    expect(rowsOf(table).map((r) => r.slice(0, 2))).toEqual([
      ["Visibility", "0"],
      ["Sentiment", "—"],
      ["Authority", "61"],
      ["Coverage", "40"],
    ]);
  });
});
