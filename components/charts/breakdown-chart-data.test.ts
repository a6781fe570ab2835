import { describe, expect, it } from "vitest";
import { toBreakdownData } from "./breakdown-chart-data";

describe("toBreakdownData", () => {
  it("lists the four components in a fixed order", () => {
    const bars = toBreakdownData({ breakdown: { coverage: 40, visibility: 80, authority: 60, sentiment: 70 } });
    expect(bars.map((b) => [b.key, b.value])).toEqual([
      ["visibility", 80],
      ["sentiment", 70],
      ["authority", 60],
      ["coverage", 40],
    ]);
  });
  it("marks a missing component as null, not 0", () => {
    const bars = toBreakdownData({ breakdown: { visibility: 0 } });
    expect(bars[0]!.value).toBe(0);
    expect(bars[1]!.value).toBeNull();
    expect(toBreakdownData({}).every((b) => b.value === null)).toBe(true);
  });
});
