// The score's change over its window from the kept history: the window itself (the score's day in
// the viewer's zone), the change as the history legend works it out (so the card and the legend are
// one number), the upstream's trend only when nothing earlier was kept or the history failed, the
// words that name either, and the components' and ranking's moves over the same days.
import { describe, expect, it } from "vitest";
import { scoreDays, seriesChanges } from "@/components/charts/history-chart-data";
import type { RankingHistory, ScoreHistory } from "@/lib/history/routes";
import {
  answersWindow,
  componentMoves,
  keptChange,
  keptRankMoves,
  largestMoves,
  scoreChangeView,
  scoreChangeWords,
  scoreWindow,
  type ScoreChangeView,
} from "./score-change-data";

const snap = (at: string, score: number, parts: [number, number, number, number]) => ({
  at,
  score,
  direction: "down",
  change: 5,
  breakdown: { visibility: parts[0], sentiment: parts[1], authority: parts[2], coverage: parts[3] },
});

// The score of 29 Nov 2026 (computed at midnight UTC) read in Berlin: its window is 31 Oct – 29 Nov.
const window = { from: "2026-10-31", to: "2026-11-29", tz: "Europe/Berlin" };
const history: ScoreHistory = {
  ...window,
  since: "2026-08-31T00:00:00.000Z",
  demo: null,
  data: [
    snap("2026-10-31T00:00:00.000Z", 57, [59, 70, 50, 49]),
    snap("2026-11-15T00:00:00.000Z", 55, [52, 70, 50, 48]),
    snap("2026-11-29T00:00:00.000Z", 53, [48, 68, 49, 47]),
  ],
};
// The upstream's own trend compares with 30 days before, one day more than the window: another figure.
const score = {
  score: 53,
  trend: { direction: "down", change: 5 },
  breakdown: { visibility: 48, sentiment: 68, authority: 49, coverage: 47 },
  updated_at: "2026-11-29T00:00:00.000Z",
};

describe("the score's window", () => {
  it("is the 30 calendar days ending today in the viewer's zone (the header's last 30 days), whatever day the score names", () => {
    const now = Date.parse("2026-11-29T12:00:00.000Z");
    expect(scoreWindow("Europe/Berlin", now)).toEqual(window);
    // The score computed at midnight UTC falls on 28 Nov in New York; the window is still today's there,
    // so the server (before the score is read) and the browser name the same one.
    expect(scoreWindow("America/New_York", now)).toEqual({ from: "2026-10-31", to: "2026-11-29", tz: "America/New_York" });
    // Late in the evening in New York it is already the next day in UTC: the window is New York's.
    expect(scoreWindow("America/New_York", Date.parse("2026-11-30T03:00:00.000Z"))).toEqual({ from: "2026-10-31", to: "2026-11-29", tz: "America/New_York" });
  });

  it("is the header's last 30 days when the score is today's, so the history answer is shared", () => {
    expect(answersWindow(history, window)).toBe(true);
    expect(answersWindow({ ...history, from: "2026-09-01" }, window)).toBe(false);
    expect(answersWindow({ ...history, tz: "UTC" }, window)).toBe(false);
    expect(answersWindow(undefined, window)).toBe(false);
  });
});

describe("the score's change from the kept history", () => {
  it("is the history legend's own change over the same days, not the upstream's trend", () => {
    const view = scoreChangeView(score, window, { answer: history, failed: false });
    const legend = seriesChanges(scoreDays(history)).find((c) => c.key === "score")!;
    expect(view).toEqual({ source: "kept", window, firstDay: "2026-10-31", first: 57, last: 53, change: -4 });
    expect(view.source === "kept" && view.change).toBe(legend.change);
    expect(scoreChangeWords(view)).toBe("31 Oct – 29 Nov 2026: 57 → 53");
  });

  it("takes a day's last snapshot, as the chart draws the day, and names the first kept day when it is not the window's first", () => {
    const later: ScoreHistory = {
      ...history,
      data: [snap("2026-11-10T08:00:00.000Z", 60, [1, 1, 1, 1]), snap("2026-11-10T20:00:00.000Z", 58, [1, 1, 1, 1]), history.data[2]!],
    };
    const view = scoreChangeView(score, window, { answer: later, failed: false });
    expect(view).toMatchObject({ source: "kept", firstDay: "2026-11-10", first: 58, last: 53, change: -5 });
    expect(scoreChangeWords(view)).toBe("31 Oct – 29 Nov 2026: 58 → 53 (kept from 10 Nov)");
  });

  it("falls back on the upstream's trend, named, when nothing before the latest day was kept in the window", () => {
    // Two readings today are still one day: there is no earlier value to compare with.
    const today: ScoreHistory = {
      ...history,
      data: [snap("2026-11-29T00:00:00.000Z", 53, [48, 68, 49, 47]), snap("2026-11-29T09:00:00.000Z", 53, [48, 68, 49, 47])],
    };
    expect(keptChange(today)).toBeNull();
    const view = scoreChangeView(score, window, { answer: today, failed: false });
    expect(view).toEqual({ source: "upstream", window, why: "not-kept", change: 5, direction: "down" });
    expect(scoreChangeWords(view)).toBe("Workspace Analytics' own 30-day trend; no earlier score kept for 31 Oct – 29 Nov 2026");
    expect(scoreChangeView(score, window, { answer: { ...history, data: [] }, failed: false })).toMatchObject({ source: "upstream", why: "not-kept" });
  });

  it("falls back on the upstream's trend when the history could not be read, and waits while it is being read", () => {
    const failed = scoreChangeView(score, window, { answer: undefined, failed: true });
    expect(failed).toMatchObject({ source: "upstream", why: "unavailable", change: 5, direction: "down" });
    expect(scoreChangeWords(failed)).toBe("Workspace Analytics' own 30-day trend; the kept history could not be read");
    expect(scoreChangeView(score, window, { answer: undefined, failed: false })).toEqual({ source: "pending", window });
    // Another window's answer kept on screen while this one loads is not this window's change.
    const ninety = { ...history, from: "2026-09-01" };
    expect(scoreChangeView(score, window, { answer: ninety, failed: false }).source).toBe("pending");
    expect(scoreChangeView(score, window, { answer: ninety, failed: true }).source).toBe("upstream");
  });

  it("says when neither the history nor the upstream gives a change", () => {
    const view: ScoreChangeView = scoreChangeView({ trend: undefined }, window, { answer: { ...history, data: [] }, failed: false });
    expect(view).toMatchObject({ source: "upstream", change: undefined });
    expect(scoreChangeWords(view)).toBe("Change not kept for 31 Oct – 29 Nov 2026: no earlier score kept in it");
  });
});

