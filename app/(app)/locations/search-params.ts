// The /locations URL: the app's date range and comparison, `metric` (the map shaded by visitors or
// conversion rate) and `country` (a country whose top cities are open), read by the server page and
// the client from the one declaration of the page's parameters (lib/ui/page-params.ts).
import { createLoader, parseAsString } from "nuqs/server";
import { pageParsers } from "@/lib/ui/page-params";

export const locationsSearchParams = pageParsers("/locations", parseAsString);

export const loadLocationsSearch = createLoader(locationsSearchParams);
