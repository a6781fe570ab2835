// The front server over real sockets, with a stand-in for Next that reads the body and answers with
// what it received (method, URL, the peer-address header, the body's size), so each test sees exactly
// what would reach the app. e2e/api-security.spec.ts and e2e/sign-in-abuse.spec.ts check the same
// behaviour with the real Next behind it.
import { connect, type AddressInfo, type Socket } from "node:net";
import type { Server } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { rawRequest, rawUpload } from "@/e2e/helpers/raw-http";
import { MAX_BODY_BYTES } from "./body-limit";
import { PEER_ADDRESS_HEADER } from "./client-address";
import {
  checkRequest,
  createFrontServer,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  LINGER_MAX_BYTES,
  LINGER_MS,
  NOT_FOUND_PATH,
  writeMethods,
} from "./front-server";
import { apiRouteFiles, isCatchAll, routeModule, WRITE_METHODS } from "@/testing/api-routes";

let server: Server;
let base = "";
let port = 0;
/** Requests the stand-in for Next has been handed. */
let handed = 0;

beforeAll(async () => {
  server = createFrontServer({
    handle: async (req, res) => {
      handed++;
      let bodyBytes = 0;
      for await (const chunk of req) bodyBytes += (chunk as Buffer).length;
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ method: req.method, url: req.url, peer: req.headers[PEER_ADDRESS_HEADER] ?? null, bodyBytes }));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => server?.close());

const send = (head: string, options: { localAddress?: string } = {}) => rawRequest(head, { ...options, base });
type Seen = { method: string; url: string; peer: string | null; bodyBytes: number };

describe("front server", () => {
  it("passes the socket's address on, replacing any copy the client sent", async () => {
    const res = await send(`GET /api/visitors HTTP/1.1\r\n${PEER_ADDRESS_HEADER}: 203.0.113.9\r\n${PEER_ADDRESS_HEADER}: 198.51.100.1`, {
      localAddress: "127.0.0.77",
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ method: "GET", url: "/api/visitors", peer: "127.0.0.77", bodyBytes: 0 });
  });

  it.each([
    ["TRACE /", 405],
    // Not a method Node's HTTP parser knows: it answers 400 itself.
    ["TRACK /", 400],
    ["OPTIONS *", 405],
    ["OPTIONS /api/visitors", 405],
    ["PUT /api/session", 405],
    ["PUT /api/workspace", 405],
    ["POST /api/workspace/watch", 405],
    ["DELETE /api/workspace/keys", 405],
    ["PATCH /api/views", 405],
    ["DELETE /api/views", 405],
    ["POST /api/views/view_x", 405],
    ["PATCH /api/views/view_x/more", 405],
    ["PATCH /", 405],
    ["PATCH /api/annotations", 405],
    ["PUT /api/annotations/ann_x", 405],
    ["POST /api/annotations/ann_x/y", 405],
    ["PATCH /api/alerts/destinations/dst_x", 405],
    ["POST /api/alerts/destinations/dst_x/tests", 405],
    ["POST /api/alerts/destinations//test", 405],
    ["DELETE /api/alerts/deliveries/dlv_x", 405],
    ["POST /api/alerts/deliveries/dlv_x/retry/again", 405],
    ["POST /api/alerts/digest", 405],
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
    for (const line of [
      "GET /visitors?source=chatgpt",
      "HEAD /",
      "POST /api/session",
      "DELETE /api/session",
      "POST /api/export/cancel?id=exp_x",
      "POST /api/workspace/keys",
      "PUT /api/workspace/watch",
      "DELETE /api/workspace/watch",
      "POST /api/views",
      "PATCH /api/views/view_x",
      "DELETE /api/views/view_x",
      "POST /api/annotations",
      "PATCH /api/annotations/ann_x",
      "DELETE /api/annotations/ann_x",
      "POST /api/alerts/destinations",
      "DELETE /api/alerts/destinations/dst_x",
      "POST /api/alerts/destinations/dst_x/test",
      "POST /api/alerts/rules",
      "PATCH /api/alerts/rules/rule_x",
      "DELETE /api/alerts/rules/rule_x",
      "POST /api/alerts/deliveries/dlv_x/retry",
      "PUT /api/alerts/digest",
      "POST /api/alerts/digest/send",
      "GET /api/visitors/vis_a%2Fb",
      "GET /_next/static/chunks/a.js",
    ]) {
      const res = await send(`${line} HTTP/1.1\r\nContent-Length: 0`);
      expect(res.status, line).toBe(200);
    }
  });

  it("leaves Next's own development requests alone in dev", () => {
    expect(checkRequest("POST", "/__nextjs_original-stack-frames", true)).toBeNull();
    expect(checkRequest("TRACE", "/", true)?.status).toBe(405);
  });
});

const statusOf = (response: string) => Number(response.split(" ", 2)[1]);
const jsonBodyOf = (response: string) => JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4)) as { error: { code: string; message: string } };
const upload = (head: string, options: Parameters<typeof rawUpload>[1]) => rawUpload(head, { ...options, base });
const signInHead = (framing: string) => `POST /api/session HTTP/1.1\r\nContent-Type: application/json\r\nOrigin: ${base}\r\n${framing}`;
const MB = 1024 * 1024;

