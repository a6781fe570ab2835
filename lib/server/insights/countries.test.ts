// How a visitor's country is named in /insights/countries: its code in upper case, or "unknown"
// for a missing code or two letters that name no region (never dropped, never shown as typed).
import { describe, expect, it } from "vitest";
import { countryOf } from "./countries";

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
