"use client";
// The notes drawn inside a recharts chart: a day's note as a vertical marker line, a span as a shaded
// band from its first bucket to its last (ReferenceLine / ReferenceArea at the axis' own values), and
// the flags over them placed by the chart's own x scale and plot area, rendered into the notes' layer
// outside the chart (note-flags.tsx says why). A click on a day of the chart asks for a note on it.
// Only the lazily loaded chart modules import this (it brings recharts).
import { createPortal } from "react-dom";
import { ReferenceArea, ReferenceLine, usePlotArea, useXAxisScale, type MouseHandlerDataParam } from "recharts";
import type { ChartNotesView } from "./chart-notes";
import { NoteFlags, type FlagPlace } from "./note-flags";

/** Flag places from the chart's scale; none until the chart has measured itself. */
function NoteFlagsLayer({ view }: { view: ChartNotesView }) {
  const scale = useXAxisScale();
  const plot = usePlotArea();
  if (!scale || !plot || !view.layer) return null;
  const places: FlagPlace[] = [];
  for (const mark of view.marks) {
    const x = scale(view.buckets[mark.first]!.key);
    if (x === undefined || !Number.isFinite(x)) continue;
    places.push({ mark, left: `${x}px`, top: `${plot.y}px`, across: plot.width > 0 ? (x - plot.x) / plot.width : 0 });
  }
  return createPortal(<NoteFlags places={places} />, view.layer);
}

/** Place inside a recharts chart whose x axis' values are the buckets' keys. */
export function ChartNoteMarks({ view }: { view: ChartNotesView }) {
  return (
    <>
      {view.marks.map((mark) => {
        const from = view.buckets[mark.first]!.key;
        const id = `${mark.kind}:${mark.first}:${mark.last}`;
        return mark.kind === "line" ? (
          <ReferenceLine key={id} x={from} className="note-mark" stroke="var(--color-warning)" strokeWidth={1.5} strokeDasharray="2 2" />
        ) : (
          <ReferenceArea
            key={id}
            x1={from}
            x2={view.buckets[mark.last]!.key}
            className="note-band"
            fill="var(--color-warning)"
            fillOpacity={0.12}
            stroke="none"
          />
        );
      })}
      <NoteFlagsLayer view={view} />
    </>
  );
}

/** The chart's onClick: a click on a day (or week) asks for a note starting on its first day. */
export function pickDayHandler(view: ChartNotesView | undefined) {
  if (!view) return undefined;
  return (state: MouseHandlerDataParam) => {
    const index = Number(state.activeIndex);
    const bucket = Number.isInteger(index) ? view.buckets[index] : undefined;
    if (bucket) view.pickDate(bucket.from);
  };
}
