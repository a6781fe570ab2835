"use client";
// The conversion funnel: a bar per stage with its count, each stage's conversion from the previous
// one below the chart, a tooltip, and a visually hidden table as the text alternative.
import { Bar, BarChart, CartesianGrid, LabelList, Tooltip, XAxis, YAxis } from "recharts";
import { formatCompact, formatNumber, formatPercent } from "@/lib/format/format";
import { ChartTooltipBox } from "./chart-tooltip";
import type { FunnelBar } from "./funnel-chart-data";

export function FunnelChart({ bars, periodLabel }: { bars: FunnelBar[]; periodLabel: string }) {
  return (
    <div className="stack" style={{ gap: 12 }}>
      <div className="chart" aria-hidden="true" data-testid="funnel-chart">
        <BarChart
          responsive
          style={{ width: "100%", height: Math.max(160, bars.length * 46 + 30) }}
          data={bars}
          layout="vertical"
          margin={{ top: 0, right: 56, bottom: 0, left: 8 }}
          barCategoryGap={10}
          accessibilityLayer={false}
        >
          <CartesianGrid horizontal={false} />
          <XAxis type="number" tickFormatter={(v: number) => formatCompact(v)} axisLine={false} tickLine={false} />
          <YAxis type="category" dataKey="label" width={132} axisLine={false} tickLine={false} />
          <Tooltip
            cursor={{ className: "recharts-tooltip-cursor" }}
            content={({ active, payload }) => {
              const bar = active ? (payload?.[0]?.payload as FunnelBar | undefined) : undefined;
              if (!bar) return null;
              return (
                <ChartTooltipBox
                  title={bar.label}
                  lines={[
                    ["Count", formatNumber(bar.count)],
                    ["From previous stage", bar.stepRate === undefined ? "—" : formatPercent(bar.stepRate)],
                    ["From first stage", formatPercent(bar.overallRate)],
                  ]}
                />
              );
            }}
          />
          <Bar dataKey="count" name="Count" fill="var(--color-accent)" radius={[0, 4, 4, 0]} isAnimationActive={false}>
            <LabelList dataKey="count" position="right" formatter={(v: unknown) => formatCompact(Number(v))} />
          </Bar>
        </BarChart>
      </div>
      <ol className="funnel-steps" aria-hidden="true">
        {bars.map((b) => (
          <li key={b.stage}>
            <span className="funnel-step-label">{b.label}</span>
            <span className="funnel-step-count">{formatNumber(b.count)}</span>
            <span className="funnel-step-rate">{b.stepRate === undefined ? "start" : `${formatPercent(b.stepRate)} of previous`}</span>
          </li>
        ))}
      </ol>
      <div className="visually-hidden">
        <table>
        <caption>Conversion funnel, {periodLabel}</caption>
        <thead>
          <tr>
            <th scope="col">Stage</th>
            <th scope="col">Count</th>
            <th scope="col">Conversion from previous stage</th>
            <th scope="col">Conversion from first stage</th>
          </tr>
        </thead>
        <tbody>
          {bars.map((b) => (
            <tr key={b.stage}>
              <th scope="row">{b.label}</th>
              <td>{formatNumber(b.count)}</td>
              <td>{b.stepRate === undefined ? "—" : formatPercent(b.stepRate)}</td>
              <td>{formatPercent(b.overallRate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </div>
  );
}
