// The insights' routes, one line each: what the answer is called in messages, the function that
// computes it (a module of this folder), its query's schema when it is not the shared range's, and the
// MCP tools it is offered as (lib/mcp reads them here: a route with tools is a tool by this alone).
// Each is mounted by its route file (app/api/insights/<name>/route.ts) and read in-process by server
// components (lib/queries/server-api.ts). Validation, the 400s, the session, single-flight per key and
// the abort signal come from `insightRoute` (route.ts).
import "server-only";
import { insightsCompareParams, insightsCountriesParams, insightsQueriesParams } from "@/lib/insights/schema";
import { competitorsInsight } from "./competitors";
import { countriesInsight } from "./countries";
import { platformsInsight } from "./platforms";
import { queriesInsight } from "./queries";
import { overviewOf, overviewSummary } from "./overview";
import { insightRoute } from "./route";
import { sentimentInsight } from "./sentiment";
import { sourcesInsight } from "./sources";
import { trendInsight } from "./trend";

export const insightRoutes = {
  "/insights/trend": insightRoute("the trend", trendInsight, insightsCompareParams, [
    {
      name: "overview",
      description:
        "Totals for the range (visitors, visitors from AI assistants, conversions, conversion rate) against the period compared with, and their changes. Start here.",
      answer: overviewOf,
      summary: overviewSummary,
    },
    {
      name: "trend",
      description: "Visitors, AI visitors and conversions per day or week of the range (`bucket`), with the compared period's buckets in `previous`.",
    },
  ]),
  "/insights/sources": insightRoute("conversion by source", sourcesInsight, insightsCompareParams, [
    { name: "sources", description: "Visitors, conversions and conversion rate by traffic source (AI assistants, search, direct…), with the compared period." },
  ]),
  "/insights/platforms": insightRoute("the AI platforms", platformsInsight, insightsCompareParams, [
    {
      name: "platforms",
      description:
        "Per AI platform (ChatGPT, Claude, Perplexity, Gemini): mentions of the brand, visitors it sent and their conversions, with the compared period.",
    },
  ]),
  "/insights/competitors": insightRoute("the competitors named", competitorsInsight, undefined, [
    { name: "competitors", description: "The competitors AI assistants named alongside the brand in the range, most mentioned first." },
  ]),
  "/insights/sentiment": insightRoute("sentiment over time", sentimentInsight),
  "/insights/countries": insightRoute("the countries", countriesInsight, insightsCountriesParams, [
    { name: "countries", description: "Visitors, AI visitors and conversions by country, with the compared period; `country` adds that country's top cities." },
  ]),
  "/insights/queries": insightRoute("the questions", queriesInsight, insightsQueriesParams, [
    {
      name: "questions",
      description:
        "The questions people asked AI assistants that mention the brand: how often, on which platforms, at which positions, with what sentiment; `never_first=true` keeps those where the brand was never named first.",
    },
  ]),
};
