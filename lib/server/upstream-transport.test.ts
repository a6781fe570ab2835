// The upstream transport against a tiny node:http server that does what the sandbox never does:
// redirects, hangs, trickles, oversized bodies. It records every request and connection it sees.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataApiClient } from "@/lib/data-api/client";
import { isDataApiError } from "@/lib/data-api/errors";
import { MAX_UPSTREAM_BODY_BYTES, upstreamFetch } from "./upstream-transport";

let server: Server;
let base = "";
let connections = 0;
const seen: { url?: string; headers: IncomingHttpHeaders }[] = [];
/** Requests whose socket the client closed before the server answered. */
const closedEarly = new Set<string>();
/** Bytes each hostile response managed to write before the client hung up. */
const written: Record<string, number> = {};

/** Streams `total` bytes of a JSON-looking body in 64 KB chunks, as fast as the client reads. */
function hostileBody(res: ServerResponse, path: string, total: number) {
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

/** Polls (no fixed wait) until `check` holds, for what the server sees after the client gives up. */
async function eventually(check: () => boolean, ms = 2000): Promise<void> {
  const until = performance.now() + ms;
  while (!check()) {
    if (performance.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    res.on("close", () => {
      if (!res.writableFinished && req.url) closedEarly.add(req.url);
    });
    if (req.url === "/redirect") {
      res.writeHead(302, { Location: "/elsewhere" });
      return res.end();
    }
    if (req.url?.startsWith("/hang")) return; // never answers
    if (req.url === "/trickle") {
      // Headers and a first byte at once, the rest never: the abort must reach the body read.
      res.writeHead(200, { "Content-Type": "application/json" });
      return void res.write("[");
    }
    if (req.url?.startsWith("/v1/huge-declared")) {
      // Announces 20 MB, sends the first 64 KB and no more: only a refusal on the header ends this.
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(20 * 1024 * 1024 + 1), "X-Request-ID": "req_huge" });
      return void res.write(Buffer.alloc(64 * 1024, " "));
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
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server?.close());

describe("upstreamFetch", () => {
  it("sends the given headers and returns status, headers and body", async () => {
    const res = await upstreamFetch(`${base}/v1/x?a=1`, { headers: { Authorization: "Bearer k" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("req_1");
    expect(res.headers.get("set-cookie")).toBe("a=1, b=2");
    expect(await res.json()).toEqual({ ok: "é" });
    expect(seen.at(-1)).toMatchObject({ url: "/v1/x?a=1", headers: { authorization: "Bearer k" } });
  });

  it("sends only the headers it is given (no User-Agent, Accept-Encoding or other transport defaults)", async () => {
    await upstreamFetch(`${base}/v1/only`, { headers: new Headers({ Authorization: "Bearer k", Accept: "application/json" }) });
    const sent = seen.find((s) => s.url === "/v1/only")!.headers;
    // Host and Connection (keep-alive) are HTTP/1.1's own; everything else came from the caller.
    expect(Object.keys(sent).sort()).toEqual(["accept", "authorization", "connection", "host"]);
  });

  it("takes headers in every form fetch does (a record, Headers, [name, value] pairs)", async () => {
    await upstreamFetch(`${base}/v1/pairs`, {
      headers: [
        ["Authorization", "Bearer p"],
        ["Accept", "application/json"],
      ],
    });
    expect(seen.find((s) => s.url === "/v1/pairs")!.headers).toMatchObject({ authorization: "Bearer p", accept: "application/json" });
  });

  it("keeps connections alive: sequential calls to one origin reuse one socket", async () => {
    await upstreamFetch(`${base}/v1/warm`); // a pooled socket exists from here on
    const before = connections;
    for (let i = 0; i < 5; i++) await (await upstreamFetch(`${base}/v1/pooled?i=${i}`)).text();
    expect(connections - before).toBe(0);
  });

  it("does not follow redirects", async () => {
    const res = await upstreamFetch(`${base}/redirect`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/elsewhere");
    expect(seen.some((s) => s.url === "/elsewhere")).toBe(false);
  });

  it("handles bodiless statuses", async () => {
    expect((await upstreamFetch(`${base}/empty`)).status).toBe(204);
  });

  it("aborts with the signal before the headers, and the upstream sees the request dropped", async () => {
    const controller = new AbortController();
    const pending = upstreamFetch(`${base}/hang?a`, { signal: controller.signal });
    await eventually(() => seen.some((s) => s.url === "/hang?a"));
    controller.abort(new Error("export cancelled"));
    await expect(pending).rejects.toThrow();
    // A cancelled export must not leave its upstream calls running on a pooled socket.
    await eventually(() => closedEarly.has("/hang?a"));
  });

  it("aborts with the signal while the body is being read", async () => {
    const controller = new AbortController();
    const pending = upstreamFetch(`${base}/trickle`, { signal: controller.signal });
    await eventually(() => seen.some((s) => s.url === "/trickle"));
    setTimeout(() => controller.abort(new Error("export cancelled")), 50);
    await expect(pending).rejects.toThrow();
    await eventually(() => closedEarly.has("/trickle"));
  });

  it("through the client, the per-attempt timeout still ends a call that never answers (504 upstream_timeout)", async () => {
    const api = createDataApiClient({ baseUrl: `${base}/hang/v1`, apiKey: "svc_sk_test_0123456789abcdef", fetch: upstreamFetch, timeoutMs: 100 });
    const started = performance.now();
    const error = await api.get("/intelligence/ranking", {}).catch((e: unknown) => e);
    expect(isDataApiError(error) && [error.status, error.code]).toEqual([504, "upstream_timeout"]);
    expect(performance.now() - started).toBeLessThan(1500);
    await eventually(() => closedEarly.has("/hang/v1/intelligence/ranking"));
  });

  it("upstream body cap: a body just under the cap is read whole", async () => {
    const body = (await (await upstreamFetch(`${base}/v1/just-under-cap`)).json()) as { pad: string };
    expect(body.pad.length).toBe(MAX_UPSTREAM_BODY_BYTES - 20);
  });

  it("upstream body cap: a declared Content-Length over the cap is refused before the body is read", async () => {
    // Waiting for the body (or counting it up to the cap) would end in this abort instead.
    const error = await upstreamFetch(`${base}/v1/huge-declared`, { signal: AbortSignal.timeout(1000) }).catch((e: unknown) => e);
    expect(isDataApiError(error) && error.code).toBe("unexpected_response");
    expect(isDataApiError(error) && error.requestId).toBe("req_huge");
    await eventually(() => closedEarly.has("/v1/huge-declared"));
  });

  it("upstream body cap: a chunked body is cut off once it passes the cap", async () => {
    const error = await upstreamFetch(`${base}/v1/huge-chunked`).catch((e: unknown) => e);
    expect(isDataApiError(error) && error.code).toBe("unexpected_response");
    expect(isDataApiError(error) && error.message).toMatch(/larger than 4 MB/);
    expect(isDataApiError(error) && error.requestId).toBe("req_chunked");
    // Cut off long before the end (what the server wrote includes the sockets' kernel buffers).
    await eventually(() => closedEarly.has("/v1/huge-chunked"));
    expect(written.chunked!).toBeLessThan(10 * 1024 * 1024);
  });

  it("upstream body cap: through the client, an oversized body is a 502 unexpected_response, not retried", async () => {
    const api = createDataApiClient({ baseUrl: `${base}/v1`, apiKey: "svc_sk_test_0123456789abcdef", fetch: upstreamFetch });
    const before = seen.filter((s) => s.url === "/v1/intelligence/score").length;
    const error = await api.get("/intelligence/score", {}).catch((e: unknown) => e);
    expect(isDataApiError(error) && [error.status, error.code]).toEqual([502, "unexpected_response"]);
    expect(seen.filter((s) => s.url === "/v1/intelligence/score").length - before).toBe(1);
  });

  it("rejects when nothing listens", async () => {
    await expect(upstreamFetch("http://127.0.0.1:1/")).rejects.toThrow();
  });
});
