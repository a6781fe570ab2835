// The /api routes as the source declares them (lib/server/route-files.ts: every route file under
// app/api and the methods it exports), for tests that hold every route to a rule, and the handler Next
// would call for a request, imported from its route file: a route added later is walked, and
// answered in-process, without touching a test.
import { checkRequest } from "@/lib/server/front-server";
import { apiRouteFiles, matchRouteFile, type HttpMethod, type RouteFile } from "@/lib/server/route-files";

export { apiRouteFiles, HTTP_METHODS, isCatchAll, isDynamic, WRITE_METHODS, type HttpMethod, type RouteFile } from "@/lib/server/route-files";

type NextHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>;

/** A route file's module: its exported methods. */
export async function routeModule(route: RouteFile): Promise<Partial<Record<HttpMethod, NextHandler>>> {
  return (await import(route.file)) as Partial<Record<HttpMethod, NextHandler>>;
}

let files: RouteFile[] | undefined;

/** A route file's handlers, as a test calls them: Next's handler for each method it exports. */
export type RouteHandlers = Record<HttpMethod, (req: Request, ctx?: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>>;

/**
 * The route file of the folder under app/api named by `folder` ("views/[id]"), imported: what a test of
 * that route calls, found among the route files rather than imported by path, so nothing under lib
 * imports app/.
 */
export async function routeFileAt(folder: string): Promise<RouteHandlers> {
  files ??= apiRouteFiles();
  const route = files.find((f) => f.segments.join("/") === folder);
  if (!route) throw new Error(`no route file under app/api/${folder}`);
  return (await routeModule(route)) as RouteHandlers;
}

/**
 * Imports the route files of `paths` ahead of a test, as a server has its routes compiled before the
 * first request: a component test's first read then waits for its answer, not for a module graph.
 */
export async function preloadRoutes(paths: readonly string[]): Promise<void> {
  files ??= apiRouteFiles();
  await Promise.all(paths.map((path) => matchRouteFile(files!, path)).flatMap((match) => (match ? [routeModule(match.route)] : [])));
}

/**
 * Answers `req` as Next's router would: the route file its path names (`segments`, when given, are the
 * path after /api as the router hands it over, for paths a URL cannot carry), its method's handler
 * (HEAD by GET's where the file has none); a method the file has no handler for is refused as the
 * production entry refuses it before Next (front-server.ts: a JSON 405 whose Allow lists the path's methods).
 */
export async function answerAsNext(req: Request, segments?: string[]): Promise<Response> {
  files ??= apiRouteFiles();
  const match = matchRouteFile(files, segments ?? new URL(req.url).pathname);
  if (!match) return new Response(null, { status: 404 });
  const mod = await routeModule(match.route);
  const handler = mod[req.method as HttpMethod] ?? (req.method === "HEAD" ? mod.GET : undefined);
  if (!handler) return methodRefused(req);
  return handler(req, { params: Promise.resolve(match.params) });
}

function methodRefused(req: Request): Response {
  const refusal = checkRequest(req.method, new URL(req.url).pathname);
  if (!refusal) return new Response(null, { status: 405 });
  return Response.json(
    { error: { code: refusal.code, message: refusal.message } },
    { status: refusal.status, headers: refusal.allow ? { Allow: refusal.allow } : {} },
  );
}
