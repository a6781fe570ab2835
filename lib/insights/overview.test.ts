// The overview the MCP tool answers, from the trend's answer alone: totals, the compared totals,
// per cent changes and the conversion rate's move in points, one decimal; nothing divided by zero.
import { describe, expect, it } from "vitest";
import { overviewOf, overviewSummary } from "./overview";

const point = (visitors: number, ai: number, conversions: number) => ({ start: "2026-11-01", visitors, ai_visitors: ai, conversions });
const base = { from: "2026-11-08", to: "2026-11-14", tz: "UTC", compare: { from: "2026-11-01", to: "2026-11-07" } };

describe("overviewOf", () => {
  it("sums the buckets and says the changes, one decimal", () => {
    const o = overviewOf({ ...base, data: [point(60, 10, 3), point(41, 13, 2)], previous: [point(50, 8, 2), point(37, 8, 2)] });
    expect(o.totals).toEqual({ visitors: 101, ai_visitors: 23, conversions: 5, conversion_rate: 5 });
    expect(o.previous).toEqual({ visitors: 87, ai_visitors: 16, conversions: 4, conversion_rate: 4.6 });
    expect(o.change_pct).toEqual({ visitors: 16.1, ai_visitors: 43.8, conversions: 25 });
    expect(o.conversion_rate_change_pp).toBe(0.4);
    expect(overviewSummary(o)).toBe(
      "2026-11-08 to 2026-11-14 (UTC): 101 visitors (+16.1%), 23 from AI assistants (+43.8%), 5 conversions (+25%; rate 5%, +0.4 pp). Compared with 2026-11-01 to 2026-11-07.",
    );
  });

  it("a period without visitors has no rate and no per cent change from it", () => {
    const o = overviewOf({ ...base, data: [point(10, 0, 1)], previous: [point(0, 0, 0)] });
    expect(o.previous.conversion_rate).toBeNull();
    expect(o.change_pct).toEqual({ visitors: null, ai_visitors: null, conversions: null });
    expect(o.conversion_rate_change_pp).toBeNull();
    expect(overviewSummary(o)).toContain("10 visitors (n/a)");
  });
});
