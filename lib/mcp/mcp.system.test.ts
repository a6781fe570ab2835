// The MCP endpoint as the production build answers it (`npm start`, testing/system-setup.ts), through
// the SDK's own Client over HTTP (Streamable HTTP, stateless), with an access token of a workspace of
// this file's own: the tools and the prompt listed; every tool answering its route's JSON for the same
// parameters (a GET of the route with the same token); a bad argument a tool error naming it; the
// refusals of POST /api/mcp: no token (401 with WWW-Authenticate), a session's cookie instead (401),
// a revoked token (401 `invalid_token`, the client cannot connect), another site's Origin (403),
// GET and DELETE /api/mcp (405).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveDemoKey } from "@/sandbox/keys";
import { TOOL_CASES } from "@/testing/mcp-tool-cases";
import type { Answer, ApiClient } from "@/testing/production";
import { expectRefusal, OTHER_SITE, production, signedIn } from "@/testing/system";

let api: ApiClient;
let token: string;
let client: Client;

const connect = async (bearer: string) => {
  const transport = new StreamableHTTPClientTransport(new URL(`${production().base}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${bearer}` } },
  });
  const made = new Client({ name: "system-test", version: "1.0.0" });
  await made.connect(transport);
  return made;
};

/** The route's JSON for `args`, read with the same token. */
async function routeJson(route: string, args: Record<string, string | number>): Promise<unknown> {
  const query = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]));
  const res = await fetch(`${production().base}/api${route}?${query}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status, route).toBe(200);
  return res.json();
}

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
/** An initialize request as a script sends it: no cookie, no Origin unless given. */
async function postRaw(headers: Record<string, string>): Promise<Answer> {
  const res = await fetch(`${production().base}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(initialize),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === "" ? null : JSON.parse(text) };
}

beforeAll(async () => {
  api = await signedIn(deriveDemoKey("pro", "mcp"));
  expect((await api.call("PUT", "/api/workspace/watch")).status).toBe(200);
  const made = await api.call<{ token: string }>("POST", "/api/tokens", { body: { name: "assistant" } });
  expect(made.status).toBe(201);
  token = made.body.token;
  client = await connect(token);
});

afterAll(async () => {
  await client?.close();
});

describe("the MCP endpoint from the production server, through the SDK's client", () => {
  it("lists the tools and the prompt", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_CASES.map((c) => c.tool).sort());
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe("object");
    }
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["weekly_pulse"]);
    const pulse = await client.getPrompt({ name: "weekly_pulse" });
    expect((pulse.messages[0]!.content as { text: string }).text).toContain("overview");
  });

  it.each(TOOL_CASES.map((c) => [c.tool, c] as const))("%s answers its route's JSON for the same parameters", async (_name, { tool, route, args, pick }) => {
    const result = await client.callTool({ name: tool, arguments: args });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const json = await routeJson(route, args);
    expect(result.structuredContent).toEqual(pick ? pick(json) : json);
    expect((result.content as { text: string }[])[0]!.text).toMatch(/\S/);
  });

  it("a bad argument is a tool error naming it", async () => {
    for (const [tool, args, param] of [
      ["overview", { from: "2026-02-30" }, "from"],
      ["mentions", { limit: 1000 }, "limit"],
      ["countries", { country: "Narnia" }, "country"],
      ["notes", { nope: 1 }, "nope"],
    ] as const) {
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError, tool).toBe(true);
      expect((result.content as { text: string }[])[0]!.text, tool).toMatch(new RegExp(`^${param}: `));
    }
  });

  it("POST /api/mcp refuses no token, a session instead of one, another site, and a revoked token; GET is a 405", async () => {
    const none = await postRaw({});
    expectRefusal(none, { status: 401, code: "unauthorized" });
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="workspace-analytics"');
    // The signed-in client's cookie opens no MCP.
    expectRefusal(await api.call("POST", "/api/mcp", { rawBody: JSON.stringify(initialize), headers: { accept: "application/json, text/event-stream" } }), {
      status: 401,
      code: "unauthorized",
    });
    expectRefusal(await postRaw({ authorization: `Bearer ${token}`, origin: OTHER_SITE }), { status: 403, code: "csrf_rejected" });
    expect((await postRaw({ authorization: `Bearer ${token}` })).status).toBe(200);
    const get = await api.call("GET", "/api/mcp");
    expectRefusal(get, { status: 405, code: "method_not_allowed" });
    // No session to end: the front server refuses DELETE where no route file exports it.
    const del = await fetch(`${production().base}/api/mcp`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    expect(del.status).toBe(405);
    expect(del.headers.get("allow")).toContain("POST");

    const other = await api.call<{ id: string; token: string }>("POST", "/api/tokens", { body: { name: "to revoke" } });
    expect((await api.call("DELETE", `/api/tokens/${other.body.id}`)).status).toBe(204);
    const revoked = await postRaw({ authorization: `Bearer ${other.body.token}` });
    expectRefusal(revoked, { status: 401, code: "invalid_token" });
    expect(revoked.headers.get("www-authenticate")).toContain('error="invalid_token"');
    await expect(connect(other.body.token)).rejects.toThrow();
  });
});
