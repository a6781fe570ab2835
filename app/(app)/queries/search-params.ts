// The /queries URL: the app's date range, `platform` (one AI platform's mentions) and `never_first`
// (`true`: only the questions where the brand is never named first), from the one declaration of the
// page's parameters (lib/ui/page-params.ts).
import { createLoader, parseAsString } from "nuqs/server";
import { pageParsers } from "@/lib/ui/page-params";

export const queriesSearchParams = pageParsers("/queries", parseAsString);

export const loadQueriesSearch = createLoader(queriesSearchParams);
