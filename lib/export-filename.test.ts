import { describe, expect, it } from "vitest";
import { exportFilename } from "./export-filename";

const now = new Date("2026-11-22T18:30:00Z");

describe("exportFilename", () => {
  it("names resource, filters in order, the date range and the export day", () => {
    expect(
      exportFilename(
        "visitors",
        { source: "chatgpt", intent: undefined, converted: "true", from: "2026-11-01", to: "2026-11-20", limit: 20, offset: 40, format: "csv" },
        "csv",
        now,
      ),
    ).toBe("visitors_source-chatgpt_converted-true_2026-11-01_to_2026-11-20_2026-11-22.csv");
  });

  it("says `all` for an unfiltered export and ignores paging and format", () => {
    expect(exportFilename("mentions", { limit: 100, offset: 0, format: "json" }, "json", now)).toBe("mentions_all_2026-11-22.json");
  });

  it("names an open-ended range", () => {
    expect(exportFilename("mentions", { platform: "claude", from: "2026-10-01" }, "csv", now)).toBe("mentions_platform-claude_from_2026-10-01_2026-11-22.csv");
    expect(exportFilename("mentions", { to: "2026-10-31" }, "csv", now)).toBe("mentions_to_2026-10-31_2026-11-22.csv");
  });

  it("keeps only file-name-safe characters (datetimes, quotes, slashes)", () => {
    const name = exportFilename("visitors", { intent: 'a"b/../c d', from: "2026-11-01T12:00:00Z", to: "2026-11-02T00:00:00+02:00" }, "csv", now);
    expect(name).toBe("visitors_intent-a-b-..-c-d_2026-11-01T12-00-00Z_to_2026-11-02T00-00-00-02-00_2026-11-22.csv");
    expect(name).toMatch(/^[A-Za-z0-9_.-]+$/);
  });

  it("uses the UTC day of the export, not the local one", () => {
    expect(exportFilename("traffic", { period: "7d" }, "csv", new Date("2026-11-22T23:59:59-05:00"))).toBe("traffic_period-7d_2026-11-23.csv");
  });

  it("names a zone's range by its calendar days, as the page showed it, and the export day in that zone", () => {
    // Berlin's 28 Oct – 26 Nov: the list asks for these instants (the clocks went back on 25 Oct).
    const berlin = { source: "perplexity", from: "2026-10-27T23:00:00.000Z", to: "2026-11-26T22:59:59.999Z" };
    expect(exportFilename("visitors", berlin, "csv", new Date("2026-11-26T23:30:00Z"), "Europe/Berlin")).toBe(
      "visitors_source-perplexity_2026-10-28_to_2026-11-26_2026-11-27.csv",
    );
    // New York's 1 Nov (a 25-hour day, the clocks went back that morning) – 2 Nov.
    expect(exportFilename("mentions", { from: "2026-11-01T04:00:00.000Z", to: "2026-11-03T04:59:59.999Z" }, "csv", now, "America/New_York")).toBe(
      "mentions_2026-11-01_to_2026-11-02_2026-11-22.csv",
    );
  });

  it("keeps an instant that is not a day's edge in the zone as it is, rather than claim the whole day", () => {
    const rolling = { from: "2026-10-27T08:42:33.000Z", to: "2026-11-26T22:59:59.999Z" };
    expect(exportFilename("visitors", rolling, "csv", now, "Europe/Berlin")).toBe("visitors_2026-10-27T08-42-33.000Z_to_2026-11-26_2026-11-22.csv");
    // The same instants read in another zone are not day edges there.
    expect(exportFilename("visitors", { from: "2026-10-27T23:00:00.000Z" }, "csv", now, "UTC")).toBe("visitors_from_2026-10-27T23-00-00.000Z_2026-11-22.csv");
    // Dates stay dates whatever the zone.
    expect(exportFilename("visitors", { from: "2026-11-01", to: "2026-11-20" }, "csv", now, "Asia/Tokyo")).toBe(
      "visitors_2026-11-01_to_2026-11-20_2026-11-23.csv",
    );
  });
});
