// Response helpers and error mapping for the route handlers (the BFF). Every answer is JSON, not
// cached by the browser, and every error uses the shared shape {error:{code,message,param?,request_id?}}.
// `responseForError` turns whatever a route throws into a deliberate status, never a 500 (only a real
// bug still reaches 500, logged by error name and message, never with request data); the route
// wrapper (route.ts) answers every error through it.
import "server-only";
import { DataApiError, isDataApiError } from "@/lib/data-api/errors";
import { MAX_RETRY_AFTER_SECONDS } from "@/lib/data-api/rate-limit";
import { errorBrand } from "@/lib/error-brand";
import { isStoreConflictError, isStoreInputError, isStoreLimitError, isStoreUnavailableError } from "@/lib/store/errors";
import { isSealedUnreadable } from "@/lib/store/sealed";
import { isConfigError } from "./env";
import { sessionClearCookie } from "./session";

/**
 * Bodies up to this size go out uncompressed (`no-transform` keeps `next start`'s gzip, and any
 * proxy honouring it, off them). They fit in TCP's initial congestion window (10 segments, ~14 KB),
 * so gzip would not save a round trip, while it costs ~1 ms of latency per response (zlib runs on
 * the libuv thread pool, and chunked gzip takes extra writes; bench/bff.bench.ts). Larger bodies
 * (pages of 100 rows, timelines) are still compressed.
 */
export const UNCOMPRESSED_MAX_BYTES = 14_000;

export function json(data: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const body = JSON.stringify(data);
  const bytes = Buffer.byteLength(body);
  const headers = new Headers(init.headers);
  headers.set("Cache-Control", bytes <= UNCOMPRESSED_MAX_BYTES ? "no-store, no-transform" : "no-store");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Content-Type", "application/json");
  return new Response(body, { status: init.status ?? 200, headers });
}

/** A success without a body (204), never cached. */
export function noContent(headers: HeadersInit = {}): Response {
  const h = new Headers(headers);
  h.set("Cache-Control", "no-store");
  return new Response(null, { status: 204, headers: h });
}

/**
 * Retry-After as sent to the browser: whole seconds, 1 to MAX_RETRY_AFTER_SECONDS, whatever the
 * source said (an upstream's header is capped when parsed; this also bounds this app's own values).
 */
function retryAfterHeader(seconds: number): string {
  if (Number.isNaN(seconds)) return "1";
  return String(Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(seconds))));
}

/** A browser-facing error response; Retry-After is set when the error knows it. */
export function errorResponse(error: DataApiError, headers: HeadersInit = {}): Response {
  const h = new Headers(headers);
  if (error.retryAfter !== undefined) h.set("Retry-After", retryAfterHeader(error.retryAfter));
  return json(error.toBody(), { status: error.status, headers: h });
}

/**
 * Errors this app answers itself (not upstream failures): sent as they are, never re-mapped. Marked
 * with a brand (lib/error-brand.ts), not kept in a set of this module's: another bundle's copy of
 * this module may have made the error that this copy maps.
 */
const finalBrand = errorBrand<DataApiError>("final-error");
/** Whether `thrown` is an answer this app made itself (finalError), not an upstream error to map. */
export const isFinalError = (thrown: unknown): boolean => finalBrand.is(thrown);

export function finalError(init: ConstructorParameters<typeof DataApiError>[0]): DataApiError {
  const error = new DataApiError(init);
  finalBrand.mark(error);
  return error;
}

export const unauthorized = () => finalError({ status: 401, code: "unauthorized", message: "Sign in with a workspace API key to see this data." });

/** GET (or any method) of an /api path that no route handles. */
export async function apiNotFound(): Promise<Response> {
  return errorResponse(new DataApiError({ status: 404, code: "not_found", message: "There is no such API endpoint." }));
}

export const invalidParameter = (param: string, message: string) => finalError({ status: 400, code: "invalid_parameter", message, param });

/** What a widget is about, for messages such as "This API key has no access to the ranking." */
export type Subject = string;

/**
 * Maps an upstream failure (after the scheduler's retries) to what the browser gets
 * (lib/data-api/README.md "Errors the browser gets"): 400/404 pass through; 401 ends the session;
 * 403 is "no access"; 429 becomes 503 and 5xx 502, each with Retry-After where known.
 */
