// Raw HTTP/1.1 over a socket, for requests that fetch and Playwright will not send as written:
// `OPTIONS *`, `TRACE`, paths with bad percent-encoding or dot segments, and requests from a chosen
// loopback source address (127.0.0.0/8 is all loopback on Linux), so a test can be "another client".
// Also used by the front server's unit test against its own server (`base`); no Playwright imports.
import { connect } from "node:net";

export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/** The dashboard under test (as in helpers/session.ts). */
const DASHBOARD = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3107)}`;

/**
 * Sends `head` (request line + headers, without Host and the blank line) and `body`; reads until the
 * server closes. `host` replaces the Host header (the app's own by default).
 */
export function rawRequest(
  head: string,
  options: { body?: string | Buffer; localAddress?: string; host?: string; base?: string } = {},
): Promise<RawResponse> {
  const target = new URL(options.base ?? DASHBOARD);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: target.hostname, port: Number(target.port), localAddress: options.localAddress });
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no answer to ${head.split("\r\n")[0]}`)));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return reject(new Error(`no HTTP response to ${head.split("\r\n")[0]}: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim().toLowerCase();
        headers[name] = headers[name] ? `${headers[name]}, ${line.slice(colon + 1).trim()}` : line.slice(colon + 1).trim();
      }
      let body = text.slice(end + 4);
      if (/chunked/i.test(headers["transfer-encoding"] ?? "")) body = dechunk(body);
      resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: Buffer.from(body, "latin1").toString("utf8") });
    });
    socket.write(`${head}\r\nHost: ${options.host ?? target.host}\r\nConnection: close\r\n\r\n`);
    if (options.body !== undefined) socket.write(options.body);
  });
}

function dechunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const eol = rest.indexOf("\r\n");
    if (eol < 0) return out;
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

/** A JSON POST /api/session from `localAddress`, as a browser page of this app would send it. */
export function rawSignIn(body: unknown, options: { localAddress?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  const payload = JSON.stringify(body);
  const headers = { "Content-Type": "application/json", Origin: DASHBOARD, "Content-Length": String(Buffer.byteLength(payload)), ...options.headers };
  const head = [`POST /api/session HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join("\r\n");
  return rawRequest(head, { body: payload, localAddress: options.localAddress });
}
