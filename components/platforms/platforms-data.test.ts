import { describe, expect, it } from "vitest";
import { sortRows } from "@/components/data-table/table-sort";
import type { PlatformPrevious, PlatformRow } from "@/lib/insights/platforms";
import {
  countAxis,
  mentionsHref,
  PLATFORM_SORT,
  platformTotals,
  positiveShare,
  previousWindowLabel,
  rankingMoves,
  sentimentColumns,
  sentimentShares,
  visitorsHref,
} from "./platforms-data";

const range = { from: "2026-11-01", to: "2026-11-30", tz: "America/New_York" };

describe("drill-down links", () => {
  it("carry the list's own filter and the range (from, to, tz), URL-encoded", () => {
    expect(mentionsHref(range, { platform: "chatgpt" })).toBe("/mentions?platform=chatgpt&from=2026-11-01&to=2026-11-30&tz=America%2FNew_York");
    expect(mentionsHref(range, { platform: "claude", sentiment: "negative" })).toBe(
      "/mentions?platform=claude&sentiment=negative&from=2026-11-01&to=2026-11-30&tz=America%2FNew_York",
    );
    expect(mentionsHref(range)).toBe("/mentions?from=2026-11-01&to=2026-11-30&tz=America%2FNew_York");
    expect(visitorsHref(range, "gemini")).toBe("/visitors?source=gemini&from=2026-11-01&to=2026-11-30&tz=America%2FNew_York");
    expect(visitorsHref(range, "gemini", true)).toBe("/visitors?source=gemini&converted=true&from=2026-11-01&to=2026-11-30&tz=America%2FNew_York");
  });
});

describe("sentiment shares", () => {
  it("each share of the split to one decimal; none without mentions", () => {
    expect(sentimentShares({ positive: 2, neutral: 1, negative: 0 })).toEqual([
      { key: "positive", count: 2, share: 66.7 },
      { key: "neutral", count: 1, share: 33.3 },
      { key: "negative", count: 0, share: 0 },
    ]);
    expect(positiveShare({ positive: 0, neutral: 0, negative: 0 })).toBeNull();
    expect(positiveShare({ positive: 1, neutral: 0, negative: 3 })).toBe(25);
  });
});

describe("the previous window's label", () => {
  it("as many days just before from, crossing a month and a year", () => {
    expect(previousWindowLabel(range)).toBe("the previous 30 days (2 Oct – 31 Oct 2026)");
    expect(previousWindowLabel({ from: "2027-01-01", to: "2027-01-01", tz: "UTC" })).toBe("the previous day (31 Dec 2026)");
    expect(previousWindowLabel({ from: "2027-01-03", to: "2027-01-09", tz: "UTC" })).toBe("the previous 7 days (27 Dec 2026 – 2 Jan 2027)");
  });
});

describe("the sentiment chart's count axis", () => {
  it("runs from 0 to a round top at or above the busiest bucket, in round whole steps", () => {
    expect(countAxis(37)).toEqual({ top: 40, ticks: [0, 10, 20, 30, 40] });
    expect(countAxis(40)).toEqual({ top: 40, ticks: [0, 10, 20, 30, 40] });
    expect(countAxis(3)).toEqual({ top: 3, ticks: [0, 1, 2, 3] });
    expect(countAxis(0)).toEqual({ top: 1, ticks: [0, 1] });
    expect(countAxis(1234)).toEqual({ top: 1500, ticks: [0, 500, 1000, 1500] });
    expect(countAxis(7)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] });
  });
});

