// Saved views over HTTP (GET, POST /api/views; PATCH, DELETE /api/views/{id}, mounted by
// app/api/views/**/route.ts): a page of the app and its query under a name, for the session's
// workspace only. The route files declare each body (schema.ts: checked field by field before
// anything is stored, a 400 naming the first bad one) and the id (anything that is not one of ours is
// simply not found). Names are unique per workspace without case (409 `name_taken`, the store's); a
// workspace keeps at most 200 (422). An id of another workspace is a 404, as is an unknown one.
import "server-only";
import type { z } from "zod";
import { finalError, json, noContent } from "@/lib/server/http";
import type { StoreScope } from "@/lib/server/route-types";
import type { SavedView } from "@/lib/store/views";
import type { newView, renamedView } from "./schema";

/** What the routes answer for a view. */
export type SavedViewBody = { id: string; name: string; path: string; query: Record<string, string>; created_at: string };

const viewBody = (v: SavedView): SavedViewBody => ({ id: v.id, name: v.name, path: v.path, query: v.query, created_at: new Date(v.createdAt).toISOString() });

const noSuchView = () => finalError({ status: 404, code: "not_found", message: "This workspace has no saved view with that id (it may have been deleted)." });

/** GET /api/views: the workspace's views, by name. */
export async function listViews({ scope: { store, workspace } }: { scope: StoreScope }) {
  const views = await store.views.list(workspace);
  return { data: views.map(viewBody) };
}

/** POST /api/views {name, path, query}: 201 the view. */
export async function createView({ scope: { store, workspace }, body }: { scope: StoreScope; body: z.output<typeof newView> }): Promise<Response> {
  const view = await store.views.create(workspace, body);
  return json(viewBody(view), { status: 201 });
}

/** PATCH /api/views/{id} {name}: 200 the renamed view. */
export async function renameView({
  scope: { store, workspace },
  params,
  body,
}: {
  scope: StoreScope;
  params: { id: string };
  body: z.output<typeof renamedView>;
}) {
  const view = await store.views.rename(workspace, params.id, body.name);
  if (!view) throw noSuchView();
  return viewBody(view);
}

/** DELETE /api/views/{id}: 204. */
export async function deleteView({ scope: { store, workspace }, params }: { scope: StoreScope; params: { id: string } }): Promise<Response> {
  if (!(await store.views.remove(workspace, params.id))) throw noSuchView();
  return noContent();
}
