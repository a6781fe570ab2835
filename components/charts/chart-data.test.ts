import { describe, expect, it } from "vitest";
import { toFunnelChartData } from "./funnel-chart-data";
import { toTrafficChartData } from "./traffic-chart-data";

describe("toTrafficChartData", () => {
  const rows = [
    { source: "organic", visitors: 500, percentage: 50 },
    { source: "claude", visitors: 50, percentage: 5 },
    { source: "direct", visitors: 200, percentage: 20 },
    { source: "chatgpt", visitors: 250, percentage: 25, change: 4.5 },
  ];

  it("puts AI platforms first, each group by visitors descending", () => {
    const { bars } = toTrafficChartData(rows);
    expect(bars.map((b) => [b.source, b.group])).toEqual([
      ["chatgpt", "ai"],
      ["claude", "ai"],
      ["organic", "other"],
      ["direct", "other"],
    ]);
    expect(bars[0]).toMatchObject({ label: "ChatGPT", visitors: 250, percentage: 25, change: 4.5 });
  });

  it("totals visitors and the AI share", () => {
    const data = toTrafficChartData(rows);
    expect(data.total).toBe(1000);
    expect(data.aiTotal).toBe(300);
    expect(data.aiShare).toBe(30);
  });

  it("computes a missing percentage and labels unknown sources as sent", () => {
    const { bars } = toTrafficChartData([
      { source: "newsletter_blast", visitors: 30 },
      { source: "gemini", visitors: 10 },
      { source: "constructor", visitors: 0 },
    ]);
    expect(bars[0]).toMatchObject({ source: "gemini", group: "ai", percentage: 25 });
    expect(bars[1]).toMatchObject({ label: "newsletter_blast", group: "other", percentage: 75 });
    expect(bars[2]).toMatchObject({ label: "constructor", group: "other", percentage: 0 });
  });

  it("keeps a row whose visitors are unknown, last in its group, out of every total and share", () => {
    const data = toTrafficChartData([
      { source: "chatgpt" },
      { source: "claude", visitors: 20 },
      { source: "organic", visitors: 60 },
      { source: "bing", percentage: 12 },
    ]);
    expect(data.bars.map((b) => [b.source, b.visitors, b.percentage])).toEqual([
      ["claude", 20, 25],
      ["chatgpt", undefined, undefined],
      ["organic", 60, 75],
      ["bing", undefined, 12],
    ]);
    expect(data).toMatchObject({ total: 80, aiTotal: 20, aiShare: 25 });
  });

  it("handles an empty period without dividing by zero", () => {
    expect(toTrafficChartData([])).toEqual({ bars: [], total: 0, aiTotal: 0, aiShare: 0 });
    expect(toTrafficChartData([{ source: "direct", visitors: 0 }]).bars[0]!.percentage).toBe(0);
  });
});

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
    const bars = toFunnelChartData([
      { stage: "visit", count: 1000 },
      { stage: "engaged" },
      { stage: "lead", count: 100 },
    ]);
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
