import { describe, expect, it } from "vitest";
import { nextSearch, toRawSearch } from "./search-url";

describe("nextSearch", () => {
  it("sets a filter and goes back to the first page", () => {
    expect(nextSearch({ source: "chatgpt", offset: "40", limit: "50" }, { converted: "true" })).toBe("?converted=true&limit=50&source=chatgpt");
  });
  it("removes a filter set to empty", () => {
    expect(nextSearch({ source: "chatgpt", intent: "support" }, { source: "" })).toBe("?intent=support");
    expect(nextSearch({ source: "chatgpt" }, { source: undefined })).toBe("");
  });
  it("keeps the other parameters when paging", () => {
    expect(nextSearch({ source: "paid", offset: "20" }, { offset: "40" }, { resetOffset: false })).toBe("?offset=40&source=paid");
  });
  it("encodes values", () => {
    expect(nextSearch({}, { from: "2026-11-01T00:00:00+01:00" })).toBe("?from=2026-11-01T00%3A00%3A00%2B01%3A00");
  });
});

describe("toRawSearch", () => {
  it("keeps the first of repeated values and drops missing ones", () => {
    expect(toRawSearch({ a: ["1", "2"], b: "x", c: undefined })).toEqual({ a: "1", b: "x" });
  });
});
