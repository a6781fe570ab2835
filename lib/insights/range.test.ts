// The insights' window in a time zone: each day's first instant and length across clock changes
// (including zones whose clocks skip midnight, or move by half an hour), ISO weeks clipped to the
// range, and the previous period as the same calendar days moved back.
import { describe, expect, it } from "vitest";
import { resolveRange } from "./range";

const NOW = Date.parse("2026-11-20T12:00:00Z");
const hours = (d: { startMs: number; endMs: number }) => (d.endMs - d.startMs) / 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe("resolveRange", () => {
  it.each([
    ["Europe/Berlin", "2026-10-25", "2026-10-24T22:00:00.000Z", 25],
    ["Europe/Berlin", "2026-03-29", "2026-03-28T23:00:00.000Z", 23],
    ["America/New_York", "2026-11-01", "2026-11-01T04:00:00.000Z", 25],
    ["America/New_York", "2026-03-08", "2026-03-08T05:00:00.000Z", 23],
    // The clocks skip midnight: the day starts at 01:00 local (-03:00), and has 23 hours.
    ["America/Santiago", "2026-09-06", "2026-09-06T04:00:00.000Z", 23],
    // A half-hour change.
    ["Australia/Lord_Howe", "2026-10-04", "2026-10-03T13:30:00.000Z", 23.5],
    ["Asia/Kolkata", "2026-11-01", "2026-10-31T18:30:00.000Z", 24],
    ["Asia/Kathmandu", "2026-11-01", "2026-10-31T18:15:00.000Z", 24],
  ])("%s %s starts at %s and has %d hours", (tz, date, start, length) => {
    const r = resolveRange({ tz, from: date, to: date }, NOW);
    expect(r.current.days).toHaveLength(1);
    expect(r.current.days[0]!.date).toBe(date);
    expect(iso(r.current.startMs)).toBe(start);
    expect(hours(r.current.days[0]!)).toBe(length);
    // The previous period is the day before, and ends where this one starts.
    expect(r.previous.endMs).toBe(r.current.startMs);
  });

  it("days follow each other with no gap or overlap across a clock change", () => {
    const r = resolveRange({ tz: "America/New_York", from: "2026-10-20", to: "2026-11-10" }, NOW);
    // Both periods touch: one run of days to read.
    expect(r.windows).toHaveLength(1);
    const all = r.windows[0]!.days;
    expect(all).toHaveLength(44);
    for (let i = 1; i < all.length; i++) expect(all[i]!.startMs).toBe(all[i - 1]!.endMs);
    expect(all.map(hours).filter((h) => h !== 24)).toEqual([25]);
  });

  it("weeks start on Monday, clipped to the range; the previous buckets are the same days moved back", () => {
    // Wednesday 2026-10-14 to Tuesday 2026-11-10: 28 days.
    const r = resolveRange({ tz: "Europe/Berlin", from: "2026-10-14", to: "2026-11-10", bucket: "week" }, NOW);
    const dates = (spans: typeof r.buckets.current) => spans.map((b) => [b.days[0]!.date, b.days.at(-1)!.date]);
    expect(dates(r.buckets.current)).toEqual([
      ["2026-10-14", "2026-10-18"],
      ["2026-10-19", "2026-10-25"],
      ["2026-10-26", "2026-11-01"],
      ["2026-11-02", "2026-11-08"],
      ["2026-11-09", "2026-11-10"],
    ]);
    expect(dates(r.buckets.previous)).toEqual([
      ["2026-09-16", "2026-09-20"],
      ["2026-09-21", "2026-09-27"],
      ["2026-09-28", "2026-10-04"],
      ["2026-10-05", "2026-10-11"],
      ["2026-10-12", "2026-10-13"],
    ]);
    // Whole days, not 24-hour steps: the week holding the change to winter time has 169 hours.
    expect(r.buckets.current.map(hours)).toEqual([120, 169, 168, 168, 48]);
  });

  it("the previous period moves back by whole calendar days, even when the clocks change in between", () => {
    const r = resolveRange({ tz: "Europe/Berlin", from: "2026-10-26", to: "2026-11-24" }, NOW);
    expect(r.previous.days[0]!.date).toBe("2026-09-26");
    expect(r.previous.days.at(-1)!.date).toBe("2026-10-25");
    // Local midnight on both sides: 22:00Z in summer time, 23:00Z in winter time.
    expect(iso(r.previous.startMs)).toBe("2026-09-25T22:00:00.000Z");
    expect(iso(r.current.startMs)).toBe("2026-10-25T23:00:00.000Z");
  });
});

