import { describe, expect, it } from "vitest";
import { scoreBarWidth, sortByRank } from "./ranking-data";

describe("sortByRank", () => {
  it("orders by rank and puts rows without a rank last, in the upstream's order", () => {
    const rows = [{ name: "x" }, { rank: 2, name: "b" }, { name: "y" }, { rank: 1, name: "a" }];
    expect(sortByRank(rows).map((r) => r.name)).toEqual(["a", "b", "x", "y"]);
  });
});

describe("scoreBarWidth", () => {
  const rows = [{ name: "a", score: 50 }, { name: "b" }, { name: "c", score: 200 }];
  it("scales against the largest known score (at least 100) and draws nothing for an unknown score", () => {
    expect(scoreBarWidth(50, rows)).toBe(25);
    expect(scoreBarWidth(undefined, rows)).toBe(0);
    expect(scoreBarWidth(50, [{ name: "a", score: 50 }])).toBe(50);
    expect(scoreBarWidth(-5, rows)).toBe(0);
  });
});
