// The mentions view's URL: platform, sentiment, from, to, limit, offset (the Data API's own names),
// and query (a question) and competitor, the filters the dashboard applies itself; declared once for
// the server page (the loader) and the client (useQueryStates); each value kept as the URL says it,
// for the route's schema to judge (see visitors/(list)/search-params.ts).
// `tz` is the zone of the header's range: `from`/`to` dates are days there (UTC when absent), sent
// upstream as that zone's instants (lib/range/list-range.ts).
// The names come from lib/ui/page-params.ts, the declaration saved views check a query against.
import { createLoader, parseAsString } from "nuqs/server";
import { pageParsers } from "@/lib/ui/page-params";

export const mentionsSearchParams = pageParsers("/mentions", parseAsString);

export const loadMentionsSearch = createLoader(mentionsSearchParams);
