// Where notes go on a chart's axis: buckets run to the day before the next one's start (a week
// clipped to the range's end), a note within one bucket is a marker on it, a span over several a
// band, parts outside the axis clipped, notes outside it left out, notes on the same bucket together.
import { describe, expect, it } from "vitest";
import type { AnnotationJson } from "@/lib/annotations/limits";
import { bucketsOf, dayOfInstant, markText, noteMarks } from "./annotation-data";

const note = (id: string, date: string, end_date: string | null = null, text = id, author: string | null = null): AnnotationJson => ({
  id,
  date,
  end_date,
  text,
  author,
  created_at: "",
  updated_at: "",
});

describe("noteMarks", () => {
  const weeks = bucketsOf(
    [
      { key: "w1", date: "2026-11-01" },
      { key: "w2", date: "2026-11-02" },
      { key: "w3", date: "2026-11-09" },
    ],
    "2026-11-12",
  );

  it("buckets run to the day before the next start, the last to the range's end", () => {
    expect(weeks).toEqual([
      { key: "w1", from: "2026-11-01", to: "2026-11-01" },
      { key: "w2", from: "2026-11-02", to: "2026-11-08" },
      { key: "w3", from: "2026-11-09", to: "2026-11-12" },
    ]);
  });

  it("a note inside one bucket is a line, over several a band; clipped to the axis; outside left out; one mark per bucket", () => {
    const marks = noteMarks(
      [
        note("a", "2026-11-03"),
        note("b", "2026-11-04", "2026-11-06"),
        note("c", "2026-10-20", "2026-11-03"),
        note("d", "2026-11-07", "2026-12-01"),
        note("e", "2026-11-13"),
        note("f", "2026-10-01", "2026-10-31"),
      ],
      weeks,
    );
    expect(marks.map((m) => [m.kind, m.first, m.last, m.notes.map((n) => n.id)])).toEqual([
      ["band", 0, 1, ["c"]],
      ["line", 1, 1, ["a", "b"]],
      ["band", 1, 2, ["d"]],
    ]);
  });

  it("names a mark by its notes' days, text and author", () => {
    const [one] = noteMarks([note("a", "2026-11-03", null, "Campaign paused", "Ana")], weeks);
    expect(markText(one!)).toBe("Note, 3 Nov 2026: Campaign paused (Ana)");
    const [two] = noteMarks([note("a", "2026-11-03", null, "One"), note("b", "2026-11-04", "2026-11-05", "Two")], weeks);
    expect(markText(two!)).toBe("2 notes. 3 Nov 2026: One. 4 Nov – 5 Nov 2026: Two");
  });

  it("reads a bucket's start in the range's zone", () => {
    expect(dayOfInstant("2026-10-31T23:00:00.000Z", "Europe/Berlin")).toBe("2026-11-01");
    expect(dayOfInstant("2026-10-31T23:00:00.000Z", "UTC")).toBe("2026-10-31");
  });
});