describe("the components over the score's window", () => {
  it("each with its value now, its change and the value it came from, as the legend has them", () => {
    const kept = keptChange(history);
    expect(componentMoves(score, kept)).toEqual([
      { key: "visibility", label: "Visibility", now: 48, from: 59, change: -11 },
      { key: "sentiment", label: "Sentiment", now: 68, from: 70, change: -2 },
      { key: "authority", label: "Authority", now: 49, from: 50, change: -1 },
      { key: "coverage", label: "Coverage", now: 47, from: 49, change: -2 },
    ]);
  });

  it("without kept history, the values now and no change", () => {
    expect(componentMoves(score, null).map((m) => [m.key, m.now, m.from, m.change])).toEqual([
      ["visibility", 48, null, null],
      ["sentiment", 68, null, null],
      ["authority", 49, null, null],
      ["coverage", 47, null, null],
    ]);
  });
});

describe("the ranking's moves over the score's window", () => {
  const ranking = (at: string, rows: Array<[string, number, boolean?]>) => ({
    at,
    entries: rows.map(([name, s, ours], i) => ({ rank: i + 1, name, score: s, is_workspace: ours === true })),
  });
  const rankings: RankingHistory = {
    ...window,
    since: "2026-08-31T00:00:00.000Z",
    demo: null,
    data: [
      ranking("2026-10-31T00:00:00.000Z", [
        ["Acme", 70],
        ["Us", 57, true],
        ["Bolt", 55],
      ]),
      ranking("2026-11-20T00:00:00.000Z", [
        ["Acme", 68],
        ["Bolt", 60],
        ["Us", 55, true],
      ]),
      // Two readings on the last day: the day's last one is the one drawn and compared.
      ranking("2026-11-29T00:00:00.000Z", [
        ["Acme", 66],
        ["Us", 54, true],
        ["Bolt", 58],
      ]),
      ranking("2026-11-29T10:00:00.000Z", [
        ["Acme", 66],
        ["Bolt", 58],
        ["Us", 53, true],
        ["Crane", 40],
      ]),
    ],
  };

  it("are rank then and now and the score change, first kept day to the latest", () => {
    const kept = keptRankMoves(rankings)!;
    expect([kept.firstDay, kept.lastDay]).toEqual(["2026-10-31", "2026-11-29"]);
    expect(kept.moves).toEqual([
      { name: "Acme", isWorkspace: false, rank: 1, previousRank: 1, score: 66, previousScore: 70, change: -4 },
      { name: "Bolt", isWorkspace: false, rank: 2, previousRank: 3, score: 58, previousScore: 55, change: 3 },
      { name: "Us", isWorkspace: true, rank: 3, previousRank: 2, score: 53, previousScore: 57, change: -4 },
      // Not ranked on the first kept day: no rank then and no change, never a made-up one.
      { name: "Crane", isWorkspace: false, rank: 4, previousRank: null, score: 40, previousScore: null, change: null },
    ]);
  });

  it("need two kept days", () => {
    expect(keptRankMoves({ ...rankings, data: rankings.data.slice(2) })).toBeNull();
    expect(keptRankMoves({ ...rankings, data: [] })).toBeNull();
  });

  it("list the largest first, and ours always", () => {
    const moves = [
      { name: "A", isWorkspace: false, change: 1 },
      { name: "B", isWorkspace: false, change: -6 },
      { name: "Us", isWorkspace: true, change: 0 },
      { name: "C", isWorkspace: false, change: null },
      { name: "D", isWorkspace: false, change: 3 },
    ];
    expect(largestMoves(moves, 2).map((m) => m.name)).toEqual(["B", "D", "Us"]);
    expect(largestMoves(moves, 5).map((m) => m.name)).toEqual(["B", "D", "A", "Us"]);
  });
});
