// One call of every MCP tool with parameters of its route, and the route it must answer as (its JSON
// for the same parameters, or the part the tool takes of it): shared by the MCP tests in-process and
// against the production build, and the bench.
import { overviewOf } from "@/lib/insights/overview";
import type { TrendInsight } from "@/lib/insights/trend";

export type ToolCase = { tool: string; route: string; args: Record<string, string | number>; pick?: (json: unknown) => unknown };

const range = { from: "2026-11-01", to: "2026-11-14" };

export const TOOL_CASES: ToolCase[] = [
  { tool: "overview", route: "/insights/trend", args: { ...range, tz: "Europe/Berlin" }, pick: (json) => overviewOf(json as TrendInsight) },
  { tool: "trend", route: "/insights/trend", args: { ...range, bucket: "week" } },
  { tool: "sources", route: "/insights/sources", args: { ...range, compare: "year" } },
  { tool: "platforms", route: "/insights/platforms", args: range },
  { tool: "competitors", route: "/insights/competitors", args: range },
  { tool: "countries", route: "/insights/countries", args: { ...range, country: "us" } },
  { tool: "questions", route: "/insights/queries", args: { ...range, platform: "chatgpt" } },
  { tool: "score_history", route: "/history/score", args: range },
  { tool: "ranking_history", route: "/history/ranking", args: range },
  { tool: "mentions", route: "/mentions", args: { sentiment: "negative", limit: 10 } },
  { tool: "notes", route: "/annotations", args: range },
];
