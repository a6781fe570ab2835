// The reads (lib/queries/server-api.ts) seen from the browser: `browserApi.get(path, input)` calls
// this app's /api routes (never the upstream; the key stays on the server) and turns their error
// bodies into DataApiError with the request id for the UI; `apiQuery(api, path, input)` is the React
// Query options of any route, for the browser and for server prefetch (`serverApi`) alike. Typed from
// the table through `import type` only: no zod and no normaliser reaches the browser bundle.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { CallOptions } from "@/lib/data-api/api";
import type { InputOf, ResultOf } from "@/lib/data-api/endpoints";
import { DataApiError } from "@/lib/data-api/errors";
import { fillPath, routeKey, withQuery } from "@/lib/data-api/route-path";
import type { ErrorBody } from "@/lib/data-api/schemas";
import type { ApiPath, ApiRoutes, ApiTransport } from "./server-api";

export type { ApiPath, ApiTransport };

type QueryValues = Record<string, string | number | boolean | undefined>;

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string";
}

/** GET one of this app's JSON routes; any failure is a DataApiError (status 0: no answer at all). */
export async function getJson<T>(url: string, options?: CallOptions): Promise<T> {
  return (await callJson<T>(url, { headers: { Accept: "application/json" }, signal: options?.signal, cache: "no-store" }, false, options?.signal)) as T;
}

/**
 * The browser's one way to write (POST, PUT, PATCH, DELETE to one of this app's JSON routes, with an
 * optional JSON body): the answer's JSON, or null when a success has no body (204); any failure is a
 * DataApiError with the route's status, code, message and the field it names (`param`), and whatever
 * else the answer carried (`extra`: a 409's `current`); no answer at all is status 0, `network_error`.
 * Each domain's hooks say a failure in their own words from these. The browser adds the same-origin
 * headers (`Origin`, `Sec-Fetch-Site`) the write routes check; nothing is added here.
 */
export async function sendJson<T>(method: "POST" | "PUT" | "PATCH" | "DELETE", url: string, body?: unknown): Promise<T | null> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return callJson<T>(url, { method, headers, cache: "no-store", ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }, true);
}

/** `noContent`: a success without a body (a 204, a bare 202) is an answer (null) rather than an unexpected one. */
async function callJson<T>(url: string, init: RequestInit, noContent: boolean, signal?: AbortSignal): Promise<T | null> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new DataApiError({ status: 0, code: "network_error", message: "Could not reach the dashboard server. Check your connection." });
  }
  const headerRequestId = res.headers.get("x-request-id") ?? undefined;
  let body: unknown;
  try {
    const text = await res.text();
    if (noContent && res.ok && text === "") return null;
    body = JSON.parse(text);
  } catch {
    throw new DataApiError({
      status: res.ok ? 502 : res.status,
      code: "unexpected_response",
      message: "The server sent an unexpected response.",
      requestId: headerRequestId,
    });
  }
  if (!res.ok) {
    if (isErrorBody(body)) {
      const retryAfter = Number(res.headers.get("retry-after"));
      const { error: _error, ...extra } = body as ErrorBody & Record<string, unknown>;
      throw new DataApiError({
        status: res.status,
        code: body.error.code,
        message: body.error.message,
        param: body.error.param,
        requestId: body.error.request_id ?? headerRequestId,
        retryAfter: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
        ...(Object.keys(extra).length > 0 ? { extra } : {}),
      });
    }
    throw new DataApiError({ status: res.status, code: "http_error", message: `Request failed (HTTP ${res.status}).`, requestId: headerRequestId });
  }
  // The route handlers already validated and normalised the body into the canonical shapes.
  return body as T;
}

/** A shared page's address (`/s/{token}`): its reads go to that link's own routes. */
const SHARED_PAGE = /^\/s\/([A-Za-z0-9_-]{32})\/?$/;

/**
 * Where the browser's reads go: `/api`, or on a shared page (a link for people without the key) that
 * link's `/api/shared/{token}`, which serves the reads its page makes and nothing else.
 */
function apiBase(): string {
  const shared = typeof window === "undefined" ? null : SHARED_PAGE.exec(window.location.pathname);
  return shared ? `/api/shared/${shared[1]}` : "/api";
}

/** The URL of a route of this app's API for an input (path parameters URL-encoded, query sorted). */
export function apiUrl(path: ApiPath, input: { params?: Readonly<Record<string, string>>; query?: object }): string {
  return `${apiBase()}${withQuery(fillPath(path, input.params), input.query as QueryValues | undefined)}`;
}

export const browserApi: ApiTransport = {
  get: (path, input, options) => getJson(apiUrl(path, input), options),
};

/**
 * React Query options for a route: the key is the path's segments (parameters filled) plus the
 * query, and a list keeps showing its previous page while the next one loads.
 */
export function apiQuery<P extends ApiPath>(api: ApiTransport, path: P, input: InputOf<ApiRoutes[P]>) {
  const params = input.params as Readonly<Record<string, string>> | undefined;
  const query = input.query as QueryValues | undefined;
  return queryOptions<ResultOf<ApiRoutes[P]>>({
    queryKey: routeKey(path, params, query),
    queryFn: ({ signal }) => api.get(path, input, { signal }),
    ...(query ? { placeholderData: keepPreviousData } : {}),
  });
}