export function mapUpstreamError(error: DataApiError, subject: Subject): { error: DataApiError; endSession: boolean } {
  const requestId = error.requestId;
  const base = { requestId, ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}) };
  const s = error.status;
  if (s === 400 || s === 404) return { error, endSession: false };
  if (s === 401) {
    return {
      error: new DataApiError({
        status: 401,
        code: "session_expired",
        message: "Your API key is no longer valid (revoked?). Sign in again.",
        requestId,
      }),
      endSession: true,
    };
  }
  if (s === 403) {
    return {
      error: new DataApiError({ status: 403, code: "forbidden", message: `This API key has no access to ${subject}.`, requestId }),
      endSession: false,
    };
  }
  if (s === 429 || error.code === "rate_limited") {
    return {
      error: new DataApiError({
        status: 503,
        code: "rate_limited",
        message: "The Data API's rate limit for this key is used up right now; try again shortly.",
        ...base,
        retryAfter: error.retryAfter ?? 1,
      }),
      endSession: false,
    };
  }
  if (error.code === "upstream_timeout")
    return { error: new DataApiError({ ...base, status: 504, code: error.code, message: error.message }), endSession: false };
  if (error.code === "unexpected_response" || error.code === "redirect_rejected" || error.code === "network_error") {
    return { error: new DataApiError({ ...base, status: 502, code: error.code, message: error.message }), endSession: false };
  }
  if (s >= 500) {
    return {
      error: new DataApiError({
        ...base,
        status: 502,
        code: "upstream_error",
        message: `The Data API failed (${s}) while loading ${subject}; try again shortly.`,
      }),
      endSession: false,
    };
  }
  // Any other status (405, 409, 422...) is not one this app's requests can cause.
  return {
    error: new DataApiError({ ...base, status: 502, code: "upstream_error", message: `The Data API answered ${s} for ${subject}.` }),
    endSession: false,
  };
}

const isAbort = (e: unknown) => e instanceof Error && (e.name === "AbortError" || e.name === "TimeoutError");

/**
 * What the browser is told about anything thrown while answering for `subject`, and whether the
 * session ends with it: the one mapping of the BFF's error responses, also used by server pages for
 * the prefetches they stream (lib/queries/server-api.ts `prefetchApi`), so a widget shows the same error
 * whether its data came from the page or from /api.
 */
export function errorForBrowser(thrown: unknown, subject: Subject = "this data", aborted = false): { error: DataApiError; endSession: boolean } {
  if (isDataApiError(thrown)) {
    // A missing or unreadable session also clears whatever cookie came with the request.
    if (finalBrand.is(thrown)) return { error: thrown, endSession: thrown.code === "unauthorized" };
    return mapUpstreamError(thrown, subject);
  }
  // The store's own errors (lib/store/errors.ts) carry their code; their messages name no key. Told
  // apart by brand: the process's one store throws its own bundle's copy of these classes.
  if (isStoreConflictError(thrown))
    return {
      error: new DataApiError({ status: 409, code: thrown.code, message: thrown.message, ...(thrown.param ? { param: thrown.param } : {}) }),
      endSession: false,
    };
  if (isStoreLimitError(thrown)) return { error: new DataApiError({ status: 422, code: thrown.code, message: thrown.message }), endSession: false };
  if (isStoreInputError(thrown))
    return { error: new DataApiError({ status: 400, code: thrown.code, message: thrown.message, param: thrown.param }), endSession: false };
  if (isStoreUnavailableError(thrown)) {
    console.warn(`[store] ${thrown.message}`);
    return {
      error: new DataApiError({ status: 503, code: thrown.code, message: "This app's database cannot be used right now; try again shortly.", retryAfter: 5 }),
      endSession: false,
    };
  }
  if (isSealedUnreadable(thrown)) {
    // A value kept under a secret this instance lacks (SESSION_SECRET differs between instances, or
    // was changed without SESSION_SECRET_PREVIOUS): the operator's to fix, never a bug's 500.
    console.error(`[store] ${thrown.message}`);
    return {
      error: new DataApiError({
        status: 503,
        code: "store_unavailable",
        message: "This server cannot open what the dashboard keeps for this workspace right now; try again shortly.",
        retryAfter: 5,
      }),
      endSession: false,
    };
  }
  if (isConfigError(thrown)) {
    console.error(`[config] ${thrown.message}`);
    return { error: new DataApiError({ status: 503, code: "not_configured", message: thrown.message }), endSession: false };
  }
  if (isAbort(thrown) || aborted) {
    // The browser went away; nobody reads this answer.
    return { error: new DataApiError({ status: 499, code: "client_closed_request", message: "The request was cancelled." }), endSession: false };
  }
  console.error("[api] unexpected error:", thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : "non-error thrown");
  return { error: new DataApiError({ status: 500, code: "internal_error", message: "Something went wrong in this app." }), endSession: false };
}

/** Turns anything thrown while handling `req` into a response. */
export function responseForError(req: Request, thrown: unknown, subject: Subject = "this data"): Response {
  const { error, endSession } = errorForBrowser(thrown, subject, req.signal.aborted);
  return errorResponse(error, endSession ? { "Set-Cookie": sessionClearCookie(req) } : {});
}
