// The one way to declare an /api route. Every route file under app/api exports its methods as
//   export const GET = route({ access: "session", query: schema, subject: "…" }, handler);
//   export const POST = route({ access: "session", write: true, store: true, body: schema, subject: "…" }, handler);
// and the wrapper answers, in this order, what every route must answer the same way:
//  1. a request a browser marks as started by another site: 403 `cross_site_rejected`, whatever the
//     method, before any work (csrf.ts);
//  2. HEAD where GET would spend upstream calls or start an export: 405 (Next answers HEAD with GET);
//  3. a write not from this app's own pages (Origin): 403 `csrf_rejected`;
//  4. the access: a session (401 without one) and the Data API with its key; or, where a session
//     opens a read, a read-only access token as bearer (token-access.ts: a write with one is a 403
//     `token_read_only`, a bad one a 401 with WWW-Authenticate); `token` routes (MCP) take a token only;
//  5. the store's one scope, when declared (store-scope.ts: the key rechecked upstream, the workspace);
//  6. an attempt that could guess a key, counted before anything is read (key-attempts.ts);
//  7. the path's parameters, the JSON body and the query against their schemas (400 naming the field);
//  8. the handler, whose answer goes out as JSON, or as the Response it makes;
// and maps whatever is thrown on the way to the shared error shape (errors.ts), the same in tests and in
// the production build. Whatever lists routes (the front server's writes, the tests that walk every
// route) reads the route files (route-files.ts); a test fails for a route file that does not use this.
import "server-only";
import type { z } from "zod";
import type { CallOptions } from "@/lib/data-api/api";
import { isDataApiError } from "@/lib/data-api/errors";
import { validatedParams, validatedQuery } from "@/lib/data-api/client";
import { parseQuery } from "@/lib/data-api/params";
import { crossSiteRejected, isCrossSiteFetch, isSameOrigin, sameOriginRejected } from "./csrf";
import { apiNotFound, errorResponse, finalError, invalidParameter, isFinalError, json, responseForError, unauthorized } from "./http";
import { beginKeyAttempt } from "./key-attempts";
import { jsonBodyOf } from "./request-body";
import type { MountedRoute, ReadContext, ReadDefinition, RouteDeclaration, RouteDefinition, RouteHandler } from "./route-types";
import { getRequestSession, type Session } from "./session";
import { sessionStoreScope } from "./store-scope";
import { bearerToken, INVALID_TOKEN_CHALLENGE, keptKeyRefused, TOKEN_CHALLENGE, tokenReadOnly, tokenRequired, tokenSession } from "./token-access";
import { dataApiForKey } from "./upstream";

const mountedBrand = Symbol.for("workspace-analytics.mounted-route");

/** Whether `value` was made by `route()` (tests hold every route file's methods to it). */
export function isMountedRoute(value: unknown): value is MountedRoute {
  return typeof value === "function" && (value as unknown as Record<symbol, unknown>)[mountedBrand] === true;
}

/** The request's query parsed with `schema`, or a 400 naming the first bad parameter. */
export function queryOf<S extends z.ZodObject>(req: Request, schema: S): z.output<S> {
  const parsed = parseQuery(schema, new URL(req.url).searchParams);
  if (!parsed.success) throw invalidParameter(parsed.param, parsed.message);
  return parsed.data;
}

/** The session of `req`, or a 401. */
export async function requireSession(req: Request): Promise<Session> {
  const session = await getRequestSession(req);
  if (!session) throw unauthorized();
  return session;
}

/** Decodes a path segment once more, in case the router left escapes (`%252F` arrives as `%2F`). */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The declared path parameters of Next's segments, each checked by its rule (route-types.ts `RouteParamRule`). */
function pathParamsOf(declaration: RouteDeclaration, segments: Record<string, string | string[] | undefined>): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [name, rule] of Object.entries(declaration.pathParams ?? {})) {
    const raw = segments[name];
    if (rule.refusal === "not_found") {
      if (typeof raw !== "string" || !rule.pattern.test(raw)) throw finalError({ status: 404, code: "not_found", message: rule.message });
      checked[name] = raw;
      continue;
    }
    const value = typeof raw === "string" && raw.length <= 300 ? decodeSegment(raw) : null;
    if (value === null || !rule.pattern.test(value)) throw invalidParameter(name, rule.message);
    checked[name] = value;
  }
  return checked;
}

/**
 * Who a request of a `session` or `token` route is: the session its bearer token opens when it
 * carries one (`bearer` as bearerToken read it), else its cookie's (a `token` route takes no cookie).
 */
async function accessSession(req: Request, declaration: RouteDeclaration, bearer: string | null | undefined): Promise<Session> {
  if (bearer !== undefined) return tokenSession(bearer);
  if (declaration.access === "token") throw tokenRequired();
  return requireSession(req);
}

