// The overview's URL: `period` (24h, 7d, 30d, 90d; default 30d), parsed with the Data API's schema.
import { periodParams, parseQuery, type ParseResult, type PeriodParams, type QueryInput } from "@/lib/data-api/params";

export type OverviewSearch = { result: ParseResult<PeriodParams>; params: PeriodParams };

/** An invalid period is reported and the default period shown, so the page still works. */
export function parseOverviewSearch(input: QueryInput): OverviewSearch {
  const result = parseQuery(periodParams, input);
  return { result, params: result.success ? result.data : { period: "30d" } };
}
