// The /intelligence URL: the app's date range (`from`, `to`, `tz`; lib/range/date-range.ts), which
// drives the page's history, read by the server page with this loader and by the client through
// useDateRange, from one declaration.
// The names come from lib/ui/page-params.ts, the declaration saved views check a query against
// (`range`, a relative range, is turned into `from`/`to` by proxy.ts before the page reads them).
import { createLoader, parseAsString } from "nuqs/server";
import { pageParsers } from "@/lib/ui/page-params";

export const loadRangeSearch = createLoader(pageParsers("/intelligence", parseAsString));
