// The BFF's routes: an allow-list derived from declarations, not a catch-all proxy. Every Data API
// endpoint of the registry (lib/data-api/endpoints.ts) is served at /api + its path with the same
// query, but for the two lists the dashboard also filters itself (lib/server/lists: /visitors with
// `source=ai`, /mentions with `query` and `competitor`), whose routes take their endpoint's place;
// BFF-only routes (answers the Data API has no endpoint for) are declared below with a
// resolver (insights, lib/server/insights; history, lib/history; annotations, lib/annotations). The
// store's writes (POST, PATCH, DELETE of the annotations) are the table's write routes, served by the
// same catch-all: each handler checks the same origin and the session itself. Every read of the score or the
// ranking for a session is also recorded as history (lib/history/on-read.ts). One handler (`handleApiGet`, mounted by app/api/[[...path]]/route.ts) serves them all:
// it matches the path against the table, reads the session (401 without one), checks each path
// parameter after decoding and the query with the route's schema (400 naming the parameter, before
// any upstream call; unknown parameters dropped), then answers with the canonical shape.
// `serverApi` gives server components the same routes in-process; `prefetchApi` is the same for the
// prefetches a page streams, its failures resolved as markers mapped exactly as /api answers them.
import "server-only";
import type { z } from "zod";
import type { CallOptions } from "@/lib/data-api/api";
import { validatedParams, validatedQuery } from "@/lib/data-api/client";
import { endpoints, type EndpointPath, type InputOf, type ResultOf, type RouteInputDef } from "@/lib/data-api/endpoints";
import { insightsCompareParams, insightsCountriesParams, insightsQueriesParams, noParams, parseQuery } from "@/lib/data-api/params";
import { streamedFailure } from "@/lib/queries/streamed-failure";
import { apiNotFound, errorForBrowser, errorResponse, invalidParameter, json, responseForError, unauthorized } from "./http";
import { DataApiError } from "@/lib/data-api/errors";
import { getRequestSession, type PageSession } from "./session";
import { dataApiForKey } from "./upstream";
import { competitorsInsight } from "./insights/competitors";
import { countriesInsight } from "./insights/countries";
import { platformsInsight } from "./insights/platforms";
import { queriesInsight } from "./insights/queries";
import { insightRoute } from "./insights/route";
import { sentimentInsight } from "./insights/sentiment";
import { sourcesInsight } from "./insights/sources";
import { trendInsight } from "./insights/trend";
import { historyOverviewRoute, rankingHistoryRoute, scoreHistoryRoute } from "@/lib/history/routes";
import { recordOnRead } from "@/lib/history/on-read";
import { annotationsListRoute, createAnnotation, deleteAnnotation, updateAnnotation } from "@/lib/annotations/routes";
import { mentionsRoute } from "./lists/mentions";
import { visitorsRoute } from "./lists/visitors";

/** What a BFF-only route's resolver gets: the session's Data API and the caller's signal. */
export type RouteContext = { session: PageSession; api: ReturnType<typeof dataApiForKey>; signal?: AbortSignal };

export type BffRouteDef = RouteInputDef & {
  resolve: (ctx: RouteContext, input: { params: Record<string, string>; query: Record<string, unknown> }) => Promise<unknown>;
};

/**
 * Answers the Data API has no endpoint for (insights, lib/server/insights), each one declaration;
 * and the two lists the dashboard also filters itself (lib/server/lists: mentions by `query` and
 * `competitor`, visitors with `source=ai`), which take the place of their endpoints' routes: their
 * schemas are the pages', and what is sent upstream is the endpoint's own query only.
 */
