"use client";
// Traffic by source: horizontal bars, AI platforms first and in their own colour, with a legend, a
// tooltip per bar and a visually hidden table as the text alternative.
import { Bar, BarChart, CartesianGrid, Cell, LabelList, Tooltip, XAxis, YAxis } from "recharts";
import { formatChange, formatCompact, formatNumber, formatPercent } from "@/lib/format/format";
import { ChartTooltipBox } from "./chart-tooltip";
import type { TrafficBar, TrafficChartData } from "./traffic-chart-data";

const COLORS = { ai: "var(--color-ai)", other: "var(--color-other)" } as const;

export function TrafficChart({ data, periodLabel }: { data: TrafficChartData; periodLabel: string }) {
  const height = Math.max(160, data.bars.length * 36 + 40);
  return (
    <div className="stack" style={{ gap: 12 }}>
      <ul className="legend" aria-label="Legend">
        <li>
          <span className="swatch swatch-ai" aria-hidden="true" /> AI platforms ({formatPercent(data.aiShare)} of visitors)
        </li>
        <li>
          <span className="swatch swatch-other" aria-hidden="true" /> Other sources
        </li>
      </ul>
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
            {data.bars.map((b) => (
              <Cell key={b.source} fill={COLORS[b.group]} />
            ))}
            <LabelList dataKey="visitors" position="right" formatter={(v: unknown) => formatCompact(Number(v))} />
          </Bar>
        </BarChart>
      </div>
      <div className="visually-hidden">
        <table>
        <caption>Visitors by traffic source, {periodLabel}</caption>
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">Group</th>
            <th scope="col">Visitors</th>
            <th scope="col">Share</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {data.bars.map((b) => (
            <tr key={b.source}>
              <th scope="row">{b.label}</th>
              <td>{b.group === "ai" ? "AI platform" : "Other source"}</td>
              <td>{formatNumber(b.visitors)}</td>
              <td>{formatPercent(b.percentage)}</td>
              <td>{formatChange(b.change).label}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </div>
  );
}
