import { describe, expect, it } from "vitest";
import { legacyPeriodSearch, periodForRange, periodNote, periodPreviousLabel, periodWindowLabel, rangeOfPeriod } from "./api-period";
import { presetRange } from "./date-range";

const NOW = Date.parse("2026-11-23T23:30:00Z");
const utc = (from: string, to: string) => ({ from, to, tz: "UTC" });

describe("the Data API's period for the header's range", () => {
  it("a preset ending today takes its own period, Today the 24 hours", () => {
    expect(periodForRange(presetRange(1, "UTC", NOW), NOW)).toEqual({ period: "24h", matches: true });
    expect(periodForRange(presetRange(7, "UTC", NOW), NOW)).toEqual({ period: "7d", matches: true });
    expect(periodForRange(presetRange(30, "Europe/Berlin", NOW), NOW)).toEqual({ period: "30d", matches: true });
    expect(periodForRange(presetRange(90, "UTC", NOW), NOW)).toEqual({ period: "90d", matches: true });
  });

  it("a custom range takes the period nearest in length (by ratio), and says it only is the nearest", () => {
    // 30 days that ended a week ago: the same length, but not the same days.
    expect(periodForRange(utc("2026-10-18", "2026-11-16"), NOW)).toEqual({ period: "30d", matches: false });
    expect(periodForRange(utc("2026-11-01", "2026-11-02"), NOW).period).toBe("24h");
    expect(periodForRange(utc("2026-11-01", "2026-11-03"), NOW).period).toBe("7d");
    expect(periodForRange(utc("2026-11-01", "2026-11-12"), NOW).period).toBe("7d");
    expect(periodForRange(utc("2026-11-01", "2026-11-18"), NOW).period).toBe("30d");
    expect(periodForRange(utc("2026-01-01", "2026-11-20"), NOW).period).toBe("90d");
  });

  it("an old overview URL's period is the header's preset of as many days, ending today", () => {
    expect(rangeOfPeriod("7d", "UTC", NOW)).toEqual(utc("2026-11-17", "2026-11-23"));
    expect(rangeOfPeriod("24h", "Europe/Berlin", NOW)).toEqual({ from: "2026-11-24", to: "2026-11-24", tz: "Europe/Berlin" });
    for (const p of ["24h", "7d", "30d", "90d"] as const) expect(periodForRange(rangeOfPeriod(p, "UTC", NOW), NOW)).toEqual({ period: p, matches: true });
  });

  it("an old URL is sent on to its range: the viewer's days, or the URL's own zone; a range, a bad or repeated period stay", () => {
    const legacy = (query: string, viewerTz = "UTC") => legacyPeriodSearch(new URLSearchParams(query), viewerTz, NOW);
    expect(legacy("period=7d")).toBe("?from=2026-11-17&to=2026-11-23");
    // At 23:30 UTC it is already the 24th in Berlin: the viewer's today.
    expect(legacy("period=24h", "Europe/Berlin")).toBe("?from=2026-11-24&to=2026-11-24");
    expect(legacy("period=30d&tz=Asia%2FKolkata&x=1")).toBe("?from=2026-10-26&to=2026-11-24&tz=Asia%2FKolkata&x=1");
    // A zone that is not one is kept for the page to name; the days are the viewer's.
    expect(legacy("period=7d&tz=Mars%2FBase")).toBe("?from=2026-11-17&to=2026-11-23&tz=Mars%2FBase");
    expect(legacy("")).toBeNull();
    expect(legacy("period=1y")).toBeNull();
    expect(legacy("period=7d&period=30d")).toBeNull();
    expect(legacy("period=7d&from=2026-11-01&to=2026-11-05")).toBeNull();
  });

  it("says in words which period stands in for the range", () => {
    expect(periodWindowLabel("30d")).toBe("last 30 days up to now");
    expect(periodPreviousLabel("24h")).toBe("the 24 hours before");
    expect(periodNote(presetRange(30, "UTC", NOW), NOW)).toBe(
      "Workspace Analytics gives pageviews and the funnel only for fixed windows ending now: here the last 30 days up to now, to match your range.",
    );
    expect(periodNote(presetRange(1, "UTC", NOW), NOW)).toContain("here the last 24 hours up to now, for Today.");
    expect(periodNote(utc("2026-11-01", "2026-11-12"), NOW)).toContain("here the last 7 days up to now, the nearest to your 12 days (1 Nov – 12 Nov 2026).");
    expect(periodNote(utc("2026-11-05", "2026-11-05"), NOW)).toContain("the nearest to your day (5 Nov 2026).");
  });
});
