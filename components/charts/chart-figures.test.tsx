// @vitest-environment jsdom
// The chart widgets from API rows to what people get: the rows go through the charts' real data
// mapping (AI platforms first, shares filled in, unknown counts as "—", an unknown source as sent)
// into the legend, the funnel's step list and the text alternative (a table screen readers read);
// the drawn chart waits until the figure comes near the viewport.
import { act, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { toBreakdownData } from "./breakdown-chart-data";
import { BreakdownFigure, FunnelFigure, TrafficFigure } from "./chart-figures";
import { toFunnelChartData } from "./funnel-chart-data";
import { toTrafficChartData } from "./traffic-chart-data";

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
const rowsOf = (table: HTMLElement) => within(table).getAllByRole("row").slice(1).map((tr) => [...tr.children].map((c) => c.textContent));

describe("TrafficFigure", () => {
  const data = toTrafficChartData([
    { source: "organic", visitors: 500, percentage: 50, change: -3.25 },
    { source: "claude", visitors: 50 },
    { source: "bing", visitors: 150, percentage: 15 },
    { source: "chatgpt", visitors: 250, percentage: 25, change: 4.5 },
    { source: "direct" },
  ]);

  it("reads as a table: AI platforms first, then other sources by visitors, shares filled in, unknowns as sent or '—'", () => {
    renderWithProviders(<TrafficFigure data={data} periodLabel="Last 30 days" />);
    const table = screen.getByRole("table", { name: "Visitors by traffic source, Last 30 days" });
    // Headed as the card's "CSV for Excel" download is (lib/columns/analytics.ts).
    expect(within(table).getAllByRole("columnheader").map((th) => th.textContent)).toEqual(["Source", "Group", "Visitors", "Share of visitors (%)", "Change vs previous period (%)"]);
    expect(rowsOf(table)).toEqual([
      ["ChatGPT", "AI platform", "250", "25%", "up 4.5%"],
      // Claude's share was left out: 50 of the 950 visitors with a known count.
      ["Claude", "AI platform", "50", "5.3%", "change unknown"],
      ["Organic search", "Other source", "500", "50%", "down 3.3%"],
      ["bing", "Other source", "150", "15%", "change unknown"],
      ["Direct", "Other source", "—", "—", "change unknown"],
    ]);
  });

  it("states the AI platforms' share of all visitors in the legend", () => {
    renderWithProviders(<TrafficFigure data={data} periodLabel="Last 30 days" />);
    // 300 of 950 visitors with a known count.
    expect(screen.getByRole("list", { name: "Legend" }).textContent).toContain("AI platforms (31.6% of visitors)");
  });

  it("draws the chart only once the figure comes near the viewport", async () => {
    renderWithProviders(<TrafficFigure data={data} periodLabel="Last 30 days" />);
    const placeholder = screen.getByTestId("chart-placeholder");
    expect(placeholder.closest('[aria-hidden="true"]')).toBeTruthy();
    // The reserved height matches the chart's, so nothing shifts when it draws: 5 bars.
    expect((placeholder as HTMLElement).style.height).toBe("220px");
    scrollNear();
    expect(screen.queryByTestId("chart-placeholder")).toBeNull();
  });
});

describe("FunnelFigure", () => {
  const bars = toFunnelChartData([
    { stage: "visit", label: "Visited", count: 1000 },
    { stage: "engaged", count: 400 },
    { stage: "lead" },
    { stage: "customer", label: "Became a customer", count: 20 },
  ]);

  it("gives each stage its conversion from the previous and the first stage, '—' where a count is unknown", () => {
    renderWithProviders(<FunnelFigure bars={bars} periodLabel="Last 7 days" />);
    const table = screen.getByRole("table", { name: "Conversion funnel, Last 7 days" });
    expect(within(table).getAllByRole("columnheader").map((th) => th.textContent)).toEqual([
      "Stage name",
      "Visitors",
      "Conversion from previous stage (%)",
      "Conversion from first stage (%)",
    ]);
    expect(rowsOf(table)).toEqual([
      ["Visited", "1,000", "—", "100%"],
      ["Engaged", "400", "40%", "40%"],
      ["Lead", "—", "—", "—"],
      ["Became a customer", "20", "—", "2%"],
    ]);
  });

  it("lists the steps for sighted readers without repeating them to screen readers", () => {
    renderWithProviders(<FunnelFigure bars={bars} periodLabel="Last 7 days" />);
    const steps = document.querySelector("ol.funnel-steps")!;
    expect(steps.getAttribute("aria-hidden")).toBe("true");
    expect([...steps.children].map((li) => li.textContent)).toEqual(["Visited1,000start", "Engaged40040% of previous", "Lead—— of previous", "Became a customer20— of previous"]);
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
