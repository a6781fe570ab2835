"use client";
// Traffic by source as recharts bars: AI platforms first and in their own colour, a tooltip per bar.
// The legend and the text alternative are in chart-figures.tsx (they do not need recharts).
import { Bar, BarChart, CartesianGrid, Cell, LabelList, Tooltip, XAxis, YAxis } from "recharts";
import { formatChange, formatCompact, formatNumber, formatPercent } from "@/lib/format/format";
import { ChartTooltipBox } from "./chart-tooltip";
import { trafficChartHeight, type TrafficBar, type TrafficChartData } from "./traffic-chart-data";

const COLORS = { ai: "var(--color-ai)", other: "var(--color-other)" } as const;

export function TrafficChart({ data }: { data: TrafficChartData }) {
  const height = trafficChartHeight(data.bars.length);
  return (
    <div className="chart" aria-hidden="true" data-testid="traffic-chart">
      <BarChart
        responsive
        style={{ width: "100%", height }}
        data={data.bars}
        layout="vertical"
        margin={{ top: 0, right: 56, bottom: 0, left: 8 }}
        barCategoryGap={8}
        accessibilityLayer={false}
      >
        <CartesianGrid horizontal={false} />
        <XAxis type="number" tickFormatter={(v: number) => formatCompact(v)} axisLine={false} tickLine={false} />
        <YAxis type="category" dataKey="label" width={116} axisLine={false} tickLine={false} />
        <Tooltip
          cursor={{ className: "recharts-tooltip-cursor" }}
          content={({ active, payload }) => {
            const bar = active ? (payload?.[0]?.payload as TrafficBar | undefined) : undefined;
            if (!bar) return null;
            return (
              <ChartTooltipBox
                title={`${bar.label}${bar.group === "ai" ? " (AI platform)" : ""}`}
                lines={[
                  ["Visitors", formatNumber(bar.visitors)],
                  ["Share", formatPercent(bar.percentage)],
                  ["Change", formatChange(bar.change).text],
                ]}
              />
            );
          }}
        />
        <Bar dataKey="visitors" name="Visitors" radius={[0, 4, 4, 0]} isAnimationActive={false}>
          {data.bars.map((b, i) => (
            <Cell key={`${i}-${b.source}`} fill={COLORS[b.group]} />
          ))}
          <LabelList dataKey="visitors" position="right" formatter={(v: unknown) => formatCompact(Number(v))} />
        </Bar>
      </BarChart>
    </div>
  );
}
