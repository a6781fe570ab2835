"use client";
// One trend metric over the range as recharts lines: the previous period drawn first (behind),
// fainter and dashed, at the same bucket positions; the current period solid on top, its bucket in
// progress (today, this week) dashed in the same colour, since its count is still growing. The metric
// switcher, legend, summary and table are in chart-figures.tsx (they do not need recharts). The
// team's notes are drawn on it (components/annotations), and a click on a bucket asks for a note.
import { CartesianGrid, Line, LineChart, XAxis, YAxis } from "recharts";
import { ChartNoteMarks, pickDayHandler } from "@/components/annotations/chart-marks";
import type { ChartNotesView } from "@/components/annotations/chart-notes";
import { formatCompact, formatNumber } from "@/lib/format/format";
import { ChartTooltip } from "./chart-tooltip";
import { TREND_CHART_HEIGHT, type TrendSeriesPoint } from "./trend-chart-data";

export function TrendChart({
  points,
  metricLabel,
  notes,
  previousName = "Previous period",
}: {
  points: TrendSeriesPoint[];
  metricLabel: string;
  notes?: ChartNotesView;
  /** The window drawn behind, as the header's comparison names it. */
  previousName?: string;
}) {
  const dots = points.length <= 14;
  return (
    <div className="chart" aria-hidden="true" data-testid="trend-chart">
      <LineChart
        responsive
        style={{ width: "100%", height: TREND_CHART_HEIGHT }}
        data={points}
        margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
        accessibilityLayer={false}
        onClick={pickDayHandler(notes)}
      >
        <CartesianGrid vertical={false} />
        <XAxis dataKey="label" tickLine={false} axisLine={false} minTickGap={16} />
        <YAxis tickFormatter={(v: number) => formatCompact(v)} tickLine={false} axisLine={false} width={44} allowDecimals={false} />
        <ChartTooltip<TrendSeriesPoint>
          describe={(p) => ({
            title: p.inProgress ? `${p.label} (so far)` : p.label,
            lines: [
              [metricLabel, formatNumber(p.current)],
              [`${previousName}${p.previousLabel ? ` (${p.previousLabel})` : ""}`, formatNumber(p.previous)],
            ],
          })}
        />
        <Line
          dataKey="previous"
          name={previousName}
          className="trend-previous"
          stroke="var(--color-other)"
          strokeOpacity={0.7}
          strokeDasharray="5 4"
          strokeWidth={1.5}
          dot={false}
          isAnimationActive={false}
        />
        <Line
          dataKey="complete"
          name={metricLabel}
          className="trend-current"
          stroke="var(--color-accent)"
          strokeWidth={2.25}
          dot={dots}
          isAnimationActive={false}
        />
        <Line
          dataKey="soFar"
          name={`${metricLabel} so far`}
          className="trend-in-progress"
          stroke="var(--color-accent)"
          strokeWidth={2.25}
          strokeDasharray="3 4"
          dot={dots}
          isAnimationActive={false}
        />
        {notes && <ChartNoteMarks view={notes} />}
      </LineChart>
    </div>
  );
}
