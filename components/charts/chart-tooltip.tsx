"use client";
// A themed tooltip body for recharts: the hovered item's name and lines of label/value.
import type { ReactNode } from "react";

export function ChartTooltipBox({ title, lines }: { title: string; lines: Array<[string, ReactNode]> }) {
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
