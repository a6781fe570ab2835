// @vitest-environment jsdom
// The history figures of /intelligence from the history routes' answers: days without a snapshot are
// gaps (null in the chart's rows, "No snapshot" in the table, never a made-up value), each series'
// change over the range, the ranks of us and every competitor per day as the chart's table, the
// passings with us in words (newest first; a span when days in between were not seen), where history
// begins and which days are demo data, what an empty history says, the legend's window named as the
// score card names its own, and a line of its own for every competitor.
import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import type { RankingHistory, ScoreHistory } from "@/lib/history/routes";
import { passingText, rankHistory, rankLines, scoreDays, seriesChanges } from "./history-chart-data";
import { HistoryBegins, RankHistoryFigure, ScoreHistoryFigure } from "./history-figures";

/** jsdom has no IntersectionObserver: one that never reports keeps the charts as placeholders. */
beforeEach(() => {
  globalThis.IntersectionObserver = class {
    observe() {}
    disconnect() {}
  } as unknown as typeof IntersectionObserver;
});
afterEach(() => {
  delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
});

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole("row")
    .slice(1)
    .map((tr) => [...tr.children].map((c) => c.textContent));

const snap = (date: string, score: number, parts: [number, number, number, number]) => ({
  at: `${date}T00:00:00.000Z`,
  score,
  direction: "up",
  change: 1,
  breakdown: { visibility: parts[0], sentiment: parts[1], authority: parts[2], coverage: parts[3] },
});

const scoreHistory: ScoreHistory = {
  from: "2026-11-01",
  to: "2026-11-05",
  tz: "UTC",
  since: "2026-10-20T00:00:00.000Z",
  demo: null,
  data: [snap("2026-11-01", 50, [40, 60, 50, 50]), snap("2026-11-02", 52, [44, 60, 52, 52]), snap("2026-11-05", 47, [38, 58, 46, 46])],
};

const ranking = (date: string, order: string[]) => ({
  at: `${date}T00:00:00.000Z`,
  entries: order.map((name, i) => ({ rank: i + 1, name, score: 80 - i * 5, is_workspace: name === "Us" })),
});

const rankingHistory: RankingHistory = {
  from: "2026-11-01",
  to: "2026-11-06",
  tz: "UTC",
  since: "2026-11-01T00:00:00.000Z",
  demo: null,
  data: [
    ranking("2026-11-01", ["Acme", "Us", "Bolt", "Crane"]),
    ranking("2026-11-02", ["Acme", "Bolt", "Us", "Crane"]),
    // 3 and 4 November: no snapshot.
    ranking("2026-11-05", ["Us", "Acme", "Bolt", "Crane"]),
    ranking("2026-11-06", ["Us", "Acme", "Crane", "Bolt"]),
  ],
};

