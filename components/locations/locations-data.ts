// Plain mappings behind /locations: the answer of `/api/insights/countries`
// (lib/server/insights/countries.ts), the map's shading (visitors or conversion rate, in five steps of the largest value),
// the table's rows with their changes, and the page's URL (`metric`, `country` beside the range and
// comparison). A country the route could not read is "unknown": a row of the table like any other,
// never left out, and never on the map (it is no place).
import { formatCountry, formatPercent, formatNumber } from "@/lib/format/format";
import type { CountryFigures, CountryRow } from "@/lib/server/insights/countries";

export type { CountryRow };

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
export const shadeValue = (row: CountryFigures, metric: MapMetric): number | null => (metric === "visitors" ? (row.visitors > 0 ? row.visitors : null) : row.conversion_rate);

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
  else next.delete("country");
  next.sort();
  const qs = next.toString();
  return `/locations${qs ? `?${qs}` : ""}`;
}