describe("rankingMoves", () => {
  it("the rank each row held by last period's scores (score minus change), ties as the ranking orders them", () => {
    const moves = rankingMoves([
      { rank: 1, name: "Acme", score: 80, change: 10 }, // was 70
      { rank: 2, name: "Brand", score: 75, change: -5, is_workspace: true }, // was 80
      { rank: 3, name: "Globex", score: 70, change: 0 }, // was 70, ties Acme, A before G
      { rank: 4, name: "Initech", score: 60 }, // no change: no previous rank
    ]);
    expect(moves.map((m) => [m.name, m.rank, m.previousRank])).toEqual([
      ["Acme", 1, 2],
      ["Brand", 2, 1],
      ["Globex", 3, 3],
      ["Initech", 4, null],
    ]);
  });

  it("two rows with one name keep their own previous ranks", () => {
    const moves = rankingMoves([
      { rank: 1, name: "Same", score: 50, change: -20 },
      { rank: 2, name: "Same", score: 40, change: 0 },
    ]);
    expect(moves.map((m) => m.previousRank)).toEqual([1, 2]);
  });
});

describe("sentimentColumns", () => {
  const none = { positive: 0, neutral: 0, negative: 0 };
  const point = (start: string, chatgpt: typeof none, claude: typeof none) => ({
    start,
    positive: chatgpt.positive + claude.positive,
    neutral: chatgpt.neutral + claude.neutral,
    negative: chatgpt.negative + claude.negative,
    platforms: { chatgpt, claude, perplexity: none, gemini: none },
  });
  // Berlin midnight of 2 and 3 Nov 2026 (UTC+1): a label in UTC would name the day before.
  const points = [
    point("2026-11-01T23:00:00.000Z", { positive: 2, neutral: 1, negative: 0 }, { positive: 0, neutral: 0, negative: 4 }),
    point("2026-11-02T23:00:00.000Z", none, none),
  ];

  it("all platforms or one, each bucket labelled by its first day in the zone", () => {
    expect(sentimentColumns(points, "all", "Europe/Berlin")).toEqual([
      { start: points[0]!.start, label: "2 Nov", positive: 2, neutral: 1, negative: 4, total: 7 },
      { start: points[1]!.start, label: "3 Nov", positive: 0, neutral: 0, negative: 0, total: 0 },
    ]);
    expect(sentimentColumns(points, "claude", "Europe/Berlin")[0]).toMatchObject({ positive: 0, neutral: 0, negative: 4, total: 4 });
  });
});

describe("the platforms' chain: order and totals", () => {
  const figures = (
    mentions: number,
    [positive, neutral, negative]: [number, number, number],
    visitors: number,
    conversions: number,
    avg_position: number | null,
  ): PlatformPrevious => ({
    mentions,
    sentiment: { positive, neutral, negative },
    visitors,
    conversions,
    conversion_rate: visitors === 0 ? null : Math.round((conversions * 1000) / visitors) / 10,
    avg_position,
  });
  const rows: PlatformRow[] = [
    { platform: "chatgpt", ...figures(100, [60, 30, 10], 400, 20, 2.1), previous: figures(80, [40, 30, 10], 300, 12, 2.4) },
    { platform: "claude", ...figures(50, [10, 20, 20], 100, 10, 3.5), previous: figures(50, [25, 20, 5], 100, 5, 3.0) },
    { platform: "gemini", ...figures(0, [0, 0, 0], 0, 0, null), previous: figures(4, [1, 2, 1], 8, 0, 4.0) },
  ];

  it("all AI platforms together: counts and the split summed, the rate from the sums, no average position", () => {
    expect(platformTotals(rows)).toEqual({
      ...figures(150, [70, 50, 30], 500, 30, null),
      previous: figures(134, [66, 52, 16], 408, 17, null),
    });
    // 30 of 500 is 6.0%, not the mean of 5.0% and 10.0%.
    expect(platformTotals(rows).conversion_rate).toBe(6);
  });

  it("sorted by positive share (the platform without mentions last) or by negative mentions", () => {
    expect(sortRows(rows, PLATFORM_SORT, { id: "positive_share", desc: true }).rows.map((r) => r.platform)).toEqual(["chatgpt", "claude", "gemini"]);
    expect(sortRows(rows, PLATFORM_SORT, { id: "negative", desc: true }).rows.map((r) => r.platform)).toEqual(["claude", "chatgpt", "gemini"]);
  });
});