describe("the score over time", () => {
  it("has a row for every day, null on the days without a snapshot, and each series' change over the range", () => {
    const days = scoreDays(scoreHistory);
    expect(days.map((d) => [d.date, d.score])).toEqual([
      ["2026-11-01", 50],
      ["2026-11-02", 52],
      ["2026-11-03", null],
      ["2026-11-04", null],
      ["2026-11-05", 47],
    ]);
    expect(days[2]).toMatchObject({ at: null, visibility: null, sentiment: null, authority: null, coverage: null });
    expect(seriesChanges(days).map((c) => [c.key, c.first, c.last, c.change])).toEqual([
      ["score", 50, 47, -3],
      ["visibility", 40, 38, -2],
      ["sentiment", 60, 58, -2],
      ["authority", 50, 46, -4],
      ["coverage", 50, 46, -4],
    ]);
  });

  it("puts a snapshot on its day in the range's zone, the day's last one when there are two", () => {
    const days = scoreDays({
      ...scoreHistory,
      tz: "America/New_York",
      data: [snap("2026-11-02", 52, [1, 1, 1, 1]), { ...snap("2026-11-02", 53, [1, 1, 1, 1]), at: "2026-11-02T04:00:00.000Z" }],
    });
    // Midnight UTC of 2 November is the evening of 1 November in New York; 04:00 UTC too (EST, UTC-5).
    expect(days.filter((d) => d.score !== null).map((d) => [d.date, d.score])).toEqual([["2026-11-01", 53]]);
  });

  it("shows the changes, says how many days have a snapshot, and gives every day in its table, gaps said as such", () => {
    renderWithProviders(<ScoreHistoryFigure history={scoreHistory} />);
    expect(screen.getByTestId("score-changes-window").textContent).toBe("1 Nov – 5 Nov 2026: each from its first kept day to its last");
    expect(screen.getByTestId("score-changes").textContent).toContain("AI Positioning Score: 50 → 47 (−3.0 pts)");
    expect(screen.getByRole("list", { name: "Change over 1 Nov – 5 Nov 2026" })).toBeTruthy();
    expect(screen.getByText("3 of 5 days have a snapshot; the others are gaps.")).toBeTruthy();
    expect(rowsOf(screen.getByTestId("score-history-table"))).toEqual([
      ["1 Nov", "50", "40", "60", "50", "50"],
      ["2 Nov", "52", "44", "60", "52", "52"],
      ["3 Nov", "No snapshot"],
      ["4 Nov", "No snapshot"],
      ["5 Nov", "47", "38", "58", "46", "46"],
    ]);
    expect(screen.getByTestId("chart-placeholder").closest('[aria-hidden="true"]')).toBeTruthy();
  });

  it("names the day its change starts from when the range begins before anything was kept", () => {
    renderWithProviders(<ScoreHistoryFigure history={{ ...scoreHistory, from: "2026-10-30" }} />);
    expect(screen.getByTestId("score-changes-window").textContent).toBe("30 Oct – 5 Nov 2026 (kept from 1 Nov): each from its first kept day to its last");
    expect(screen.getByTestId("score-changes").textContent).toContain("AI Positioning Score: 50 → 47 (−3.0 pts)");
  });

  it("says when a first visit has nothing yet, and when the range ends before history begins", () => {
    const { unmount } = renderWithProviders(<ScoreHistoryFigure history={{ ...scoreHistory, since: null, data: [] }} />);
    expect(screen.getByTestId("history-empty").textContent).toContain("No history yet");
    expect(screen.getByTestId("history-empty").textContent).toContain("starts filling tomorrow");
    unmount();
    renderWithProviders(<ScoreHistoryFigure history={{ ...scoreHistory, from: "2026-10-01", to: "2026-10-05", data: [] }} />);
    expect(screen.getByTestId("history-empty").textContent).toBe("No snapshot in this rangeHistory begins on 20 Oct 2026; choose a range that reaches it.");
  });

  it("says the first snapshot ever is the first", () => {
    const first = snap("2026-11-05", 47, [38, 58, 46, 46]);
    renderWithProviders(<ScoreHistoryFigure history={{ ...scoreHistory, since: first.at, data: [first] }} />);
    expect(screen.getByTestId("history-first").textContent).toContain("first snapshot the dashboard has of this workspace (5 Nov 2026)");
  });
});

describe("where history begins", () => {
  it("names the first day in words, and the demo days with their label", () => {
    const { unmount } = renderWithProviders(<HistoryBegins history={{ since: "2026-10-03T00:00:00.000Z", demo: null, tz: "UTC" }} />);
    expect(screen.getByTestId("history-since").textContent).toMatch(/^History since 3 Oct 2026: the dashboard keeps the score/);
    expect(screen.queryByTestId("demo-history")).toBeNull();
    unmount();
    renderWithProviders(
      <HistoryBegins
        history={{ since: "2026-08-22T00:00:00.000Z", demo: { from: "2026-08-22T00:00:00.000Z", to: "2026-11-19T00:00:00.000Z", days: 90 }, tz: "UTC" }}
      />,
    );
    expect(screen.getByTestId("demo-history").textContent).toBe("Demo history");
    expect(screen.getByTestId("history-since").textContent).toContain("22 Aug 2026 to 19 Nov 2026: the sandbox's own past");
  });
});