/** The part of a handler's context that its access and scope bring, for `session`. */
async function sessionParts(declaration: RouteDeclaration, session: Session) {
  const scope = declaration.store ? await sessionStoreScope(session, declaration.store === true ? undefined : declaration.store) : undefined;
  return { session, api: dataApiForKey(session.apiKey), ...(scope ? { scope } : {}) };
}

/**
 * Mounts a route: `declaration` says who may call it and what it takes (route-types.ts), `handler`
 * answers; or a definition its domain declared (`defineRoute`), mounted as it is. The result is what a
 * route file exports for a method, and carries its definition.
 */
export function route<const D extends RouteDeclaration, H extends RouteHandler<D>>(declaration: D, handler: H): MountedRoute<RouteDefinition<D, H>>;
export function route<Def extends RouteDefinition<RouteDeclaration, (ctx: never, req: Request) => Promise<unknown>>>(definition: Def): MountedRoute<Def>;
export function route(declaration: RouteDeclaration & { handler?: unknown }, given?: unknown): MountedRoute {
  const handler = (given ?? declaration.handler) as (ctx: unknown, req: Request) => Promise<unknown>;
  if (declaration.store && declaration.access === "public") throw new Error(`${declaration.subject}: the store's scope needs a session`);
  if (declaration.crossSite && declaration.access !== "public") throw new Error(`${declaration.subject}: only a public route may be posted from other sites`);
  const definition = { ...declaration, handler };
  const mounted = async (req: Request, next?: { params: Promise<Record<string, string | string[] | undefined>> }): Promise<Response> => {
    // A route declared `crossSite` (public: no cookie read) is the one exception: route-types.ts.
    if (isCrossSiteFetch(req) && !declaration.crossSite) return errorResponse(crossSiteRejected());
    if (req.method === "HEAD" && declaration.headRefused) {
      return errorResponse(finalError({ status: 405, code: "method_not_allowed", message: declaration.headRefused }), { Allow: "GET" });
    }
    let attempt: { succeeded(): Promise<void> } | undefined;
    // A public route (sign-in, sign-out, the session's own) never reads a token: it is the cookie's.
    const bearer = declaration.access === "public" ? undefined : bearerToken(req.headers.get("authorization"));
    try {
      // A token only reads what a session may change; a `token` route's POST (MCP) is its way in.
      if (declaration.write && declaration.access === "session" && bearer !== undefined) throw tokenReadOnly();
      if (declaration.write && !declaration.crossSite && !isSameOrigin(req)) throw sameOriginRejected();
      const parts = declaration.access === "public" ? {} : await sessionParts(declaration, await accessSession(req, declaration, bearer));
      if (declaration.keyAttempts) attempt = await beginKeyAttempt(req, declaration.keyAttempts);
      const params = declaration.pathParams ? pathParamsOf(declaration, (await next?.params) ?? {}) : {};
      const body = declaration.body ? await jsonBodyOf(req, declaration.body, declaration.bodyExample ?? "{}") : undefined;
      const query = declaration.query ? queryOf(req, declaration.query) : {};
      const answer = await handler({ ...parts, params, query, body, signal: req.signal }, req);
      await attempt?.succeeded();
      return answer instanceof Response ? answer : json(answer);
    } catch (thrown) {
      // A token read with the kept key: the upstream refusing that key is no session's end (no cookie cleared).
      const refusedKey = bearer !== undefined && isDataApiError(thrown) && !isFinalError(thrown) && thrown.status === 401;
      const response = responseForError(req, refusedKey ? keptKeyRefused() : thrown, declaration.subject);
      if (response.status === 401 && (bearer !== undefined || declaration.access === "token")) {
        response.headers.set("WWW-Authenticate", bearer === undefined ? TOKEN_CHALLENGE : INVALID_TOKEN_CHALLENGE);
      }
      return response;
    }
  };
  Object.defineProperty(mounted, mountedBrand, { value: true });
  Object.defineProperty(mounted, "definition", { value: definition });
  return mounted as MountedRoute;
}

/**
 * The catch-all's answer for every method: no route here, the JSON 404 in the shared error shape
 * (never Next's HTML page). Cross-site requests are refused first, as on every route.
 */
export const noSuchRoute: MountedRoute = route({ access: "public", subject: "this path" }, async () => apiNotFound());

/**
 * Runs a read in-process for a session (a page's prefetch), its input validated exactly as over HTTP:
 * the same handler, without a request. A read that needs the store's scope gets it, its key rechecked.
 */
export async function runRead(
  definition: ReadDefinition,
  session: Session,
  input: { params?: Readonly<Record<string, unknown>>; query?: object },
  options: CallOptions = {},
): Promise<unknown> {
  const parts = await sessionParts(definition, session);
  const params = validatedParams(definition, input.params);
  const query = definition.query ? validatedQuery(definition.query, (input.query ?? {}) as Record<string, string | number | boolean | undefined>) : {};
  const ctx: ReadContext = { ...parts, params, query, body: undefined, ...(options.signal ? { signal: options.signal } : {}) };
  return definition.handler(ctx as never);
}
