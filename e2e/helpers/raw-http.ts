// Raw HTTP/1.1 over a socket, for requests that fetch will not send as written: `OPTIONS *`, `TRACE`,
// paths with bad percent-encoding or dot segments, and requests from a chosen loopback source address
// (127.0.0.0/8 is all loopback on Linux), so a test can be "another client". Used by the system tests
// against the layer's production server and by the front server's unit test against its own
// (`base`), and by the sign-in body bench; no Playwright imports.
import { connect, type Socket } from "node:net";

export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/** The dashboard under test (as in helpers/session.ts). */
const DASHBOARD = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3107)}`;

/**
 * Sends `head` (request line + headers, without Host and the blank line) and `body`; reads until the
 * server closes. `host` replaces the Host header (the app's own by default).
 */
export function rawRequest(head: string, options: { body?: string | Buffer; localAddress?: string; host?: string; base?: string } = {}): Promise<RawResponse> {
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

export type RawUpload = { response: string; sent: number; error: string | null };

/**
 * One connection: sends `head` (request line and headers, without Host and the blank line) and then
 * streams a body of `total` bytes (Infinity: until the server closes), raw or chunked, as fast as the
 * socket takes it or one KB every `paceMs`, reading whatever comes back all the while. Like a client
 * that uploads its whole body whatever the server says (Python's sendall, a script), it goes on
 * writing after the server's answer and FIN. Resolves once the connection has closed: what came back
 * (head and body, raw), how much body was written, and the error the socket ended with, if any.
 */
export function rawUpload(
  head: string,
  options: { total: number; chunked?: boolean; paceMs?: number; localAddress?: string; base?: string; onSocket?: (socket: Socket) => void },
): Promise<RawUpload> {
  const target = new URL(options.base ?? DASHBOARD);
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname, port: Number(target.port), localAddress: options.localAddress, allowHalfOpen: true });
    options.onSocket?.(socket);
    const chunks: Buffer[] = [];
    let sent = 0;
    let error: string | null = null;
    let pacer: ReturnType<typeof setInterval> | undefined;
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on("close", () => {
      clearInterval(pacer);
      resolve({ response: Buffer.concat(chunks).toString("latin1"), sent, error });
    });
    socket.write(`${head}\r\nHost: ${target.host}\r\n\r\n`);
    const frame = (data: Buffer) => (options.chunked ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")]) : data);
    if (options.paceMs) {
      const kb = Buffer.alloc(1024, "x");
      pacer = setInterval(() => {
        if (socket.destroyed || !socket.writable) return clearInterval(pacer);
        sent += kb.length;
        socket.write(frame(kb));
      }, options.paceMs);
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, "x");
    const pump = () => {
      while (sent < options.total && !socket.destroyed && socket.writable) {
        sent += chunk.length;
        if (!socket.write(frame(chunk))) return void socket.once("drain", pump);
      }
      if (sent >= options.total && socket.writable) socket.end(options.chunked ? "0\r\n\r\n" : "");
    };
    pump();
  });
}
