// @vitest-environment jsdom
// The questions of /queries in both layouts (jsdom applies no CSS, so the table and the cards are
// both in the document, each checked on its own): sorted by any column from its header or, over the
// cards, from the "Sort by" menu (the URL's `sort` either way), the worst place first when sorted by
// position; a card per question titled by its link, with every figure under its label; and totals
// (the table's last row, the last card) that add what adds up (mentions, platforms, sentiment; the
// best and worst place of any question) and say "—" for what the rows cannot give (an average
// position, the share named first).
import { screen, within } from "@testing-library/react";
import type { UrlUpdateEvent } from "nuqs/adapters/testing";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import type { QueriesInsight, QueryRow } from "@/lib/insights/queries";
import type { QueryFilters } from "./queries-data";
import { QuestionsTable } from "./questions-table";

const row = (
  key: string,
  mentions: number,
  platforms: [number, number, number, number],
  positions: [number | null, number | null, number | null],
  first: number | null,
  sentiment: [number, number, number],
): QueryRow => ({
  key,
  query: key,
  mentions,
  platforms: { chatgpt: platforms[0], claude: platforms[1], perplexity: platforms[2], gemini: platforms[3] },
  avg_position: positions[0],
  best_position: positions[1],
  worst_position: positions[2],
  first_share: first,
  sentiment: { positive: sentiment[0], neutral: sentiment[1], negative: sentiment[2] },
});

const ANSWER: QueriesInsight = {
  from: "2026-11-01",
  to: "2026-11-30",
  tz: "UTC",
  data: [
    row("best crm for startups", 12, [5, 4, 2, 1], [2.5, 1, 5], 25, [6, 4, 2]),
    row("crm pricing", 8, [2, 2, 2, 2], [4.0, 2, 7], 0, [1, 2, 5]),
    row("crm with ai", 3, [0, 0, 3, 0], [null, null, null], null, [3, 0, 0]),
  ],
};

function renderTable(searchParams = "", filters: QueryFilters = { platform: null, neverFirst: false }) {
  const onUrlUpdate = vi.fn<(event: UrlUpdateEvent) => void>();
  const view = renderWithProviders(<QuestionsTable answer={ANSWER} filters={filters} />, { searchParams, onUrlUpdate });
  return { ...view, lastSort: () => onUrlUpdate.mock.lastCall?.[0].searchParams.get("sort") };
}

const order = () => screen.getAllByTestId("query-row").map((r) => r.dataset.key);
const cards = () => within(screen.getByTestId("queries-table-cards")).getAllByRole("listitem");
const cardOrder = () => screen.getAllByTestId("query-row-card").map((c) => c.dataset.key);
/** A card's figures as read: each label with its value. */
const figures = (card: HTMLElement) =>
  [...card.querySelectorAll("dl > div")].map((d) => [d.querySelector("dt")!.textContent, d.querySelector("dd")!.textContent]);
const ariaSort = (name: string) => screen.getByRole("columnheader", { name: new RegExp(`^${name}`) }).getAttribute("aria-sort");

describe("sorting the questions", () => {
  it("opens most mentioned first, said on the Mentions header", () => {
    renderTable();
    expect(order()).toEqual(["best crm for startups", "crm pricing", "crm with ai"]);
    expect(ariaSort("Mentions")).toBe("descending");
  });

  it("by the worst place: the largest position first, questions without a known position last", async () => {
    const { user, lastSort } = renderTable();
    await user.click(screen.getByRole("button", { name: /^Worst/ }));
    expect(lastSort()).toBe("-worst_position");
    expect(order()).toEqual(["crm pricing", "best crm for startups", "crm with ai"]);
    await user.click(screen.getByRole("button", { name: /^Worst/ }));
    expect(lastSort()).toBe("worst_position");
    expect(order()).toEqual(["best crm for startups", "crm pricing", "crm with ai"]);
  });

  it("by negative mentions (its own column) and by one platform's mentions, by keyboard", async () => {
    const { user, lastSort } = renderTable();
    screen.getByRole("button", { name: /^Negative/ }).focus();
    await user.keyboard("{Enter}");
    expect(lastSort()).toBe("-negative");
    expect(ariaSort("Negative")).toBe("descending");
    expect(order()).toEqual(["crm pricing", "best crm for startups", "crm with ai"]);
    screen.getByRole("button", { name: /^Perplexity/ }).focus();
    await user.keyboard(" ");
    expect(lastSort()).toBe("-perplexity");
    expect(order()).toEqual(["crm with ai", "best crm for startups", "crm pricing"]);
  });
});