describe("the rank over time", () => {
  it("lists the passings with us, newest first, a span where days were not seen", () => {
    const data = rankHistory(rankingHistory);
    expect(data.entrants.map((e) => e.name)).toEqual(["Us", "Acme", "Crane", "Bolt"]);
    expect(data.rankCount).toBe(4);
    expect(data.passings.map(passingText)).toEqual([
      "We passed Acme between 2 Nov 2026 and 5 Nov 2026",
      "We passed Bolt between 2 Nov 2026 and 5 Nov 2026",
      "Bolt passed us on 2 Nov 2026",
    ]);
    // Crane passing Bolt does not involve us: the chart and the table show it, the list does not.
    // Every competitor has a line of its own (not only those in a passing with us), in the legend's order.
    expect(rankLines(data.entrants).map((l) => [l.name, l.color, l.dash])).toEqual([
      ["Us", "var(--color-accent)", undefined],
      ["Acme", "var(--color-series-1)", undefined],
      ["Crane", "var(--color-series-2)", undefined],
      ["Bolt", "var(--color-series-3)", undefined],
    ]);
  });

  it("gives each of many competitors a line no other has: eight colours, then the same colours dashed and dotted", () => {
    const entrants = [{ name: "Us", isWorkspace: true }, ...Array.from({ length: 19 }, (_, i) => ({ name: `C${i + 1}`, isWorkspace: false }))];
    const lines = rankLines(entrants);
    expect(lines).toHaveLength(20);
    const looks = lines.map((l) => `${l.color}|${l.dash ?? "solid"}`);
    expect(new Set(looks).size).toBe(20);
    // The first eight competitors (a usual ranking, the demo's seven) are told apart by colour alone.
    expect(new Set(lines.slice(1, 9).map((l) => l.color)).size).toBe(8);
    expect(lines.slice(1, 9).every((l) => l.dash === undefined)).toBe(true);
    expect([lines[9]!.color, lines[9]!.dash]).toEqual(["var(--color-series-1)", "6 3"]);
    expect([lines[17]!.color, lines[17]!.dash]).toEqual(["var(--color-series-1)", "2 3"]);
    expect(lines.filter((l) => l.color === "var(--color-accent)").map((l) => l.name)).toEqual(["Us"]);
  });

  it("draws its table with every day and every entrant's rank, gaps said as such, and the passings list", () => {
    renderWithProviders(<RankHistoryFigure history={rankingHistory} />);
    const table = screen.getByTestId("rank-history-table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["Day", "Us (us)", "Acme", "Crane", "Bolt"]);
    expect(rowsOf(table)).toEqual([
      ["1 Nov", "#2", "#1", "#4", "#3"],
      ["2 Nov", "#3", "#1", "#4", "#2"],
      ["3 Nov", "No snapshot"],
      ["4 Nov", "No snapshot"],
      ["5 Nov", "#1", "#2", "#4", "#3"],
      ["6 Nov", "#1", "#2", "#3", "#4"],
    ]);
    expect(
      within(screen.getByTestId("passings"))
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["We passed Acme between 2 Nov 2026 and 5 Nov 2026", "We passed Bolt between 2 Nov 2026 and 5 Nov 2026", "Bolt passed us on 2 Nov 2026"]);
    // The legend names every entrant, each competitor by name, ours marked: no "other competitors" line.
    expect(
      within(screen.getByTestId("rank-legend"))
        .getAllByRole("listitem")
        .map((li) => li.textContent?.trim()),
    ).toEqual(["Us (us)", "Acme", "Crane", "Bolt"]);
    expect(screen.queryByText(/other competitor/)).toBeNull();
  });

  it("says when the rankings kept name nobody (a workspace with no competitors)", () => {
    renderWithProviders(<RankHistoryFigure history={{ ...rankingHistory, data: [{ at: "2026-11-02T00:00:00.000Z", entries: [] }] }} />);
    expect(screen.getByTestId("history-empty").textContent).toContain("No competitors tracked yet");
    expect(screen.queryByTestId("rank-history-table")).toBeNull();
  });

  it("says when no one passed anyone", () => {
    renderWithProviders(<RankHistoryFigure history={{ ...rankingHistory, data: rankingHistory.data.slice(2) }} />);
    expect(screen.getByTestId("passings-none").textContent).toBe("No competitor passed us, and we passed none, in this range.");
  });
});
