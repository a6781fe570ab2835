import { describe, expect, it } from "vitest";
import { AI_SOURCES, PLATFORMS, SOURCES } from "@/lib/data-api/constants";
import {
  formatBucket,
  formatBytes,
  formatChange,
  formatCountry,
  formatDate,
  formatDateRange,
  formatDateTime,
  formatDay,
  formatDecimal,
  formatDuration,
  formatExact,
  formatNumber,
  formatPageSpan,
  formatPercent,
  formatPlatformList,
  formatRelative,
  formatThreshold,
  formatZone,
  humanize,
  PLATFORM_ORDER,
  sortPlatforms,
  toDirection,
} from "./format";

/** The one-value formatters: what people read for each input, a dash where there is no value. */
const oneValue: Array<[string, (value: number | undefined) => string, Array<[number | undefined, string]>]> = [
  [
    "formatNumber groups thousands",
    formatNumber,
    [
      [12345, "12,345"],
      [0, "0"],
      [undefined, "—"],
      [Number.NaN, "—"],
    ],
  ],
  [
    "formatPercent: always one decimal",
    formatPercent,
    [
      [12.5, "12.5%"],
      [4, "4.0%"],
      [4.9, "4.9%"],
      [33.333, "33.3%"],
      [0, "0.0%"],
      [100, "100.0%"],
      [undefined, "—"],
    ],
  ],
  [
    "formatDecimal: one decimal",
    formatDecimal,
    [
      [3, "3.0"],
      [3.25, "3.3"],
      [undefined, "—"],
    ],
  ],
  [
    "formatThreshold: as typed, no decimal added",
    formatThreshold,
    [
      [5, "5"],
      [2.5, "2.5"],
      [12.345, "12.35"],
      [1000, "1,000"],
      [undefined, "—"],
    ],
  ],
  [
    "formatDuration: seconds, minutes, hours",
    formatDuration,
    [
      [42, "42 s"],
      [4.4, "4 s"],
      [65, "1 min 5 s"],
      [120, "2 min"],
      [3700, "1 h 1 min"],
      [7200, "2 h"],
      [undefined, "—"],
      [-1, "—"],
    ],
  ],
  [
    "formatBytes: the units of a downloads list",
    formatBytes,
    [
      [512, "512 B"],
      [2345, "2.3 KB"],
      [45_000, "45 KB"],
      [2_100_000, "2.1 MB"],
      [undefined, "—"],
    ],
  ],
];

describe.each(oneValue)("%s", (_name, format, table) => {
  it.each(table)("%s -> %s", (input, expected) => {
    expect(format(input)).toBe(expected);
  });
});

describe("rates beside each other read alike", () => {
  it("a whole rate keeps its decimal, so '4%' never sits next to '4.9%'", () => {
    const shown = [4, 4.9, 19, 24.3].map(formatPercent);
    expect(shown).toEqual(["4.0%", "4.9%", "19.0%", "24.3%"]);
    expect(new Set(shown.map((s) => s.replace(/\d/g, "9")))).toEqual(new Set(["9.9%", "99.9%"]));
  });
});

