// The MCP endpoint on two production instances sharing one PostgreSQL and nothing else (no Redis: no
// shared session, no shared cache), behind a "load balancer" that sends each request of one SDK
// Client to the other instance in turn: stateless Streamable HTTP, so the initialize goes to one and
// every later call to either, and a token made through one opens both. A token revoked through one is
// refused by both at once. Run after the build (`npm run test:cluster`, part of `npm test`).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { startCluster, type Cluster } from "@/testing/cluster";
import { TOOL_CASES } from "@/testing/mcp-tool-cases";
import { apiClient, signIn } from "@/testing/production";
import { startTestPostgres, type TestPostgres } from "@/testing/postgres";

let postgres: TestPostgres;
let cluster: Cluster;
let bases: [string, string];
let token: string;
let tokenId: string;
const served: string[] = [];

beforeAll(async () => {
  postgres = await startTestPostgres();
  cluster = await startCluster({ instances: 2, redis: false, env: { DATABASE_URL: await postgres.createDatabase() } });
  bases = cluster.instances.map((i) => i.base) as [string, string];
  const api = apiClient(bases[0], await signIn(bases[0], { apiKey: DEMO_KEYS.pro }));
  expect((await api.call("PUT", "/api/workspace/watch")).status).toBe(200);
  const made = await api.call<{ id: string; token: string }>("POST", "/api/tokens", { body: { name: "assistant" } });
  expect(made.status).toBe(201);
  ({ token, id: tokenId } = made.body);
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
  await postgres?.stop();
});

/** A Client whose requests go to the two instances in turn, as a round-robin balancer sends them. */
async function balancedClient(bearer: string): Promise<Client> {
  let turn = 0;
  const transport = new StreamableHTTPClientTransport(new URL("http://balancer.invalid/api/mcp"), {
    requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    fetch: (url, init) => {
      const base = bases[turn++ % 2]!;
      served.push(base);
      return fetch(`${base}${new URL(url).pathname}`, init);
    },
  });
  const client = new Client({ name: "cluster-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

describe("the MCP endpoint on two instances with no shared session", () => {
  it("answers one client's calls on either instance, each tool the same as its route on the other", async () => {
    const client = await balancedClient(token);
    expect((await client.listTools()).tools).toHaveLength(TOOL_CASES.length);
    for (const { tool, route, args, pick } of TOOL_CASES) {
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError, `${tool}: ${JSON.stringify(result.content)}`).toBeFalsy();
      const res = await fetch(`${bases[1]}/api${route}?${new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]))}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status, route).toBe(200);
      const json: unknown = await res.json();
      expect(result.structuredContent, tool).toEqual(pick ? pick(json) : json);
    }
    await client.close();
    expect(new Set(served).size).toBe(2);
  }, 120_000);

  it("a token revoked through one instance is refused by both at once", async () => {
    const api = apiClient(bases[1], await signIn(bases[1], { apiKey: DEMO_KEYS.pro }));
    expect((await api.call("DELETE", `/api/tokens/${tokenId}`)).status).toBe(204);
    for (const base of bases) {
      const res = await fetch(`${base}/api/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(res.status, base).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_token");
    }
  });
});
