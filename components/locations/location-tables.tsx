"use client";
// The tables of /locations: the countries of the range's visitors and a country's top cities, each
// sortable by every column (`sort` and `city_sort` in the URL: components/data-table/use-table-sort.ts)
// and closed by its totals. A country's figures carry their change against the comparison with the
// figure compared with; a country's name opens its cities (the page gives the link).
import Link from "next/link";
import { useMemo } from "react";
import { SortHeader } from "@/components/data-table/sort-controls";
import sortStyles from "@/components/data-table/sort.module.css";
import { useTableSort } from "@/components/data-table/use-table-sort";
import { ChangeBadge } from "@/components/ui/change-badge";
import { formatDateRange, formatNumber, formatPercent } from "@/lib/format/format";
import { comparisonLabel } from "@/lib/range/comparison";
import type { CountriesInsight, CountryFigures } from "@/lib/server/insights/countries";
import { CITY_DEFAULT_SORT, CITY_SORT, cityName, cityTotals, COUNTRY_DEFAULT_SORT, COUNTRY_SORT, countryName, countryTotals, type CityRow } from "./locations-data";
import styles from "./locations.module.css";

/** The countries, sortable by each column (`sort` in the URL), with the range's totals under them. */
export function CountriesTable({ answer, selected, countryHref }: { answer: CountriesInsight; selected: string | null; countryHref: (country: string) => string }) {
  const sort = useTableSort(answer.data, { param: "sort", columns: COUNTRY_SORT, defaultSort: COUNTRY_DEFAULT_SORT });
  const total = useMemo(() => countryTotals(answer.data), [answer.data]);
  const window = comparisonLabel(answer);
  return (
    <div className={styles.tableScroll}>
      <table className="table" data-testid="countries-table">
        <caption className="visually-hidden">
          Visitors by country, {formatDateRange(answer)}; changes against {window}
        </caption>
        <thead>
          <tr>
            <SortHeader sort={sort} id="country">
              Country
            </SortHeader>
            <SortHeader sort={sort} id="visitors" className={styles.numeric}>
              Visitors
            </SortHeader>
            <SortHeader sort={sort} id="ai_visitors" className={styles.numeric}>
              AI visitors
            </SortHeader>
            <SortHeader sort={sort} id="conversions" className={styles.numeric}>
              Conversions
            </SortHeader>
            <SortHeader sort={sort} id="conversion_rate" className={styles.numeric}>
              Rate
            </SortHeader>
          </tr>
        </thead>
        <tbody>
          {sort.rows.map((r) => (
            <tr key={r.country} data-testid="country-row" data-country={r.country} className={r.country === selected ? styles.rowSelected : undefined}>
              <th scope="row" className={styles.rowHead}>
                <Link
                  href={countryHref(r.country)}
                  scroll={false}
                  prefetch={false}
                  aria-current={r.country === selected ? "true" : undefined}
                  aria-label={`${countryName(r.country)}: open its top cities`}
                >
                  {countryName(r.country)}
                </Link>
              </th>
              <CountryFigureCells now={r} then={r.previous} window={window} />
            </tr>
          ))}
        </tbody>
        <tfoot className={sortStyles.totals}>
          <tr data-testid="countries-total">
            <th scope="row" className={styles.rowHead}>
              All countries
            </th>
            <CountryFigureCells now={total} then={total.previous} window={window} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** A country's (or the total's) four figures, each with its change and the figure it is compared with. */
function CountryFigureCells({ now, then, window }: { now: CountryFigures; then: CountryFigures; window: string }) {
  return (
    <>
      <td className={styles.numeric}>
        {formatNumber(now.visitors)} <ChangeBadge current={now.visitors} previous={then.visitors} unit="count" window={window} compact />
      </td>
      <td className={styles.numeric}>
        {formatNumber(now.ai_visitors)} <ChangeBadge current={now.ai_visitors} previous={then.ai_visitors} unit="count" window={window} compact />
      </td>
      <td className={styles.numeric}>
        {formatNumber(now.conversions)} <ChangeBadge current={now.conversions} previous={then.conversions} unit="count" window={window} compact />
      </td>
      <td className={styles.numeric}>
        {formatPercent(now.conversion_rate)} <ChangeBadge current={now.conversion_rate} previous={then.conversion_rate} unit="rate" window={window} compact />
      </td>
    </>
  );
}

/** A country's listed cities, sortable (`city_sort`), with their totals. */
export function CitiesTable({ cities, caption }: { cities: readonly CityRow[]; caption: string }) {
  const sort = useTableSort(cities, { param: "city_sort", columns: CITY_SORT, defaultSort: CITY_DEFAULT_SORT });
  const total = cityTotals(cities);
  return (
    <div className={styles.tableScroll}>
      <table className="table" data-testid="cities-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <SortHeader sort={sort} id="city">
              City
            </SortHeader>
            <SortHeader sort={sort} id="visitors" className={styles.numeric}>
              Visitors
            </SortHeader>
            <SortHeader sort={sort} id="conversions" className={styles.numeric}>
              Conversions
            </SortHeader>
          </tr>
        </thead>
        <tbody>
          {sort.rows.map((city) => (
            <tr key={city.city} data-testid="city-row">
              <th scope="row" className={styles.rowHead}>
                {cityName(city.city)}
              </th>
              <td className={styles.numeric}>{formatNumber(city.visitors)}</td>
              <td className={styles.numeric}>{formatNumber(city.conversions)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot className={sortStyles.totals}>
          <tr data-testid="cities-total">
            <th scope="row" className={styles.rowHead}>
              {cities.length === 1 ? "The city listed" : `The ${formatNumber(cities.length)} cities listed`}
            </th>
            <td className={styles.numeric}>{formatNumber(total.visitors)}</td>
            <td className={styles.numeric}>{formatNumber(total.conversions)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
