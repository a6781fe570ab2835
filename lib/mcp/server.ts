// POST /api/mcp: a Model Context Protocol server over Streamable HTTP, stateless (no session id, no
// stream kept between requests), so any instance answers any request. Each request gets its own
// server and transport (the SDK's stateless pattern), bound to the token's session: the tools
// (tools.ts, from the routes' declarations) and the prompt (prompts.ts). Answers are JSON, not an SSE
// stream: a tool call here answers once, and JSON passes every proxy as it is.
import "server-only";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
} from "@modelcontextprotocol/sdk/types.js";
import { serverContext } from "@/lib/server/context";
import type { Session } from "@/lib/server/session";
import { promptMessages, PROMPTS } from "./prompts";
import { callTool, mcpTools } from "./tools";

const SERVER_INFO = { name: "workspace-analytics", title: "Workspace Analytics", version: "1.0.0" };

const INSTRUCTIONS =
  "Read-only insights of one workspace: visitors and conversions by source, platform and country, the brand's mentions in AI assistants' answers, " +
  "the questions asked, competitors, the visibility score and ranking over time, and the team's notes. Ranges are calendar days (from, to, tz). " +
  "Start with overview; the prompt weekly_pulse tells a week's story.";

function serverFor(session: Session, signal: AbortSignal): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {}, prompts: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...mcpTools().values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => callTool(request.params.name, request.params.arguments, session, signal));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS.map((p) => ({ ...p, arguments: [...p.arguments] })) }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = promptMessages(request.params.name, request.params.arguments, serverContext().now());
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `There is no prompt named ${request.params.name.slice(0, 60)}.`);
    return prompt;
  });
  return server;
}

/** Answers one MCP request (a JSON-RPC message or batch) for the token's session. */
export async function mcpResponse(req: Request, session: Session): Promise<Response> {
  const server = serverFor(session, req.signal);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req);
  } finally {
    // With JSON answers the response is whole when handleRequest returns: closing only lets go of
    // the server and transport, so it is not waited for (awaited, it cost ~0.6 ms a request).
    server.close().catch(() => undefined);
  }
}
