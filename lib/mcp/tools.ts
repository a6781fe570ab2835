// The MCP tools: every read route that declares `tools` (lib/server/route-types.ts), found in the
// tables of routes below, offered to AI assistants with the route's own parameters and answer. A
// tool's input schema is made from the route's zod query schema; a call runs the route's handler
// in-process for the token's session (runRead: validated exactly as over HTTP, the same store scope,
// the same single flights), never HTTP to this server; its structured content is the route's JSON (or
// the part the tool declares) and its text a short summary. A bad argument is a tool error naming it
// (isError), as the route's 400 names its parameter.
import "server-only";
import { z } from "zod";
import { annotationRoutes } from "@/lib/annotations/routes";
import { historyRoutes } from "@/lib/history/routes";
import { insightRoutes } from "@/lib/insights/routes";
import { listRoutes } from "@/lib/lists/routes";
import { errorForBrowser } from "@/lib/server/http";
import { runRead } from "@/lib/server/route";
import type { ReadDefinition, RouteDeclaration, ToolDeclaration } from "@/lib/server/route-types";
import type { Session } from "@/lib/server/session";

/** The tables of routes whose reads may be tools: a route of these that declares `tools` is one. */
const ROUTE_TABLES: ReadonlyArray<Record<string, RouteDeclaration>> = [insightRoutes, historyRoutes, listRoutes, annotationRoutes];

/** What each parameter means, for a model filling it in (the schema says its form). */
const PARAMETER_HINTS: Record<string, string> = {
  from: "First day of the range, YYYY-MM-DD (inclusive). Default: 29 days before `to`.",
  to: "Last day of the range, YYYY-MM-DD (inclusive). Default: today.",
  tz: "IANA time zone the days are in, e.g. Europe/Berlin. Default: UTC.",
  bucket: "day or week; default by the range's length.",
  compare: "What changes are measured against: previous (the period before, default), year (the same dates a year before) or custom.",
  compare_from: "With compare=custom: first day of the period compared with.",
  compare_to: "With compare=custom: last day of the period compared with (as many days as the range).",
  country: "A two-letter country code (or unknown) to add its top cities.",
  platform: "One AI platform only.",
  never_first: "true: only the questions where the brand was never named first.",
  sentiment: "Only mentions of this sentiment.",
  query: "Only mentions answering this question (case and spaces ignored).",
  competitor: "Only mentions naming this competitor.",
  limit: "How many items, 1 to 100.",
  offset: "How many items to skip (paging).",
};

export type JsonObject = Record<string, unknown>;

export type McpTool = {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, JsonObject>; additionalProperties: false };
  definition: ReadDefinition;
  declaration: ToolDeclaration;
};

/** A tool's input schema: the route's query schema as JSON Schema (as its input), paging counts as integers. */
function inputSchemaOf(query: z.ZodObject | undefined): McpTool["inputSchema"] {
  const schema = query ? (z.toJSONSchema(query, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, JsonObject> }) : {};
  const properties: Record<string, JsonObject> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    // Counts are strings in a URL (`^\d{1,9}$`); a model sends numbers, and either is taken.
    const isCount = property.type === "string" && property.pattern === "^\\d{1,9}$";
    const hint = PARAMETER_HINTS[name];
    properties[name] = { ...(isCount ? { type: "integer", minimum: 0 } : property), ...(hint ? { description: hint } : {}) };
  }
  return { type: "object", properties, additionalProperties: false };
}

let tools: ReadonlyMap<string, McpTool> | undefined;

/** Every tool, by name, in the order the tables declare them. */
export function mcpTools(): ReadonlyMap<string, McpTool> {
  if (tools) return tools;
  const found = new Map<string, McpTool>();
  for (const table of ROUTE_TABLES) {
    for (const definition of Object.values(table)) {
      for (const declaration of definition.tools ?? []) {
        if (found.has(declaration.name)) throw new Error(`mcp: two tools are named ${declaration.name}`);
        found.set(declaration.name, {
          name: declaration.name,
          description: declaration.description,
          inputSchema: inputSchemaOf(definition.query),
          definition: definition as ReadDefinition,
          declaration,
        });
      }
    }
  }
  return (tools = found);
}

