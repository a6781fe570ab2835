import { describe, expect, it } from "vitest";
import { estimateSecondsLeft, exportUrl, formatDuration } from "./export-query";
import { filenameFromDisposition } from "./download-blob";

describe("exportUrl", () => {
  it("keeps the filters, drops paging and empty values, adds the format", () => {
    expect(exportUrl("visitors", { source: "chatgpt", converted: "true", intent: "", limit: 50, offset: 100, to: undefined }, "json")).toBe(
      "/api/export/visitors?converted=true&source=chatgpt&format=json",
    );
  });

  it("encodes values", () => {
    expect(exportUrl("mentions", { from: "2026-11-01T00:00:00+02:00" }, "csv")).toBe("/api/export/mentions?from=2026-11-01T00%3A00%3A00%2B02%3A00&format=csv");
  });
});

describe("estimateSecondsLeft", () => {
  it("uses the server's estimate before there is a meaningful observed rate", () => {
    expect(estimateSecondsLeft({ done: 100, total: 1000, elapsedMs: 500, serverEstimateSeconds: 10 })).toBe(9.5);
    expect(estimateSecondsLeft({ done: 0, total: 1000, elapsedMs: 500 })).toBeUndefined();
  });

  it("extrapolates the observed rate after two seconds when it is slower than the plan", () => {
    expect(estimateSecondsLeft({ done: 500, total: 1500, elapsedMs: 5000, serverEstimateSeconds: 1 })).toBe(10);
    expect(estimateSecondsLeft({ done: 500, total: 1500, elapsedMs: 5000 })).toBe(10);
  });

  it("keeps the plan's estimate while the observed rate is faster (a minute-window wait is still ahead)", () => {
    // Free plan, 20,000 rows: 10,000 in the first 10 s, then a wait for the next minute window.
    expect(estimateSecondsLeft({ done: 10_000, total: 20_000, elapsedMs: 10_000, serverEstimateSeconds: 70 })).toBe(60);
  });

  it("is zero when all rows are in", () => {
    expect(estimateSecondsLeft({ done: 10, total: 10, elapsedMs: 100 })).toBe(0);
  });
});

describe("formatDuration", () => {
  it("reads naturally", () => {
    expect(formatDuration(4.4)).toBe("4 s");
    expect(formatDuration(75)).toBe("1 min 15 s");
    expect(formatDuration(120)).toBe("2 min");
    expect(formatDuration(3700)).toBe("1 h 1 min");
  });
});

describe("filenameFromDisposition", () => {
  it("reads filename* first, then filename, else the fallback", () => {
    expect(filenameFromDisposition(`attachment; filename="a.csv"; filename*=UTF-8''b%20c.csv`, "x")).toBe("b c.csv");
    expect(filenameFromDisposition(`attachment; filename="visitors_all_2026-11-22.csv"`, "x")).toBe("visitors_all_2026-11-22.csv");
    expect(filenameFromDisposition(`attachment; filename=plain.json`, "x")).toBe("plain.json");
    expect(filenameFromDisposition(null, "fallback.csv")).toBe("fallback.csv");
  });
});

describe("csvDownloadName", () => {
  const now = new Date("2026-11-22T10:00:00Z");
  it("adds the day unless the name already ends with a date, and keeps names file-safe", async () => {
    const { csvDownloadName } = await import("./csv-download-button");
    expect(csvDownloadName("traffic_30d", now)).toBe("traffic_30d_2026-11-22.csv");
    expect(csvDownloadName("timeline_vis_abc.csv", now)).toBe("timeline_vis_abc_2026-11-22.csv");
    expect(csvDownloadName("ranking_2026-11-20", now)).toBe("ranking_2026-11-20.csv");
    expect(csvDownloadName("a b/c", now)).toBe("a-b-c_2026-11-22.csv");
  });
});
