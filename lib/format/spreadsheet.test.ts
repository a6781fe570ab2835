import { describe, expect, it } from "vitest";
import { decimalMark, isLocaleTag, spreadsheetDateTime } from "./spreadsheet";

describe("spreadsheetDateTime", () => {
  it("writes an instant as a zone's wall clock, across a clock change and a day boundary", () => {
    expect(spreadsheetDateTime("2026-11-20T23:30:00.000Z", "Europe/Berlin")).toBe("2026-11-21 00:30:00");
    expect(spreadsheetDateTime("2026-10-25T00:30:00Z", "Europe/Berlin")).toBe("2026-10-25 02:30:00");
    expect(spreadsheetDateTime("2026-10-25T01:30:00Z", "Europe/Berlin")).toBe("2026-10-25 02:30:00");
    expect(spreadsheetDateTime("2026-11-20T00:00:00Z", "Asia/Kolkata")).toBe("2026-11-20 05:30:00");
    expect(spreadsheetDateTime("2026-11-20T12:34:56.789Z", "UTC")).toBe("2026-11-20 12:34:56");
    // Midnight is 00, never 24.
    expect(spreadsheetDateTime("2026-11-20T23:00:00Z", "Europe/Berlin")).toBe("2026-11-21 00:00:00");
  });

  it("leaves what is not a date-time to the caller", () => {
    expect(spreadsheetDateTime("not a date", "Europe/Berlin")).toBeUndefined();
  });
});

describe("locales", () => {
  it("accepts language tags Intl knows and nothing else", () => {
    for (const tag of ["de", "de-DE", "pt-BR", "zh-Hant-TW", "en-US"]) expect(isLocaleTag(tag), tag).toBe(true);
    for (const tag of ["", "de_DE", "x", "not a locale", "de-DE;q=0.9"]) expect(isLocaleTag(tag), tag).toBe(false);
  });

  it("reads the decimal mark each locale writes", () => {
    expect(["de-DE", "fr-FR", "nl-NL", "de-AT", "es-ES"].map(decimalMark)).toEqual([",", ",", ",", ",", ","]);
    expect(["en-US", "en-GB", "de-CH", "ja-JP", "garbage!"].map(decimalMark)).toEqual([".", ".", ".", ".", "."]);
  });
});
