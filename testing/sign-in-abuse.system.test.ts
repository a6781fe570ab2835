// Abuse of the sign-in endpoint against the production entry (`npm start`'s front server in front of
// Next, testing/system-setup.ts), from the outside reviews: unbounded bodies, and a 413 the client
// could miss under its own upload; throttling that trusted X-Forwarded-For and had a global cap; the
// Secure cookie flag behind a TLS proxy. Clients are told apart by their socket address: these tests
// send from loopback addresses of their own (127.0.2.x and 127.0.3.x), so their failed attempts never
// throttle another file's sign-ins from 127.0.0.1. (Moved from the end-to-end tests: no browser is needed.)
import { beforeAll, describe, expect, it } from "vitest";
import { rawRequest, rawUpload, type RawResponse } from "@/e2e/helpers/raw-http";
import { deriveDemoKey } from "@/sandbox/keys";
import { production } from "./system";

const KEY = deriveDemoKey("pro", "signinabuse");
const errorCode = (body: string) => (JSON.parse(body) as { error: { code: string } }).error.code;

let base = "";
beforeAll(() => {
  base = production().base;
});

/** A JSON POST /api/session from `localAddress`, as a page of this app would send it. */
function rawSignIn(body: unknown, localAddress: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const payload = JSON.stringify(body);
  const all = { "Content-Type": "application/json", Origin: base, "Content-Length": String(Buffer.byteLength(payload)), ...headers };
  const head = ["POST /api/session HTTP/1.1", ...Object.entries(all).map(([k, v]) => `${k}: ${v}`)].join("\r\n");
  return rawRequest(head, { body: payload, localAddress, base });
}

describe("sign-in body size", () => {
  it("a declared Content-Length over the limit is refused with 413 payload_too_large", async () => {
    const head = ["POST /api/session HTTP/1.1", "Content-Type: application/json", `Origin: ${base}`, `Content-Length: ${10 * 1024 * 1024}`].join("\r\n");
    // Only the head and a little of the body are sent: the answer must not wait for the rest.
    const res = await rawRequest(head, { body: `{"apiKey":"${"x".repeat(1000)}`, localAddress: "127.0.2.21", base });
    expect(res.status).toBe(413);
    expect(errorCode(res.body)).toBe("payload_too_large");
  });

  it("a chunked body over the limit is refused with 413 payload_too_large", async () => {
    const head = ["POST /api/session HTTP/1.1", "Content-Type: application/json", `Origin: ${base}`, "Transfer-Encoding: chunked"].join("\r\n");
    const chunk = `{"apiKey":"${"x".repeat(20_000)}"}`;
    const res = await rawRequest(head, { body: `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`, localAddress: "127.0.2.22", base });
    expect(res.status).toBe(413);
    expect(errorCode(res.body)).toBe("payload_too_large");
  });

  it.each([false, true])("a client streaming 50 MB (chunked: %s) reads the 413 every time, never reset under its upload", async (chunked) => {
    const MB = 1024 * 1024;
    const framing = chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${50 * MB}`;
    const head = ["POST /api/session HTTP/1.1", "Content-Type: application/json", `Origin: ${base}`, framing].join("\r\n");
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const res = await rawUpload(head, { total: 50 * MB, chunked, localAddress: `127.0.2.${chunked ? 25 : 24}`, base });
      expect(res.response.split(" ", 2)[1], `attempt ${i}`).toBe("413");
      expect(errorCode(res.response.slice(res.response.indexOf("\r\n\r\n") + 4))).toBe("payload_too_large");
      // The server reads the rest and closes cleanly once it is all in; only its 5 s lingering bound
      // may cut a client this machine makes too slow to send 50 MB in that time.
      if (res.error !== null) expect(Date.now() - started, `attempt ${i}: ${res.error} after ${res.sent} bytes`).toBeGreaterThanOrEqual(5000);
      else expect(res.sent).toBe(50 * MB);
    }
  });

  it("a small chunked body still signs in", async () => {
    const body = JSON.stringify({ apiKey: KEY });
    const head = ["POST /api/session HTTP/1.1", "Content-Type: application/json", `Origin: ${base}`, "Transfer-Encoding: chunked"].join("\r\n");
    const chunked = `${(10).toString(16)}\r\n${body.slice(0, 10)}\r\n${(body.length - 10).toString(16)}\r\n${body.slice(10)}\r\n0\r\n\r\n`;
    const res = await rawRequest(head, { body: chunked, localAddress: "127.0.2.26", base });
    expect(res.status, res.body).toBe(200);
  });

  it("a small body still signs in", async () => {
    const res = await rawSignIn({ apiKey: KEY }, "127.0.2.23");
    expect(res.status, res.body).toBe(200);
  });
});

describe("sign-in throttling", () => {
  it("rotating X-Forwarded-For does not escape the per-client limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await rawSignIn({ apiKey: "not-a-key" }, "127.0.2.31", { "X-Forwarded-For": `203.0.113.${i + 1}` })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Locked out for real: a correct key from the same client waits too.
    const blocked = await rawSignIn({ apiKey: KEY }, "127.0.2.31", { "X-Forwarded-For": "198.51.100.77" });
    expect(blocked.status).toBe(429);
    expect(errorCode(blocked.body)).toBe("too_many_attempts");
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("failures from many clients never lock out a correct key from another", async () => {
    // 15 clients x 10 failures: 150 failed attempts a minute, over the old global cap of 100.
    await Promise.all(
      Array.from({ length: 15 }, async (_, c) => {
        for (let i = 0; i < 10; i++) await rawSignIn({ apiKey: "not-a-key" }, `127.0.3.${c + 1}`);
      }),
    );
    const res = await rawSignIn({ apiKey: KEY }, "127.0.2.32");
    expect(res.status, res.body).toBe(200);
  });

  it("upstream failures count as failed attempts too", async () => {
    // A key of the right form the upstream does not know: 401 each time, then the limit.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await rawSignIn({ apiKey: `svc_sk_test_unknown_${i}_abcdef` }, "127.0.2.33")).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });
});

describe("the session cookie's Secure flag", () => {
  it.each([
    { name: "behind a TLS proxy (X-Forwarded-Proto: https)", headers: { "X-Forwarded-Proto": "https" }, secure: true },
    { name: "for a public Host", headers: { Host: "dash.example.com", Origin: "https://dash.example.com" }, secure: true },
    { name: "plain http to a loopback host (local development)", headers: {}, secure: false },
  ])("$name: Secure is $secure", async ({ headers, secure }) => {
    const { Host, ...rest } = headers as Record<string, string>;
    // rawRequest sets Host itself; a different one replaces it.
    const payload = JSON.stringify({ apiKey: KEY });
    const all = { "Content-Type": "application/json", Origin: base, "Content-Length": String(payload.length), ...rest };
    const lines = ["POST /api/session HTTP/1.1", ...Object.entries(all).map(([k, v]) => `${k}: ${v}`)];
    const res = await rawRequest(lines.join("\r\n"), { body: payload, localAddress: "127.0.2.41", host: Host, base });
    expect(res.status, res.body).toBe(200);
    const setCookie = res.headers["set-cookie"] ?? "";
    expect(setCookie).toMatch(/^wa_session=/);
    expect(/;\s*Secure/i.test(setCookie)).toBe(secure);
  });
});
