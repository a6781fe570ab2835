// The map's shading and the page's URL: five steps of the largest value among the places on the map
// ("unknown" has none: it neither shades nor stretches the scale), no step for a country without a
// figure, the legend in the app's formats, a country's link keeping the rest of the URL, and the
// tables' totals (counts summed, the rate worked out again from the sums) and rows named as read.
import { describe, expect, it } from "vitest";
import {
  cityName,
  cityTotals,
  countryName,
  countryParam,
  countryTotals,
  mapMetricOf,
  shading,
  toCityRows,
  toCountryRows,
  withCountry,
  type CountryRow,
} from "./locations-data";
import { countryShapes } from "./world-geography";

const figures = (visitors: number, conversions: number) => ({
  visitors,
  ai_visitors: 0,
  conversions,
  conversion_rate: visitors === 0 ? null : Math.round((conversions * 1000) / visitors) / 10,
});
const row = (country: string, visitors: number, conversions: number): CountryRow => ({ country, ...figures(visitors, conversions), previous: figures(0, 0) });

describe("the map's shading", () => {
  const rows = [row("US", 1000, 50), row("DE", 500, 40), row("FR", 199, 2), row("unknown", 5000, 0), row("JP", 0, 0)];

  it("by visitors: steps of a fifth of the largest placed country; unknown and a country without visitors unshaded", () => {
    const { steps, legend } = shading(rows, "visitors");
    expect(Object.fromEntries(steps)).toEqual({ US: 4, DE: 2, FR: 0 });
    expect(legend.map((l) => l.label)).toEqual(["0 – 200", "200 – 400", "400 – 600", "600 – 800", "800 – 1,000"]);
  });

  it("by conversion rate: the rate's own scale (DE converts best), in per cent to one decimal", () => {
    const { steps, legend } = shading(rows, "conversion_rate");
    expect(Object.fromEntries(steps)).toEqual({ US: 3, DE: 4, FR: 0 });
    expect(legend.at(-1)!.label).toBe("6.4% – 8.0%");
  });

  it("nothing to shade: every legend step reads 0", () => {
    expect(shading([row("US", 0, 0)], "visitors")).toEqual({ steps: new Map(), legend: Array.from({ length: 5 }, (_, step) => ({ step, label: "0" })) });
  });
});

describe("the /locations URL", () => {
  it("reads the metric (visitors unless conversion rate) and a country the route can answer", () => {
    expect(mapMetricOf("conversion_rate")).toBe("conversion_rate");
    expect(mapMetricOf("rate")).toBe("visitors");
    expect(countryParam("de")).toBe("DE");
    expect(countryParam("Unknown")).toBe("unknown");
    expect(countryParam("DEU")).toBeNull();
    expect(countryParam("1")).toBeNull();
  });

  it("a country's link keeps the range, comparison and metric; closing it removes only the country", () => {
    const search = new URLSearchParams("from=2026-11-01&to=2026-11-30&tz=UTC&compare=year&metric=conversion_rate");
    expect(withCountry(search, "DE")).toBe("/locations?compare=year&country=DE&from=2026-11-01&metric=conversion_rate&to=2026-11-30&tz=UTC");
    expect(withCountry(new URLSearchParams("country=DE&from=2026-11-01"), null)).toBe("/locations?from=2026-11-01");
  });

  it("another country keeps the cities' order; closing the cities drops it with them, and keeps the countries' order", () => {
    expect(withCountry(new URLSearchParams("city_sort=-conversions&country=DE&sort=conversion_rate"), "FR")).toBe(
      "/locations?city_sort=-conversions&country=FR&sort=conversion_rate",
    );
    expect(withCountry(new URLSearchParams("city_sort=-conversions&country=DE&sort=conversion_rate"), null)).toBe("/locations?sort=conversion_rate");
  });

  it("names countries as people do; the unknown ones are said", () => {
    expect(countryName("DE")).toBe("Germany");
    expect(countryName("unknown")).toBe("Unknown country");
    expect(cityName("unknown")).toBe("City not known");
    expect(cityName("Berlin")).toBe("Berlin");
  });
});

describe("the countries' and cities' totals", () => {
  it("sum the counts of both windows and work the rate out again from the sums, not from the rows' rates", () => {
    // Rates 5.0% and 8.0%: their mean would be 6.5%, the true rate of the 1,500 visitors is 6.0%.
    const rows: CountryRow[] = [
      { ...row("US", 1000, 50), ai_visitors: 300, previous: { visitors: 800, ai_visitors: 200, conversions: 40, conversion_rate: 5 } },
      { ...row("DE", 500, 40), ai_visitors: 100, previous: { visitors: 0, ai_visitors: 0, conversions: 0, conversion_rate: null } },
    ];
    expect(countryTotals(rows)).toEqual({
      visitors: 1500,
      ai_visitors: 400,
      conversions: 90,
      conversion_rate: 6,
      previous: { visitors: 800, ai_visitors: 200, conversions: 40, conversion_rate: 5 },
    });
  });

  it("no visitors in a window: the total rate is unknown (null), not 0%", () => {
    expect(countryTotals([row("US", 0, 0)]).conversion_rate).toBeNull();
    expect(countryTotals([]).previous.conversion_rate).toBeNull();
  });

  it("the listed cities add up", () => {
    expect(
      cityTotals([
        { city: "Berlin", visitors: 30, conversions: 2 },
        { city: "unknown", visitors: 12, conversions: 1 },
      ]),
    ).toEqual({ visitors: 42, conversions: 3 });
  });

  it("a country's row is named as people read it, which a sort by name uses; its code stays for its link", () => {
    const rows = toCountryRows([row("AT", 1, 0), row("unknown", 1, 0)], (code) => `/locations?country=${code}`);
    expect(rows.map((r) => [r.code, r.country, r.href])).toEqual([
      ["AT", "Austria", "/locations?country=AT"],
      ["unknown", "Unknown country", "/locations?country=unknown"],
    ]);
    expect(toCityRows([{ city: "unknown", visitors: 2, conversions: 0 }])[0]!.city).toBe("City not known");
  });
});

describe("the bundled geography", () => {
  it("keys each country of the 1:110m map by its two-letter code, once; Antarctica left out", () => {
    const shapes = countryShapes();
    const codes = shapes.map((s) => s.code).filter(Boolean);
    expect(codes).toEqual(expect.arrayContaining(["US", "DE", "BR", "IN", "JP", "AU", "ZA", "GB", "FR"]));
    expect(codes).not.toContain("AQ");
    expect(new Set(codes).size).toBe(codes.length);
    // Only the three disputed areas the map gives no numeric code (N. Cyprus, Somaliland, Kosovo) have none.
    expect(
      shapes
        .filter((s) => !s.code)
        .map((s) => s.name)
        .sort(),
    ).toEqual(["Kosovo", "N. Cyprus", "Somaliland"]);
    for (const s of shapes) expect(s.d, s.name).toMatch(/^M[\d.-]/);
  });
});
