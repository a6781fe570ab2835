import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeFetch } from "./node-fetch";

let server: Server;
let base = "";
const seen: { url?: string; headers: Record<string, unknown> }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    if (req.url === "/redirect") {
      res.writeHead(302, { Location: "/elsewhere" });
      return res.end();
    }
    if (req.url === "/slow") {
      setTimeout(() => res.end("late"), 2000);
      return;
    }
    if (req.url === "/empty") {
      res.writeHead(204);
      return res.end();
    }
    res.writeHead(200, { "Content-Type": "application/json", "X-Request-ID": "req_1", "Set-Cookie": ["a=1", "b=2"] });
    res.end(JSON.stringify({ ok: "é" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server?.close());

describe("nodeFetch", () => {
  it("sends the given headers and returns status, headers and body", async () => {
    const res = await nodeFetch(`${base}/v1/x?a=1`, { headers: { Authorization: "Bearer k" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("req_1");
    expect(res.headers.get("set-cookie")).toBe("a=1, b=2");
    expect(await res.json()).toEqual({ ok: "é" });
    expect(seen.at(-1)).toMatchObject({ url: "/v1/x?a=1", headers: { authorization: "Bearer k" } });
  });

  it("does not follow redirects", async () => {
    const res = await nodeFetch(`${base}/redirect`);
    expect(res.status).toBe(302);
    expect(seen.some((s) => s.url === "/elsewhere")).toBe(false);
  });

  it("handles bodiless statuses", async () => {
    expect((await nodeFetch(`${base}/empty`)).status).toBe(204);
  });

  it("aborts with the signal", async () => {
    await expect(nodeFetch(`${base}/slow`, { signal: AbortSignal.timeout(50) })).rejects.toThrow();
  });

  it("rejects when nothing listens", async () => {
    await expect(nodeFetch("http://127.0.0.1:1/")).rejects.toThrow();
  });
});
