import { describe, expect, it } from "vitest";
import { toFunnelChartData } from "./funnel-chart-data";
import { visitorsHref } from "./source-table-data";
import { formatBucket } from "@/lib/format/format";
import { changeOf, rateOf, toTrendChartData, trendSeries } from "./trend-chart-data";

describe("toFunnelChartData", () => {
  it("computes the conversion from the previous stage and from the first", () => {
    const bars = toFunnelChartData([
      { stage: "visit", label: "Visited", count: 1000 },
      { stage: "engaged", count: 400 },
      { stage: "lead", label: "Lead", count: 100 },
      { stage: "conversion", label: "Converted", count: 25 },
    ]);
    expect(bars.map((b) => b.label)).toEqual(["Visited", "Engaged", "Lead", "Converted"]);
    expect(bars[0]).toMatchObject({ stepRate: undefined, overallRate: 100 });
    expect(bars[1]).toMatchObject({ stepRate: 40, overallRate: 40 });
    expect(bars[2]).toMatchObject({ stepRate: 25, overallRate: 10 });
    expect(bars[3]).toMatchObject({ stepRate: 25, overallRate: 2.5 });
  });

  it("leaves the rates that need an unknown count unknown, not NaN or 'start'", () => {
    const bars = toFunnelChartData([{ stage: "visit", count: 1000 }, { stage: "engaged" }, { stage: "lead", count: 100 }]);
    expect(bars[1]).toEqual({ stage: "engaged", label: "Engaged", count: undefined, stepRate: undefined, overallRate: undefined });
    expect(bars[2]).toMatchObject({ stepRate: undefined, overallRate: 10 });
    const noFirst = toFunnelChartData([{ stage: "visit" }, { stage: "lead", count: 5 }]);
    expect(noFirst[1]).toMatchObject({ stepRate: undefined, overallRate: undefined });
  });

  it("gives 0% rather than NaN after an empty stage", () => {
    const bars = toFunnelChartData([
      { stage: "visit", count: 0 },
      { stage: "conversion", count: 0 },
    ]);
    expect(bars[1]).toMatchObject({ stepRate: 0, overallRate: 0 });
  });
});

