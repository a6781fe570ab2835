// POST /api/mcp - the Model Context Protocol server for AI assistants (Streamable HTTP, stateless, JSON answers), opened by an access token as bearer: the insights, history, mentions and notes as tools, and the prompt weekly_pulse (lib/mcp/server.ts).
// GET is a 405 (no stream to open: the server keeps none); DELETE is refused by the front server (no session to end).
import { mcpResponse } from "@/lib/mcp/server";
import { errorResponse, finalError } from "@/lib/server/http";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const POST = route({ access: "token", write: true, subject: "the MCP endpoint" }, ({ session }, req) => mcpResponse(req, session));
export const GET = route({ access: "public", subject: "the MCP endpoint" }, async () =>
  errorResponse(
    finalError({
      status: 405,
      code: "method_not_allowed",
      message: "The MCP endpoint is stateless: send JSON-RPC messages with POST; there is no stream to open.",
    }),
    { Allow: "POST" },
  ),
);
