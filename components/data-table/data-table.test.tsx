// @vitest-environment jsdom
// The DataTable over real column definitions: what a person and a screen reader get from the
// visitor table, the ranking and the competitors (a sortable one), in the table layout and in the
// card layout (CSS picks one by width; jsdom applies no CSS, so both are in the document here and
// each is checked on its own).
import { screen, within } from "@testing-library/react";
import type { UrlUpdateEvent } from "nuqs/adapters/testing";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import type { RankingRow, Visitor } from "@/lib/data-api/schemas";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import { COMPETITOR_TABLE_COLUMNS, COMPETITOR_TABLE_SORT, competitorRowKey, type CompetitorTableRow } from "./columns/competitors";
import { isWorkspaceRow, RANKING_TABLE_COLUMNS, rankingRowKey } from "./columns/ranking";
import { VISITOR_TABLE_COLUMNS, visitorRowKey } from "./columns/visitors";
import { DataTable } from "./data-table";

// Times show in the viewer's zone (the one the header names), named the same way in the headings.
const zone = "Berlin time";

const visitors: Visitor[] = [
  {
    id: "vis_known01",
    first_seen: "2026-11-19T01:10:00.000Z",
    last_seen: "2026-11-20T11:52:00.000Z",
    source: "chatgpt",
    intent: "problem_research",
    pages_viewed: 1234,
    converted: true,
    email: "kofi99@mapleleaf.ca",
    country: "IT",
    city: "Bologna",
  },
  // What the normalisers leave of an odd row: unknown values kept as sent, unreadable ones absent.
  { id: "vis_odd0002", source: "bing", intent: "newsletter" },
];

function renderVisitors(rows: Visitor[] = visitors, extra: Partial<Parameters<typeof DataTable<Visitor>>[0]> = {}, searchParams = "") {
  return renderWithProviders(
    <ViewerTimeZoneProvider tz="Europe/Berlin">
      <DataTable
        rows={rows}
        columns={VISITOR_TABLE_COLUMNS}
        caption="Visitors"
        rowKey={visitorRowKey}
        testId="visitors-table"
        rowTestId="visitor-row"
        {...extra}
      />
    </ViewerTimeZoneProvider>,
    { searchParams },
  );
}

const cellOf = (row: HTMLElement, column: string) => row.querySelector<HTMLElement>(`[data-column="${column}"]`)!;

describe("DataTable: the table layout", () => {
  it("is a captioned table with a column header per declared column, times naming the viewer's zone", () => {
    renderVisitors();
    const table = screen.getByRole("table", { name: "Visitors" });
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((th) => th.textContent);
    expect(headers).toEqual([
      "Visitor ID",
      `First seen (${zone})`,
      `Last seen (${zone})`,
      "Source",
      "Intent",
      "Pages viewed",
      "Converted",
      "Email",
      "City, Country",
    ]);
    for (const th of within(table).getAllByRole("columnheader")) expect(th.getAttribute("scope")).toBe("col");
  });

  it("names each row by its visitor id, a link to the visitor", () => {
    renderVisitors();
    const table = screen.getByRole("table", { name: "Visitors" });
    const rowHeaders = within(table).getAllByRole("rowheader");
    expect(rowHeaders.map((th) => th.textContent)).toEqual(["vis_known01", "vis_odd0002"]);
    expect(rowHeaders[0]!.getAttribute("scope")).toBe("row");
    expect(within(rowHeaders[0]!).getByRole("link", { name: "vis_known01" }).getAttribute("href")).toBe("/visitors/vis_known01");
  });

  it("carries the header's range to the visitor, so it is there on the way back (and nothing else of the list's query)", () => {
    renderVisitors(visitors, {}, "?source=chatgpt&from=2026-11-01&to=2026-11-10&tz=Europe/Berlin");
    // The table's link and the card's (both layouts are rendered; CSS shows one).
    const hrefs = screen.getAllByRole("link", { name: "vis_known01" }).map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual(Array(2).fill("/visitors/vis_known01?from=2026-11-01&to=2026-11-10&tz=Europe/Berlin"));
  });

  it("shows each value by its column: formatted numbers, badges, the location with the country's name", () => {
    renderVisitors();
    const [known] = screen.getAllByTestId("visitor-row");
    expect(cellOf(known!, "pages_viewed").textContent).toBe("1,234");
    expect(cellOf(known!, "pages_viewed").className).toContain("num");
    expect(cellOf(known!, "source").textContent).toBe("ChatGPT (AI platform)");
    expect(cellOf(known!, "intent").textContent).toBe("Problem research");
    expect(cellOf(known!, "converted").textContent).toBe("✓ Yes");
    expect(within(cellOf(known!, "city_country")).getByTitle("Italy").textContent).toBe("Bologna, IT");
    expect(within(cellOf(known!, "email")).getByTitle("kofi99@mapleleaf.ca").textContent).toBe("kofi99@mapleleaf.ca");
    const time = cellOf(known!, "first_seen").querySelector("time")!;
    expect(time.getAttribute("dateTime")).toBe("2026-11-19T01:10:00.000Z");
    // In the zone the heading names, as the rest of the app writes a time; the exact instant on hover.
    expect(time.textContent).toBe("19 Nov 2026, 02:10");
    expect(time.getAttribute("title")).toBe("Thursday 19 November 2026, 02:10:00 (Berlin time)");
  });

  it("shows a missing value as '—' and an unknown source or intent exactly as sent", () => {
    renderVisitors();
    const odd = screen.getAllByTestId("visitor-row")[1]!;
    for (const column of ["first_seen", "last_seen", "pages_viewed", "converted", "email", "city_country"]) {
      expect(cellOf(odd, column).textContent, column).toBe("—");
    }
    expect(within(cellOf(odd, "source")).getByTestId("unknown-value").textContent).toBe("bing");
    expect(within(cellOf(odd, "intent")).getByTestId("unknown-value").textContent).toBe("newsletter");
  });

  it("marks the columns that give way on narrower tables, in header and cells alike", () => {
    renderVisitors();
    const table = screen.getByRole("table", { name: "Visitors" });
    const hidden = (selector: string) => [...table.querySelectorAll<HTMLElement>(selector)].map((el) => `${el.dataset.column}:${el.dataset.showFrom ?? ""}`);
    expect(new Set(hidden("thead [data-show-from]"))).toEqual(new Set(["last_seen:xl", "intent:md", "email:lg"]));
    expect(hidden("tbody [data-show-from]")).toHaveLength(2 * 3);
  });

  it("keeps a row whose id repeats apart from its twin (the key includes the position)", () => {
    renderVisitors([visitors[0]!, visitors[0]!]);
    expect(screen.getAllByTestId("visitor-row")).toHaveLength(2);
  });
});

