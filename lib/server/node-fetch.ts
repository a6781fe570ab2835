// A minimal fetch over node:http(s) for upstream calls. Inside Next, the global fetch is patched
// for Next's data cache and tracing, which costs time on every call and is of no use here (the
// client has its own cache); this goes straight to the socket with keep-alive. It never follows
// redirects (the client treats them as errors), bounds the body size, and honours the abort signal.
import "server-only";
import http from "node:http";
import https from "node:https";
import { DataApiError } from "@/lib/data-api/errors";

/**
 * Larger bodies are refused: a Data API page of 100 rows is a few tens of kilobytes, and a visitor's
 * whole timeline a few hundred. The bound keeps a hostile or broken upstream from filling memory
 * (20 parallel 15 MB bodies took the server to 830 MB under the earlier 16 MB cap).
 */
export const MAX_UPSTREAM_BODY_BYTES = 4 * 1024 * 1024;

/** Not retried (a DataApiError passes through the client as it is): the same request gets the same body. */
const tooLarge = (requestId: string | undefined) =>
  new DataApiError({
    status: 502,
    code: "unexpected_response",
    message: `The Data API sent a response larger than ${MAX_UPSTREAM_BODY_BYTES / 1024 / 1024} MB, which this app does not read.`,
    requestId,
  });

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
        const requestId = typeof res.headers["x-request-id"] === "string" ? res.headers["x-request-id"] : undefined;
        // Refused on the declared length before a byte of the body is read.
        if (Number(res.headers["content-length"] ?? 0) > MAX_UPSTREAM_BODY_BYTES) {
          res.destroy();
          return reject(tooLarge(requestId));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_UPSTREAM_BODY_BYTES) {
            chunks.length = 0;
            res.destroy();
            reject(tooLarge(requestId));
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
