"use client";
// A chart's recharts tooltip in the app's theme: the hovered item's name and lines of label/value.
import type { ReactNode } from "react";
import { Tooltip } from "recharts";

type TooltipText = { title: string; lines: Array<[string, ReactNode]> };

function ChartTooltipBox({ title, lines }: TooltipText) {
  return (
    <div className="chart-tooltip">
      <strong>{title}</strong>
      {lines.map(([label, value]) => (
        <div key={label}>
          <span className="muted">{label}: </span>
          {value}
        </div>
      ))}
    </div>
  );
}

/** The tooltip of a chart whose data items are `T`: what `describe` says of the hovered one, nothing while none is. */
export function ChartTooltip<T>({ describe }: { describe: (item: T) => TooltipText }) {
  return (
    <Tooltip
      cursor={{ className: "recharts-tooltip-cursor" }}
      content={({ active, payload }) => {
        const item = active ? (payload?.[0]?.payload as T | undefined) : undefined;
        return item ? <ChartTooltipBox {...describe(item)} /> : null;
      }}
    />
  );
}
