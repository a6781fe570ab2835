import { describe, expect, it } from "vitest";
import { exportUrl, newExportId, unreadableMessage } from "./export-query";

describe("exportUrl", () => {
  it("keeps the filters, drops paging, empty values and a stray id, adds the format and the export's id", () => {
    expect(exportUrl("visitors", { source: "chatgpt", converted: "true", intent: "", limit: 50, offset: 100, to: undefined, id: "x" }, "json", "exp_1")).toBe(
      "/api/export/visitors?converted=true&source=chatgpt&format=json&id=exp_1",
    );
  });

  it("adds the viewer's zone, and the browser's language for CSV for Excel only", () => {
    const viewer = { tz: "Europe/Berlin", locale: "de-DE" };
    expect(exportUrl("visitors", { source: "perplexity", tz: "UTC", locale: "en" }, "csv-excel", "exp_1", viewer)).toBe(
      "/api/export/visitors?source=perplexity&format=csv-excel&id=exp_1&tz=Europe%2FBerlin&locale=de-DE",
    );
    expect(exportUrl("visitors", { source: "perplexity" }, "json", "exp_1", viewer)).toBe(
      "/api/export/visitors?source=perplexity&format=json&id=exp_1&tz=Europe%2FBerlin",
    );
  });

  it("encodes values", () => {
    expect(exportUrl("mentions", { from: "2026-11-01T00:00:00+02:00" }, "csv", "exp_2")).toBe(
      "/api/export/mentions?from=2026-11-01T00%3A00%3A00%2B02%3A00&format=csv&id=exp_2",
    );
  });
});

describe("newExportId", () => {
  it("makes ids of the form the server checks, never the same twice", () => {
    const ids = new Set(Array.from({ length: 200 }, () => newExportId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^exp_[A-Za-z0-9_-]{22}$/);
  });
});

describe("unreadableMessage", () => {
  it("counts and quotes the request ids, or says nothing", () => {
    expect(unreadableMessage({ count: 1, request_ids: ["req_a"] })).toBe("1 row could not be read and was left out (request req_a).");
    expect(unreadableMessage({ count: 2_000, request_ids: [] })).toBe("2,000 rows could not be read and were left out.");
    expect(unreadableMessage({ count: 0, request_ids: [] })).toBeUndefined();
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

  it("dates the download in the viewer's zone, and marks the Excel variant", async () => {
    const { csvDownloadName } = await import("./csv-download-button");
    const lateInUtc = new Date("2026-11-22T23:30:00Z");
    expect(csvDownloadName("traffic_30d", lateInUtc, "excel", "Europe/Berlin")).toBe("traffic_30d_2026-11-23_excel.csv");
    expect(csvDownloadName("traffic_30d", lateInUtc, "", "America/Los_Angeles")).toBe("traffic_30d_2026-11-22.csv");
  });
});
