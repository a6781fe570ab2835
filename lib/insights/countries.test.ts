// How a visitor's country is named in /insights/countries: its code in upper case, or "unknown"
// for a missing code or two letters that name no region (never dropped, never shown as typed).
import { describe, expect, it } from "vitest";
import type { Visitor } from "@/lib/data-api/schemas";
import { COUNTRY_DAYS, countryOf } from "./countries";

describe("countryOf", () => {
  it.each([
    ["US", "US"],
    ["de", "DE"],
    [" gb ", "GB"],
    ["XK", "XK"],
    [undefined, "unknown"],
    ["", "unknown"],
    ["ZZ", "unknown"],
    ["XY", "unknown"],
    ["USA", "unknown"],
    ["U", "unknown"],
    ["1A", "unknown"],
    ["Deutschland", "unknown"],
    ["__proto__", "unknown"],
  ])("%j is %s", (value, named) => {
    expect(countryOf(value)).toBe(named);
  });
});

describe("COUNTRY_DAYS: a visitor whose source or converted cannot be read", () => {
  const visitor = (v: Partial<Visitor>): Visitor =>
    ({ id: `vis_${Math.random().toString(36).slice(2)}`, first_seen: "2026-11-20T10:00:00Z", country: "CH", city: "Zürich", ...v }) as Visitor;

  it("is still one of its country's and city's visitors; only the figures that need the field leave it out, and it is counted as unreadable", () => {
    const day = COUNTRY_DAYS.empty();
    const added = [
      COUNTRY_DAYS.add(day, visitor({ source: "chatgpt", converted: true })),
      COUNTRY_DAYS.add(day, visitor({ source: "organic", converted: false })),
      COUNTRY_DAYS.add(day, visitor({ source: undefined, converted: true })),
      COUNTRY_DAYS.add(day, visitor({ source: "claude", converted: undefined })),
    ];
    // The two odd rows are reported, so the answer can say how many it could not fully read.
    expect(added).toEqual([true, true, false, false]);
    const [ch] = COUNTRY_DAYS.finish(day);
    expect(ch).toMatchObject({ country: "CH", visitors: 4, ai: 2, conversions: 2, rated: 3 });
    expect(ch!.cities).toEqual([["Zürich", 4, 2]]);
  });
});
