// The typed upstream client: the one place that builds Data API requests, sends them with the key
// through the key's scheduler (rate budget, priority, retries) and cache (single-flight + TTL),
// reads the rate-limit headers, maps every failure to DataApiError and normalises every body into
// the canonical shapes of schemas.ts. It implements the DataApi interface used by pages and routes.
import type { z } from "zod";
import type { CallOptions, DataApi } from "./api";
import { createRequestCache, type RequestCache } from "./cache";
import { VISITOR_ID_PATTERN } from "./constants";
import { DataApiError, isDataApiError } from "./errors";
import {
  normalizeFunnel,
  normalizeMentionList,
  normalizeOverview,
  normalizeRanking,
  normalizeScore,
  normalizeTimeline,
  normalizeTraffic,
  normalizeVisitor,
  normalizeVisitorList,
} from "./normalize";
import { mentionListParams, parseQuery, periodParams, toSearchParams, visitorListParams } from "./params";
import { parseRateLimitHeaders } from "./rate-limit";
import { cleanToken, jsonMayHoldKey, maskKey, redactKey, redactStrings } from "./redact";
import { createScheduler, type AttemptContext, type Scheduler } from "./scheduler";
import { errorBodySchema } from "./schemas";

export type UpstreamLogEvent = {
  /** Masked key (`svc_sk_test_…9f2c`), never the key. */
  key: string;
  path: string;
  status: number | "error";
  ms: number;
  requestId?: string;
  code?: string;
};

export type DataApiClientOptions = {
  /** Upstream base, ending in /v1. */
  baseUrl: string;
  apiKey: string;
  /** The global fetch by default; the server passes a leaner one (lib/server/upstream-transport.ts). */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  scheduler?: Scheduler;
  cache?: RequestCache;
  /** Per attempt, from sending to the end of the body. */
  timeoutMs?: number;
  log?: (event: UpstreamLogEvent) => void;
};

export const DEFAULT_TIMEOUT_MS = 15_000;

/** Codes used when an error response carries no readable error body. */
const CODE_BY_STATUS: Record<number, string> = {
  400: "invalid_parameter",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  429: "rate_limit_exceeded",
};

type Normalizer<T> = (body: unknown, requestId?: string) => T;

function invalidParam(param: string, message: string): DataApiError {
  return new DataApiError({ status: 400, code: "invalid_parameter", message, param });
}

/** Re-checks params against their schema: callers may pass values that never went through a URL. */
function validated<S extends z.ZodObject>(schema: S, params: Record<string, string | number | boolean | undefined>): URLSearchParams {
  const parsed = parseQuery(schema, toSearchParams(params));
  if (!parsed.success) throw invalidParam(parsed.param, parsed.message);
  return toSearchParams(parsed.data as Record<string, string | number | boolean | undefined>);
}

function visitorPath(id: string, suffix = ""): string {
  if (typeof id !== "string" || !VISITOR_ID_PATTERN.test(id)) {
    throw invalidParam("id", "id must be a visitor id: vis_ followed by up to 64 letters, digits, _ or -");
  }
  return `/visitors/${encodeURIComponent(id)}${suffix}`;
}

