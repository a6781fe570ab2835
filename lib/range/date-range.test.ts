import { describe, expect, it } from "vitest";
import { listBounds, presetOf, presetRange, previousRange, resolveDateRange } from "./date-range";

const NOW = Date.parse("2026-11-23T23:30:00Z");

describe("the app's date range", () => {
  it("presets end today in the range's zone: at 23:30 UTC it is already the 24th in Berlin", () => {
    expect(presetRange(7, "UTC", NOW)).toEqual({ from: "2026-11-17", to: "2026-11-23", tz: "UTC" });
    expect(presetRange(1, "Europe/Berlin", NOW)).toEqual({ from: "2026-11-24", to: "2026-11-24", tz: "Europe/Berlin" });
    expect(presetOf(presetRange(90, "Asia/Kolkata", NOW), NOW)).toBe("90d");
    expect(presetOf({ from: "2026-11-17", to: "2026-11-22", tz: "UTC" }, NOW)).toBeNull();
  });

  it("reads the URL with the insights schema: a reason per field, the default range shown meanwhile", () => {
    const bad = resolveDateRange({ from: "0002-11-01", to: "2026-11-05", tz: "Mars/Base" }, "UTC", NOW);
    expect(bad.problems).toEqual({ from: "not_a_date", tz: "unknown_zone" });
    expect(bad.range).toEqual(presetRange(30, "UTC", NOW));
    const backwards = resolveDateRange({ from: "2026-11-10", to: "2026-11-01" }, "UTC", NOW);
    expect(backwards.problems).toEqual({ from: "backwards" });
    expect(resolveDateRange({ from: "2024-01-01", to: "2026-11-01" }, "UTC", NOW).problems).toEqual({ from: "too_long" });
    const ok = resolveDateRange({ from: "2026-11-01", to: "2026-11-05" }, "Europe/Berlin", NOW);
    expect(ok).toEqual({ range: { from: "2026-11-01", to: "2026-11-05", tz: "Europe/Berlin" }, explicit: true, problems: {} });
    expect(resolveDateRange({}, "America/New_York", NOW).explicit).toBe(false);
  });

  it("the previous period is as many calendar days ending the day before from", () => {
    expect(previousRange({ from: "2026-03-01", to: "2026-03-31", tz: "UTC" })).toEqual({ from: "2026-01-29", to: "2026-02-28", tz: "UTC" });
  });

  it("list bounds: dates in UTC, the zone's instants elsewhere (a 25-hour day when Berlin's clocks go back)", () => {
    expect(listBounds({ from: "2026-11-01", to: "2026-11-05", tz: "UTC" })).toEqual({ from: "2026-11-01", to: "2026-11-05" });
    expect(listBounds({ from: "2026-10-25", to: "2026-10-25", tz: "Europe/Berlin" })).toEqual({
      from: "2026-10-24T22:00:00.000Z",
      to: "2026-10-25T22:59:59.999Z",
    });
    expect(listBounds({ from: "2026-11-01", to: "2026-11-01", tz: "Asia/Kolkata" })).toEqual({
      from: "2026-10-31T18:30:00.000Z",
      to: "2026-11-01T18:29:59.999Z",
    });
  });
});
