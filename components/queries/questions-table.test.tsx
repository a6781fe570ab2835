// @vitest-environment jsdom
// The questions table: sorted by any column from its header (the URL's `sort`), the worst place
// first when sorted by position, and totals that add what adds up (mentions, platforms, sentiment;
// the best and worst place of any question) and say "—" for what the rows cannot give (an average
// position, the share named first).
import { screen, within } from "@testing-library/react";
import type { UrlUpdateEvent } from "nuqs/adapters/testing";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import type { QueriesInsight, QueryRow } from "@/lib/server/insights/queries";
import { QuestionsTable } from "./questions-table";

const row = (key: string, mentions: number, platforms: [number, number, number, number], positions: [number | null, number | null, number | null], first: number | null, sentiment: [number, number, number]): QueryRow => ({
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

function renderTable(searchParams = "") {
  const onUrlUpdate = vi.fn<(event: UrlUpdateEvent) => void>();
  const view = renderWithProviders(
    <QuestionsTable answer={ANSWER} filters={{ platform: null, neverFirst: false }} questionLink={(r) => ({ href: `/mentions?q=${r.key}`, label: r.query })} />,
    { searchParams, onUrlUpdate },
  );
  return { ...view, lastSort: () => onUrlUpdate.mock.lastCall?.[0].searchParams.get("sort") };
}

const order = () => screen.getAllByTestId("query-row").map((r) => r.dataset.key);
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
    expect(within(total).getAllByRole("cell").map((c) => c.textContent)).toEqual(["23", "7", "6", "7", "3", "—", "1", "7", "—", "10", "6", "7"]);
  });

  it("is the totals of the rows shown, whatever their order", async () => {
    const { user } = renderTable();
    const before = screen.getByTestId("queries-total").textContent;
    await user.click(screen.getByRole("button", { name: /^Question/ }));
    expect(screen.getByTestId("queries-total").textContent).toBe(before);
    expect(order()).toEqual(["best crm for startups", "crm pricing", "crm with ai"]);
  });
});
