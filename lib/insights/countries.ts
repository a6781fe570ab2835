// GET /api/insights/countries: per country of the visitors first seen in the range (their
// two-letter code; a missing or odd one counts as "unknown", never dropped), visitors, AI visitors,
// conversions and the rate, against the comparison period; with `country=XX`, that country's top
// cities in the range. The Data API cannot filter visitors by country, so these figures come from
// listing the visitors: a dimension of the visitor list (dimensions.ts), folded by every visitor
// listing, so a range the overview has listed is answered from the store.
import "server-only";
import { AI_SOURCES, type Source } from "@/lib/data-api/constants";
import type { Visitor } from "@/lib/data-api/schemas";
import type { insightsCountriesParams } from "@/lib/insights/schema";
import type { z } from "zod";
import type { InsightsContext } from "./types";
import { dimensionDays, unplacedRows } from "./dimensions";
import { VISITORS } from "./listing";
import { registerDimension } from "./registry";
import type { DayEntry } from "./types";
import type { InsightRange } from "./range";
import { percent, windowOf } from "./figures";

export type CountryFigures = { visitors: number; ai_visitors: number; conversions: number; conversion_rate: number | null };
export type CountryRow = CountryFigures & { country: string; previous: CountryFigures };
export type CityRow = { city: string; visitors: number; conversions: number };
export type CountriesInsight = {
  from: string;
  to: string;
  tz: string;
  compare: { from: string; to: string };
  data: CountryRow[];
  /** With `country`: its cities in the range, most visitors first (at most TOP_CITIES). */
  cities?: CityRow[];
  unreadable?: { count: number };
};

/** How many of a country's cities the answer lists. */
export const TOP_CITIES = 25;

/**
 * A country's figures: every visitor, the AI visitors and conversions among those whose source and
 * `converted` could be read, and `rated`, the visitors whose `converted` could be read (the rate's base).
 */
type Tally = { visitors: number; ai: number; conversions: number; rated: number };
/** A day's visitors by country (code or "unknown"), and by city within it ("unknown" without one). */
export type CountryDay = Array<Tally & { country: string; cities: Array<[city: string, visitors: number, conversions: number]> }>;

// Upstream data: Maps, so a country or city named "__proto__" is just a name.
type CountryTally = Map<string, Tally & { cities: Map<string, [number, number]> }>;

const regions = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/**
 * A visitor's country as the answer names it: its two-letter code in upper case (read in any case,
 * around any spaces), or "unknown" when missing or no region's code (`ZZ`, `XY`, `USA`).
 */
export function countryOf(value: string | undefined): string {
  const code = value?.trim().toUpperCase() ?? "";
  if (!/^[A-Z]{2}$/.test(code)) return "unknown";
  const name = regions.of(code);
  return name === code || name === "Unknown Region" ? "unknown" : code;
}

const AI = new Set<string>(AI_SOURCES);

/**
 * Visitors per day by country and city. Lenient: a visitor whose source or `converted` cannot be
 * read is still one of its country's and city's visitors; only the figures that need the field leave
 * it out (AI visitors without a source; conversions and the rate's base without `converted`), and it
 * is reported as unreadable (`add` answers false) so the answer says how many such rows there were.
 */
export const COUNTRY_DAYS = registerDimension<Visitor, CountryTally, CountryDay>({
  // cd2: the tally carries `rated`; days kept under cd1 (without it) are read again, not misread.
  key: "cd2:",
  resource: VISITORS,
  strict: false,
  empty: () => new Map(),
  add(day, row) {
    const country = countryOf(row.country);
    let t = day.get(country);
    if (!t) day.set(country, (t = { visitors: 0, ai: 0, conversions: 0, rated: 0, cities: new Map() }));
    const c = row.converted === true ? 1 : 0;
    t.visitors++;
    t.ai += row.source !== undefined && AI.has(row.source as Source) ? 1 : 0;
    t.conversions += c;
    t.rated += row.converted === undefined ? 0 : 1;
    const name = row.city?.trim() || "unknown";
    const city = t.cities.get(name) ?? [0, 0];
    t.cities.set(name, [city[0] + 1, city[1] + c]);
    return row.source !== undefined && row.converted !== undefined;
  },
  finish: (day) => {
    const named = boundedCities(day);
    return [...day].map(([country, t]) => ({
      country,
      visitors: t.visitors,
      ai: t.ai,
      conversions: t.conversions,
      rated: t.rated,
      cities: named.get(country)!,
    }));
  },
});

