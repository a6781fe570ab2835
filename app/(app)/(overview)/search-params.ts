// The overview's URL: the app's date range (`from`, `to`, `tz`; `range`, a relative range, is made
// `from`/`to` by proxy.ts) and the older `period`, from the one declaration of each page's parameters
// (lib/ui/page-params.ts) that saved views check a query against.
import { createLoader, parseAsString } from "nuqs/server";
import { pageParsers } from "@/lib/ui/page-params";

export const loadOverviewSearch = createLoader(pageParsers("/", parseAsString));
