"use client";
// The workspace's saved views in the browser: one React Query list (`["views"]`) read from
// GET /api/views, and the writes (save, rename, delete), each of which invalidates the list so the
// header's menu and every open dialog show the same views. Failures become sentences a person can act
// on: a taken name, the workspace's bound, the connection; the route's own message otherwise.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

export type SavedView = { id: string; name: string; path: string; query: Record<string, string>; created_at: string };

export const VIEWS_KEY = ["views"] as const;

/** A failed write, with the field it is about when there is one (the dialog shows it there). */
export class ViewProblem extends Error {
  constructor(
    message: string,
    readonly field?: "name",
  ) {
    super(message);
    this.name = "ViewProblem";
  }
}

const OFFLINE = "The dashboard's server could not be reached. Check your connection and try again.";

async function send(url: string, init: RequestInit, doing: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { cache: "no-store", ...init, headers: { "content-type": "application/json", ...init.headers } });
  } catch {
    throw new ViewProblem(OFFLINE);
  }
  if (res.ok) return res;
  let error: { code?: string; message?: string; param?: string } = {};
  try {
    error = ((await res.json()) as { error?: typeof error }).error ?? {};
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  if (error.code === "name_taken") throw new ViewProblem("A view with this name already exists in this workspace. Choose another name.", "name");
  if (error.code === "limit_reached") throw new ViewProblem("This workspace already keeps 200 saved views, the most it may. Delete one to save another.");
  if (res.status === 404) throw new ViewProblem("This view no longer exists: someone may have deleted it.");
  if (res.status === 401) throw new ViewProblem("Your session has ended. Sign in again to save views.");
  if (error.param === "name" && error.message) throw new ViewProblem(error.message, "name");
  throw new ViewProblem(error.message ? `${doing} failed: ${error.message}` : `${doing} failed (error ${res.status}). Try again.`);
}

async function fetchViews(): Promise<SavedView[]> {
  const res = await send("/api/views", { method: "GET" }, "Reading the saved views");
  return ((await res.json()) as { data: SavedView[] }).data;
}

export const useSavedViews = (enabled = true) => useQuery({ queryKey: VIEWS_KEY, queryFn: fetchViews, enabled, retry: 1 });

/** The writes, each refreshing the list once it is done (or has failed: someone else may have changed it). */
export function useViewWrites() {
  const queryClient = useQueryClient();
  const settle = () => queryClient.invalidateQueries({ queryKey: VIEWS_KEY });
  const save = useMutation({
    mutationFn: async (view: { name: string; path: string; query: Record<string, string> }) =>
      (await (await send("/api/views", { method: "POST", body: JSON.stringify(view) }, "Saving the view")).json()) as SavedView,
    onSettled: settle,
  });
  const rename = useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) =>
      (await (await send(`/api/views/${encodeURIComponent(id)}`, { method: "PATCH", body: JSON.stringify({ name }) }, "Renaming the view")).json()) as SavedView,
    onSettled: settle,
  });
  const remove = useMutation({
    mutationFn: async (id: string) => {
      await send(`/api/views/${encodeURIComponent(id)}`, { method: "DELETE" }, "Deleting the view");
    },
    onSettled: settle,
  });
  return { save, rename, remove };
}

/** A view's link: its page and query, as the address bar would have it. */
export function viewHref(view: Pick<SavedView, "path" | "query">): string {
  const search = new URLSearchParams(view.query).toString();
  return search ? `${view.path}?${search}` : view.path;
}