describe("request bodies over the limit", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  for (const chunked of [false, true]) {
    it(`${chunked ? "chunked" : "declared"}: a client streaming 50 MB reads the 413 every time, and is never reset under its upload`, async () => {
      // The lingering time stands still (its own test is below): how fast this machine moves 50 MB
      // does not decide the outcome, only the byte bound and the server's reading do.
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const before = handed;
      for (let i = 0; i < 3; i++) {
        const res = await upload(signInHead(chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${50 * MB}`), { total: 50 * MB, chunked });
        expect(statusOf(res.response), `attempt ${i}`).toBe(413);
        expect(jsonBodyOf(res.response).error.code).toBe("payload_too_large");
        // The server read (and dropped) what the client sent after the answer, then closed cleanly.
        expect(res.error, `attempt ${i}`).toBeNull();
        expect(res.sent).toBe(50 * MB);
      }
      // Nothing of it reached the app.
      expect(handed).toBe(before);
    });
  }

  it("a chunked body within the limit reaches the app whole; one byte over is a 413; a declared body at the limit passes", async () => {
    const body = "x".repeat(MAX_BODY_BYTES);
    const chunkedBody = (text: string) =>
      [text.slice(0, 1000), text.slice(1000, 2500), text.slice(2500)]
        .filter(Boolean)
        .map((part) => `${part.length.toString(16)}\r\n${part}\r\n`)
        .join("") + "0\r\n\r\n";
    const within = await rawRequest(signInHead("Transfer-Encoding: chunked"), { base, body: chunkedBody(body) });
    expect(within.status).toBe(200);
    expect((JSON.parse(within.body) as Seen).bodyBytes).toBe(MAX_BODY_BYTES);
    const over = await rawRequest(signInHead("Transfer-Encoding: chunked"), { base, body: chunkedBody(`${body}x`) });
    expect(over.status).toBe(413);
    const declared = await rawRequest(signInHead(`Content-Length: ${MAX_BODY_BYTES}`), { base, body });
    expect((JSON.parse(declared.body) as Seen).bodyBytes).toBe(MAX_BODY_BYTES);
  });

  it("Expect: 100-continue with a body over the limit is refused before the client sends any of it", async () => {
    const res = await upload(`${signInHead(`Content-Length: ${50 * MB}`)}\r\nExpect: 100-continue`, { total: 0 });
    expect(res.response).not.toContain("100 Continue");
    expect(statusOf(res.response)).toBe(413);
  });

  it(`a client that never stops sending is cut off after ${LINGER_MAX_BYTES / MB} MB, having read the 413`, async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const res = await upload(signInHead(`Content-Length: ${1024 * MB}`), { total: Infinity });
    expect(statusOf(res.response)).toBe(413);
    expect(res.error).toMatch(/^(EPIPE|ECONNRESET)$/);
    // What the server read and dropped, plus what the sockets' buffers held when it closed.
    expect(res.sent).toBeGreaterThan(LINGER_MAX_BYTES);
    expect(res.sent).toBeLessThan(LINGER_MAX_BYTES + 16 * MB);
  });

  describe("on fake time", () => {
    it(`a client that keeps trickling its body is cut off ${LINGER_MS / 1000} s after the 413`, async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      let socket: Socket | undefined;
      const done = upload(signInHead(`Content-Length: ${50 * MB}`), { total: 50 * MB, paceMs: 10, onSocket: (s) => (socket = s) });
      const seen: Buffer[] = [];
      await new Promise<void>((resolve) => socket!.on("data", (c: Buffer) => (seen.push(c), resolve())));
      expect(statusOf(Buffer.concat(seen).toString("latin1"))).toBe(413);
      // The answer is out, and still the server reads what comes...
      await new Promise((r) => setImmediate(r));
      await vi.advanceTimersByTimeAsync(LINGER_MS - 100);
      await new Promise((r) => setInterval(r, 200).unref());
      expect(socket!.destroyed).toBe(false);
      // ...until the lingering time is up.
      await vi.advanceTimersByTimeAsync(200);
      const res = await done;
      expect(statusOf(res.response)).toBe(413);
      expect(res.sent).toBeLessThan(MB);
    });
  });
});

describe("idle connections", () => {
  it("are kept longer than nginx keeps its idle upstream connections (60 s), headers timeout above that", () => {
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(HEADERS_TIMEOUT_MS).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
    expect(server.requestTimeout === 0 || server.requestTimeout >= HEADERS_TIMEOUT_MS).toBe(true);
  });

  it("a kept-alive socket idle for longer than Node's default 5 s still takes the next request", async () => {
    const sockets: Socket[] = [];
    const onConnection = (s: Socket) => sockets.push(s);
    server.on("connection", onConnection);
    const client = connect({ host: "127.0.0.1", port });
    let received = "";
    client.on("data", (c: Buffer) => (received += c.toString("latin1")));
    const answers = (n: number) => received.split("HTTP/1.1 200").length - 1 >= n;
    const waitFor = async (check: () => boolean) => {
      for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    };
    try {
      client.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      await waitFor(() => answers(1));
      expect(answers(1)).toBe(true);
      // The server's idle timer on this socket is the keep-alive timeout (Node adds a second), not 5 s.
      expect(sockets.at(-1)!.timeout).toBeGreaterThanOrEqual(KEEP_ALIVE_TIMEOUT_MS);
      await new Promise((r) => setTimeout(r, 5500));
      expect(client.destroyed || client.readableEnded).toBe(false);
      client.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      await waitFor(() => answers(2));
      expect(answers(2)).toBe(true);
    } finally {
      server.off("connection", onConnection);
      client.destroy();
    }
  });
});

describe("the write routes the front server lets through", () => {
  /** Every route file under app/api but the catch-all, as a request path ([id] filled in) and the write methods its module exports. */
  async function routeFiles(): Promise<{ path: string; methods: string[] }[]> {
    const found: { path: string; methods: string[] }[] = [];
    for (const route of apiRouteFiles()) {
      if (route.segments.some(isCatchAll)) continue;
      const mod = (await routeModule(route)) as Record<string, unknown>;
      found.push({
        path: `/api/${route.segments.map((s) => (s.startsWith("[") ? "id_123" : s)).join("/")}`,
        methods: WRITE_METHODS.filter((m) => typeof mod[m] === "function"),
      });
    }
    return found;
  }

  it("are exactly the write methods each route file exports (read from app/api, never listed by hand), so a new write route cannot be refused by mistake", async () => {
    const files = await routeFiles();
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) expect([...writeMethods(file.path)].sort(), file.path).toEqual([...file.methods].sort());
    // A read-only route beside a pattern takes no writes: /api/alerts/rules/preview is not /api/alerts/rules/{id}.
    expect(writeMethods("/api/alerts/rules/preview")).toEqual([]);
    expect(writeMethods("/api/alerts/rules/rule_1")).toContain("DELETE");
    // A pattern's `*` is one segment, not none and not several.
    expect(writeMethods("/api/alerts/destinations//test")).toEqual([]);
    expect(writeMethods("/api/alerts/destinations/a/b/test")).toEqual([]);
    // The one page address that takes a write: an e-mail's one-click unsubscribe (RFC 8058), handed to its route by proxy.ts.
    expect(writeMethods("/mail/unsubscribe/tok")).toEqual(["POST"]);
    expect(checkRequest("POST", "/mail/unsubscribe/tok")).toBeNull();
    expect(checkRequest("POST", "/mail/confirm/tok")).toMatchObject({ status: 405 });
    expect(checkRequest("POST", "/mail/unsubscribe/tok/x")).toMatchObject({ status: 405 });
  });
});
