"use client";
// The score's four components as recharts bars on the same 0–100 scale, with a tooltip. The text
// alternative is in chart-figures.tsx.
import { Bar, BarChart, CartesianGrid, LabelList, XAxis, YAxis } from "recharts";
import { formatNumber } from "@/lib/format/format";
import type { BreakdownBar } from "./breakdown-chart-data";
import { ChartTooltip } from "./chart-tooltip";

export function BreakdownChart({ bars }: { bars: BreakdownBar[] }) {
  const data = bars.map((b) => ({ ...b, value: b.value ?? 0 }));
  return (
    <div className="chart" aria-hidden="true" data-testid="breakdown-chart">
      <BarChart
        responsive
        style={{ width: "100%", height: 220 }}
        data={data}
        layout="vertical"
        margin={{ top: 0, right: 40, bottom: 0, left: 8 }}
        accessibilityLayer={false}
      >
        <CartesianGrid horizontal={false} />
        <XAxis type="number" domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} axisLine={false} tickLine={false} />
        <YAxis type="category" dataKey="label" width={84} axisLine={false} tickLine={false} />
        <ChartTooltip<BreakdownBar>
          describe={(bar) => {
            const original = bars.find((b) => b.key === bar.key);
            return {
              title: bar.label,
              lines: [
                ["Score", `${formatNumber(original?.value)} / 100`],
                ["Measures", bar.help],
              ],
            };
          }}
        />
        <Bar dataKey="value" name="Score" fill="var(--color-accent)" radius={[0, 4, 4, 0]} isAnimationActive={false}>
          <LabelList dataKey="value" position="right" />
        </Bar>
      </BarChart>
    </div>
  );
}
