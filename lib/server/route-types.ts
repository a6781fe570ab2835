// What a route declares and what its handler is given: the types shared by the route wrapper
// (route.ts), the domains that define handlers (lib/<domain>/routes.ts), and the reads server
// components run in-process (lib/queries/server-api.ts). A leaf: it imports types only (and holds one
// identity function that types a definition), so a domain can declare its routes without importing
// the wrapper's machinery, nor anything that imports the domain back.
import type { z } from "zod";
import type { ActivityAction } from "@/lib/activity/actions";
import type { DataApi } from "@/lib/data-api/api";
import type { PathParamRule } from "@/lib/data-api/endpoints";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import type { StoreResource } from "./key-standing";
import type { Session } from "./session";

export type { StoreResource } from "./key-standing";

/**
 * Who may call a route. `public`: anyone (sign-in, the health check, the demo keys); `session`: a
 * signed-in session, whose key the handler uses (401 without one), or, for a read, a read-only access
 * token of the workspace as bearer (token-access.ts), whose kept key the handler uses as a session's;
 * `token`: an access token only (the MCP endpoint), its handler given the same parts. A later `share`
 * (a share link's page, read-only, without a session) joins here with its own part.
 */
export type RouteAccess = "public" | "session" | "token";

/**
 * A path parameter's rule: by default a value that fails it (after decoding once more) is a 400 naming
 * the parameter; with `refusal: "not_found"`, an id that cannot be one of ours is simply not found
 * (404 `not_found`, `message` saying what there is no such one of), as an unknown one is.
 */
export type RouteParamRule = PathParamRule & { refusal?: "not_found" };

/** What a route says about itself; everything but `handler`, which `route(declaration, handler)` takes apart. */
export type RouteDeclaration = {
  access: RouteAccess;
  /** What the route is about, in messages: "This API key has no access to {subject}.", "… while loading {subject}". */
  subject: string;
  /** Changes something (POST, PUT, PATCH, DELETE): a request not from this app's own pages is refused (403 `csrf_rejected`) first. */
  write?: boolean;
  /** The path's `[name]` segments, each checked by its rule (nothing else reaches a path or a query). */
  pathParams?: Record<string, RouteParamRule>;
  /** The query's schema: unknown parameters dropped, a bad one a 400 naming it. */
  query?: z.ZodObject;
  /** The JSON body's schema (a body of at most 4 KB): a bad field a 400 naming it, `body` when it is not a JSON object. */
  body?: z.ZodType;
  /** The body as an example, for the 400 that says what was expected. */
  bodyExample?: string;
  /**
   * The store's one scope (store-scope.ts), `session` access only: the key rechecked upstream, the
   * store and the session's workspace. A resource names what the answer was kept from: a key refused
   * it upstream is refused here too (403).
   */
  store?: true | StoreResource;
  /** An attempt that could guess a key (key-attempts.ts): counted per client and session before anything is read; only a success gives it back. */
  keyAttempts?: "sign-in" | "linking";
  /**
   * The MCP tools this read is offered as (lib/mcp): each named, described for a model, taking the
   * query's parameters (its input schema made from `query`) and answering the route's JSON, or the
   * part `answer` takes of it. A route declared with tools is a tool by this alone.
   */
  tools?: readonly ToolDeclaration[];
  /**
   * The one declared exception to refusing requests other sites start (csrf.ts): `access: "public"`
   * only, so no cookie of this app is ever read. `"one-click-unsubscribe"`: an e-mail's
   * `List-Unsubscribe-Post` (RFC 8058), which a mail client (a webmail's own site) posts; its token in
   * the path is all it acts on.
   */
  crossSite?: "one-click-unsubscribe";
  /** HEAD is refused (405) with this reason: its headers would cost what GET costs (upstream calls, an export) for a body nobody reads. */
  headRefused?: string;
};

/** An MCP tool a read is offered as (RouteDeclaration `tools`). */
export type ToolDeclaration = {
  /** snake_case, unique among the tools. */
  name: string;
  /** What it answers, for a model choosing a tool: one or two sentences. */
  description: string;
  /** The part of the route's JSON the tool answers (its structured content); the whole JSON without it. */
  answer?: (json: never) => unknown;
  /** A short summary of the answer a model can quote; a generic one (the range, how many items) without it. */
  summary?: (answer: never) => string;
};

/** The store, the session's workspace, and who is asking: the key, and its hint for the activity list. */
export type StoreScope = {
  store: Store;
  workspace: WorkspaceId;
  apiKey: string;
  keyHint: string;
  /**
   * Records a change the route just made in the workspace's activity list, with the session's key
   * hint: one line per change (`await record("rule.added", sentence)`), whatever the domain.
   */
  record(action: ActivityAction, subject: string): Promise<void>;
};

type ParamsOf<D> = D extends { pathParams: infer P } ? { [K in keyof P]: string } : Record<never, never>;
type QueryOf<D> = D extends { query: infer Q extends z.ZodObject } ? z.output<Q> : Record<never, never>;
type BodyOf<D> = D extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;

/** What a signed-in route's handler is given: the session and the Data API with its key. */
export type SessionPart = { session: Session; api: DataApi };

/** What a handler is given for declaration `D`: its checked input, and the parts its access and scope bring. */
export type RouteContext<D> = { params: ParamsOf<D>; query: QueryOf<D>; body: BodyOf<D>; signal?: AbortSignal } & (D extends { access: "session" | "token" }
  ? SessionPart
  : Record<never, never>) &
  (D extends { store: true | StoreResource } ? { scope: StoreScope } : Record<never, never>);

/**
 * A handler: an answer to send as JSON (200), or a Response of its own (201, 204, a stream). The
 * request is its second argument, for the few that need it (cookies, the client's address, a
 * download's own life); a handler that takes only its context can also run in-process (a page's prefetch).
 */
export type RouteHandler<D> = (ctx: RouteContext<D>, req: Request) => Promise<unknown>;

/** A route as declared: what `route()` mounts, and what an in-process read runs. */
export type RouteDefinition<D extends RouteDeclaration = RouteDeclaration, H = RouteHandler<D>> = D & { handler: H };

/**
 * A route declared where its domain lives, to be mounted by its route file (`route(definition)`) and
 * run in-process by server components (lib/queries/server-api.ts): the declaration and its handler,
 * the handler typed by the declaration.
 */
export function defineRoute<const D extends RouteDeclaration, H extends RouteHandler<D>>(declaration: D, handler: H): RouteDefinition<D, H> {
  return { ...declaration, handler };
}

/** A read that runs without a request too (a page's prefetch): its handler takes its context alone. */
export type ReadDefinition = RouteDeclaration & { access: "session"; handler: (ctx: never) => Promise<unknown> };

/** The context an in-process read's handler is given. */
export type ReadContext = { params: Record<string, string>; query: Record<string, unknown>; body: undefined; signal?: AbortSignal } & SessionPart & {
    scope?: StoreScope;
  };

/** Why a read refuses HEAD: Next would answer it by running GET, spending the key's upstream calls on headers. */
export const HEAD_COSTS_UPSTREAM = "HEAD is not answered here: its headers would cost the same upstream calls as GET. Use GET.";

/** What Next calls: the request and the route's segments (`[id]` as `{ id }`). */
export type NextRouteHandler = (req: Request, ctx?: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>;

/** A mounted route: Next's handler, carrying its definition (for in-process reads and the tests that hold every route to the wrapper). */
export type MountedRoute<Def extends RouteDeclaration = RouteDefinition> = NextRouteHandler & { readonly definition: Def };