const bffRoutes = {
  "/visitors": visitorsRoute,
  "/mentions": mentionsRoute,
  "/insights/trend": insightRoute("the trend", trendInsight, insightsCompareParams),
  "/insights/sources": insightRoute("conversion by source", sourcesInsight, insightsCompareParams),
  "/insights/platforms": insightRoute("the AI platforms", platformsInsight, insightsCompareParams),
  "/insights/competitors": insightRoute("the competitors named", competitorsInsight),
  "/insights/sentiment": insightRoute("sentiment over time", sentimentInsight),
  "/insights/countries": insightRoute("the countries", countriesInsight, insightsCountriesParams),
  "/insights/queries": insightRoute("the questions", queriesInsight, insightsQueriesParams),
  "/history/score": scoreHistoryRoute,
  "/history/ranking": rankingHistoryRoute,
  "/history/overview": historyOverviewRoute,
  "/annotations": annotationsListRoute,
} as const satisfies Record<string, BffRouteDef>;

type WriteMethod = "POST" | "PUT" | "PATCH" | "DELETE";
/** A write route's handler: the request and its path parameters (decoded); it answers every outcome itself. */
type WriteHandler = (req: Request, params: Record<string, string>) => Promise<Response>;

/** The routes that change what the store keeps, by path and method (GET of the same path, if any, is in `apiRoutes`). */
const writeRoutes: Record<string, Partial<Record<WriteMethod, WriteHandler>>> = {
  "/annotations": { POST: createAnnotation },
  "/annotations/:id": { PATCH: updateAnnotation, DELETE: deleteAnnotation },
};

/** The write routes' paths and their methods (the cross-site test sends each of them). */
export const apiWriteRoutes: Record<string, readonly WriteMethod[]> = Object.fromEntries(
  Object.entries(writeRoutes).map(([path, methods]) => [path, Object.keys(methods) as WriteMethod[]]),
);

export const apiRoutes = { ...endpoints, ...bffRoutes };
export type ApiRoutes = typeof apiRoutes;
export type ApiPath = keyof ApiRoutes;

/** The same routes seen from server code: `get(path, input)` with the session's key, in-process. */
export interface ApiTransport {
  get<P extends ApiPath>(path: P, input: InputOf<ApiRoutes[P]>, options?: CallOptions): Promise<ResultOf<ApiRoutes[P]>>;
}

type AnyRoute = RouteInputDef & Partial<Pick<BffRouteDef, "resolve">>;

/** A route of the table answered by its Data API endpoint as it is (no resolver of the BFF's own in its place). */
const isEndpoint = (path: string): path is EndpointPath => Object.hasOwn(endpoints, path) && !Object.hasOwn(bffRoutes, path);

function routeDef(path: ApiPath): AnyRoute {
  return apiRoutes[path] as AnyRoute;
}

/** Runs a route for a session, in-process (the input is validated exactly as over HTTP). */
async function runRoute(session: PageSession, path: ApiPath, input: { params?: Readonly<Record<string, unknown>>; query?: object }, options: CallOptions = {}): Promise<unknown> {
  const api = dataApiForKey(session.apiKey);
  if (isEndpoint(path)) {
    const result: unknown = await api.get(path, input as never, options);
    recordOnRead(session.apiKey, path, result);
    return result;
  }
  const def = routeDef(path);
  const params = validatedParams(def, input.params);
  const query = def.query ? validatedQuery(def.query, (input.query ?? {}) as Record<string, string | number | boolean | undefined>) : {};
  return def.resolve!({ session, api, signal: options.signal }, { params, query });
}

export function serverApi(session: PageSession): ApiTransport {
  return {
    // The table's types tie each path to its result; one cast at this seam.
    get: (path, input, options) => runRoute(session, path, input, options) as never,
  };
}

/**
 * `serverApi` for a page's streamed prefetches: a failure resolves (never rejects) as the error /api
 * would answer (lib/queries/streamed-failure.ts says why), so the browser shows it on that widget.
 * The page's types still say the route's result: the marker is read back in the browser's hydration.
 */
export function prefetchApi(session: PageSession): ApiTransport {
  const api = serverApi(session);
  return {
    get: (path, input, options) => api.get(path, input, options).catch((thrown: unknown) => streamedFailure(errorForBrowser(thrown, routeDef(path).subject).error) as never),
  };
}

