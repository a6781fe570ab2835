import { describe, expect, it } from "vitest";
import {
  formatChange,
  formatCountry,
  formatDateTime,
  formatDateTimeShort,
  formatDuration,
  formatExact,
  formatNumber,
  formatPercent,
  formatRange,
  formatRelative,
  humanize,
  toDirection,
  zoneName,
} from "./format";

/** The one-value formatters: what people read for each input, a dash where there is no value. */
const oneValue: Array<[string, (value: number | undefined) => string, Array<[number | undefined, string]>]> = [
  ["formatNumber groups thousands", formatNumber, [[12345, "12,345"], [0, "0"], [undefined, "—"], [Number.NaN, "—"]]],
  ["formatPercent: one decimal at most", (value) => formatPercent(value), [[12.5, "12.5%"], [3, "3%"], [33.333, "33.3%"], [undefined, "—"]]],
  ["formatDuration: seconds, minutes and seconds, or hours and minutes", formatDuration, [[42, "42s"], [65, "1m 05s"], [7380, "2h 03m"], [undefined, "—"]]],
];

describe.each(oneValue)("%s", (_name, format, table) => {
  it.each(table)("%s -> %s", (input, expected) => {
    expect(format(input)).toBe(expected);
  });
});

describe("formatChange", () => {
  it("signs and labels increases", () => {
    expect(formatChange(12.5)).toEqual({ direction: "up", text: "+12.5%", label: "up 12.5%" });
  });
  it("uses a true minus sign for decreases", () => {
    expect(formatChange(-3.04)).toEqual({ direction: "down", text: "\u22123%", label: "down 3%" });
  });
  it("treats values that round to zero as flat", () => {
    expect(formatChange(0.04).direction).toBe("flat");
    expect(formatChange(-0.04).text).toBe("0%");
  });
  it("handles a missing change and unitless changes", () => {
    expect(formatChange(undefined).text).toBe("—");
    expect(formatChange(4, "").text).toBe("+4");
  });
  it("says points in the singular for exactly one ('up 1 point', never 'up 1 points')", () => {
    expect(formatChange(1, "points")).toEqual({ direction: "up", text: "+1 pt", label: "up 1 point" });
    expect(formatChange(-1.04, "points")).toEqual({ direction: "down", text: "\u22121 pt", label: "down 1 point" });
    expect(formatChange(1.5, "points")).toEqual({ direction: "up", text: "+1.5 pts", label: "up 1.5 points" });
    expect(formatChange(0.02, "points")).toEqual({ direction: "flat", text: "0 pts", label: "no change" });
  });
});

describe("toDirection", () => {
  it("accepts any direction string and falls back to the sign of the change", () => {
    expect(toDirection("UP")).toBe("up");
    expect(toDirection("down")).toBe("down");
    expect(toDirection("steady")).toBe("flat");
    expect(toDirection("sideways", -2)).toBe("down");
    expect(toDirection(undefined, 0)).toBe("flat");
  });
});

describe("dates and times", () => {
  const iso = "2026-11-20T12:03:07Z";
  it("names the zone and converts to it", () => {
    expect(formatDateTime(iso, "UTC")).toBe("Nov 20, 2026, 12:03 UTC");
    expect(formatDateTime(iso, "America/New_York")).toBe("Nov 20, 2026, 07:03 EST");
  });
  it("has a short form for tables and names zones", () => {
    expect(formatDateTimeShort(iso, "UTC")).toBe("Nov 20, 2026, 12:03");
    expect(zoneName("UTC")).toBe("UTC");
    expect(zoneName("America/New_York", new Date(iso))).toBe("EST");
  });
  it("gives the exact time with seconds for hover text", () => {
    expect(formatExact(iso, "UTC")).toContain("12:03:07");
    expect(formatExact(iso, "UTC")).toContain("Friday, November 20, 2026");
  });
  it("shows a dash for missing or invalid timestamps", () => {
    expect(formatDateTime(undefined, "UTC")).toBe("—");
    expect(formatDateTime("not a date", "UTC")).toBe("—");
  });
  it("formats relative times", () => {
    const now = new Date("2026-11-20T15:03:07Z");
    expect(formatRelative(iso, now)).toBe("3 hours ago");
    expect(formatRelative("2026-11-18T15:03:07Z", now)).toBe("2 days ago");
    expect(formatRelative(iso, new Date(iso))).toBe("now");
  });
});

describe("labels", () => {
  it("humanizes identifiers", () => {
    expect(humanize("problem_research")).toBe("Problem research");
    expect(humanize("")).toBe("—");
  });
  it("names countries and keeps unknown codes", () => {
    expect(formatCountry("DE")).toBe("Germany");
    expect(formatCountry(undefined)).toBe("—");
  });
  it("describes the visible range of a page", () => {
    expect(formatRange(0, 20, 12345)).toBe("1–20 of 12,345");
    expect(formatRange(12340, 5, 12345)).toBe("12,341–12,345 of 12,345");
    expect(formatRange(0, 0, 0)).toBe("0 results");
  });
});
