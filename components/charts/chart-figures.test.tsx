// @vitest-environment jsdom
// The chart widgets from API rows to what people get: the rows go through the charts' real data
// mapping (AI platforms first, shares filled in, unknown counts as "—", an unknown source as sent)
// into the legend, the funnel's step list and the text alternative (a table screen readers read);
// the drawn chart waits until the figure comes near the viewport.
import { act, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { toBreakdownData } from "./breakdown-chart-data";
import { BreakdownFigure, FunnelFigure, TrendFigure } from "./chart-figures";
import { TrafficFigure } from "./source-tables";
import { toFunnelChartData } from "./funnel-chart-data";
import { toTrafficChartData } from "./traffic-chart-data";
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
const rowsOf = (table: HTMLElement) => within(table).getAllByRole("row").slice(1).map((tr) => [...tr.children].map((c) => c.textContent));

describe("TrafficFigure", () => {
  const data = toTrafficChartData([
    { source: "organic", visitors: 500, percentage: 50, change: -3.25 },
    { source: "claude", visitors: 50 },
    { source: "bing", visitors: 150, percentage: 15 },
    { source: "chatgpt", visitors: 250, percentage: 25, change: 4.5 },
    { source: "direct" },
  ]);
  const window = { from: "2026-10-21T12:00:00.000Z", to: "2026-11-20T12:00:00.000Z" };
  const render = () =>
    renderWithProviders(<TrafficFigure data={data} periodLabel="last 30 days, rolling" previousLabel="the previous 30 days" window={window} />);

  it("is a table grouped AI platforms first, then other sources by visitors, shares filled in, unknowns as sent or '—'", () => {
    render();
    const table = screen.getByRole("table", { name: "Visitors by traffic source, last 30 days, rolling; changes against the previous 30 days" });
    expect(within(table).getAllByRole("columnheader").map((th) => th.textContent)).toEqual(["Source", "Visitors", "Share", "Change"]);
    const rows = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((tr) => [...tr.children].map((c) => c.querySelector(".visually-hidden")?.textContent ?? c.textContent));
    expect(rows).toEqual([
      // The AI group states its share of all visitors: 300 of the 950 with a known count.
      ["AI platforms · 31.6% of visitors"],
      ["ChatGPT", "250", "25.0%", "up 4.5% vs the previous 30 days"],
      // Claude's share was left out: 50 of the 950 visitors with a known count.
      ["Claude", "50", "5.3%", "change unknown"],
      ["Other sources"],
      ["Organic search", "500", "50.0%", "down 3.3% vs the previous 30 days"],
      ["bing", "150", "15.0%", "change unknown"],
      ["Direct", "—", "—", "change unknown"],
    ]);
  });

  it("links each source to its visitors over the period's own instants", () => {
    render();
    expect(screen.getByRole("link", { name: "ChatGPT" }).getAttribute("href")).toBe(
      "/visitors?source=chatgpt&from=2026-10-21T12%3A00%3A00.000Z&to=2026-11-20T12%3A00%3A00.000Z",
    );
    expect(screen.getByRole("link", { name: "bing" }).getAttribute("href")).toContain("source=bing&");
  });

  it("draws no links when the API did not say the period's window", () => {
    renderWithProviders(<TrafficFigure data={data} periodLabel="last 30 days, rolling" previousLabel="the previous 30 days" window={null} />);
    expect(screen.queryAllByRole("link")).toHaveLength(0);
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
      ["Visited", "1,000", "—", "100.0%"],
      ["Engaged", "400", "40.0%", "40.0%"],
      ["Lead", "—", "—", "—"],
      ["Became a customer", "20", "—", "2.0%"],
    ]);
  });

  it("lists the steps, each linked to its visitors as closely as the list can filter, and says where it cannot", () => {
    const stages = toFunnelChartData([
      { stage: "visitors", label: "Visitors", count: 1000 },
      { stage: "engaged", label: "Engaged (2+ pages)", count: 400 },
      { stage: "leads", label: "Leads", count: 60 },
      { stage: "conversions", label: "Conversions", count: 20 },
    ]);
    renderWithProviders(<FunnelFigure bars={stages} periodLabel="last 7 days, rolling" window={{ from: "2026-11-13T12:00:00.000Z", to: "2026-11-20T12:00:00.000Z" }} />);
    const steps = screen.getByRole("list", { name: "Funnel stages, last 7 days, rolling" });
    const links = within(steps).getAllByRole("link");
    const bounds = "from=2026-11-13T12%3A00%3A00.000Z&to=2026-11-20T12%3A00%3A00.000Z";
    expect(links.map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      ["Visitors", `/visitors?${bounds}`],
      ["Engaged (2+ pages)", `/visitors?${bounds}`],
      ["Leads", `/visitors?${bounds}`],
      ["Conversions", `/visitors?${bounds}&converted=true`],
    ]);
    expect(within(steps).getAllByRole("listitem")[1]!.textContent).toContain("cannot filter by pages viewed");
    expect(screen.getByTestId("funnel-inexact-note").textContent).toContain("Engaged (2+ pages) and Leads open every visitor of the period");
  });
});

describe("TrendFigure", () => {
  const point = (start: string, visitors: number, ai_visitors: number, conversions: number) => ({ start, visitors, ai_visitors, conversions });
  const answer = {
    bucket: "day" as const,
    tz: "UTC",
    to: "2026-11-02",
    data: [point("2026-11-01T00:00:00.000Z", 100, 30, 4), point("2026-11-02T00:00:00.000Z", 300, 90, 8)],
    previous: [point("2026-10-30T00:00:00.000Z", 150, 20, 3), point("2026-10-31T00:00:00.000Z", 250, 20, 3)],
  };
  const data = toTrendChartData(answer, Date.parse("2026-11-03T08:00:00Z"));
  const render = (d = data) => renderWithProviders(<TrendFigure data={d} windowLabel="1 Nov – 2 Nov 2026" previousLabel="30 Oct – 31 Oct 2026" />);

  it("says the drawn metric in words, against the previous period, and switches metric by button", async () => {
    const { user } = render();
    expect(screen.getByTestId("trend-summary").textContent).toBe("Visitors per day, 1 Nov – 2 Nov 2026: 400 in total against 400 in 30 Oct – 31 Oct 2026; most on 2 Nov (300).");
    expect(screen.getByRole("button", { name: "Visitors" }).getAttribute("aria-pressed")).toBe("true");
    await user.click(screen.getByRole("button", { name: "AI visitors" }));
    expect(screen.getByRole("button", { name: "AI visitors" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("trend-summary").textContent).toBe("AI visitors per day, 1 Nov – 2 Nov 2026: 120 in total against 40 in 30 Oct – 31 Oct 2026; most on 2 Nov (90).");
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

  it("draws the chart only once the figure comes near the viewport, in a box of the chart's height", () => {
    render();
    const placeholder = screen.getByTestId("chart-placeholder");
    expect(placeholder.closest('[aria-hidden="true"]')).toBeTruthy();
    expect((placeholder as HTMLElement).style.height).toBe("260px");
    scrollNear();
    expect(screen.queryByTestId("chart-placeholder")).toBeNull();
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