describe("resolveRange over a day the zone skipped", () => {
  // Samoa moved across the date line: 29 December 2011 was followed by 31 December.
  it.each(["Pacific/Apia", "Pacific/Fakaofo"])("%s 2011-12-30 is a day of no instant, and the range is valid (never to < from)", (tz) => {
    const r = resolveRange({ tz, from: "2011-12-30", to: "2011-12-30" }, NOW);
    expect(r.current.days).toHaveLength(1);
    expect(hours(r.current)).toBe(0);
    expect(r.current.startMs).toBe(r.current.endMs);
    // The day before is a whole day, and ends where the skipped one "is".
    expect(hours(r.previous)).toBe(24);
    expect(r.previous.endMs).toBe(r.current.startMs);
    const week = resolveRange({ tz, from: "2011-12-26", to: "2012-01-01", bucket: "week" }, NOW);
    expect(week.buckets.current.map(hours)).toEqual([144]);
    expect(week.current.days.map(hours)).toEqual([24, 24, 24, 24, 0, 24, 24]);
  });
});

describe("resolveRange: the comparison period", () => {
  const dates = (span: { days: Array<{ date: string }> }) => [span.days[0]!.date, span.days.at(-1)!.date];

  it("a year before: from's date a year back (29 Feb reads 28 Feb), as many days, its buckets the current ones moved back", () => {
    const r = resolveRange({ tz: "Europe/Berlin", from: "2028-02-29", to: "2028-03-13", bucket: "week", compare: "year" }, NOW);
    expect(r.compare).toEqual({ from: "2027-02-28", to: "2027-03-13" });
    expect(dates(r.previous)).toEqual(["2027-02-28", "2027-03-13"]);
    expect(r.buckets.previous.map((b) => b.days.length)).toEqual(r.buckets.current.map((b) => b.days.length));
    // A year apart: two runs of days to read, each in order.
    expect(r.windows.map(dates)).toEqual([
      ["2027-02-28", "2027-03-13"],
      ["2028-02-29", "2028-03-13"],
    ]);
  });

  it("a year before a range ending 29 Feb ends 28 Feb; the 29 Feb's day compares with no day, and no day is in two buckets", () => {
    const r = resolveRange({ tz: "Europe/Berlin", from: "2028-02-23", to: "2028-02-29", compare: "year" }, NOW);
    expect(r.compare).toEqual({ from: "2027-02-23", to: "2027-02-28" });
    expect(dates(r.previous)).toEqual(["2027-02-23", "2027-02-28"]);
    expect(r.buckets.current).toHaveLength(7);
    const previous = r.buckets.previous.map((b) => b.days.map((d) => d.date));
    expect(previous).toEqual([["2027-02-23"], ["2027-02-24"], ["2027-02-25"], ["2027-02-26"], ["2027-02-27"], ["2027-02-28"], []]);
    // The empty bucket sits where the day would be: at the end of 28 Feb, Berlin time.
    expect(new Date(r.buckets.previous[6]!.startMs).toISOString()).toBe("2027-02-28T23:00:00.000Z");
    expect(r.buckets.previous[6]!.endMs).toBe(r.buckets.previous[6]!.startMs);
  });

  it("a year before a range over 1 Mar of a year after a leap year holds that 29 Feb, in the bucket of 1 Mar", () => {
    const r = resolveRange({ tz: "UTC", from: "2029-02-27", to: "2029-03-02", compare: "year" }, NOW);
    expect(r.compare).toEqual({ from: "2028-02-27", to: "2028-03-02" });
    expect(r.buckets.previous.map((b) => b.days.map((d) => d.date))).toEqual([["2028-02-27"], ["2028-02-28"], ["2028-02-29", "2028-03-01"], ["2028-03-02"]]);
    // Every day of the window in exactly one bucket: the buckets' totals are the window's.
    expect(r.buckets.previous.flatMap((b) => b.days)).toEqual(r.previous.days);
  });

  it("custom: the window given; overlapping the range, both periods are one run of days, each day once", () => {
    const r = resolveRange({ tz: "UTC", from: "2026-11-01", to: "2026-11-10", compare: "custom", compare_from: "2026-10-27", compare_to: "2026-11-05" }, NOW);
    expect(r.compare).toEqual({ from: "2026-10-27", to: "2026-11-05" });
    expect(r.windows).toHaveLength(1);
    expect(dates(r.windows[0]!)).toEqual(["2026-10-27", "2026-11-10"]);
    expect(r.windows[0]!.days).toHaveLength(15);
  });

  it("custom of another length: a 400 naming compare_to", () => {
    expect(() =>
      resolveRange({ tz: "UTC", from: "2026-11-01", to: "2026-11-10", compare: "custom", compare_from: "2026-10-01", compare_to: "2026-10-05" }, NOW),
    ).toThrow(expect.objectContaining({ status: 400, param: "compare_to" }));
  });
});
