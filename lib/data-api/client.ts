// The typed upstream client: the one place that builds Data API requests, sends them with the key
// through the key's scheduler (rate budget, priority, retries) and cache (single-flight + TTL),
// reads the rate-limit headers, maps every failure to DataApiError and normalises every body into
// the canonical shapes of schemas.ts. Its one method, `get(path, input)`, serves every endpoint of
// the registry (endpoints.ts): path parameters checked, query validated, the declared normaliser run.
import type { z } from "zod";
import type { CallOptions, DataApi } from "./api";
import { createRequestCache, type RequestCache } from "./cache";
import { endpoints, type EndpointDef, type EndpointPath } from "./endpoints";
import { DataApiError, isDataApiError } from "./errors";
import { parseQuery, toSearchParams } from "./params";
import { parseRateLimitHeaders } from "./rate-limit";
import { cleanToken, jsonMayHoldKey, maskKey, redactKey, redactStrings } from "./redact";
import { fillPath, withQuery } from "./route-path";
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

type QueryValues = Record<string, string | number | boolean | undefined>;

function invalidParam(param: string, message: string): DataApiError {
  return new DataApiError({ status: 400, code: "invalid_parameter", message, param });
}

/** Re-checks a query against its schema: callers may pass values that never went through a URL. */
export function validatedQuery<S extends z.ZodObject>(schema: S, query: QueryValues): z.output<S> {
  const parsed = parseQuery(schema, toSearchParams(query));
  if (!parsed.success) throw invalidParam(parsed.param, parsed.message);
  return parsed.data;
}

/** Checks each declared path parameter against its rule; nothing else can reach the path. */
export function validatedParams(
  def: { pathParams?: EndpointDef["pathParams"] },
  params: Readonly<Record<string, unknown>> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, rule] of Object.entries(def.pathParams ?? {})) {
    const value = params?.[name];
    if (typeof value !== "string" || !rule.pattern.test(value)) throw invalidParam(name, rule.message);
    out[name] = value;
  }
  return out;
}

/** The request path (relative to the base URL) of a registry endpoint, validated. */
export function endpointRequestPath(path: EndpointPath, input: { params?: Readonly<Record<string, unknown>>; query?: object }): string {
  const def: EndpointDef = endpoints[path];
  const filled = fillPath(path, validatedParams(def, input.params));
  return def.query ? withQuery(filled, validatedQuery(def.query, (input.query ?? {}) as QueryValues) as QueryValues) : filled;
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

  async function get<T>(relative: string, normalize: Normalizer<T>, callOptions: CallOptions = {}, ttlMs = cache.ttlMs): Promise<T> {
    const priority = callOptions.priority ?? "interactive";
    // Bulk (export) pages are read once: caching them would only push interactive entries out.
    const useCache = priority === "interactive" && ttlMs > 0;
    if (useCache && !callOptions.fresh) {
      const hit = await cache.store.get(relative);
      if (hit !== undefined) return hit as T;
    }
    return cache.flights.run(
      relative,
      (signal) => {
        const fetchAndKeep = async () => {
          const started = performance.now();
          const value = await scheduler.schedule((ctx) => attempt(relative, normalize, ctx), { priority, signal, onWait: callOptions.onWait });
          log?.({ key: keyHint, path: relative, status: 200, ms: performance.now() - started });
          if (useCache && callOptions.keep !== false) await cache.store.set(relative, value, ttlMs);
          return value;
        };
        // Other instances asking at the same moment wait for this one's entry (and vice versa); an
        // answer not kept is no entry to wait for.
        return useCache && cache.shared && callOptions.keep !== false ? cache.shared.run(relative, fetchAndKeep, signal) : fetchAndKeep();
      },
      callOptions.signal,
    );
  }

  return {
    async get(path, input, callOptions) {
      const def: EndpointDef = endpoints[path];
      const relative = endpointRequestPath(path, input);
      // The registry's type ties each path to its normaliser's result; one cast at this seam.
      return get(relative, def.normalize as Normalizer<never>, callOptions, def.cacheTtlMs ?? cache.ttlMs);
    },
  };
}
