"use client";
// The workspace's saved views in the browser: one React Query list (`["views"]`) read from
// GET /api/views, and the writes (save, rename, delete; through `sendJson`, lib/queries/api.ts), each of
// which invalidates the list so the header's menu and every open dialog show the same views. Failures
// become sentences a person can act on: a taken name, the workspace's bound, the connection; the
// route's own message otherwise.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { isDataApiError } from "@/lib/data-api/errors";
import { getJson, sendJson } from "./api";

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

/** A route's answer without an error of its own (a proxy's page, an empty body): its status says enough. */
const UNSAID = new Set(["http_error", "unexpected_response"]);

/** A failed read or write of the views, in words a person can act on. */
function viewProblem(error: unknown, doing: string): ViewProblem {
  if (!isDataApiError(error) || error.status === 0) return new ViewProblem(OFFLINE);
  if (error.code === "name_taken") return new ViewProblem("A view with this name already exists in this workspace. Choose another name.", "name");
  if (error.code === "limit_reached") return new ViewProblem("This workspace already keeps 200 saved views, the most it may. Delete one to save another.");
  if (error.status === 404) return new ViewProblem("This view no longer exists: someone may have deleted it.");
  if (error.status === 401) return new ViewProblem("Your session has ended. Sign in again to save views.");
  const said = UNSAID.has(error.code) ? "" : error.message;
  if (error.param === "name" && said) return new ViewProblem(said, "name");
  return new ViewProblem(said ? `${doing} failed: ${said}` : `${doing} failed (error ${error.status}). Try again.`);
}

/** `work`, its failure said as a ViewProblem. */
async function saying<T>(doing: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw viewProblem(error, doing);
  }
}

const fetchViews = () => saying("Reading the saved views", async () => (await getJson<{ data: SavedView[] }>("/api/views")).data);

const viewUrl = (id: string) => `/api/views/${encodeURIComponent(id)}`;

export const useSavedViews = (enabled = true) => useQuery({ queryKey: VIEWS_KEY, queryFn: fetchViews, enabled, retry: 1 });

/** The writes, each refreshing the list once it is done (or has failed: someone else may have changed it). */
export function useViewWrites() {
  const queryClient = useQueryClient();
  const settle = () => queryClient.invalidateQueries({ queryKey: VIEWS_KEY });
  const save = useMutation({
    mutationFn: (view: { name: string; path: string; query: Record<string, string> }) =>
      saying("Saving the view", async () => (await sendJson<SavedView>("POST", "/api/views", view))!),
    onSettled: settle,
  });
  const rename = useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      saying("Renaming the view", async () => (await sendJson<SavedView>("PATCH", viewUrl(id), { name }))!),
    onSettled: settle,
  });
  const remove = useMutation({
    mutationFn: (id: string) => saying("Deleting the view", async () => void (await sendJson<never>("DELETE", viewUrl(id)))),
    onSettled: settle,
  });
  return { save, rename, remove };
}

/** A view's link: its page and query, as the address bar would have it. */
export function viewHref(view: Pick<SavedView, "path" | "query">): string {
  const search = new URLSearchParams(view.query).toString();
  return search ? `${view.path}?${search}` : view.path;
}
