// The header's comparison read from a URL against its range: the three kinds, their windows (a year
// before on 29 Feb, a custom window of the range's length), what a bad value names, and the label a
// change carries, read from the window the answer says it compared with.
import { describe, expect, it } from "vitest";
import { comparisonLabel, comparisonName, comparisonParams, resolveComparison, yearBeforeRange, yearEarlier } from "./comparison";

const range = { from: "2026-11-01", to: "2026-11-30", tz: "Europe/Berlin" };

describe("the comparison of a range", () => {
  it("is the previous period without parameters, and sends nothing then (the routes' default)", () => {
    const r = resolveComparison({}, range);
    expect(r).toEqual({ comparison: { kind: "previous" }, window: { from: "2026-10-02", to: "2026-10-31", tz: "Europe/Berlin" }, problem: null });
    expect(comparisonParams(r.comparison)).toEqual({});
  });

  it("a year before is the same calendar dates; 29 Feb reads 28 Feb", () => {
    expect(resolveComparison({ compare: "year" }, range).window).toEqual({ from: "2025-11-01", to: "2025-11-30", tz: "Europe/Berlin" });
    expect(yearEarlier("2028-02-29")).toBe("2027-02-28");
    expect(yearBeforeRange({ from: "2028-02-29", to: "2028-03-01", tz: "UTC" })).toEqual({ from: "2027-02-28", to: "2027-03-01", tz: "UTC" });
    expect(comparisonParams({ kind: "year" })).toEqual({ compare: "year" });
  });

  it("a custom window of as many days is taken; another length names compare_to, a bad date its end, an unknown kind compare", () => {
    const custom = resolveComparison({ compare: "custom", compare_from: "2026-08-01", compare_to: "2026-08-30" }, range);
    expect(custom.problem).toBeNull();
    expect(custom.window).toEqual({ from: "2026-08-01", to: "2026-08-30", tz: "Europe/Berlin" });
    expect(comparisonParams(custom.comparison)).toEqual({ compare: "custom", compare_from: "2026-08-01", compare_to: "2026-08-30" });
    expect(resolveComparison({ compare: "custom", compare_from: "2026-08-01", compare_to: "2026-08-31" }, range).problem).toEqual({
      param: "compare_to",
      reason: "length",
    });
    expect(resolveComparison({ compare: "custom", compare_from: "2026-02-30", compare_to: "2026-08-31" }, range).problem).toEqual({
      param: "compare_from",
      reason: "not_a_date",
    });
    expect(resolveComparison({ compare: "custom", compare_from: "2026-08-01" }, range).problem).toEqual({ param: "compare_to", reason: "not_a_date" });
    const bad = resolveComparison({ compare: "lastyear" }, range);
    expect(bad.problem).toEqual({ param: "compare", reason: "unknown_kind" });
    // Meanwhile the previous period is used, and said to be.
    expect(bad.comparison).toEqual({ kind: "previous" });
  });

  it("a change names the window the answer compared with; an answer without one was counted against the previous period", () => {
    expect(comparisonLabel(range)).toBe("the previous 30 days (2 Oct – 31 Oct 2026)");
    expect(comparisonLabel({ ...range, compare: { from: "2025-11-01", to: "2025-11-30" } })).toBe("the same days a year before (1 Nov – 30 Nov 2025)");
    expect(comparisonLabel({ ...range, compare: { from: "2026-08-01", to: "2026-08-30" } })).toBe("the chosen 30 days (1 Aug – 30 Aug 2026)");
    expect(comparisonName({ ...range, compare: { from: "2025-11-01", to: "2025-11-30" } })).toBe("Same days a year before");
    expect(comparisonLabel({ from: "2026-11-30", to: "2026-11-30", tz: "UTC" })).toBe("the previous day (29 Nov 2026)");
  });
});
