// The MCP endpoint in-process, through the SDK's own Client (its Streamable HTTP transport, the
// route file as its fetch), over the sandbox: the tools and their input schemas come from the routes'
// declarations; every tool answers its route's JSON for the same parameters (what a bearer GET of
// the route answers) with a summary; a bad argument is a tool error naming it; the prompt names the
// tools; no token, a bad one or a revoked one is refused before any JSON-RPC is read.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeEach, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { resetTokenLimits } from "@/lib/server/token-access";
import { routeFileAt } from "@/testing/api-routes";
import { call, callApi, ORIGIN, serverStoresForFile, sessionCookie, upstreamForFile } from "@/testing/in-process";
import { TOOL_CASES } from "@/testing/mcp-tool-cases";

const { POST: mcpPost, GET: mcpGet } = await routeFileAt("mcp");
const { POST: tokensPost } = await routeFileAt("tokens");
const { DELETE: tokenDelete } = await routeFileAt("tokens/[id]");
const { PUT: watchPut } = await routeFileAt("workspace/watch");

upstreamForFile();
const storeFor = serverStoresForFile();
beforeEach(() => resetTokenLimits());

const write = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { origin: ORIGIN, "content-type": "application/json" },
  ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
});

async function tokenOfWatchedWorkspace(): Promise<{ token: string; id: string }> {
  const cookie = await sessionCookie(DEMO_KEYS.pro);
  expect((await call(watchPut, "/api/workspace/watch", { cookie, init: write("PUT") })).status).toBe(200);
  const made = await call<{ token: string; id: string }>(tokensPost, "/api/tokens", { cookie, init: write("POST", { name: "assistant" }) });
  expect(made.status).toBe(201);
  return made.body;
}

async function connect(token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: (url, init) => mcpPost(new Request(url, init), { params: Promise.resolve({}) }),
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

describe("the MCP endpoint (in-process)", () => {
  it("lists the tools from the routes' declarations, and the prompt", async () => {
    await storeFor("embedded");
    const client = await connect((await tokenOfWatchedWorkspace()).token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["overview", "trend", "sources", "platforms", "competitors", "countries", "questions", "score_history", "ranking_history", "mentions", "notes"].sort(),
    );
    const overview = tools.find((t) => t.name === "overview")!;
    expect(overview.inputSchema.properties).toMatchObject({ from: { type: "string" }, compare: { enum: ["previous", "year", "custom"] } });
    expect(tools.find((t) => t.name === "mentions")!.inputSchema.properties).toMatchObject({ limit: { type: "integer" } });
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["weekly_pulse"]);
    const pulse = await client.getPrompt({ name: "weekly_pulse", arguments: { tz: "Europe/Berlin" } });
    const text = (pulse.messages[0]!.content as { text: string }).text;
    for (const tool of ["overview", "platforms", "ranking_history", "mentions", "notes"]) expect(text).toContain(tool);
    await client.close();
  });

  it("answers every tool with its route's JSON for the same parameters, and a summary", async () => {
    await storeFor("embedded");
    const { token } = await tokenOfWatchedWorkspace();
    const client = await connect(token);
    for (const { tool, route, args, pick } of TOOL_CASES) {
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError, `${tool}: ${JSON.stringify(result.content)}`).toBeFalsy();
      const query = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]));
      const viaRoute = await callApi(`/api${route}?${query}`, { init: { headers: { authorization: `Bearer ${token}` } } });
      expect(viaRoute.status, route).toBe(200);
      expect(result.structuredContent, tool).toEqual(pick ? pick(viaRoute.body) : viaRoute.body);
      const [summary] = result.content as { type: string; text: string }[];
      expect(summary!.type).toBe("text");
      expect(summary!.text.length, tool).toBeGreaterThan(10);
      expect(summary!.text.length, tool).toBeLessThan(600);
    }
    await client.close();
  });

  it.each([
    ["a bad date", "overview", { from: "2026-13-01" }, "from"],
    ["a backwards range", "trend", { from: "2026-11-10", to: "2026-11-01" }, "from"],
    ["an unknown zone", "sources", { tz: "Mars/Olympus" }, "tz"],
    ["an unknown comparison", "platforms", { compare: "weird" }, "compare"],
    ["a limit over 100", "mentions", { limit: 101 }, "limit"],
    ["a parameter the tool does not take", "notes", { platform: "chatgpt" }, "platform"],
    ["a list for a value", "questions", { platform: ["chatgpt", "claude"] }, "platform"],
  ])("%s is a tool error naming the argument", async (_label, tool, args, param) => {
    await storeFor("embedded");
    const client = await connect((await tokenOfWatchedWorkspace()).token);
    const result = await client.callTool({ name: tool, arguments: args });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(new RegExp(`^${param}: `));
    expect(result.structuredContent).toBeUndefined();
    await client.close();
  });

  it("takes a token only: none, a bad one or a revoked one is a 401 with WWW-Authenticate; GET is a 405", async () => {
    await storeFor("embedded");
    const { token, id } = await tokenOfWatchedWorkspace();
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const post = (headers: Record<string, string>) =>
      call<{ error: { code: string } }>(mcpPost, "/api/mcp", {
        init: {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
          body: JSON.stringify(initialize),
        },
      });
    const signedIn = await post({ cookie: await sessionCookie(DEMO_KEYS.pro) });
    expect(signedIn.status).toBe(401);
    expect(signedIn.headers.get("www-authenticate")).toBe('Bearer realm="workspace-analytics"');
    expect((await post({ authorization: `Bearer ${token}` })).status).toBe(200);
    const cookie = await sessionCookie(DEMO_KEYS.pro);
    expect((await call(tokenDelete, `/api/tokens/${id}`, { cookie, init: write("DELETE"), params: { id } })).status).toBe(204);
    const revoked = await post({ authorization: `Bearer ${token}` });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe("invalid_token");
    expect(revoked.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const get = await call(mcpGet, "/api/mcp");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });
});
