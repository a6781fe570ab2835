// React Query options of the two insights routes behind /locations and /queries
// (`/api/insights/countries`, `/api/insights/queries`), typed by the answers those pages read
// (components/locations/locations-data.ts, components/queries/queries-data.ts). Same transport, key
// scheme and placeholder as `apiQuery` (lib/queries/api.ts), so a change of range or filter keeps the
// previous answer on screen while the next one loads.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { routeKey, withQuery } from "@/lib/data-api/route-path";
import { getJson } from "./api";

type QueryValues = Record<string, string | undefined>;

export function insightPageQuery<T>(path: "/insights/countries" | "/insights/queries", query: QueryValues) {
  return queryOptions<T>({
    queryKey: routeKey(path, undefined, query),
    queryFn: ({ signal }) => getJson<T>(`/api${withQuery(path, query)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}
