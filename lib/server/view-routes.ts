// Saved views over HTTP (GET, POST /api/views; PATCH, DELETE /api/views/{id}): a page of the app and
// its query under a name, for the session's workspace only. Writes pass the same-origin check of
// sign-in. A body is checked field by field before anything is stored (400 naming the first bad one):
// `path` must be one of the pages that take a query (lib/ui/page-params.ts), never a visitor's page,
// Settings or another site; `query` an object of strings naming that page's own parameters only.
// The values themselves are kept as given and judged by the page when the view is opened, exactly as
// a pasted link would be (a bad date shows on its field there). Paging (`limit`, `offset`) is where a
// reader was in a list, not the view: it is dropped. An id of another workspace is a 404, as is an
// unknown one.
import "server-only";
import type { SavedView } from "@/lib/store/views";
import { viewName } from "@/lib/store/views";
import { isQueryPage, PAGE_PARAMS, PAGING_PARAMS } from "@/lib/ui/page-params";
import { finalError, invalidParameter, json, withErrors } from "./http";
import { readJsonObject } from "./request-body";
import { storeScope } from "./store-scope";

/** What the routes answer for a view. */
export type SavedViewBody = { id: string; name: string; path: string; query: Record<string, string>; created_at: string };

/** A query value's longest length: a page's parameters are short (dates, codes, a typed intent). */
const MAX_VALUE_LENGTH = 500;

const viewBody = (v: SavedView): SavedViewBody => ({ id: v.id, name: v.name, path: v.path, query: v.query, created_at: new Date(v.createdAt).toISOString() });

const noSuchView = () => finalError({ status: 404, code: "not_found", message: "This workspace has no saved view with that id (it may have been deleted)." });

function checkedName(value: unknown): string {
  if (typeof value !== "string") throw invalidParameter("name", "name must be a string: what the view is called.");
  try {
    return viewName(value).name;
  } catch (error) {
    throw invalidParameter("name", error instanceof Error ? error.message : "name is not valid.");
  }
}

const PAGES = Object.keys(PAGE_PARAMS).join(", ");

/** The page and its own parameters (paging dropped), or a 400 naming `path` or `query`. */
export function checkedPageQuery(path: unknown, query: unknown): { path: string; query: Record<string, string> } {
  if (typeof path !== "string" || !isQueryPage(path)) throw invalidParameter("path", `path must be one of the app's pages that take a query: ${PAGES}.`);
  if (typeof query !== "object" || query === null || Array.isArray(query)) throw invalidParameter("query", "query must be an object of the page's parameters, each a string.");
  const own: readonly string[] = PAGE_PARAMS[path];
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!own.includes(name)) throw invalidParameter("query", `query may hold ${path}'s own parameters only (${own.filter((p) => !PAGING_PARAMS.includes(p)).join(", ")}); "${name.slice(0, 40)}" is not one.`);
    if (typeof value !== "string") throw invalidParameter("query", `query.${name} must be a string, as in a link.`);
    if (value.length > MAX_VALUE_LENGTH) throw invalidParameter("query", `query.${name} must be at most ${MAX_VALUE_LENGTH} characters.`);
    if (!PAGING_PARAMS.includes(name)) kept[name] = value;
  }
  return { path, query: kept };
}

/** GET /api/views: the workspace's views, by name. */
export const listViews = withErrors("the saved views", async (req: Request) => {
  const { store, workspace } = await storeScope(req, { write: false });
  const views = await store.views.list(workspace);
  return json({ data: views.map(viewBody) });
});

/** POST /api/views {name, path, query}: 201 the view. */
export const createView = withErrors("saving the view", async (req: Request) => {
  const { store, workspace } = await storeScope(req, { write: true });
  const body = await readJsonObject(req, '{"name": "…", "path": "/visitors", "query": {"source": "chatgpt"}}');
  const name = checkedName(body.name);
  const page = checkedPageQuery(body.path, body.query);
  const view = await store.views.create(workspace, { name, ...page });
  return json(viewBody(view), { status: 201 });
});

type IdContext = { params: Promise<{ id?: string }> };

/** The id in the URL; anything that is not one of ours is simply not found. */
async function viewId(ctx: IdContext): Promise<string> {
  const { id } = await ctx.params;
  if (typeof id !== "string" || !/^view_[A-Za-z0-9_-]{22}$/.test(id)) throw noSuchView();
  return id;
}

/** PATCH /api/views/{id} {name}: 200 the renamed view. */
export const renameView = withErrors("renaming the view", async (req: Request, ctx: IdContext) => {
  const { store, workspace } = await storeScope(req, { write: true });
  const id = await viewId(ctx);
  const name = checkedName((await readJsonObject(req, '{"name": "…"}')).name);
  const view = await store.views.rename(workspace, id, name);
  if (!view) throw noSuchView();
  return json(viewBody(view));
});

/** DELETE /api/views/{id}: 204. */
export const deleteView = withErrors("deleting the view", async (req: Request, ctx: IdContext) => {
  const { store, workspace } = await storeScope(req, { write: true });
  const id = await viewId(ctx);
  if (!(await store.views.remove(workspace, id))) throw noSuchView();
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
});
