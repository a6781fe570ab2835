// The visitors view's URL: source, intent, converted, from, to, limit, offset (the Data API's own
// names), declared once for the server page (the loader) and the client (useQueryStates). Each value
// is kept as the URL says it: the Data API's schema (lib/data-api/params.ts, on the server) judges it,
// and an invalid one comes back as a 400 naming its parameter, shown on its field; a typed nuqs parser
// would instead drop it silently and list every visitor under a URL that says otherwise. Unset
// parameters take the schema's defaults (limit 20, offset 0) and stay out of the URL.
// `tz` is the zone of the header's range: `from`/`to` dates are days there (UTC when absent), sent
// upstream as that zone's instants (lib/range/list-range.ts).
// The names come from the one declaration of each page's parameters (lib/ui/page-params.ts), which
// saved views check a query against.
import { createLoader, parseAsString } from "nuqs/server";
import { pageParsers } from "@/lib/ui/page-params";

export const visitorsSearchParams = pageParsers("/visitors", parseAsString);

export const loadVisitorsSearch = createLoader(visitorsSearchParams);
