// `/locations` - where the visitors are: a world map shaded by visitors or conversion rate and the
// table of countries (its accessible twin) with AI visitors, conversions, rate and their changes
// against the header's comparison; a country opens its top cities (`country=XX`). The page starts
// the countries' insight (and the cities' when a country is open) and streams each widget as its
// answer arrives.
import type { Metadata } from "next";
import { countryParam } from "@/components/locations/locations-data";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { comparisonParams, resolveComparison } from "@/lib/range/comparison";
import { rangeParams, resolveDateRange } from "@/lib/range/date-range";
import { serverContext } from "@/lib/server/context";
import { viewerTimeZoneCookie } from "@/lib/server/viewer-time-zone";
import { LocationsClient } from "./client";
import { loadLocationsSearch } from "./search-params";

export const metadata: Metadata = { title: "Locations" };

export default async function LocationsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // A URL without `tz` is read in the viewer's zone, as the widgets read it: the prefetch asks what they will ask.
  const viewerTz = (await viewerTimeZoneCookie()) ?? "UTC";
  const search = loadLocationsSearch(await searchParams);
  const { range } = resolveDateRange(search, viewerTz, serverContext().now());
  const query = { ...rangeParams(range), ...comparisonParams(resolveComparison(search, range).comparison) };
  const country = countryParam(search.country);
  const state = await prefetchPage((qc, api) => {
    void qc.prefetchQuery(apiQuery(api, "/insights/countries", { query }));
    if (country) void qc.prefetchQuery(apiQuery(api, "/insights/countries", { query: { ...query, country } }));
  });
  return (
    <StreamedHydrationBoundary state={state}>
      <LocationsClient />
    </StreamedHydrationBoundary>
  );
}
