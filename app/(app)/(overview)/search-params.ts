// The overview's URL: `period` (24h, 7d, 30d, 90d; default 30d), declared once for the server page
// (the loader) and the client (useQueryStates). An invalid period reads as the default, so the page
// still works; the server's schema (lib/data-api/params.ts) names what was wrong.
import { createLoader, parseAsStringLiteral } from "nuqs/server";
import { DEFAULT_PERIOD, PERIODS } from "@/lib/data-api/constants";

export const overviewSearchParams = {
  period: parseAsStringLiteral(PERIODS).withDefault(DEFAULT_PERIOD),
};

export const loadOverviewSearch = createLoader(overviewSearchParams);
