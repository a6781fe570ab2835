// Where a chart draws its notes: each chart's x axis is a row of buckets (days, or weeks from their
// first day in the range), each with the calendar days it covers; a note covers days too (one, or a
// span). A note whose days fall in one bucket is a marker on it; one over several buckets is a band
// from its first to its last. Notes on the same bucket (or the same band) share one mark. Plain
// functions, so the charts (recharts or not) only draw what these say.
import type { AnnotationJson } from "@/lib/annotations/limits";
import { formatDateRange, formatDay } from "@/lib/format/format";
import { addDays, todayIn } from "@/lib/range/calendar";

/** A bucket of a chart's x axis: the value the axis knows it by (`key`), and the days it covers. */
export type ChartBucket = { key: string; from: string; to: string };

export type NoteMark = {
  kind: "line" | "band";
  /** Index of the first and last bucket the mark covers (the same for a line). */
  first: number;
  last: number;
  notes: AnnotationJson[];
};

/**
 * The buckets of an axis whose buckets start on `starts` (calendar days, in order): each runs to the
 * day before the next one's start, the last to `to`, the range's last day.
 */
export function bucketsOf(starts: readonly { key: string; date: string }[], to: string): ChartBucket[] {
  return starts.map((s, i) => ({ key: s.key, from: s.date, to: i + 1 < starts.length ? addDays(starts[i + 1]!.date, -1) : to }));
}

/** The calendar day an instant falls on in `tz` (a bucket's start, as the insights answer it). */
export function dayOfInstant(iso: string, tz: string): string {
  try {
    return todayIn(tz, Date.parse(iso));
  } catch {
    return iso.slice(0, 10); // a zone this browser does not know: the UTC day, off by at most one
  }
}

/** The index of the bucket holding `date`, or -1 before the first and after the last. */
export function bucketIndexOf(buckets: readonly ChartBucket[], date: string): number {
  return buckets.findIndex((b) => b.from <= date && date <= b.to);
}

/** The notes' marks on `buckets`: parts outside the axis clipped, notes wholly outside left out. */
export function noteMarks(notes: readonly AnnotationJson[], buckets: readonly ChartBucket[]): NoteMark[] {
  if (buckets.length === 0) return [];
  const axisFrom = buckets[0]!.from;
  const axisTo = buckets.at(-1)!.to;
  const marks = new Map<string, NoteMark>();
  for (const note of notes) {
    const end = note.end_date ?? note.date;
    if (end < axisFrom || note.date > axisTo) continue;
    const first = bucketIndexOf(buckets, note.date < axisFrom ? axisFrom : note.date);
    const last = bucketIndexOf(buckets, end > axisTo ? axisTo : end);
    if (first < 0 || last < 0) continue;
    const kind = first === last ? "line" : "band";
    const id = `${kind}:${first}:${last}`;
    const mark = marks.get(id) ?? { kind, first, last, notes: [] };
    mark.notes.push(note);
    marks.set(id, mark);
  }
  return [...marks.values()].sort((a, b) => a.first - b.first || a.last - b.last);
}

/** A note's days as people read them: "3 Nov 2026", or "30 Oct – 2 Nov 2026" for a span. */
export function noteDays(note: Pick<AnnotationJson, "date" | "end_date">): string {
  return note.end_date && note.end_date !== note.date ? formatDateRange({ from: note.date, to: note.end_date }) : formatDay(note.date);
}

/** What a mark says, as its accessible name and its tooltip's first line: "Note, 3 Nov 2026: Campaign paused (Ana)". */
export function markText(mark: NoteMark): string {
  const one = (n: AnnotationJson) => `${noteDays(n)}: ${n.text}${n.author ? ` (${n.author})` : ""}`;
  if (mark.notes.length === 1) return `Note, ${one(mark.notes[0]!)}`;
  return `${mark.notes.length} notes. ${mark.notes.map(one).join(". ")}`;
}
