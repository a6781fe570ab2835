// @vitest-environment jsdom
// Conversion by source: each header sorts the sources within their group (the AI platforms stay set
// apart, first), the order in the URL (`sort`); "All sources" adds up every source and works the rate
// out from the sums; each change shows the figure it is compared with.
import { screen, within } from "@testing-library/react";
import type { UrlUpdateEvent } from "nuqs/adapters/testing";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import type { SourceFigures, SourceRow } from "@/lib/insights/sources";
import type { Source } from "@/lib/data-api/constants";
import { ConversionBySourceTable } from "./source-tables";

const figures = (visitors: number, conversions: number): SourceFigures => ({
  visitors,
  conversions,
  conversion_rate: visitors === 0 ? null : Math.round((conversions * 1000) / visitors) / 10,
});
const row = (source: Source, now: [number, number], then: [number, number]): SourceRow => ({ source, ...figures(...now), previous: figures(...then) });

const ROWS: SourceRow[] = [
  row("chatgpt", [200, 10], [150, 6]),
  row("claude", [50, 5], [40, 2]),
  row("perplexity", [80, 2], [100, 3]),
  row("gemini", [0, 0], [10, 0]),
  row("organic", [900, 18], [800, 20]),
  row("direct", [400, 20], [420, 21]),
];

function renderTable(searchParams = "") {
  const onUrlUpdate = vi.fn<(event: UrlUpdateEvent) => void>();
  const view = renderWithProviders(
    <ConversionBySourceTable
      rows={ROWS}
      windowLabel="1 Nov – 30 Nov 2026"
      previousLabel="2 Oct – 31 Oct 2026"
      window={{ from: "2026-11-01", to: "2026-11-30", tz: "UTC" }}
    />,
    { searchParams, onUrlUpdate },
  );
  return { ...view, lastSort: () => onUrlUpdate.mock.lastCall?.[0].searchParams.get("sort") };
}

const order = () =>
  screen.getAllByRole("row").flatMap((r) => (r.dataset.testid?.startsWith("source-row-") ? [r.dataset.testid.slice("source-row-".length)] : []));

describe("sorting conversion by source", () => {
  it("opens in the groups' own order (the AI platforms in theirs, then the rest by visitors), no header sorted", () => {
    renderTable();
    expect(order()).toEqual(["chatgpt", "claude", "perplexity", "gemini", "organic", "direct"]);
    for (const header of screen.getAllByRole("columnheader")) expect(header.hasAttribute("aria-sort")).toBe(false);
  });

  it("by conversion rate, highest first within each group; the AI platforms' group stays first", async () => {
    const { user, lastSort } = renderTable();
    await user.click(screen.getByRole("button", { name: /Conversion rate/ }));
    expect(lastSort()).toBe("-conversion_rate");
    expect(screen.getByRole("columnheader", { name: /Conversion rate/ }).getAttribute("aria-sort")).toBe("descending");
    // Claude 10.0%, ChatGPT 5.0%, Perplexity 2.5%, Gemini — (no visitors) last; direct 5.0%, Google 2.0%.
    expect(order()).toEqual(["claude", "chatgpt", "perplexity", "gemini", "direct", "organic"]);
    // The group headers still say each group's total.
    expect(screen.getByTestId("group-total-ai").textContent).toContain("330 visitors, 17 conversions, 5.2%");
  });

  it("a third press of a header goes back to the groups' own order, with no parameter", async () => {
    const onUrlUpdate = vi.fn<(event: UrlUpdateEvent) => void>();
    const { user } = renderWithProviders(
      <ConversionBySourceTable
        rows={ROWS}
        windowLabel="1 Nov – 30 Nov 2026"
        previousLabel="2 Oct – 31 Oct 2026"
        window={{ from: "2026-11-01", to: "2026-11-30", tz: "UTC" }}
      />,
      { searchParams: "?sort=visitors", onUrlUpdate },
    );
    expect(order()).toEqual(["gemini", "claude", "perplexity", "chatgpt", "direct", "organic"]);
    await user.click(screen.getByRole("button", { name: /^Visitors/ }));
    expect(onUrlUpdate.mock.lastCall![0].searchParams.has("sort")).toBe(false);
    expect(order()).toEqual(["chatgpt", "claude", "perplexity", "gemini", "organic", "direct"]);
  });
});

describe("all sources' totals", () => {
  it("add up every source's visitors and conversions, the rate from the sums, each with its change from the previous totals", () => {
    renderTable();
    const total = screen.getByTestId("sources-total");
    expect(within(total).getByRole("rowheader").textContent).toBe("All sources");
    const [visitors, conversions, rate] = within(total).getAllByRole("cell");
    // 1,630 visitors (1,520 before), 55 conversions (52 before); 55 of 1,630 is 3.4%, 52 of 1,520 is 3.4%.
    expect(visitors!.textContent).toMatch(/^1,630/);
    expect(within(visitors!).getByTestId("change").textContent).toContain("up 7.2% from 1,520 in 2 Oct – 31 Oct 2026");
    expect(conversions!.textContent).toMatch(/^55/);
    expect(within(conversions!).getByTestId("change-base").textContent).toBe("from 52");
    expect(rate!.textContent).toMatch(/^3\.4%/);
    expect(within(rate!).getByTestId("change-base").textContent).toBe("from 3.4%");
    expect(within(rate!).getByTestId("change").textContent).toContain("no change from 3.4%");
  });

  it("open every visitor of the range and the converted ones: the list unfiltered by source", () => {
    renderTable();
    const total = screen.getByTestId("sources-total");
    expect(within(total).getByRole("link", { name: "1,630 visitors from all sources" }).getAttribute("href")).toBe(
      "/visitors?from=2026-11-01&to=2026-11-30&tz=UTC",
    );
    expect(within(total).getByRole("link", { name: "55 conversions from all sources" }).getAttribute("href")).toBe(
      "/visitors?from=2026-11-01&to=2026-11-30&tz=UTC&converted=true",
    );
  });
});
