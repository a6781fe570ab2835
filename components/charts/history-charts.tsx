"use client";
// The history on /intelligence as recharts lines: the score with its four components per day, and
// the rank of us and every competitor per day (rank 1 on top), each its own line (ours thicker, on
// top). A day without a snapshot has no value, and lines are not joined across it (connectNulls
// off): a gap is drawn as a gap. Legends, tables and
// the passings list are in history-figures.tsx (they do not need recharts). The team's notes are
// drawn on both (components/annotations), and a click on a day asks for a note on it.
import { CartesianGrid, Line, LineChart, XAxis, YAxis } from "recharts";
import { ChartNoteMarks, pickDayHandler } from "@/components/annotations/chart-marks";
import type { ChartNotesView } from "@/components/annotations/chart-notes";
import { formatDay, formatNumber } from "@/lib/format/format";
import { ChartTooltip } from "./chart-tooltip";
import { HISTORY_CHART_HEIGHT, SCORE_COLORS, SCORE_SERIES, type RankDay, type RankLine, type ScoreDay } from "./history-chart-data";

/**
 * The x axis is keyed by the calendar date, labelled "3 Nov": a 366-day range holds the same day of
 * the month twice, and a note's marker must land on its own day, not on the first of that name.
 */
const dayTick = (date: string) => formatDay(date, false);

/** With few days each point gets a dot, so a lone day between two gaps still shows. */
const dotsFor = (days: readonly { at: string | null }[], total: number) =>
  total <= 45 || days.some((d, i) => d.at !== null && days[i - 1]?.at == null && days[i + 1]?.at == null);

export function ScoreHistoryChart({ days, notes }: { days: ScoreDay[]; notes?: ChartNotesView }) {
  const dots = dotsFor(days, days.length);
  return (
    <div className="chart" aria-hidden="true" data-testid="score-history-chart">
      <LineChart
        responsive
        style={{ width: "100%", height: HISTORY_CHART_HEIGHT }}
        data={days}
        margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
        accessibilityLayer={false}
        onClick={pickDayHandler(notes)}
      >
        <CartesianGrid vertical={false} />
        <XAxis dataKey="date" tickFormatter={dayTick} tickLine={false} axisLine={false} minTickGap={16} />
        <YAxis domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} tickLine={false} axisLine={false} width={36} />
        <ChartTooltip<ScoreDay>
          describe={(d) => ({
            title: d.at === null ? `${d.label}: no snapshot` : d.label,
            lines: d.at === null ? [] : SCORE_SERIES.map((s) => [s.label, formatNumber(d[s.key])]),
          })}
        />
        {SCORE_SERIES.map((s) => (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stroke={SCORE_COLORS[s.key]}
            strokeWidth={s.key === "score" ? 2.75 : 1.5}
            strokeOpacity={s.key === "score" ? 1 : 0.85}
            dot={dots ? { r: s.key === "score" ? 2.5 : 1.5 } : false}
            connectNulls={false}
            isAnimationActive={false}
          />
        ))}
        {notes && <ChartNoteMarks view={notes} />}
      </LineChart>
    </div>
  );
}

export function RankHistoryChart({ days, lines, rankCount, notes }: { days: RankDay[]; lines: RankLine[]; rankCount: number; notes?: ChartNotesView }) {
  const dots = dotsFor(days, days.length);
  const ticks = Array.from({ length: Math.max(1, rankCount) }, (_, i) => i + 1);
  // Ours drawn last, on top.
  const ordered = [...lines].sort((a, b) => Number(a.isWorkspace) - Number(b.isWorkspace));
  return (
    <div className="chart" aria-hidden="true" data-testid="rank-history-chart">
      <LineChart
        responsive
        style={{ width: "100%", height: HISTORY_CHART_HEIGHT }}
        data={days}
        margin={{ top: 12, right: 12, bottom: 0, left: 0 }}
        accessibilityLayer={false}
        onClick={pickDayHandler(notes)}
      >
        <CartesianGrid vertical={false} />
        <XAxis dataKey="date" tickFormatter={dayTick} tickLine={false} axisLine={false} minTickGap={16} />
        <YAxis reversed domain={[1, Math.max(1, rankCount)]} ticks={ticks} interval={0} allowDecimals={false} tickLine={false} axisLine={false} width={28} />
        <ChartTooltip<RankDay>
          describe={(d) => ({
            title: d.at === null ? `${d.label}: no snapshot` : d.label,
            lines:
              d.at === null
                ? []
                : Object.entries(d.ranks)
                    .sort(([, a], [, b]) => (a ?? 99) - (b ?? 99))
                    .map(([name, rank]) => [`#${formatNumber(rank)}`, name]),
          })}
        />
        {ordered.map((l) => (
          <Line
            key={l.name}
            dataKey={(d: RankDay) => d.ranks[l.name] ?? null}
            name={l.name}
            type="stepAfter"
            stroke={l.color}
            strokeDasharray={l.dash}
            strokeWidth={l.isWorkspace ? 3 : 1.75}
            strokeOpacity={l.isWorkspace ? 1 : 0.9}
            dot={dots ? { r: l.isWorkspace ? 2.5 : 1.5 } : false}
            connectNulls={false}
            isAnimationActive={false}
          />
        ))}
        {notes && <ChartNoteMarks view={notes} />}
      </LineChart>
    </div>
  );
}
