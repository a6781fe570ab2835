"use client";
// /locations: the countries of the range's visitors as a world map (shaded by visitors or conversion
// rate, `metric` in the URL) and as a table, its accessible twin: visitors, AI visitors, conversions
// and rate, each with its change against the header's comparison. A country (a row, or a click on
// the map) opens its top cities (`country=XX`). Visitors whose country is missing or odd are the
// "Unknown country" row, never dropped. The Data API cannot list visitors by country, so a country
// opens its cities here and the page says so, rather than linking to a list that would ignore it.
// The tables (sortable, with totals; a card per row on a phone) are components/locations/location-tables.tsx.
import { AppLink as Link } from "@/components/shares/shared-view";
import { useRouter, useSearchParams } from "next/navigation";
import { useQueryStates } from "nuqs";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { Counting, WindowNote } from "@/components/platforms/range-notes";
import { EmptyState, PendingAnswer, QueryView, UnreadableNotice } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { ReadNote } from "@/components/ui/read-note";
import { type CardHead } from "@/components/ui/card";
import { WorldMap } from "@/components/locations/lazy-map";
import { CitiesTable, CountriesTable } from "@/components/locations/location-tables";
import {
  countryName,
  countryParam,
  MAP_METRICS,
  mapMetricOf,
  shading,
  UNKNOWN_COUNTRY,
  withCountry,
  type MapMetric,
} from "@/components/locations/locations-data";
import styles from "@/components/locations/locations.module.css";
import { formatDateRange, formatNumber, formatZone } from "@/lib/format/format";
import { apiQuery, browserApi } from "@/lib/queries/api";
import type { CountriesInsight } from "@/lib/insights/countries";
import type { Comparison } from "@/lib/range/comparison";
import type { DateRange } from "@/lib/range/date-range";
import { insightsQuery, useComparison } from "@/lib/range/use-comparison";
import { locationsSearchParams } from "./search-params";

const CARDS = {
  map: {
    title: "Where visitors come from",
    description: "Countries shaded by the figure chosen; a country opens its top cities",
    testId: "locations-map-card",
  },
  countries: { title: "Countries", description: "Visitors, AI visitors, conversions and rate per country, each with its change", testId: "countries-card" },
  cities: { title: "Top cities", testId: "cities-card" },
} satisfies Record<string, CardHead>;

const countriesQuery = (range: DateRange, comparison: Comparison, country?: string | null) =>
  apiQuery(browserApi, "/insights/countries", { query: { ...insightsQuery(range, comparison), ...(country ? { country } : {}) } });

export function LocationsClient() {
  const { range, comparison } = useComparison();
  const [values] = useQueryStates(locationsSearchParams);
  const metric = mapMetricOf(values.metric);
  const country = countryParam(values.country);
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>Locations</h1>
          <p>
            {formatDateRange(range)} ({formatZone(range.tz)}): the countries and cities the visitors come from, and how they convert.
          </p>
        </div>
      </div>
      <Widget what="the countries" card={CARDS.map} loading={<Counting range={range} what="visitors by country" lines={6} />}>
        <MapCard range={range} comparison={comparison} metric={metric} selected={country} />
      </Widget>
      {country && (
        <Widget
          what="the top cities"
          card={{ ...CARDS.cities, title: `Top cities in ${countryName(country)}` }}
          loading={<Counting range={range} what="visitors by city" lines={4} />}
        >
          <CitiesCard range={range} comparison={comparison} country={country} />
        </Widget>
      )}
      <Widget what="the countries" card={CARDS.countries} loading={<Counting range={range} what="visitors by country" lines={8} />}>
        <CountriesCard range={range} comparison={comparison} selected={country} />
      </Widget>
    </div>
  );
}

const noVisitors = (c: CountriesInsight) => c.data.every((r) => r.visitors === 0 && r.previous.visitors === 0);

function NoVisitors({ range }: { range: DateRange }) {
  return (
    <EmptyState title={`No visitors first seen in ${formatDateRange(range)} or the window compared`}>
      Pick a longer or earlier range in the header; a visitor counts on the day it was first seen.
    </EmptyState>
  );
}

function MetricSwitch({ metric }: { metric: MapMetric }) {
  const [, setValues] = useQueryStates(locationsSearchParams, { history: "replace" });
  return (
    <div className="segmented" role="group" aria-label="Map shaded by">
      {MAP_METRICS.map((m) => (
        <button
          key={m.id}
          type="button"
          aria-pressed={m.id === metric}
          data-testid={`metric-${m.id}`}
          onClick={() => void setValues({ metric: m.id === "visitors" ? null : m.id })}
        >
          {m.label}
        </button>
      ))}
    </div>
  );
}

