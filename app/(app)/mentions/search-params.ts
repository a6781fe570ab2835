// The mentions view's URL: platform, sentiment, from, to, limit, offset (the Data API's own names),
// declared once for the server page (the loader) and the client (useQueryStates); each value kept as
// the URL says it, for the server's schema to judge (see visitors/(list)/search-params.ts).
// `tz` is the zone of the header's range: `from`/`to` dates are days there (UTC when absent), sent
// upstream as that zone's instants (lib/range/list-range.ts).
// The names come from lib/ui/page-params.ts, the declaration saved views check a query against.
import { createLoader, parseAsString } from "nuqs/server";
import { pageParsers } from "@/lib/ui/page-params";

// `highlight` (a question whose mentions are marked, from /queries) is no filter: it stays out of the
// list's query, so it is never sent upstream nor put in an export.
const { highlight, ...listParsers } = pageParsers("/mentions", parseAsString);

export const mentionsSearchParams = listParsers;

export const highlightSearchParams = { highlight };

export const loadMentionsSearch = createLoader(mentionsSearchParams);
