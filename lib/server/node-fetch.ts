// A minimal fetch over node:http(s) for upstream calls. Inside Next, the global fetch is patched
// for Next's data cache and tracing, which costs time on every call and is of no use here (the
// client has its own cache); this goes straight to the socket with keep-alive. It never follows
// redirects (the client treats them as errors), bounds the body size, and honours the abort signal.
import "server-only";
import http from "node:http";
import https from "node:https";

/** Larger bodies are refused: a Data API page of 100 rows is a few tens of kilobytes. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 128 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 128 }),
};

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export function nodeFetch(input: string, init: RequestInit = {}): Promise<Response> {
  return new Promise((resolve, reject) => {
    const url = new URL(input);
    if (url.protocol !== "http:" && url.protocol !== "https:") return reject(new TypeError(`unsupported protocol ${url.protocol}`));
    const transport = url.protocol === "https:" ? https : http;
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const req = transport.request(
      url,
      { method: init.method ?? "GET", headers, agent: agents[url.protocol], signal: init.signal ?? undefined },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) {
            res.destroy(new Error("upstream body too large"));
            return;
          }
          chunks.push(chunk);
        });
        res.on("error", reject);
        res.on("end", () => {
          const status = res.statusCode ?? 502;
          const responseHeaders = new Headers();
          for (const [key, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(key, v);
          }
          if (status < 200 || status > 599) return reject(new Error(`unexpected upstream status ${status}`));
          resolve(new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}
