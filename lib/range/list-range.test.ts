import { describe, expect, it } from "vitest";
import { listBounds } from "./date-range";
import { listQuery, resolveListRange } from "./list-range";

const NOW = Date.parse("2026-11-23T23:30:00Z");

describe("a list page's range", () => {
  it("no from/to is all time, whatever tz says", () => {
    const r = resolveListRange({ tz: "Europe/Berlin" }, NOW);
    expect(r.explicit).toBe(false);
    expect(r.query).toEqual({});
    // Without a range the controls start in the viewer's zone (where a preset would count days).
    expect(resolveListRange({}, NOW, "Asia/Tokyo").range.tz).toBe("Asia/Tokyo");
    expect(resolveListRange({ from: "2026-11-01" }, NOW, "Asia/Tokyo").range.tz).toBe("UTC");
  });

  it("dates without tz keep their old meaning: UTC days, passed on as dates", () => {
    const r = resolveListRange({ from: "2026-11-01", to: "2026-11-05" }, NOW);
    expect(r).toMatchObject({
      explicit: true,
      problems: {},
      query: { from: "2026-11-01", to: "2026-11-05" },
      range: { from: "2026-11-01", to: "2026-11-05", tz: "UTC" },
    });
  });

  it("dates in another zone become that zone's instants, the same bounds the insights use", () => {
    const range = { from: "2026-10-25", to: "2026-10-26", tz: "Europe/Berlin" };
    const r = resolveListRange(range, NOW);
    expect(r.query).toEqual(listBounds(range));
    expect(r.query).toEqual({ from: "2026-10-24T22:00:00.000Z", to: "2026-10-26T22:59:59.999Z" });
    // One end only: that end alone, still in the zone.
    expect(resolveListRange({ from: "2026-11-01", tz: "Asia/Kolkata" }, NOW).query).toEqual({ from: "2026-10-31T18:30:00.000Z" });
  });

  it("datetimes pass through as they were, shown as instants on their day in the zone", () => {
    const r = resolveListRange({ from: "2026-10-21T23:00:00Z", to: "2026-11-20T12:00:00Z" }, NOW);
    expect(r.query).toEqual({ from: "2026-10-21T23:00:00Z", to: "2026-11-20T12:00:00Z" });
    expect(r.instants).toEqual({ from: "2026-10-21T23:00:00Z", to: "2026-11-20T12:00:00Z" });
    expect(resolveListRange({ from: "2026-10-21T23:00:00Z", tz: "Europe/Berlin" }, NOW).range.from).toBe("2026-10-22");
  });

  it("finds problems per field with the list route's schema, each with its reason, and spans of years are fine", () => {
    expect(resolveListRange({ from: "0002-11-01" }, NOW).problems).toEqual({ from: "not_a_date" });
    expect(resolveListRange({ from: "2026-11-10", to: "2026-11-01" }, NOW).problems).toEqual({ to: "backwards" });
    expect(resolveListRange({ from: "2026-11-10", to: "2026-11-12T00:00:00Z" }, NOW).problems).toEqual({ to: "mixed" });
    expect(resolveListRange({ from: "2026-11-01", tz: "Mars/Base" }, NOW).problems).toEqual({ tz: "unknown_zone" });
    expect(resolveListRange({ from: "2024-01-01", to: "2026-11-01" }, NOW).problems).toEqual({});
    // An invalid value goes to the route as it is, which answers 400 naming it: never reinterpreted.
    expect(resolveListRange({ from: "yesterday", tz: "Europe/Berlin" }, NOW).query).toEqual({ from: "yesterday" });
  });
});

describe("a list view's query", () => {
  it("keeps the filters and paging, turns the range into bounds and spends tz on them", () => {
    const values = { source: "chatgpt", intent: null, from: "2026-11-01", to: "2026-11-01", tz: "Europe/Berlin", limit: "50", offset: null };
    expect(listQuery(values, NOW).query).toEqual({ source: "chatgpt", limit: "50", from: "2026-10-31T23:00:00.000Z", to: "2026-11-01T22:59:59.999Z" });
    expect(listQuery({ platform: null, from: null, to: null, tz: "Europe/Berlin" }, NOW).query).toEqual({});
  });
});