function MapCard({ range, comparison, metric, selected }: { range: DateRange; comparison: Comparison; metric: MapMetric; selected: string | null }) {
  const query = useWidgetQuery(countriesQuery(range, comparison));
  const router = useRouter();
  const search = useSearchParams();
  const legend = useMemo(() => (query.data ? shading(query.data.data, metric).legend : []), [query.data, metric]);
  return (
    <QueryView query={query} isEmpty={noVisitors} empty={<NoVisitors range={range} />}>
      {(c) => (
        <PendingAnswer pending={query.isPlaceholderData} className="stack">
          <div className={styles.mapBar}>
            <MetricSwitch metric={metric} />
            <ul className={styles.legend} aria-label={`Legend: ${metric === "visitors" ? "visitors" : "conversion rate"}`} data-testid="map-legend">
              <li>
                <span className={`${styles.swatch} ${styles.shadeNone}`} aria-hidden="true" /> {metric === "visitors" ? "No visitors" : "No rate"}
              </li>
              {legend.map((l) => (
                <li key={l.step}>
                  <span className={`${styles.swatch} ${styles[`shade${l.step}`]}`} aria-hidden="true" /> {l.label}
                </li>
              ))}
            </ul>
          </div>
          <WorldMap
            rows={c.data}
            metric={metric}
            selected={selected}
            onSelect={(code) => router.push(withCountry(new URLSearchParams(search.toString()), code), { scroll: false })}
          />
          <p className="small muted" data-testid="map-note">
            The map is drawn for the eye; the list of countries below holds every figure, the countries too small to see and the visitors of unknown country.
          </p>
        </PendingAnswer>
      )}
    </QueryView>
  );
}

function CountriesCard({ range, comparison, selected }: { range: DateRange; comparison: Comparison; selected: string | null }) {
  const query = useWidgetQuery(countriesQuery(range, comparison));
  const search = useSearchParams();
  const countryHref = useCallback((code: string) => withCountry(new URLSearchParams(search.toString()), code), [search]);
  return (
    <QueryView query={query} isEmpty={noVisitors} empty={<NoVisitors range={range} />}>
      {(c) => {
        const unknown = c.data.find((r) => r.country === UNKNOWN_COUNTRY);
        return (
          <PendingAnswer pending={query.isPlaceholderData} className="stack">
            <WindowNote answer={c} range={range} pending={query.isPlaceholderData} compared />
            <UnreadableNotice unreadable={c.unreadable} noun={["visitor", "visitors"]} />
            <CountriesTable answer={c} selected={selected} countryHref={countryHref} />
            <p className="small muted" data-testid="countries-note">
              A country opens its top cities above. The visitor list cannot be filtered by country, so no country links to a list of visitors.
              {unknown
                ? ` ${formatNumber(unknown.visitors)} visitor${unknown.visitors === 1 ? "" : "s"} had no country or one that is not a two-letter code: counted as “Unknown country”, not left out.`
                : ""}
            </p>
            <ReadNote answer={c} readAt={query.dataUpdatedAt} className="small muted" />
          </PendingAnswer>
        );
      }}
    </QueryView>
  );
}

function CitiesCard({ range, comparison, country }: { range: DateRange; comparison: Comparison; country: string }) {
  const query = useWidgetQuery(countriesQuery(range, comparison, country));
  const search = useSearchParams();
  const heading = useRef<HTMLParagraphElement>(null);
  // A country just opened (a row's link, or the map): its cities are where the reader goes next.
  useEffect(() => {
    heading.current?.focus();
  }, [country]);
  const closeHref = withCountry(new URLSearchParams(search.toString()), null);
  return (
    <QueryView query={query}>
      {(c) => {
        const cities = c.cities ?? [];
        return (
          <PendingAnswer pending={query.isPlaceholderData} className="stack">
            <p className="small muted" ref={heading} tabIndex={-1} data-testid="cities-window">
              {countryName(country)}, {formatDateRange(c)} ({formatZone(c.tz)}): the cities with the most visitors first seen there. Cities cannot be filtered
              in the visitor list either, so they are figures, not links; visitors without a city are “City not known”.{" "}
              <Link href={closeHref} scroll={false} prefetch={false} data-testid="cities-close">
                Back to all countries
              </Link>
            </p>
            {cities.length === 0 ? (
              <EmptyState title={`No visitor first seen in ${countryName(country)} in this range`}>
                Pick another country in the table, or a longer range in the header.
              </EmptyState>
            ) : (
              <CitiesTable cities={cities} caption={`Top cities in ${countryName(country)}, ${formatDateRange(c)}`} />
            )}
          </PendingAnswer>
        );
      }}
    </QueryView>
  );
}