// ---------------------------------------------------------------------------------------------
// Matching a request path against the table.

const templates = <P extends string>(paths: readonly P[]) => paths.map((path) => ({ path, segments: path.split("/").filter(Boolean) }));
const ROUTES = templates(Object.keys(apiRoutes) as ApiPath[]);
const WRITE_ROUTES = templates(Object.keys(writeRoutes));

/** Decodes a path segment once more, in case the router left escapes (`%252F` arrives as `%2F`). */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

type Match<P extends string = ApiPath> = { path: P; params: Record<string, string>; badParam?: string };

export function matchRoute(segments: readonly string[]): Match | null {
  return matchAmong(ROUTES, segments);
}

function matchAmong<P extends string>(routes: readonly { path: P; segments: string[] }[], segments: readonly string[]): Match<P> | null {
  for (const route of routes) {
    if (route.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let badParam: string | undefined;
    const ok = route.segments.every((expected, i) => {
      const raw = segments[i]!;
      if (expected.startsWith(":")) {
        const value = raw.length > 300 ? null : decodeSegment(raw);
        if (value === null) badParam = expected.slice(1);
        else params[expected.slice(1)] = value;
        return true;
      }
      return raw === expected;
    });
    if (ok) return { path: route.path, params, ...(badParam ? { badParam } : {}) };
  }
  return null;
}

/** The request's query parsed with `schema`, or a 400 naming the first bad parameter. */
export function queryOf<S extends z.ZodObject>(req: Request, schema: S): z.output<S> {
  const parsed = parseQuery(schema, new URL(req.url).searchParams);
  if (!parsed.success) throw invalidParameter(parsed.param, parsed.message);
  return parsed.data;
}

export async function requireSession(req: Request): Promise<PageSession> {
  const session = await getRequestSession(req);
  if (!session) throw unauthorized();
  return session;
}

type CatchAllContext = { params: Promise<{ path?: string[] }> };

/** GET /api/{any route of the table}: the route's answer, or the shared error shape. */
export async function handleApiGet(req: Request, ctx: CatchAllContext): Promise<Response> {
  const match = matchRoute((await ctx.params).path ?? []);
  if (!match) return apiNotFound();
  const def = routeDef(match.path);
  try {
    const session = await requireSession(req);
    if (match.badParam) throw invalidParameter(match.badParam, def.pathParams?.[match.badParam]?.message ?? `${match.badParam} is not valid`);
    const params = validatedParams(def, match.params);
    const query = queryOf(req, def.query ?? noParams);
    return json(await runRoute(session, match.path, { params, query }, { signal: req.signal }));
  } catch (thrown) {
    return responseForError(req, thrown, def.subject);
  }
}

/**
 * Any other method on /api/*, HEAD included: a write route's handler where the table has one for the
 * method; else 405 with Allow on a route of the table, the JSON 404 elsewhere. Next would answer HEAD
 * by running GET and dropping the body: the route's upstream calls (an insights listing can be dozens
 * of pages) spent on the key's rate limit for an answer nobody reads.
 */
export async function handleApiOther(req: Request, ctx: CatchAllContext): Promise<Response> {
  const segments = (await ctx.params).path ?? [];
  const write = matchAmong(WRITE_ROUTES, segments);
  const handler = write ? writeRoutes[write.path]![req.method as WriteMethod] : undefined;
  if (write && handler) {
    if (write.badParam) return errorResponse(invalidParameter(write.badParam, `${write.badParam} is not valid`));
    return handler(req, write.params);
  }
  const read = matchRoute(segments);
  if (!read && !write) return apiNotFound();
  const allow = [...(read ? ["GET"] : []), ...(write ? Object.keys(writeRoutes[write.path]!) : [])].join(", ");
  const message =
    req.method === "HEAD" && read ? "HEAD is not answered here: its headers would cost the same upstream calls as GET. Use GET." : `This endpoint answers ${allow} only.`;
  return errorResponse(new DataApiError({ status: 405, code: "method_not_allowed", message }), { Allow: allow });
}