export type ToolResult = {
  content: { type: "text"; text: string }[];
  structuredContent?: JsonObject;
  isError?: boolean;
};

const toolError = (text: string): ToolResult => ({ content: [{ type: "text", text }], isError: true });

/** The arguments as the route's query (its values as in a URL), or the first bad one named. */
function queryOf(tool: McpTool, args: unknown): { query: Record<string, string> } | { error: ToolResult } {
  if (args === undefined || args === null) return { query: {} };
  if (typeof args !== "object" || Array.isArray(args)) return { error: toolError("arguments: must be an object of the tool's parameters.") };
  const query: Record<string, string> = {};
  const known = Object.keys(tool.inputSchema.properties);
  for (const [name, value] of Object.entries(args)) {
    const shown = name.slice(0, 40);
    if (!known.includes(name)) return { error: toolError(`${shown}: not a parameter of ${tool.name} (it takes ${known.join(", ") || "none"}).`) };
    if (value === null || value === undefined) continue;
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      return { error: toolError(`${shown}: must be a single value (a string, a number or true/false), not a list or an object.`) };
    }
    query[name] = String(value);
  }
  return { query };
}

/** The route's JSON: what the handler answered, as it would go over the wire. */
async function jsonOf(answer: unknown): Promise<JsonObject> {
  if (answer instanceof Response) return (await answer.json()) as JsonObject;
  return JSON.parse(JSON.stringify(answer)) as JsonObject;
}

/** The fields that name an item, in the order one is chosen (ids name nothing to a person). */
const LABEL_FIELDS = ["name", "source", "platform", "country", "query", "text", "date", "at", "start"];

/** A short summary a model can quote: the range and how many items, the first ones named. */
export function genericSummary(name: string, answer: JsonObject): string {
  const range =
    typeof answer.from === "string" && typeof answer.to === "string"
      ? ` for ${answer.from} to ${answer.to}${typeof answer.tz === "string" ? ` (${answer.tz})` : ""}`
      : "";
  const data = Array.isArray(answer.data) ? (answer.data as unknown[]) : undefined;
  if (!data) return `${name}${range}.`;
  const meta = answer.meta as { total?: unknown } | undefined;
  const total = typeof meta?.total === "number" ? ` of ${meta.total}` : "";
  const labels = data
    .slice(0, 3)
    .map((item) => {
      if (typeof item !== "object" || item === null) return undefined;
      const record = item as Record<string, unknown>;
      const label = LABEL_FIELDS.map((key) => record[key]).find((v) => typeof v === "string");
      return typeof label === "string" ? label.slice(0, 80) : undefined;
    })
    .filter((l): l is string => l !== undefined);
  return `${name}${range}: ${data.length}${total} item${data.length === 1 ? "" : "s"}${labels.length > 0 ? `, first: ${labels.join("; ")}` : ""}.`;
}

/**
 * Calls tool `name` for `session`: the route's handler in-process, its answer as structured content
 * and a summary; a refusal (a bad argument, no access, the Data API away) as a tool error saying it,
 * naming the argument where the route names its parameter.
 */
export async function callTool(name: string, args: unknown, session: Session, signal?: AbortSignal): Promise<ToolResult> {
  const tool = mcpTools().get(name);
  if (!tool) return toolError(`There is no tool named ${name.slice(0, 60)}. Ask for the list of tools.`);
  const input = queryOf(tool, args);
  if ("error" in input) return input.error;
  try {
    const json = await jsonOf(await runRead(tool.definition, session, { query: input.query }, signal ? { signal } : {}));
    const answer = (tool.declaration.answer ? (tool.declaration.answer as (j: JsonObject) => unknown)(json) : json) as JsonObject;
    const summary = tool.declaration.summary ? (tool.declaration.summary as (a: JsonObject) => string)(answer) : genericSummary(tool.name, answer);
    return { content: [{ type: "text", text: summary }], structuredContent: answer };
  } catch (thrown) {
    const { error } = errorForBrowser(thrown, tool.definition.subject, signal?.aborted);
    return toolError(`${error.param ? `${error.param}: ` : ""}${error.message}${error.requestId ? ` (request ${error.requestId})` : ""}`);
  }
}
