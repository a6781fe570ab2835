// The Data API's endpoints, one declaration each: the path (with `:name` path parameters), the rule
// of each path parameter, the query schema (params.ts), the normaliser that turns any accepted body
// into its canonical shape (normalize.ts), what the data is called in messages, and how long an
// answer is reused. Everything else is derived from this table:
// - the upstream client's `get(path, input)` (client.ts): validation, URL, cache, scheduling, parsing;
// - the BFF routes (lib/server/routes.ts): every endpoint is served at /api + its path, same query;
// - the browser transport and React Query options (lib/queries/api.ts), typed from this table
//   through `import type` only, so zod and the normalisers never reach the browser bundle.
// Adding a Data API endpoint: one entry here, the UI that shows it, its tests.
import type { z } from "zod";
import { VISITOR_ID_PATTERN } from "./constants";
import * as normalizers from "./normalize";
import { mentionListParams, periodParams, visitorListParams } from "./params";

/** A path parameter's rule, checked after decoding and before the value is URL-encoded into a path. */
export type PathParamRule = { pattern: RegExp; message: string };

/** The one rule of a visitor id (lib/data-api/README.md "The registry": `^vis_[A-Za-z0-9_-]{1,64}$` after decoding). */
export const VISITOR_ID: PathParamRule = {
  pattern: VISITOR_ID_PATTERN,
  message: "id must be a visitor id: vis_ followed by 1 to 64 letters, digits, _ or -",
};

/** What every route (Data API endpoint or BFF-only route) declares about its input. */
export type RouteInputDef = {
  query?: z.ZodObject;
  pathParams?: Record<string, PathParamRule>;
  /** What the data is, in messages: "This API key has no access to {subject}." */
  subject: string;
};

export type EndpointDef = RouteInputDef & {
  normalize: (body: unknown, requestId?: string) => unknown;
  /** Reuse successful answers this long (ms) instead of the configured default (DATA_API_CACHE_TTL_MS). */
  cacheTtlMs?: number;
};

export const endpoints = {
  "/visitors": { query: visitorListParams, normalize: normalizers.normalizeVisitorList, subject: "the visitor list" },
  "/visitors/:id": { pathParams: { id: VISITOR_ID }, normalize: normalizers.normalizeVisitor, subject: "this visitor" },
  "/visitors/:id/timeline": { pathParams: { id: VISITOR_ID }, normalize: normalizers.normalizeTimeline, subject: "visitor timelines" },
  "/mentions": { query: mentionListParams, normalize: normalizers.normalizeMentionList, subject: "the mentions" },
  "/analytics/overview": { query: periodParams, normalize: normalizers.normalizeOverview, subject: "the overview" },
  "/analytics/traffic": { query: periodParams, normalize: normalizers.normalizeTraffic, subject: "traffic by source" },
  "/analytics/funnel": { query: periodParams, normalize: normalizers.normalizeFunnel, subject: "the funnel" },
  "/intelligence/score": { normalize: normalizers.normalizeScore, subject: "the AI Positioning Score" },
  "/intelligence/ranking": { normalize: normalizers.normalizeRanking, subject: "the competitor ranking" },
} as const satisfies Record<string, EndpointDef>;

export type Endpoints = typeof endpoints;
export type EndpointPath = keyof Endpoints;

// ---------------------------------------------------------------------------------------------
// Types derived from a route declaration (shared with the BFF-only routes of lib/server/routes.ts).

/** The parsed query a route takes (its schema's output), or nothing. */
export type QueryOf<R> = R extends { query: infer Q extends z.ZodObject } ? z.output<Q> : Record<never, never>;

/** The path parameters a route takes, as strings. */
export type ParamsOf<R> = R extends { pathParams: infer P } ? { [K in keyof P]: string } : Record<never, never>;

/** A route's query as a URL carries it: each parameter's text, judged by the route's schema. */
export type UrlQueryOf<R> = { [K in keyof QueryOf<R>]?: string };

/**
 * What a caller passes: path parameters when the route has any, and the query, parsed or as a URL's
 * text (every key optional: the schema fills defaults and refuses what is invalid, either way).
 */
export type InputOf<R> = (R extends { pathParams: object } ? { params: ParamsOf<R> } : { params?: undefined }) & {
  query?: Partial<QueryOf<R>> | UrlQueryOf<R>;
};

/** What a route answers: its normaliser's canonical shape, or its handler's result. */
export type ResultOf<R> = R extends { normalize: (...args: never[]) => infer T }
  ? T
  : R extends { handler: (...args: never[]) => Promise<infer T> }
    ? T
    : R extends { resolve: (...args: never[]) => Promise<infer T> }
      ? T
      : never;