describe("toTrendChartData", () => {
  const point = (start: string, visitors: number, ai_visitors: number, conversions: number) => ({ start, visitors, ai_visitors, conversions });
  type Point = ReturnType<typeof point>;
  /** The chart data of a trend answer in `tz`: the range's buckets and the previous period's, read on 1 Dec 2026 (the range long over). */
  const trend = (tz: string, data: Point[], previous: Point[], bucket: "day" | "week" = "day", to = "2026-11-30", nowMs = Date.parse("2026-12-01T12:00:00Z")) =>
    toTrendChartData({ bucket, tz, from: data[0]?.start.slice(0, 10) ?? to, to, data, previous }, nowMs);

  it("labels each bucket by its first day in the range's zone, not the browser's or UTC's", () => {
    // 1 Nov 2026 in New York starts at 04:00 UTC (EDT); 2 Nov at 05:00 UTC (EST, after the clock change).
    const data = trend(
      "America/New_York",
      [point("2026-11-01T04:00:00.000Z", 10, 4, 1), point("2026-11-02T05:00:00.000Z", 20, 6, 0)],
      [point("2026-10-30T04:00:00.000Z", 8, 2, 1), point("2026-10-31T04:00:00.000Z", 12, 3, 0)],
    );
    expect(data.rows.map((r) => [r.label, r.previousLabel])).toEqual([
      ["1 Nov", "30 Oct"],
      ["2 Nov", "31 Oct"],
    ]);
    // In Kolkata (+05:30) the same instant 2026-11-01T20:00Z is already 2 Nov.
    expect(formatBucket("2026-11-01T20:00:00.000Z", "Asia/Kolkata", "day")).toBe("2 Nov");
    expect(formatBucket("2026-11-01T20:00:00.000Z", "UTC", "day")).toBe("1 Nov");
  });

  it("labels weeks by their first day", () => {
    expect(formatBucket("2026-11-02T00:00:00.000Z", "UTC", "week")).toBe("Week of 2 Nov");
  });

  it("pairs each bucket with the previous period's at the same position, and sums the totals the KPI cards show", () => {
    const data = trend(
      "UTC",
      [point("2026-11-01T00:00:00.000Z", 100, 30, 4), point("2026-11-02T00:00:00.000Z", 300, 90, 8)],
      [point("2026-10-30T00:00:00.000Z", 150, 20, 3), point("2026-10-31T00:00:00.000Z", 250, 20, 3)],
    );
    expect(data.rows[1]).toEqual({
      start: "2026-11-02T00:00:00.000Z",
      label: "2 Nov",
      previousLabel: "31 Oct",
      current: { visitors: 300, ai_visitors: 90, conversions: 8 },
      previous: { visitors: 250, ai_visitors: 20, conversions: 3 },
    });
    // 12 of 400 is 3%; 6 of 400 is 1.5%; AI 120 of 400 is 30%.
    expect(data.totals.current).toEqual({ visitors: 400, ai_visitors: 120, conversions: 12, conversion_rate: 3, ai_share: 30 });
    expect(data.totals.previous).toEqual({ visitors: 400, ai_visitors: 40, conversions: 6, conversion_rate: 1.5, ai_share: 10 });
    expect(trendSeries(data, "ai_visitors")).toEqual([
      { label: "1 Nov", previousLabel: "30 Oct", current: 30, previous: 20, complete: 30 },
      { label: "2 Nov", previousLabel: "31 Oct", current: 90, previous: 20, complete: 90 },
    ]);
  });

  it("marks the bucket holding the present as in progress, drawn dashed from the last finished one", () => {
    const days = [point("2026-11-01T00:00:00.000Z", 100, 30, 4), point("2026-11-02T00:00:00.000Z", 12, 3, 0)];
    const before = [point("2026-10-30T00:00:00.000Z", 150, 20, 3), point("2026-10-31T00:00:00.000Z", 250, 20, 3)];
    const data = trend("UTC", days, before, "day", "2026-11-02", Date.parse("2026-11-02T10:00:00Z"));
    expect(data.rows.map((r) => r.inProgress)).toEqual([undefined, true]);
    expect(trendSeries(data, "visitors")).toEqual([
      { label: "1 Nov", previousLabel: "30 Oct", current: 100, previous: 150, complete: 100, soFar: 100 },
      { label: "2 Nov", previousLabel: "31 Oct", current: 12, previous: 250, inProgress: true, soFar: 12 },
    ]);
    // The same answer read after the range's last day: nothing in progress.
    expect(trend("UTC", days, before, "day", "2026-11-02", Date.parse("2026-11-03T00:00:00Z")).rows.some((r) => r.inProgress)).toBe(false);
    // The range's zone decides: at 20:00 UTC on 2 Nov it is already 3 Nov in Kolkata, so its 2 Nov is over.
    const kolkata = [point("2026-10-31T18:30:00.000Z", 5, 1, 0), point("2026-11-01T18:30:00.000Z", 7, 2, 0)];
    expect(trend("Asia/Kolkata", kolkata, [], "day", "2026-11-02", Date.parse("2026-11-02T20:00:00Z")).rows.some((r) => r.inProgress)).toBe(false);
    expect(trend("Asia/Kolkata", kolkata, [], "day", "2026-11-02", Date.parse("2026-11-02T18:00:00Z")).rows[1]!.inProgress).toBe(true);
  });

  it("an earlier bucket holds the present when the range runs on past today; weeks likewise", () => {
    const weeks = [point("2026-11-02T00:00:00.000Z", 70, 7, 1), point("2026-11-09T00:00:00.000Z", 20, 2, 0), point("2026-11-16T00:00:00.000Z", 0, 0, 0)];
    const data = trend("UTC", weeks, [], "week", "2026-11-22", Date.parse("2026-11-11T09:00:00Z"));
    expect(data.rows.map((r) => [r.inProgress, r.notStarted])).toEqual([
      [undefined, undefined],
      [true, undefined],
      [undefined, true],
    ]);
    // The week to come is not drawn as a zero.
    expect(trendSeries(data, "visitors")[2]).toEqual({ label: "Week of 16 Nov", previousLabel: undefined, current: 0, previous: undefined, notStarted: true });
  });

  it("has no rate without visitors (null, not 0% or NaN), and rounds rates to one decimal like the routes", () => {
    const empty = trend("UTC", [point("2026-11-01T00:00:00.000Z", 0, 0, 0)], [point("2026-10-31T00:00:00.000Z", 0, 0, 0)]);
    expect(empty.totals.current.conversion_rate).toBeNull();
    expect(empty.totals.current.ai_share).toBeNull();
    expect(rateOf(1, 3)).toBe(33.3);
    expect(rateOf(2, 3)).toBe(66.7);
  });

  it("a count's change is relative, to one decimal, and unknown (null) without an earlier count", () => {
    expect(changeOf(112, 100)).toBe(12);
    expect(changeOf(2, 3)).toBe(-33.3);
    expect(changeOf(5, 0)).toBeNull();
  });

  it("a bucket without a previous counterpart draws no previous point", () => {
    const data = trend("UTC", [point("2026-11-02T00:00:00.000Z", 5, 1, 0)], [], "week");
    expect(data.rows[0]!.previous).toBeUndefined();
    expect(trendSeries(data, "visitors")[0]!.previous).toBeUndefined();
  });
});

describe("visitorsHref", () => {
  it("is the visitor list of a source over a calendar range in a zone, converted ones on request", () => {
    const range = { from: "2026-11-01", to: "2026-11-30", tz: "Europe/Berlin" };
    expect(visitorsHref(range, { source: "perplexity" })).toBe("/visitors?source=perplexity&from=2026-11-01&to=2026-11-30&tz=Europe%2FBerlin");
    expect(visitorsHref(range, { source: "perplexity", converted: true })).toBe(
      "/visitors?source=perplexity&from=2026-11-01&to=2026-11-30&tz=Europe%2FBerlin&converted=true",
    );
    expect(visitorsHref({ from: "2026-11-01", to: "2026-11-30" })).toBe("/visitors?from=2026-11-01&to=2026-11-30");
  });
});
