// The transport of every upstream call: undici's request() over one keep-alive Agent per process.
// Inside Next, the global fetch is patched for Next's data cache and tracing, which costs time on
// every call and is of no use here (the client has its own cache). request() is undici's fast path
// (no WHATWG stream or fetch-spec bookkeeping, and no headers of its own such as User-Agent or
// Accept-Encoding: only the client's go out). It never follows redirects (the client treats them as
// errors), bounds the body size, and honours the abort signal while connecting and while reading.
import "server-only";
import { Agent, request, type Dispatcher } from "undici";
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

/**
 * Held on globalThis: Next bundles server code into several layers (pages, route handlers), each
 * with its own copy of this module, and they should share one pool of connections per origin.
 * `maxResponseSize` makes undici cut a body off (and close the socket) once it passes the bound.
 */
const g = globalThis as typeof globalThis & { __waUpstreamAgent?: Agent };
const agent = (g.__waUpstreamAgent ??= new Agent({ connections: 128, maxResponseSize: MAX_UPSTREAM_BODY_BYTES }));

/** By code, not instanceof: another bundle's copy of undici may have raised it. */
const isOverSizeError = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === "UND_ERR_RES_EXCEEDED_MAX_SIZE";

const NULL_BODY = new Set([204, 205, 304]);

/** A fetch-shaped function (the client's `fetch` seam) that reads the whole body before it resolves. */
export async function upstreamFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const { statusCode, headers, body } = await request(url, {
    dispatcher: agent,
    method: (init.method ?? "GET") as Dispatcher.HttpMethod,
    // undici reads an array as flat name, value, name, value…: pairs and Headers become a record.
    headers: init.headers instanceof Headers || Array.isArray(init.headers) ? Object.fromEntries(init.headers) : init.headers,
    signal: init.signal ?? undefined,
  });
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const requestId = header("x-request-id");
  // Refused on the declared length before a byte of the body is read.
  if (Number(header("content-length") ?? 0) > MAX_UPSTREAM_BODY_BYTES) {
    body.destroy();
    throw tooLarge(requestId);
  }
  if (statusCode > 599) {
    body.destroy();
    throw new Error(`unexpected upstream status ${statusCode}`);
  }
  let bytes: ArrayBuffer;
  try {
    bytes = await body.arrayBuffer();
  } catch (error) {
    throw isOverSizeError(error) ? tooLarge(requestId) : error;
  }
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
  }
  return new Response(NULL_BODY.has(statusCode) ? null : bytes, { status: statusCode, headers: responseHeaders });
}
