// The insights' routes, one line each: what the answer is called in messages, the function that
// computes it (a module of this folder), and its query's schema when it is not the shared range's.
// Each is mounted by its route file (app/api/insights/<name>/route.ts) and read in-process by server
// components (lib/queries/server-api.ts). Validation, the 400s, the session, single-flight per key and
// the abort signal come from `insightRoute` (route.ts).
import "server-only";
import { insightsCompareParams, insightsCountriesParams, insightsQueriesParams } from "@/lib/insights/schema";
import { competitorsInsight } from "./competitors";
import { countriesInsight } from "./countries";
import { platformsInsight } from "./platforms";
import { queriesInsight } from "./queries";
import { insightRoute } from "./route";
import { sentimentInsight } from "./sentiment";
import { sourcesInsight } from "./sources";
import { trendInsight } from "./trend";

export const insightRoutes = {
  "/insights/trend": insightRoute("the trend", trendInsight, insightsCompareParams),
  "/insights/sources": insightRoute("conversion by source", sourcesInsight, insightsCompareParams),
  "/insights/platforms": insightRoute("the AI platforms", platformsInsight, insightsCompareParams),
  "/insights/competitors": insightRoute("the competitors named", competitorsInsight),
  "/insights/sentiment": insightRoute("sentiment over time", sentimentInsight),
  "/insights/countries": insightRoute("the countries", countriesInsight, insightsCountriesParams),
  "/insights/queries": insightRoute("the questions", queriesInsight, insightsQueriesParams),
};
