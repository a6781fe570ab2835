// Abuse of the sign-in endpoint against the production entry (`npm start`'s server in front of Next),
// from the outside reviews: unbounded bodies, and a 413 the client could miss under its own upload;
// throttling that trusted X-Forwarded-For and had a global cap; the Secure cookie flag behind a TLS
// proxy.
// Clients are told apart by their socket address: these tests send from their own loopback
// addresses (127.0.0.0/8), so their failed attempts never throttle the other specs at 127.0.0.1.
import { expect, test } from "@playwright/test";
import { DEMO_KEYS } from "./helpers/sandbox";
import { rawRequest, rawSignIn, rawUpload } from "./helpers/raw-http";
import { BASE_URL } from "./helpers/session";

const errorCode = (body: string) => (JSON.parse(body) as { error: { code: string } }).error.code;

test.describe("sign-in body size", () => {
  test("sign-in body: a declared Content-Length over the limit is refused with 413 payload_too_large", async () => {
    const head = ["POST /api/session HTTP/1.1", "Content-Type: application/json", `Origin: ${BASE_URL}`, `Content-Length: ${10 * 1024 * 1024}`].join("\r\n");
    // Only the head and a little of the body are sent: the answer must not wait for the rest.
    const res = await rawRequest(head, { body: `{"apiKey":"${"x".repeat(1000)}`, localAddress: "127.0.0.21" });
    expect(res.status).toBe(413);
    expect(errorCode(res.body)).toBe("payload_too_large");
  });

  test("sign-in body: a chunked body over the limit is refused with 413 payload_too_large", async () => {
    const head = ["POST /api/session HTTP/1.1", "Content-Type: application/json", `Origin: ${BASE_URL}`, "Transfer-Encoding: chunked"].join("\r\n");
    const chunk = `{"apiKey":"${"x".repeat(20_000)}"}`;
    const body = `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`;
    const res = await rawRequest(head, { body, localAddress: "127.0.0.22" });
    expect(res.status).toBe(413);
    expect(errorCode(res.body)).toBe("payload_too_large");
  });

  for (const chunked of [false, true]) {
    test(`sign-in body: a client streaming 50 MB ${chunked ? "chunked" : "with a declared length"} reads the 413 every time, never reset under its upload`, async () => {
      const MB = 1024 * 1024;
      const framing = chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${50 * MB}`;
      const head = ["POST /api/session HTTP/1.1", "Content-Type: application/json", `Origin: ${BASE_URL}`, framing].join("\r\n");
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const res = await rawUpload(head, { total: 50 * MB, chunked, localAddress: `127.0.0.${chunked ? 25 : 24}` });
        expect(res.response.split(" ", 2)[1], `attempt ${i}`).toBe("413");
        expect(errorCode(res.response.slice(res.response.indexOf("\r\n\r\n") + 4))).toBe("payload_too_large");
        // The server reads the rest and closes cleanly once it is all in; only its 5 s lingering bound
        // may cut a client this machine makes too slow to send 50 MB in that time.
        if (res.error !== null) expect(Date.now() - started, `attempt ${i}: ${res.error} after ${res.sent} bytes`).toBeGreaterThanOrEqual(5000);
        else expect(res.sent).toBe(50 * MB);
      }
    });
  }

  test("sign-in body: a small chunked body still signs in", async () => {
    const body = JSON.stringify({ apiKey: DEMO_KEYS.pro });
    const head = ["POST /api/session HTTP/1.1", "Content-Type: application/json", `Origin: ${BASE_URL}`, "Transfer-Encoding: chunked"].join("\r\n");
    const chunked = `${(10).toString(16)}\r\n${body.slice(0, 10)}\r\n${(body.length - 10).toString(16)}\r\n${body.slice(10)}\r\n0\r\n\r\n`;
    const res = await rawRequest(head, { body: chunked, localAddress: "127.0.0.26" });
    expect(res.status, res.body).toBe(200);
  });

  test("sign-in body: a small body still signs in", async () => {
    const res = await rawSignIn({ apiKey: DEMO_KEYS.pro }, { localAddress: "127.0.0.23" });
    expect(res.status).toBe(200);
  });
});

test.describe("sign-in throttling", () => {
  test("sign-in throttling: rotating X-Forwarded-For does not escape the per-client limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await rawSignIn({ apiKey: "not-a-key" }, { localAddress: "127.0.0.31", headers: { "X-Forwarded-For": `203.0.113.${i + 1}` } });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Locked out for real: a correct key from the same client waits too.
    const blocked = await rawSignIn({ apiKey: DEMO_KEYS.pro }, { localAddress: "127.0.0.31", headers: { "X-Forwarded-For": "198.51.100.77" } });
    expect(blocked.status).toBe(429);
    expect(errorCode(blocked.body)).toBe("too_many_attempts");
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
  });

  test("sign-in throttling: failures from many clients never lock out a correct key from another", async () => {
    // 15 clients x 10 failures: 150 failed attempts a minute, over the old global cap of 100.
    await Promise.all(
      Array.from({ length: 15 }, async (_, c) => {
        for (let i = 0; i < 10; i++) await rawSignIn({ apiKey: "not-a-key" }, { localAddress: `127.0.1.${c + 1}` });
      }),
    );
    const res = await rawSignIn({ apiKey: DEMO_KEYS.pro }, { localAddress: "127.0.0.32" });
    expect(res.status).toBe(200);
  });

  test("sign-in throttling: upstream failures count as failed attempts too", async () => {
    // A key of the right form the upstream does not know: 401 each time, then the limit.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await rawSignIn({ apiKey: `svc_sk_test_unknown_${i}_abcdef` }, { localAddress: "127.0.0.33" })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });
});

test.describe("session cookie Secure flag", () => {
  const cases = [
    { name: "behind a TLS proxy (X-Forwarded-Proto: https)", headers: { "X-Forwarded-Proto": "https" }, secure: true },
    { name: "for a public Host", headers: { Host: "dash.example.com", Origin: "https://dash.example.com" }, secure: true },
    { name: "plain http to a loopback host (local development)", headers: {}, secure: false },
  ];
  for (const c of cases) {
    test(`session cookie Secure flag: ${c.secure ? "set" : "not set"} ${c.name}`, async () => {
      const { Host, ...rest } = c.headers as Record<string, string>;
      // rawRequest sets Host itself; a different one replaces it.
      const payload = JSON.stringify({ demo: "pro" });
      const headers = { "Content-Type": "application/json", Origin: BASE_URL, "Content-Length": String(payload.length), ...rest };
      const lines = [`POST /api/session HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      const res = await rawRequest(lines.join("\r\n"), { body: payload, localAddress: "127.0.0.41", host: Host });
      expect(res.status, res.body).toBe(200);
      const setCookie = res.headers["set-cookie"] ?? "";
      expect(setCookie).toMatch(/^wa_session=/);
      expect(/;\s*Secure/i.test(setCookie)).toBe(c.secure);
    });
  }
});
