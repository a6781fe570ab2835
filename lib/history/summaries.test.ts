// What score_history and ranking_history say in a sentence: the score's move over the range, and who
// passed the brand (and whom it passed) between the first and the last snapshot.
import { describe, expect, it } from "vitest";
import { rankingHistorySummary, scoreHistorySummary } from "./summaries";

const entries = (order: string[]) => order.map((name, i) => ({ rank: i + 1, name, is_workspace: name === "Us" }));

describe("history summaries", () => {
  it("the score's first and last value", () => {
    const data = [
      { at: "2026-11-01T00:00:00.000Z", score: 60 },
      { at: "2026-11-07T00:00:00.000Z", score: 57 },
    ];
    expect(scoreHistorySummary({ from: "2026-11-01", to: "2026-11-07", data })).toBe(
      "Score 57 on 2026-11-07 (-3 since 60 on 2026-11-01; 2 snapshots from 2026-11-01 to 2026-11-07).",
    );
    expect(scoreHistorySummary({ from: "2026-11-01", to: "2026-11-07", data: [] })).toBe("No score was recorded from 2026-11-01 to 2026-11-07.");
  });

  it("who passed us and whom we passed", () => {
    const data = [
      { at: "2026-11-01T00:00:00.000Z", entries: entries(["A", "Us", "B", "C"]) },
      { at: "2026-11-07T00:00:00.000Z", entries: entries(["A", "B", "Us", "C"]) },
    ];
    expect(rankingHistorySummary({ from: "2026-11-01", to: "2026-11-07", data })).toBe("Us ranked 3 of 4 on 2026-11-07 (2 on 2026-11-01). Passed us: B.");
    const climbed = [data[1]!, { at: "2026-11-08T00:00:00.000Z", entries: entries(["Us", "A", "B", "C"]) }];
    expect(rankingHistorySummary({ from: "2026-11-01", to: "2026-11-08", data: climbed })).toBe(
      "Us ranked 1 of 4 on 2026-11-08 (3 on 2026-11-07). Nobody passed us. We passed: A, B.",
    );
  });
});