describe("DataTable: the card layout", () => {
  it("is a list named like the table, one card per row titled by its link, every value under its label", () => {
    renderVisitors();
    const list = screen.getByRole("list", { name: "Visitors" });
    const cards = within(list).getAllByRole("listitem");
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByRole("link", { name: "vis_known01" }).getAttribute("href")).toBe("/visitors/vis_known01");
    const pairs = [...cards[0]!.querySelectorAll("dl > div")].map((d) => [d.querySelector("dt")!.textContent, d.querySelector("dd")!.textContent]);
    expect(pairs).toEqual([
      [`First seen (${zone})`, expect.stringMatching(/2026/)],
      [`Last seen (${zone})`, expect.stringMatching(/2026/)],
      ["Source", "ChatGPT (AI platform)"],
      ["Intent", "Problem research"],
      ["Pages viewed", "1,234"],
      ["Converted", "✓ Yes"],
      ["Email", "kofi99@mapleleaf.ca"],
      ["City, Country", "Bologna, IT"],
    ]);
    const odd = cards[1]!;
    expect(
      within(odd)
        .getAllByTestId("unknown-value")
        .map((b) => b.textContent),
    ).toEqual(["bing", "newsletter"]);
    expect(odd.querySelector('[data-column="email"] dd')!.textContent).toBe("—");
  });
});

describe("DataTable: around the rows", () => {
  it("reports unreadable rows with the request id above the rows", () => {
    renderVisitors(visitors, { unreadable: { count: 2, request_id: "req_abc" } });
    expect(screen.getByTestId("unreadable-notice").textContent).toBe("2 rows could not be read (request req_abc) and are not shown.");
  });

  it("shows its empty content, and no table, when there is no row", () => {
    renderVisitors([], { empty: <p>Nothing here</p>, unreadable: { count: 1 } });
    expect(screen.queryByRole("table")).toBeNull();
    expect(screen.getByText("Nothing here")).toBeTruthy();
    expect(screen.getByTestId("unreadable-notice").textContent).toContain("1 row could not be read");
  });
});

