// What MCP adds to a read: a warm `overview` (the trend of a fixed range, its answer computed once and
// then served from the insights' figures) called through POST /api/mcp with the SDK's own Client
// (Streamable HTTP, stateless: each call is one POST), against GET /api/insights/trend with the same
// parameters over HTTP, both with one access token as bearer, on a real `npm start` (the build in
// BENCH_DIST_DIR, default .next). Sequential latency, alternating between the two so both see the same
// machine, then calls per second with 8 in flight. Goal: MCP adds under 5 ms at the median.
// The token's 120 requests a minute would stop a bench: each round uses a token of its own, made
// when the one before is near its minute's end.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { DEMO_KEYS } from "../sandbox/keys";
import { apiClient } from "../testing/production";
import { benchBuild, signIn, startProductionServer } from "./support";

export const name = "mcp: a warm `overview` through POST /api/mcp (the SDK's client) vs GET /api/insights/trend, one token";

const ARGS = { from: "2026-11-01", to: "2026-11-14", tz: "UTC" };
const ROUNDS = 4;
const PER_ROUND = 50;
const CONCURRENCY = 8;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export async function run(): Promise<void> {
  if (!benchBuild()) return;
  const server = await startProductionServer();
  try {
    const cookie = await signIn(server.base, { apiKey: DEMO_KEYS.pro });
    const api = apiClient(server.base, cookie);
    if ((await api.call("PUT", "/api/workspace/watch")).status !== 200) throw new Error("watching could not be turned on");
    const newToken = async () => {
      const made = await api.call<{ token: string }>("POST", "/api/tokens", { body: { name: `bench ${Date.now()}` } });
      if (made.status !== 201) throw new Error(`POST /api/tokens: ${made.status}`);
      return made.body.token;
    };
    const tokens: string[] = [];
    for (let i = 0; i < ROUNDS + 1; i++) tokens.push(await newToken());

    const connect = async (token: string) => {
      const client = new Client({ name: "bench", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.base}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
      );
      return client;
    };
    const viaMcp = async (client: Client) => {
      const result = await client.callTool({ name: "overview", arguments: ARGS });
      if (result.isError) throw new Error(`overview: ${JSON.stringify(result.content)}`);
    };
    const viaHttp = async (token: string) => {
      const res = await fetch(`${server.base}/api/insights/trend?${new URLSearchParams(ARGS)}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET /api/insights/trend: ${res.status}`);
    };

    // Warm: the answer computed once (and Next's routes compiled into memory).
    const warm = await connect(tokens[0]!);
    await viaMcp(warm);
    await viaHttp(tokens[0]!);
    await warm.close();

    // Latency: each round a token of its own (PER_ROUND of each kind is 100 of its 120 a minute).
    const mcp: number[] = [];
    const http: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const token = tokens[round]!;
      const client = await connect(token);
      for (let i = 0; i < PER_ROUND; i++) {
        let started = performance.now();
        await viaMcp(client);
        mcp.push(performance.now() - started);
        started = performance.now();
        await viaHttp(token);
        http.push(performance.now() - started);
      }
      await client.close();
    }
    mcp.sort((a, b) => a - b);
    http.sort((a, b) => a - b);
    const row = (label: string, t: number[]) => `${label.padEnd(34)} p50 ${quantile(t, 0.5).toFixed(2)} ms   p95 ${quantile(t, 0.95).toFixed(2)} ms`;
    console.log(row("overview via MCP (tools/call)", mcp));
    console.log(row("GET /api/insights/trend", http));
    const added = quantile(mcp, 0.5) - quantile(http, 0.5);
    console.log(`MCP adds ${added.toFixed(2)} ms at the median (goal: under 5 ms) ${added < 5 ? "ok" : "MISSED"}`);

    // Throughput: one client, CONCURRENCY calls in flight, 100 calls (within the last token's minute).
    const token = tokens[ROUNDS]!;
    const client = await connect(token);
    const calls = 100;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < calls) {
          next++;
          await viaMcp(client);
        }
      }),
    );
    console.log(`overview via MCP, ${CONCURRENCY} in flight: ${(calls / ((performance.now() - started) / 1000)).toFixed(0)} tool calls/s`);
    await client.close();
  } finally {
    await server.stop();
  }
}
