// The browser's DataApi: calls this app's /api route handlers (never the upstream; the key stays on
// the server) and turns their error bodies into DataApiError, keeping the request id for the UI.
import type { CallOptions, DataApi } from "@/lib/data-api/api";
import { DataApiError } from "@/lib/data-api/errors";
import { toSearchParams } from "@/lib/data-api/query-string";
import type { ErrorBody } from "@/lib/data-api/schemas";

type Query = Record<string, string | number | boolean | undefined>;

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string";
}

async function getJson<T>(path: string, query: Query | undefined, options?: CallOptions): Promise<T> {
  const qs = query ? toSearchParams(query).toString() : "";
  const url = qs ? `${path}?${qs}` : path;
  let res: Response;
  try {
    res = await fetch(url, { headers: { Accept: "application/json" }, signal: options?.signal, cache: "no-store" });
  } catch (err) {
    if (options?.signal?.aborted) throw err;
    throw new DataApiError({ status: 0, code: "network_error", message: "Could not reach the dashboard server. Check your connection." });
  }
  const headerRequestId = res.headers.get("x-request-id") ?? undefined;
  let body: unknown;
  try {
    body = await res.json();
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
      throw new DataApiError({
        status: res.status,
        code: body.error.code,
        message: body.error.message,
        param: body.error.param,
        requestId: body.error.request_id ?? headerRequestId,
        retryAfter: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
      });
    }
    throw new DataApiError({ status: res.status, code: "http_error", message: `Request failed (HTTP ${res.status}).`, requestId: headerRequestId });
  }
  // The route handlers already validated and normalised the body into the canonical shapes.
  return body as T;
}

const visitorPath = (id: string) => `/api/visitors/${encodeURIComponent(id)}`;

export const browserApi: DataApi = {
  listVisitors: (params, options) => getJson("/api/visitors", params, options),
  getVisitor: (id, options) => getJson(visitorPath(id), undefined, options),
  getVisitorTimeline: (id, options) => getJson(`${visitorPath(id)}/timeline`, undefined, options),
  listMentions: (params, options) => getJson("/api/mentions", params, options),
  getOverview: (params, options) => getJson("/api/analytics/overview", params, options),
  getTraffic: (params, options) => getJson("/api/analytics/traffic", params, options),
  getFunnel: (params, options) => getJson("/api/analytics/funnel", params, options),
  getScore: (options) => getJson("/api/intelligence/score", undefined, options),
  getRanking: (options) => getJson("/api/intelligence/ranking", undefined, options),
};
