// The visitors view's URL: source, intent, converted, from, to, limit, offset (the Data API's names),
// parsed with the same schema the route handler and the upstream call use.
import { parseQuery, visitorListParams, type ParseResult, type QueryInput, type VisitorListParams } from "@/lib/data-api/params";
import { toRawSearch, type RawSearch } from "@/lib/ui/search-url";

export type VisitorsSearch = { raw: RawSearch; result: ParseResult<VisitorListParams> };

const FIELDS = ["source", "intent", "converted", "from", "to", "limit", "offset"] as const;

export function parseVisitorsSearch(input: Record<string, string | string[] | undefined>): VisitorsSearch {
  const raw = toRawSearch(input);
  const known: RawSearch = {};
  for (const f of FIELDS) if (raw[f] !== undefined) known[f] = raw[f];
  return { raw: known, result: parseQuery(visitorListParams, input as QueryInput) };
}