export function createDataApiClient(options: DataApiClientOptions): DataApi {
  const base = options.baseUrl.replace(/\/+$/, "");
  const apiKey = options.apiKey;
  const doFetch = options.fetch ?? fetch;
  const scheduler = options.scheduler ?? createScheduler();
  const cache = options.cache ?? createRequestCache();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const keyHint = maskKey(apiKey);
  const log = options.log;
  // Everything the upstream says goes to the browser and the logs only through these: an upstream
  // that echoes the key (in a message, code, X-Request-ID or any field) must not pass it on.
  const clean = (text: string, max: number) => redactKey(text, apiKey).slice(0, max);
  const token = (raw: string | null | undefined, max?: number) => cleanToken(raw, apiKey, max);

  async function attempt<T>(relative: string, normalize: Normalizer<T>, ctx: AttemptContext): Promise<T> {
    const started = performance.now();
    // One controller for both the caller's abort and the timeout (cheaper than AbortSignal.any,
    // and the timer is cleared as soon as the body is read).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException("The upstream request timed out.", "TimeoutError"));
    }, timeoutMs);
    const onAbort = () => controller.abort(ctx.signal?.reason);
    if (ctx.signal?.aborted) onAbort();
    else ctx.signal?.addEventListener("abort", onAbort, { once: true });
    const signal = controller.signal;
    let status: number | "error" = "error";
    let requestId: string | undefined;
    try {
      let response: Response;
      let text: string;
      try {
        response = await doFetch(`${base}${relative}`, {
          method: "GET",
          // Only these headers: nothing from the browser's request is forwarded.
          headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json", Accept: "application/json" },
          redirect: "manual",
          cache: "no-store",
          signal,
        });
        status = response.status;
        requestId = token(response.headers.get("x-request-id"));
        ctx.observe(response.status, parseRateLimitHeaders(response.headers));
        text = await response.text();
      } catch (error) {
        if (ctx.signal?.aborted) throw error;
        // The transport's own verdict (e.g. a body over its size bound) stands as it is.
        if (isDataApiError(error)) throw error;
        if (timedOut) {
          throw new DataApiError({
            status: 504,
            code: "upstream_timeout",
            message: `The Data API did not answer within ${Math.round(timeoutMs / 100) / 10} s.`,
            requestId,
          });
        }
        throw new DataApiError({ status: 502, code: "network_error", message: "The Data API could not be reached.", requestId });
      }

      if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
        throw new DataApiError({
          status: 502,
          code: "redirect_rejected",
          message: "The Data API answered with a redirect, which this app does not follow.",
          requestId,
        });
      }
      if (!response.ok) throw errorFromResponse(response, text, requestId);

      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new DataApiError({
          status: 502,
          code: "unexpected_response",
          message: "The Data API sent a response that is not valid JSON.",
          requestId,
        });
      }
      const value = normalize(body, requestId);
      return jsonMayHoldKey(text, apiKey) ? redactStrings(value, apiKey) : value;
    } catch (error) {
      log?.({ key: keyHint, path: relative, status, ms: performance.now() - started, requestId, code: isDataApiError(error) ? error.code : "aborted" });
      throw error;
    } finally {
      clearTimeout(timer);
      ctx.signal?.removeEventListener("abort", onAbort);
    }
  }

  function errorFromResponse(response: Response, text: string, requestId: string | undefined): DataApiError {
    const info = parseRateLimitHeaders(response.headers);
    let parsed: ReturnType<typeof errorBodySchema.safeParse> | undefined;
    try {
      parsed = errorBodySchema.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    const status = response.status;
    const fallbackCode = CODE_BY_STATUS[status] ?? (status >= 500 ? "upstream_error" : "upstream_client_error");
    const error = parsed?.success ? parsed.data.error : undefined;
    const param = error?.param ? token(error.param, 100) : undefined;
    return new DataApiError({
      status,
      code: token(error?.code, 64) ?? fallbackCode,
      message: clean(error?.message ?? `The Data API answered ${status}.`, 1000),
      ...(param ? { param } : {}),
      requestId: requestId ?? token(error?.request_id),
      ...(info.retryAfter !== undefined ? { retryAfter: info.retryAfter } : {}),
    });
  }

  async function get<T>(relative: string, normalize: Normalizer<T>, callOptions: CallOptions = {}): Promise<T> {
    const priority = callOptions.priority ?? "interactive";
    // Bulk (export) pages are read once: caching them would only push interactive entries out.
    const useCache = priority === "interactive" && cache.ttlMs > 0;
    if (useCache) {
      const hit = await cache.store.get(relative);
      if (hit !== undefined) return hit as T;
    }
    return cache.flights.run(
      relative,
      async (signal) => {
        const started = performance.now();
        const value = await scheduler.schedule((ctx) => attempt(relative, normalize, ctx), { priority, signal });
        log?.({ key: keyHint, path: relative, status: 200, ms: performance.now() - started });
        if (useCache) await cache.store.set(relative, value, cache.ttlMs);
        return value;
      },
      callOptions.signal,
    );
  }

  const withQuery = (path: string, query: URLSearchParams) => {
    const qs = query.toString();
    return qs ? `${path}?${qs}` : path;
  };

  return {
    listVisitors: async (params, o) => get(withQuery("/visitors", validated(visitorListParams, params)), normalizeVisitorList, o),
    getVisitor: async (id, o) => get(visitorPath(id), normalizeVisitor, o),
    getVisitorTimeline: async (id, o) => get(visitorPath(id, "/timeline"), normalizeTimeline, o),
    listMentions: async (params, o) => get(withQuery("/mentions", validated(mentionListParams, params)), normalizeMentionList, o),
    getOverview: async (params, o) => get(withQuery("/analytics/overview", validated(periodParams, params)), normalizeOverview, o),
    getTraffic: async (params, o) => get(withQuery("/analytics/traffic", validated(periodParams, params)), normalizeTraffic, o),
    getFunnel: async (params, o) => get(withQuery("/analytics/funnel", validated(periodParams, params)), normalizeFunnel, o),
    getScore: (o) => get("/intelligence/score", normalizeScore, o),
    getRanking: (o) => get("/intelligence/ranking", normalizeRanking, o),
  };
}
