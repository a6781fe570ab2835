// Plain mappings behind /locations: the answer of `/api/insights/countries`
// (lib/insights/countries.ts), the map's shading (visitors or conversion rate, in five steps of the largest value),
// the tables' rows (named as read, with their links) and their totals, and the page's URL (`metric`,
// `country`, the tables' `sort` and `city_sort` beside the range and comparison). A country the route could not read is "unknown": a row of the table like any other,
// never left out, and never on the map (it is no place).
import { rateOf } from "@/components/charts/trend-chart-data";
import type { CityTableRow, CountryTableRow } from "@/components/data-table/columns/locations";
import { formatCountry, formatPercent, formatNumber } from "@/lib/format/format";
import type { CityRow, CountryFigures, CountryRow } from "@/lib/insights/countries";

export type { CityRow, CountryRow };

export const UNKNOWN_COUNTRY = "unknown";

export const MAP_METRICS = [
  { id: "visitors", label: "Visitors" },
  { id: "conversion_rate", label: "Conversion rate" },
] as const;
export type MapMetric = (typeof MAP_METRICS)[number]["id"];

/** The map's shading in the URL (`metric`): visitors unless it says conversion rate. */
export const mapMetricOf = (value: string | null | undefined): MapMetric => (value === "conversion_rate" ? "conversion_rate" : "visitors");

/** A country parameter the route can answer: two letters (upper-cased), or "unknown"; null otherwise. */
export function countryParam(value: string | null | undefined): string | null {
  if (!value) return null;
  if (value.toLowerCase() === UNKNOWN_COUNTRY) return UNKNOWN_COUNTRY;
  return /^[A-Za-z]{2}$/.test(value) ? value.toUpperCase() : null;
}

/** A country's name for people: "Germany"; the unknown ones "Unknown country". */
export const countryName = (code: string): string => (code === UNKNOWN_COUNTRY ? "Unknown country" : formatCountry(code));

/** A city's name for people; the route names visitors without a city "unknown". */
export const cityName = (city: string): string => (city === "unknown" ? "City not known" : city);

export const SHADE_STEPS = 5;

/** The value a country is shaded by (null: nothing to shade: no visitors, or a rate without a base). */
export const shadeValue = (row: CountryFigures, metric: MapMetric): number | null =>
  metric === "visitors" ? (row.visitors > 0 ? row.visitors : null) : row.conversion_rate;

export type Shading = {
  /** Each known country's step (0 lightest … SHADE_STEPS-1 darkest), by its upper-case code. */
  steps: Map<string, number>;
  /** The legend: each step's range of values, in words ("1 – 40", "0.0% – 2.4%"). */
  legend: { step: number; label: string }[];
};

/**
 * Five equal steps from 0 to the largest value of the places on the map ("unknown" has no place,
 * so it neither shades nor stretches the scale). A country without a value is left unshaded ("No
 * visitors" in the legend).
 */
export function shading(rows: readonly CountryRow[], metric: MapMetric): Shading {
  const placed = rows.filter((r) => r.country !== UNKNOWN_COUNTRY);
  const values = placed.map((r) => shadeValue(r, metric)).filter((v): v is number => v !== null);
  const max = Math.max(0, ...values);
  const steps = new Map<string, number>();
  for (const r of placed) {
    const v = shadeValue(r, metric);
    if (v === null) continue;
    steps.set(r.country, max === 0 ? 0 : Math.min(SHADE_STEPS - 1, Math.floor((v / max) * SHADE_STEPS)));
  }
  const fmt = (v: number) => (metric === "visitors" ? formatNumber(Math.round(v)) : formatPercent(Math.round(v * 10) / 10));
  const legend = Array.from({ length: SHADE_STEPS }, (_, step) => {
    const lo = (max * step) / SHADE_STEPS;
    const hi = (max * (step + 1)) / SHADE_STEPS;
    return { step, label: max === 0 ? fmt(0) : `${fmt(lo)} – ${fmt(hi)}` };
  });
  return { steps, legend };
}

/** The /locations URL for a country's cities (null: back to the countries), keeping every other parameter. */
export function withCountry(search: URLSearchParams, country: string | null): string {
  const next = new URLSearchParams(search);
  if (country) next.set("country", country);
  else {
    // Closing the cities closes their order too: it would otherwise sit in the URL, sorting nothing.
    next.delete("country");
    next.delete("city_sort");
  }
  next.sort();
  const qs = next.toString();
  return `/locations${qs ? `?${qs}` : ""}`;
}

/** The answer's countries as the table's rows: each named as read (what a sort by name uses), with the link that opens its cities. */
export const toCountryRows = (rows: readonly CountryRow[], hrefOf: (code: string) => string): CountryTableRow[] =>
  rows.map((r) => ({ ...r, code: r.country, country: countryName(r.country), href: hrefOf(r.country) }));

/** A country's cities as the table's rows, each named as read. */
export const toCityRows = (rows: readonly CityRow[]): CityTableRow[] => rows.map((r) => ({ ...r, city: cityName(r.city) }));

const sumFigures = (rows: readonly CountryFigures[]): CountryFigures => {
  const visitors = rows.reduce((n, r) => n + r.visitors, 0);
  const conversions = rows.reduce((n, r) => n + r.conversions, 0);
  // A rate is worked out again from the summed counts, never summed or averaged over rows.
  return { visitors, ai_visitors: rows.reduce((n, r) => n + r.ai_visitors, 0), conversions, conversion_rate: rateOf(conversions, visitors) };
};

/**
 * The countries' totals row: every visitor is in one country (the unknown ones included), so the
 * counts add up to the range's, in both windows; the rate is the summed conversions over the summed
 * visitors, as the overview's KPI has it.
 */
export const countryTotals = (rows: readonly CountryRow[]): CountryFigures & { previous: CountryFigures } => ({
  ...sumFigures(rows),
  previous: sumFigures(rows.map((r) => r.previous)),
});

/** The listed cities' totals: a city is in one country, so they add up; they are the country's whole only when no city was left off the list. */
export const cityTotals = (rows: readonly CityRow[]): { visitors: number; conversions: number } => ({
  visitors: rows.reduce((n, r) => n + r.visitors, 0),
  conversions: rows.reduce((n, r) => n + r.conversions, 0),
});
