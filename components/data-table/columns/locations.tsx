// How /locations shows its declared columns (lib/columns/locations.ts): a country names its row and
// titles its card, a link that opens its top cities; each of its figures carries its change against
// the comparison with the figure compared with (the window named once, in the table's caption and
// the card's note, so `compact`); a city is a name and two counts (no link: the visitor list cannot
// be filtered by city).
import { AppLink as Link } from "@/components/shares/shared-view";
import type { Sort } from "@/components/data-table/table-sort";
import { ChangeBadge, type ChangeUnit } from "@/components/ui/change-badge";
import { CITY_COLUMNS, COUNTRY_COLUMNS } from "@/lib/columns/locations";
import { formatNumber, formatPercent } from "@/lib/format/format";
import type { CityRow, CountryFigures } from "@/lib/insights/countries";
import { columnsFor, type TableColumn } from "../table-column";
import styles from "./columns.module.css";
import { judge } from "@/lib/stats/significance";

/** A country's row: `code` as the route names it, `country` its name as read (what sorts it), its figures now and in the window compared. */
export type CountryTableRow = CountryFigures & { code: string; country: string; previous: CountryFigures; href: string };

/** A city's row, `city` its name as read ("City not known" for the visitors without one), which sorts it. */
export type CityTableRow = CityRow;

const countries = columnsFor<CountryTableRow>()(COUNTRY_COLUMNS);

/** A figure with its change against `window` (the comparison's, as read). */
function figure(key: keyof CountryFigures, unit: ChangeUnit, window: string): TableColumn<CountryTableRow> {
  const text = unit === "rate" ? formatPercent : formatNumber;
  return countries.column(key, {
    cell: (r) => (
      <>
        <span className={styles.figure}>{text(r[key])}</span>{" "}
        <ChangeBadge current={r[key]} previous={r.previous[key]} significance={judge(r, key)} unit={unit} window={window} compact />
      </>
    ),
  });
}

/** The countries' columns, their changes against `window`; one list per comparison, so memoize it by the window. */
export const countryTableColumns = (window: string): readonly TableColumn<CountryTableRow>[] => [
  countries.column("country", {
    rowHeader: true,
    cardTitle: true,
    cell: (r) => (
      <Link href={r.href} scroll={false} prefetch={false} aria-label={`${r.country}: open its top cities`}>
        {r.country}
      </Link>
    ),
  }),
  figure("visitors", "count", window),
  figure("ai_visitors", "count", window),
  figure("conversions", "count", window),
  figure("conversion_rate", "rate", window),
];

/** The countries' own order, as the answer lists them: most visitors first; `sort` in the URL. */
export const COUNTRY_TABLE_SORT: { param: string; defaultSort: Sort } = { param: "sort", defaultSort: { id: "visitors", desc: true } };

export const countryRowKey = (r: CountryTableRow): string => r.code;

const cities = columnsFor<CityTableRow>()(CITY_COLUMNS);

export const CITY_TABLE_COLUMNS: readonly TableColumn<CityTableRow>[] = [
  cities.column("city", { rowHeader: true, cardTitle: true }),
  cities.column("visitors"),
  cities.column("conversions"),
];

/** A country's cities, most visitors first; `city_sort` in the URL, so it leaves the countries' order alone. */
export const CITY_TABLE_SORT: { param: string; defaultSort: Sort } = { param: "city_sort", defaultSort: { id: "visitors", desc: true } };

export const cityRowKey = (r: CityTableRow): string => r.city;
