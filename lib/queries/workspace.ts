"use client";
// The workspace's settings in the browser: one React Query answer (`["workspace"]`, GET
// /api/workspace: watching, linked keys, where history begins, what is kept) for every Settings card
// that reads them, and the writes that change them from there (unlink a key, delete everything kept).
// A failure is said in the route's own words (written for people), or plainly when there are none.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ALERTS_KEY } from "./alerts";

export type Watching = "off" | "on" | "paused";
/** A key linked to the workspace; `current` is the one this session signed in with. */
export type LinkedKey = { id: string; key_hint: string; linked_at: string; current: boolean };
/** What deleting everything would delete, counted. */
export type Kept = { snapshots: number; notes: number; views: number; alert_destinations: number; alert_rules: number; kept_key: boolean; activity: number };
export type WorkspaceInfo = { watching: Watching; paused_reason?: string; linked_keys: LinkedKey[]; history_since: string | null; time_zone: string; kept: Kept };

export const WORKSPACE_KEY = ["workspace"] as const;

export const OFFLINE = "The dashboard's server could not be reached. Check your connection and try again.";

/** The error message of an /api answer, or a plain fallback. */
export async function problemOf(res: Response, fallback: string): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { message?: unknown } };
    if (typeof body.error?.message === "string" && body.error.message) return body.error.message;
  } catch {
    // Not JSON: the fallback says it.
  }
  return fallback;
}

async function fetchWorkspace(): Promise<WorkspaceInfo> {
  let res: Response;
  try {
    res = await fetch("/api/workspace", { cache: "no-store" });
  } catch {
    throw new Error(OFFLINE);
  }
  if (!res.ok) throw new Error(await problemOf(res, "The workspace's settings could not be read. Try again."));
  return (await res.json()) as WorkspaceInfo;
}

/** The workspace's settings (GET /api/workspace), one query for every card that reads them. */
export const useWorkspaceInfo = () => useQuery({ queryKey: WORKSPACE_KEY, queryFn: fetchWorkspace, retry: 1 });

/** Sends a write; resolves when it was done, throws an Error saying why not (in the route's words). */
async function write(url: string, init: RequestInit, fallback: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, { cache: "no-store", ...init });
  } catch {
    throw new Error(OFFLINE);
  }
  if (res.status === 401) throw new Error("Your session has ended. Sign in again to change this workspace's settings.");
  if (!res.ok) throw new Error(await problemOf(res, fallback));
}

/** PUT /api/workspace/watch: the session's key is kept, sealed, so the dashboard collects (and checks alerts) while nobody is signed in. */
export const startWatching = () => write("/api/workspace/watch", { method: "PUT" }, "Watching could not be turned on. Try again.");

/** DELETE /api/workspace/watch: watching off, the kept key deleted at once. */
export const stopWatching = () => write("/api/workspace/watch", { method: "DELETE" }, "Watching could not be turned off. Try again.");

/**
 * Watching turned on from wherever it is offered (its card, an alert form that needs it): every
 * answer that depends on it is read again (the workspace, the activity list, the rules' next check).
 */
export function useStartWatching() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startWatching,
    // The workspace's key holds its activity list's too (["workspace", "activity"]).
    onSettled: () => Promise.all([WORKSPACE_KEY, ALERTS_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/** DELETE /api/workspace/keys/{id}: the key's link goes, and everyone signed in with it is signed out. */
export const unlinkKey = (key: LinkedKey) =>
  write(`/api/workspace/keys/${encodeURIComponent(key.id)}`, { method: "DELETE" }, `The key ${key.key_hint} could not be unlinked. Try again.`);

/** DELETE /api/workspace {confirm: "delete"}: everything kept for the workspace goes, and this session ends. */
export const deleteEverythingKept = () =>
  write("/api/workspace", { method: "DELETE", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ confirm: "delete" }) }, "What is kept could not be deleted. Try again.");
