// The browser's fetch answered by the app's own /api route handlers, in-process, as Next would call
// them: the session's cookie and this origin on every request, the route chosen as Next's file routes
// choose it. Component tests of a UI that writes through the store use it with a real store (opened
// by lib/store/test-stores.ts), so what the UI sends is validated and kept exactly as over HTTP. The
// routes' own behaviour is tested over HTTP in their own files.
import { DELETE, GET, PATCH, POST } from "@/app/api/[[...path]]/route";
import * as viewById from "@/app/api/views/[id]/route";
import * as views from "@/app/api/views/route";
import { ORIGIN } from "@/lib/server/test-support";

type Method = "GET" | "POST" | "PATCH" | "DELETE";
type Handler = (req: Request, ctx: { params: Promise<Record<string, unknown>> }) => Promise<Response>;

/** What the UI sent: the method, the path and query as requested, and the JSON body if any. */
export type SentRequest = { method: string; url: string; body: unknown };

/** The handler for a method and path, with the params Next would give it (405 when there is none). */
function route(method: Method, path: string): { handler: Handler | undefined; params: Record<string, unknown> } {
  const parts = path.replace(/^\/api\//, "").split("/").map(decodeURIComponent);
  if (parts[0] === "views" && parts.length === 1) return { handler: (views as Record<string, unknown>)[method] as Handler | undefined, params: {} };
  if (parts[0] === "views" && parts.length === 2) return { handler: (viewById as Record<string, unknown>)[method] as Handler | undefined, params: { id: parts[1] } };
  return { handler: ({ GET, POST, PATCH, DELETE } as Record<Method, Handler>)[method], params: { path: parts } };
}

/** A fetch for `cookie`'s session; every request it answers is pushed to `sent` when given. */
export function appRoutesAsFetch(cookie: string, sent?: SentRequest[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input), ORIGIN);
    const method = (init?.method ?? "GET").toUpperCase() as Method;
    const headers = new Headers(init?.headers);
    headers.set("cookie", cookie);
    if (method !== "GET") headers.set("origin", ORIGIN);
    sent?.push({ method, url: `${url.pathname}${url.search}`, body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined });
    const { handler, params } = route(method, url.pathname);
    if (!handler) return new Response(null, { status: 405 });
    const req = new Request(url, { method, headers, ...(init?.body ? { body: init.body } : {}) });
    return handler(req, { params: Promise.resolve(params) });
  };
}