describe("the questions' totals", () => {
  it("add mentions, platforms and sentiment; take the best and worst place of any question; no average or share named first", () => {
    renderTable();
    const total = screen.getByTestId("queries-total");
    expect(within(total).getByRole("rowheader").textContent).toBe("All 3 questions");
    // Mentions, ChatGPT, Claude, Perplexity, Gemini, Avg., Best, Worst, Named first, Positive, Neutral, Negative.
    expect(
      within(total)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["23", "7", "6", "7", "3", "—", "1", "7", "—", "10", "6", "7"]);
  });

  it("is the totals of the rows shown, whatever their order", async () => {
    const { user } = renderTable();
    const before = screen.getByTestId("queries-total").textContent;
    await user.click(screen.getByRole("button", { name: /^Question/ }));
    expect(screen.getByTestId("queries-total").textContent).toBe(before);
    expect(order()).toEqual(["best crm for startups", "crm pricing", "crm with ai"]);
  });
});

describe("the questions as cards (a phone)", () => {
  it("a card per question, titled by its link to the question's mentions of the range, every figure under its label", () => {
    renderTable();
    const [first, , last] = screen.getAllByTestId("query-row-card");
    const link = within(first!).getByRole("link", { name: "best crm for startups: open its 12 mentions" });
    expect(link.getAttribute("href")).toBe("/mentions?from=2026-11-01&query=best+crm+for+startups&to=2026-11-30&tz=UTC");
    expect(figures(first!)).toEqual([
      ["Mentions", "12"],
      ["ChatGPT", "5"],
      ["Claude", "4"],
      ["Perplexity", "2"],
      ["Gemini", "1"],
      ["Avg. position", "2.5"],
      ["Best position", "1"],
      ["Worst position", "5"],
      ["Named first (%)", "25.0%"],
      ["Positive", "6"],
      ["Neutral", "4"],
      ["Negative", "2"],
    ]);
    // A question whose mentions never had a known position: "—", not 0.
    expect(figures(last!).slice(5, 9)).toEqual([
      ["Avg. position", "—"],
      ["Best position", "—"],
      ["Worst position", "—"],
      ["Named first (%)", "—"],
    ]);
  });

  it("reads in blocks: the mentions with the platforms' counts, the positions with the share named first, the sentiment split", () => {
    renderTable();
    const first = screen.getAllByTestId("query-row-card")[0]!;
    const blocks = [...first.querySelectorAll<HTMLElement>("dl[data-group]")].map((dl) => [
      dl.dataset.group,
      [...dl.querySelectorAll<HTMLElement>("[data-column]")].map((f) => f.dataset.column),
    ]);
    expect(blocks).toEqual([
      ["mentions", ["mentions", "chatgpt", "claude", "perplexity", "gemini"]],
      ["position", ["avg_position", "best_position", "worst_position", "first_share"]],
      ["sentiment", ["positive", "neutral", "negative"]],
    ]);
  });

  it("links to the platform's mentions when one is filtered on", () => {
    renderTable("", { platform: "claude", neverFirst: false });
    const link = within(screen.getAllByTestId("query-row-card")[0]!).getByRole("link");
    expect(new URL(link.getAttribute("href")!, "http://x").searchParams.get("platform")).toBe("claude");
  });

  it("sort from the 'Sort by' menu into the URL's `sort`, as the headers do, and the menu says the order a link gave", async () => {
    const { user, lastSort } = renderTable("?sort=-negative");
    const menu = screen.getByRole("combobox", { name: "Sort by" });
    expect((menu as HTMLSelectElement).value).toBe("-negative");
    expect(cardOrder()).toEqual(["crm pricing", "best crm for startups", "crm with ai"]);
    await user.selectOptions(menu, "Worst position, lowest first");
    expect(lastSort()).toBe("worst_position");
    expect(cardOrder()).toEqual(["best crm for startups", "crm pricing", "crm with ai"]);
    expect(ariaSort("Worst position")).toBe("ascending");
    await user.selectOptions(menu, "Question, Z to A");
    expect(lastSort()).toBe("-query");
    expect(cardOrder()).toEqual(["crm with ai", "crm pricing", "best crm for startups"]);
    // The questions' own order is no parameter.
    await user.selectOptions(menu, "Mentions, highest first");
    expect(lastSort()).toBeNull();
    expect(cardOrder()).toEqual(["best crm for startups", "crm pricing", "crm with ai"]);
  });

  it("the totals are the last card, whatever the order, with the same figures as the totals row", async () => {
    const { user } = renderTable();
    const total = () => cards().at(-1)!;
    expect(total().dataset.testid).toBe("queries-total-card");
    expect(total().querySelector("p")!.textContent).toBe("All 3 questions");
    expect(within(total()).queryByRole("link")).toBeNull();
    expect(figures(total()).map(([, value]) => value)).toEqual(["23", "7", "6", "7", "3", "—", "1", "7", "—", "10", "6", "7"]);
    await user.selectOptions(screen.getByRole("combobox", { name: "Sort by" }), "Mentions, lowest first");
    expect(cardOrder()).toEqual(["crm with ai", "crm pricing", "best crm for startups"]);
    expect(total().dataset.testid).toBe("queries-total-card");
    expect(figures(total())[0]).toEqual(["Mentions", "23"]);
  });
});
