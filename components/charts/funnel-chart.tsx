"use client";
// The conversion funnel as recharts bars: each stage's count, with a tooltip giving its conversion
// from the previous and the first stage. Step list and text alternative: chart-figures.tsx.
import { Bar, BarChart, CartesianGrid, LabelList, XAxis, YAxis } from "recharts";
import { formatCompact, formatNumber, formatPercent } from "@/lib/format/format";
import { ChartTooltip } from "./chart-tooltip";
import { funnelChartHeight, type FunnelBar } from "./funnel-chart-data";

export function FunnelChart({ bars }: { bars: FunnelBar[] }) {
  return (
    <div className="chart" aria-hidden="true" data-testid="funnel-chart">
      <BarChart
        responsive
        style={{ width: "100%", height: funnelChartHeight(bars.length) }}
        data={bars}
        layout="vertical"
        margin={{ top: 0, right: 56, bottom: 0, left: 8 }}
        barCategoryGap={10}
        accessibilityLayer={false}
      >
        <CartesianGrid horizontal={false} />
        <XAxis type="number" tickFormatter={(v: number) => formatCompact(v)} axisLine={false} tickLine={false} />
        <YAxis type="category" dataKey="label" width={132} axisLine={false} tickLine={false} />
        <ChartTooltip<FunnelBar>
          describe={(bar) => ({
            title: bar.label,
            lines: [
              ["Count", formatNumber(bar.count)],
              ["From previous stage", bar.stepRate === undefined ? "—" : formatPercent(bar.stepRate)],
              ["From first stage", formatPercent(bar.overallRate)],
            ],
          })}
        />
        <Bar dataKey="count" name="Count" fill="var(--color-accent)" radius={[0, 4, 4, 0]} isAnimationActive={false}>
          <LabelList dataKey="count" position="right" formatter={(v: unknown) => formatCompact(Number(v))} />
        </Bar>
      </BarChart>
    </div>
  );
}
