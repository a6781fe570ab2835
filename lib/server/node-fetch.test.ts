import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataApiClient } from "@/lib/data-api/client";
import { isDataApiError } from "@/lib/data-api/errors";
import { MAX_UPSTREAM_BODY_BYTES, nodeFetch } from "./node-fetch";

let server: Server;
let base = "";
const seen: { url?: string; headers: Record<string, unknown> }[] = [];
/** Bytes each hostile response managed to write before the client hung up. */
const written: Record<string, number> = {};

/** Streams `total` bytes of a JSON-looking body in 64 KB chunks, as fast as the client reads. */
function hostileBody(res: import("node:http").ServerResponse, path: string, total: number) {
  const chunk = Buffer.alloc(64 * 1024, " ");
  written[path] = 0;
  const pump = () => {
    while (written[path]! < total) {
      written[path]! += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    res.end();
  };
  res.on("close", () => res.removeAllListeners("drain"));
  res.write("[");
  pump();
}

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
    if (req.url?.startsWith("/v1/huge-declared")) {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(20 * 1024 * 1024 + 1), "X-Request-ID": "req_huge" });
      return hostileBody(res, "declared", 20 * 1024 * 1024);
    }
    if (req.url?.startsWith("/v1/huge-chunked") || req.url?.startsWith("/v1/intelligence/score")) {
      res.writeHead(200, { "Content-Type": "application/json", "X-Request-ID": "req_chunked" });
      return hostileBody(res, req.url.startsWith("/v1/huge") ? "chunked" : "score", 20 * 1024 * 1024);
    }
    if (req.url === "/v1/just-under-cap") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ pad: "x".repeat(MAX_UPSTREAM_BODY_BYTES - 20) }));
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

  it("upstream body cap: a body just under the cap is read whole", async () => {
    const body = (await (await nodeFetch(`${base}/v1/just-under-cap`)).json()) as { pad: string };
    expect(body.pad.length).toBe(MAX_UPSTREAM_BODY_BYTES - 20);
  });

  it("upstream body cap: a declared Content-Length over the cap is refused before the body is read", async () => {
    const started = performance.now();
    const error = await nodeFetch(`${base}/v1/huge-declared`).catch((e: unknown) => e);
    expect(isDataApiError(error) && error.code).toBe("unexpected_response");
    expect(isDataApiError(error) && error.requestId).toBe("req_huge");
    expect(performance.now() - started).toBeLessThan(1000);
    // Only what fitted in the sockets' kernel buffers was ever sent, nowhere near the 20 MB.
    await new Promise((r) => setTimeout(r, 50));
    expect(written.declared!).toBeLessThan(10 * 1024 * 1024);
  });

  it("upstream body cap: a chunked body is cut off once it passes the cap", async () => {
    const error = await nodeFetch(`${base}/v1/huge-chunked`).catch((e: unknown) => e);
    expect(isDataApiError(error) && error.code).toBe("unexpected_response");
    expect(isDataApiError(error) && error.message).toMatch(/larger than 4 MB/);
    await new Promise((r) => setTimeout(r, 50));
    // Cut off long before the end (what the server wrote includes the sockets' kernel buffers).
    expect(written.chunked!).toBeLessThan(10 * 1024 * 1024);
  });

  it("upstream body cap: through the client, an oversized body is a 502 unexpected_response, not retried", async () => {
    const api = createDataApiClient({ baseUrl: `${base}/v1`, apiKey: "svc_sk_test_0123456789abcdef", fetch: nodeFetch });
    const before = seen.filter((s) => s.url === "/v1/intelligence/score").length;
    const error = await api.get("/intelligence/score", {}).catch((e: unknown) => e);
    expect(isDataApiError(error) && [error.status, error.code]).toEqual([502, "unexpected_response"]);
    expect(seen.filter((s) => s.url === "/v1/intelligence/score").length - before).toBe(1);
  });

  it("rejects when nothing listens", async () => {
    await expect(nodeFetch("http://127.0.0.1:1/")).rejects.toThrow();
  });
});