describe("formatChange", () => {
  it("signs and labels increases, with one decimal", () => {
    expect(formatChange(12.5)).toEqual({ direction: "up", text: "+12.5%", label: "up 12.5%" });
    expect(formatChange(15)).toEqual({ direction: "up", text: "+15.0%", label: "up 15.0%" });
  });
  it("uses a true minus sign for decreases", () => {
    expect(formatChange(-3.04)).toEqual({ direction: "down", text: "\u22123.0%", label: "down 3.0%" });
  });
  it("rounds halves away from zero, the same way up and down", () => {
    expect(formatChange(3.25).text).toBe("+3.3%");
    expect(formatChange(-3.25).text).toBe("\u22123.3%");
  });
  it("treats values that round to zero as flat", () => {
    expect(formatChange(0.04).direction).toBe("flat");
    expect(formatChange(-0.04).text).toBe("0.0%");
  });
  it("handles a missing change and unitless changes", () => {
    expect(formatChange(undefined).text).toBe("—");
    expect(formatChange(4, "").text).toBe("+4.0");
  });
  it("says points in the singular for exactly one ('up 1.0 point', never 'up 1.0 points')", () => {
    expect(formatChange(1, "points")).toEqual({ direction: "up", text: "+1.0 pt", label: "up 1.0 point" });
    expect(formatChange(-1.04, "points")).toEqual({ direction: "down", text: "\u22121.0 pt", label: "down 1.0 point" });
    expect(formatChange(1.5, "points")).toEqual({ direction: "up", text: "+1.5 pts", label: "up 1.5 points" });
    expect(formatChange(3, "points").text).toBe("+3.0 pts");
    expect(formatChange(0.02, "points")).toEqual({ direction: "flat", text: "0.0 pts", label: "no change" });
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
  it("reads day, month, year, converted to the zone, without a zone abbreviation", () => {
    expect(formatDateTime(iso, "UTC")).toBe("20 Nov 2026, 12:03");
    expect(formatDateTime(iso, "America/New_York")).toBe("20 Nov 2026, 07:03");
    expect(formatDateTime(iso, "Asia/Kolkata")).toBe("20 Nov 2026, 17:33");
    expect(formatDateTime("2026-11-26T07:00:00Z", "Europe/Berlin")).toBe("26 Nov 2026, 08:00");
    expect(formatDate("2026-11-20T23:30:00Z", "Europe/Berlin")).toBe("21 Nov 2026");
    expect(formatDate("2026-11-20T23:30:00Z", "UTC")).toBe("20 Nov 2026");
  });
  it("uses the 24-hour clock from 00 to 23", () => {
    expect(formatDateTime("2026-11-20T00:05:00Z", "UTC")).toBe("20 Nov 2026, 00:05");
    expect(formatDateTime("2026-11-20T23:59:00Z", "UTC")).toBe("20 Nov 2026, 23:59");
  });
  it("spells September the same in every runtime (no 'Sept')", () => {
    expect(formatDate("2026-09-28T12:00:00Z", "UTC")).toBe("28 Sep 2026");
    expect(formatDay("2026-09-28", false)).toBe("28 Sep");
  });
  it("gives the exact time with seconds, weekday and zone for hover text", () => {
    expect(formatExact(iso, "UTC")).toBe("Friday 20 November 2026, 12:03:07 (UTC)");
    expect(formatExact(iso, "Europe/Berlin")).toBe("Friday 20 November 2026, 13:03:07 (Berlin time)");
  });
  it("shows a dash for missing or invalid timestamps and unknown zones", () => {
    expect(formatDateTime(undefined, "UTC")).toBe("—");
    expect(formatDateTime("not a date", "UTC")).toBe("—");
    expect(formatDateTime(iso, "Mars/Olympus")).toBe("—");
    expect(formatDay("2026-13-01")).toBe("—");
  });
  it("formats relative times", () => {
    const now = new Date("2026-11-20T15:03:07Z");
    expect(formatRelative(iso, now)).toBe("3 hours ago");
    expect(formatRelative("2026-11-18T15:03:07Z", now)).toBe("2 days ago");
    expect(formatRelative(iso, new Date(iso))).toBe("now");
  });
  it("says what happened as past and what is to come as to come, even against a clock that is off", () => {
    const now = new Date("2026-11-20T12:03:04Z");
    // A delivery stamped by a server 3 s ahead of the reader's clock.
    expect(formatRelative(iso, now)).toBe("in 3 seconds");
    expect(formatRelative(iso, now, "past")).toBe("now");
    expect(formatRelative("2026-11-20T12:02:07Z", now, "past")).toBe("57 seconds ago");
    // A next try whose time has come while the list was not read again.
    expect(formatRelative("2026-11-20T12:03:00Z", now, "future")).toBe("now");
    expect(formatRelative("2026-11-20T12:13:04Z", now, "future")).toBe("in 10 minutes");
  });
});

describe("calendar days and ranges", () => {
  it("names a range once, with its year at the end (two years when it spans two)", () => {
    expect(formatDateRange({ from: "2026-10-28", to: "2026-11-26" })).toBe("28 Oct – 26 Nov 2026");
    expect(formatDateRange({ from: "2025-12-20", to: "2026-01-05" })).toBe("20 Dec 2025 – 5 Jan 2026");
    expect(formatDateRange({ from: "2026-11-23", to: "2026-11-23" })).toBe("23 Nov 2026");
  });
  it("labels chart buckets by their first day in the range's zone", () => {
    // Berlin's 1 Nov starts at 23:00 UTC the day before.
    expect(formatBucket("2026-10-31T23:00:00.000Z", "Europe/Berlin", "day")).toBe("1 Nov");
    expect(formatBucket("2026-10-31T23:00:00.000Z", "UTC", "day")).toBe("31 Oct");
    expect(formatBucket("2026-11-02T00:00:00.000Z", "UTC", "week")).toBe("Week of 2 Nov");
  });
  it("a date in a heading and the same day in a table read the same", () => {
    expect(formatDay("2026-11-26")).toBe(formatDate("2026-11-26T07:00:00Z", "Europe/Berlin"));
    expect(formatDateTime("2026-11-26T07:00:00Z", "Europe/Berlin").startsWith(formatDay("2026-11-26"))).toBe(true);
  });
});

describe("formatZone: one name for a zone wherever it shows", () => {
  it.each([
    ["UTC", "UTC"],
    ["Etc/UTC", "UTC"],
    ["Europe/Berlin", "Berlin time"],
    ["America/New_York", "New York time"],
    ["America/Argentina/Buenos_Aires", "Buenos Aires time"],
    ["Asia/Kolkata", "Kolkata time"],
    ["Etc/GMT+5", "UTC\u22125"],
    ["Etc/GMT-3", "UTC+3"],
  ])("%s -> %s", (tz, expected) => {
    expect(formatZone(tz)).toBe(expected);
  });
  it("never says an abbreviation that changes with the season or the runtime", () => {
    for (const tz of ["Europe/Berlin", "America/New_York"]) expect(formatZone(tz)).not.toMatch(/GMT|CET|CEST|EST|EDT/);
  });
});

describe("the AI platforms' order", () => {
  it("is one order, for platforms and for the AI sources alike", () => {
    expect(PLATFORM_ORDER).toEqual(["chatgpt", "claude", "perplexity", "gemini"]);
    expect([...AI_SOURCES]).toEqual([...PLATFORMS]);
    expect(SOURCES.slice(0, 4)).toEqual([...PLATFORMS]);
  });
  it("sorts rows by it, unknown platforms after the known ones in their own order", () => {
    const rows = [{ p: "gemini" }, { p: "copilot" }, { p: "perplexity" }, { p: "chatgpt" }, { p: "grok" }, { p: "claude" }];
    expect(sortPlatforms(rows, (r) => r.p).map((r) => r.p)).toEqual(["chatgpt", "claude", "perplexity", "gemini", "copilot", "grok"]);
  });
  it("names them in a sentence in that order", () => {
    expect(formatPlatformList()).toBe("ChatGPT, Claude, Perplexity or Gemini");
    expect(formatPlatformList("and")).toBe("ChatGPT, Claude, Perplexity and Gemini");
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
  it("describes the visible span of a list page", () => {
    expect(formatPageSpan(0, 20, 12345)).toBe("1–20 of 12,345");
    expect(formatPageSpan(12340, 5, 12345)).toBe("12,341–12,345 of 12,345");
    expect(formatPageSpan(0, 0, 0)).toBe("0 results");
  });
});
