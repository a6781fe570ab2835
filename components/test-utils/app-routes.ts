// The browser's fetch answered by the app's own /api route handlers, in-process, as Next would call
// them: the session's cookie and this origin on every request, the route chosen as Next's file routes
// choose it. Component tests of a UI that writes through the store use it with a real store (opened
// by testing/stores.ts), so what the UI sends is validated and kept exactly as over HTTP. The
// routes' own behaviour is tested over HTTP in their own files.
import { DELETE, GET, PATCH, POST } from "@/app/api/[[...path]]/route";
import * as deliveries from "@/app/api/alerts/deliveries/route";
import * as deliveryRetry from "@/app/api/alerts/deliveries/[id]/retry/route";
import * as destinationById from "@/app/api/alerts/destinations/[id]/route";
import * as destinationTest from "@/app/api/alerts/destinations/[id]/test/route";
import * as destinations from "@/app/api/alerts/destinations/route";
import * as digest from "@/app/api/alerts/digest/route";
import * as ruleById from "@/app/api/alerts/rules/[id]/route";
import * as rulePreview from "@/app/api/alerts/rules/preview/route";
import * as rules from "@/app/api/alerts/rules/route";
import * as viewById from "@/app/api/views/[id]/route";
import * as workspaceActivity from "@/app/api/workspace/activity/route";
import * as workspace from "@/app/api/workspace/route";
import * as workspaceKeys from "@/app/api/workspace/keys/route";
import * as workspaceKeyById from "@/app/api/workspace/keys/[id]/route";
import * as views from "@/app/api/views/route";
import { ORIGIN } from "@/testing/in-process";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Handler = (req: Request, ctx: { params: Promise<Record<string, unknown>> }) => Promise<Response>;

/** What the UI sent: the method, the path and query as requested, and the JSON body if any. */
export type SentRequest = { method: string; url: string; body: unknown };

/** The app's own route files besides the catch-all, by path pattern (`:id` is a segment), as Next routes them. */
const FILE_ROUTES: [string, Record<string, unknown>][] = [
  ["views", views],
  ["views/:id", viewById],
  ["alerts/destinations", destinations],
  ["alerts/destinations/:id", destinationById],
  ["alerts/destinations/:id/test", destinationTest],
  ["alerts/rules", rules],
  ["alerts/rules/preview", rulePreview],
  ["alerts/rules/:id", ruleById],
  ["alerts/deliveries", deliveries],
  ["alerts/deliveries/:id/retry", deliveryRetry],
  ["alerts/digest", digest],
  ["workspace", workspace],
  ["workspace/activity", workspaceActivity],
  ["workspace/keys", workspaceKeys],
  ["workspace/keys/:id", workspaceKeyById],
];

/** The handler for a method and path, with the params Next would give it (405 when there is none). */
function route(method: Method, path: string): { handler: Handler | undefined; params: Record<string, unknown> } {
  const parts = path.replace(/^\/api\//, "").split("/").map(decodeURIComponent);
  // A static segment wins over `:id`, as in Next (rules/preview before rules/:id): the list is in that order.
  for (const [pattern, module] of FILE_ROUTES) {
    const want = pattern.split("/");
    if (want.length !== parts.length || !want.every((w, i) => w === ":id" || w === parts[i])) continue;
    const at = want.indexOf(":id");
    return { handler: module[method] as Handler | undefined, params: at < 0 ? {} : { id: parts[at] } };
  }
  return { handler: ({ GET, POST, PATCH, DELETE } as Record<string, Handler>)[method], params: { path: parts } };
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
