"use client";
// The tables of /locations: the countries of the range's visitors and a country's top cities, each
// sortable by every column (`sort` and `city_sort` in the URL) and closed by its totals. One
// DataTable each over the declared columns (components/data-table/columns/locations.tsx): a table
// where it fits, and on a phone a card per country or city with every figure labelled, a "Sort by"
// menu over them and the totals as the last card. A country's figures carry their change against the
// comparison with the figure compared with; a country's name opens its cities (the page gives the link).
import { useMemo } from "react";
import {
  CITY_TABLE_COLUMNS,
  CITY_TABLE_SORT,
  cityRowKey,
  COUNTRY_TABLE_SORT,
  countryRowKey,
  countryTableColumns,
} from "@/components/data-table/columns/locations";
import { DataTable } from "@/components/data-table/data-table";
import { formatDateRange, formatNumber } from "@/lib/format/format";
import { comparisonLabel } from "@/lib/range/comparison";
import type { CountriesInsight } from "@/lib/insights/countries";
import { cityTotals, countryTotals, toCityRows, toCountryRows, type CityRow } from "./locations-data";

const COUNTRIES_TOTAL = "All countries";

/** The countries, sortable by each column (`sort` in the URL), with the range's totals after them. */
export function CountriesTable({
  answer,
  selected,
  countryHref,
}: {
  answer: CountriesInsight;
  selected: string | null;
  countryHref: (country: string) => string;
}) {
  const window = comparisonLabel(answer);
  const columns = useMemo(() => countryTableColumns(window), [window]);
  const rows = useMemo(() => toCountryRows(answer.data, countryHref), [answer.data, countryHref]);
  const totals = useMemo(
    () => ({ title: COUNTRIES_TOTAL, row: { ...countryTotals(answer.data), code: "", country: COUNTRIES_TOTAL, href: "" }, testId: "countries-total" }),
    [answer.data],
  );
  return (
    <DataTable
      rows={rows}
      columns={columns}
      caption={`Visitors by country, ${formatDateRange(answer)}; changes against ${window}`}
      rowKey={countryRowKey}
      isCurrent={(r) => r.code === selected}
      testId="countries-table"
      rowTestId="country-row"
      sort={COUNTRY_TABLE_SORT}
      totals={totals}
    />
  );
}

/** A country's listed cities, sortable (`city_sort`), with their totals. */
export function CitiesTable({ cities, caption }: { cities: readonly CityRow[]; caption: string }) {
  const rows = useMemo(() => toCityRows(cities), [cities]);
  const totals = useMemo(() => {
    const title = cities.length === 1 ? "The city listed" : `The ${formatNumber(cities.length)} cities listed`;
    return { title, row: { city: title, ...cityTotals(cities) }, testId: "cities-total" };
  }, [cities]);
  return (
    <DataTable
      rows={rows}
      columns={CITY_TABLE_COLUMNS}
      caption={caption}
      rowKey={cityRowKey}
      testId="cities-table"
      rowTestId="city-row"
      sort={CITY_TABLE_SORT}
      totals={totals}
    />
  );
}