/** The most cities a day keeps by name, over all its countries; the rest are summed as OTHER_CITIES in their country. */
export const MAX_CITIES_PER_DAY = 500;
/** What the cities past the day's bound are called, in their country. */
export const OTHER_CITIES = "(other cities)";

/**
 * Each country's cities of a day, at most MAX_CITIES_PER_DAY named in all (those with the most
 * visitors, then by country and name), the rest of each country summed as OTHER_CITIES: a day of a
 * large workspace stays a bounded row in the store, and its countries' totals stay exact.
 */
function boundedCities(day: CountryTally): Map<string, CountryDay[number]["cities"]> {
  const all = [...day].flatMap(([country, t]) => [...t.cities].map(([name, [v, c]]) => ({ country, name, v, c })));
  const byCountry = new Map<string, CountryDay[number]["cities"]>([...day.keys()].map((country) => [country, []]));
  const kept =
    all.length <= MAX_CITIES_PER_DAY
      ? all
      : [...all]
          .sort((a, b) => b.v - a.v || (a.country < b.country ? -1 : a.country > b.country ? 1 : 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
          .slice(0, MAX_CITIES_PER_DAY);
  const named = new Set(kept);
  const other = new Map<string, [number, number]>();
  for (const city of all) {
    if (named.has(city)) byCountry.get(city.country)!.push([city.name, city.v, city.c]);
    else {
      const sum = other.get(city.country) ?? [0, 0];
      other.set(city.country, [sum[0] + city.v, sum[1] + city.c]);
    }
  }
  for (const [country, [v, c]] of other) byCountry.get(country)!.push([OTHER_CITIES, v, c]);
  return byCountry;
}

/** Each country's figures over `days`. */
function byCountry(days: ReadonlyArray<DayEntry<CountryDay>>): Map<string, Tally> {
  const out = new Map<string, Tally>();
  for (const d of days) {
    for (const c of d.summary) {
      const t = out.get(c.country) ?? { visitors: 0, ai: 0, conversions: 0, rated: 0 };
      out.set(c.country, { visitors: t.visitors + c.visitors, ai: t.ai + c.ai, conversions: t.conversions + c.conversions, rated: t.rated + c.rated });
    }
  }
  return out;
}

const figures = (t: Tally | undefined): CountryFigures => {
  const { visitors, ai, conversions, rated } = t ?? { visitors: 0, ai: 0, conversions: 0, rated: 0 };
  return { visitors, ai_visitors: ai, conversions, conversion_rate: percent(conversions, rated) };
};

/** `country`'s cities over `days`, most visitors first (then by name), the first TOP_CITIES. */
function citiesOf(days: ReadonlyArray<DayEntry<CountryDay>>, country: string): CityRow[] {
  const cities = new Map<string, CityRow>();
  for (const d of days) {
    for (const [city, visitors, conversions] of d.summary.find((c) => c.country === country)?.cities ?? []) {
      const t = cities.get(city) ?? { city, visitors: 0, conversions: 0 };
      cities.set(city, { city, visitors: t.visitors + visitors, conversions: t.conversions + conversions });
    }
  }
  return [...cities.values()].sort((a, b) => b.visitors - a.visitors || (a.city < b.city ? -1 : a.city > b.city ? 1 : 0)).slice(0, TOP_CITIES);
}

export async function countriesInsight(ictx: InsightsContext, range: InsightRange, query: z.output<typeof insightsCountriesParams>): Promise<CountriesInsight> {
  // Both periods in one call: days that touch are one run, so one listing.
  const asked = [...range.previous.days, ...range.current.days];
  const days = await dimensionDays(ictx, COUNTRY_DAYS, asked);
  const split = range.previous.days.length;
  const [before, now] = [byCountry(days.slice(0, split)), byCountry(days.slice(split))];
  const data = [...new Set([...now.keys(), ...before.keys()])]
    .map((country): CountryRow => ({ country, ...figures(now.get(country)), previous: figures(before.get(country)) }))
    .sort((a, b) => b.visitors - a.visitors || b.previous.visitors - a.previous.visitors || (a.country < b.country ? -1 : a.country > b.country ? 1 : 0));
  // A custom comparison may overlap the range: a day read for both counts its unreadable rows once.
  const unreadable = unplacedRows([...new Map(asked.map((d, i) => [d.date, days[i]!])).values()]);
  return {
    ...windowOf(range),
    compare: range.compare,
    data,
    ...(query.country ? { cities: citiesOf(days.slice(split), query.country) } : {}),
    ...(unreadable > 0 ? { unreadable: { count: unreadable } } : {}),
  };
}