describe("DataTable: the ranking", () => {
  const ranking: RankingRow[] = [
    { rank: 1, name: "Acme", score: 90, change: 2 },
    { rank: 2, name: "Our brand", score: 45, change: -1.5, is_workspace: true },
    { name: "Unranked Co" },
  ];

  it("marks the workspace's own row as current in the table and in the cards, bars against the top score", () => {
    renderWithProviders(
      <DataTable
        rows={ranking}
        columns={RANKING_TABLE_COLUMNS}
        caption="Competitor ranking"
        rowKey={rankingRowKey}
        isCurrent={isWorkspaceRow}
        testId="ranking-table"
        rowTestId="ranking-row"
      />,
    );
    const table = screen.getByRole("table", { name: "Competitor ranking" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["Rank", "Name", "AI Positioning Score", "Score change"]);
    const rows = screen.getAllByTestId("ranking-row");
    expect(rows.map((r) => r.getAttribute("aria-current"))).toEqual([null, "true", null]);
    expect(rows[1]!.className).toContain("highlight");
    expect(within(rows[1]!).getByRole("rowheader").textContent).toBe("Our brandYou");
    expect(cellOf(rows[2]!, "rank").textContent).toBe("#—");
    expect(cellOf(rows[2]!, "score").textContent).toBe("—");
    expect(cellOf(rows[2]!, "change").textContent).toBe("—");
    // 90 and 45 of the largest score shown (at least 100): the bars are 90% and 45% wide.
    expect(rows.slice(0, 2).map((r) => r.querySelector<HTMLElement>(".rank-bar-fill")!.style.width)).toEqual(["90%", "45%"]);
    expect(cellOf(rows[1]!, "change").textContent).toContain("down 1.5 points");

    const cards = screen.getAllByTestId("ranking-row-card");
    expect(cards.map((c) => c.getAttribute("aria-current"))).toEqual([null, "true", null]);
    expect(cards[0]!.querySelector("p")!.textContent).toBe("#1Acme");
  });
});

describe("DataTable: sortable (the competitors named with us)", () => {
  const competitors: CompetitorTableRow[] = [
    { name: "Lumen Metrics", mentions: 40, share: 20, positive: 10, neutral: 20, negative: 10, href: "/mentions" },
    { name: "Acme Analytics", mentions: 25, share: 12.5, positive: 5, neutral: 5, negative: 15, href: "/mentions" },
    { name: "Beacon", mentions: 60, share: null, positive: 50, neutral: 10, negative: 0, href: "/mentions" },
  ];

  function renderCompetitors(searchParams = "") {
    const onUrlUpdate = vi.fn<(event: UrlUpdateEvent) => void>();
    const view = renderWithProviders(
      <DataTable
        rows={competitors}
        columns={COMPETITOR_TABLE_COLUMNS}
        caption="Competitors"
        rowKey={competitorRowKey}
        testId="competitors-table"
        rowTestId="competitor-row"
        sort={COMPETITOR_TABLE_SORT}
      />,
      { searchParams, onUrlUpdate },
    );
    return { ...view, lastSort: () => onUrlUpdate.mock.lastCall?.[0].searchParams.get("competitor_sort") };
  }

  const tableOrder = () =>
    within(screen.getByTestId("competitors-table"))
      .getAllByTestId("competitor-row")
      .map((r) => within(r).getByRole("rowheader").textContent);
  const cardOrder = () =>
    within(screen.getByTestId("competitors-table-cards"))
      .getAllByTestId("competitor-row-card")
      .map((c) => c.querySelector("p")!.textContent);

  it("opens most mentioned first, said on the header; every column's header is a button", () => {
    renderCompetitors();
    expect(tableOrder()).toEqual(["Beacon", "Lumen Metrics", "Acme Analytics"]);
    const headers = within(screen.getByTestId("competitors-table")).getAllByRole("columnheader");
    expect(headers.map((h) => h.getAttribute("aria-sort"))).toEqual([null, "descending", null, null, null, null]);
    for (const h of headers) expect(within(h).getByRole("button")).toBeTruthy();
  });

  it("a header sorts the table and the cards alike, in its own URL parameter; a share not known goes last", async () => {
    const { user, lastSort } = renderCompetitors();
    await user.click(screen.getByRole("button", { name: /^Share of mentions/ }));
    expect(lastSort()).toBe("-share");
    expect(tableOrder()).toEqual(["Lumen Metrics", "Acme Analytics", "Beacon"]);
    expect(cardOrder()).toEqual(["Lumen Metrics", "Acme Analytics", "Beacon"]);
    screen.getByRole("button", { name: /^Negative/ }).focus();
    await user.keyboard("{Enter}");
    expect(lastSort()).toBe("-negative");
    expect(tableOrder()).toEqual(["Acme Analytics", "Lumen Metrics", "Beacon"]);
  });

  it("the cards, which have no headers, sort from a menu with the same choices in words", async () => {
    const { user, lastSort } = renderCompetitors();
    const menu = within(screen.getByTestId("competitors-table").parentElement!.parentElement!).getByRole("combobox", { name: "Sort by" });
    expect((menu as HTMLSelectElement).value).toBe("-mentions");
    expect(
      within(menu)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toContain("Competitor, A to Z");
    await user.selectOptions(menu, "Competitor, A to Z");
    expect(lastSort()).toBe("name");
    expect(cardOrder()).toEqual(["Acme Analytics", "Beacon", "Lumen Metrics"]);
    expect(screen.getByRole("columnheader", { name: /^Competitor/ }).getAttribute("aria-sort")).toBe("ascending");
    // Back to the table's own order: no parameter.
    await user.selectOptions(menu, "Mentions naming it, highest first");
    expect(lastSort()).toBeNull();
  });
});
