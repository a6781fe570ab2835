// The front server over real sockets, with a stand-in for Next that answers with what it received
// (method, URL and the peer-address header), so each test sees exactly what would reach the app.
// e2e/api-security.spec.ts checks the same behaviour with the real Next behind it.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "@/e2e/helpers/raw-http";
import { PEER_ADDRESS_HEADER } from "./client-address";
import { checkRequest, createFrontServer, NOT_FOUND_PATH } from "./front-server";

let server: Server;
let base = "";

beforeAll(async () => {
  server = createFrontServer({
    handle: async (req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ method: req.method, url: req.url, peer: req.headers[PEER_ADDRESS_HEADER] ?? null }));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server?.close());

const send = (head: string, options: { localAddress?: string } = {}) => rawRequest(head, { ...options, base });
type Seen = { method: string; url: string; peer: string | null };

describe("front server", () => {
  it("passes the socket's address on, replacing any copy the client sent", async () => {
    const res = await send(`GET /api/visitors HTTP/1.1\r\n${PEER_ADDRESS_HEADER}: 203.0.113.9\r\n${PEER_ADDRESS_HEADER}: 198.51.100.1`, { localAddress: "127.0.0.77" });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ method: "GET", url: "/api/visitors", peer: "127.0.0.77" });
  });

  it.each([
    ["TRACE /", 405],
    // Not a method Node's HTTP parser knows: it answers 400 itself.
    ["TRACK /", 400],
    ["OPTIONS *", 405],
    ["OPTIONS /api/visitors", 405],
    ["PUT /api/session", 405],
    ["PATCH /", 405],
    ["PROPFIND /", 405],
    ["DELETE /api/visitors", 405],
    ["POST /visitors", 405],
    ["POST /api/visitors", 405],
    ["DELETE /api/export/cancel", 405],
    ["POST /api/export/visitors", 405],
    ["GET http://evil.example/", 400],
    ["GET /api/visitors/vis_abc%", 400],
    ["GET /api/visitors/%2e%2e", 400],
    ["GET /api/visitors/.%2E/x", 400],
    ["GET /api/./visitors", 400],
    ["GET /api/visitors\\..\\x", 400],
    ["GET /api/visitors/%5C", 400],
    ["GET /api/visitors/%00", 400],
  ])("refuses %s with %i before the app", async (line, status) => {
    const res = await send(`${line} HTTP/1.1\r\nContent-Length: 0`);
    expect(res.status).toBe(status);
    expect(res.body).not.toContain('"peer"');
    if (line.includes(" /api/")) expect(JSON.parse(res.body).error.code).toMatch(/^(method_not_allowed|invalid_path)$/);
  });

  it("answers CONNECT with 405 instead of dropping the connection", async () => {
    const res = await send("CONNECT 127.0.0.1:22 HTTP/1.1");
    expect(res.status).toBe(405);
  });

  it("hands odd page paths to the app's not-found route", async () => {
    for (const path of ["/visitors/%", "/visitors/%E0%A4%A", "/visitors/%2e%2e/settings", "/x/./y"]) {
      const res = await send(`GET ${path} HTTP/1.1`);
      expect((JSON.parse(res.body) as Seen).url, path).toBe(NOT_FOUND_PATH);
    }
  });

  it("lets ordinary requests through unchanged", async () => {
    for (const line of ["GET /visitors?source=chatgpt", "HEAD /", "POST /api/session", "DELETE /api/session", "POST /api/export/cancel?id=exp_x", "GET /api/visitors/vis_a%2Fb", "GET /_next/static/chunks/a.js"]) {
      const res = await send(`${line} HTTP/1.1\r\nContent-Length: 0`);
      expect(res.status, line).toBe(200);
    }
  });

  it("leaves Next's own development requests alone in dev", () => {
    expect(checkRequest("POST", "/__nextjs_original-stack-frames", true)).toBeNull();
    expect(checkRequest("TRACE", "/", true)?.status).toBe(405);
  });
});
