"use client";
// The workspace's settings in the browser: one React Query answer (`["workspace"]`, GET
// /api/workspace: watching, linked keys, where history begins, what is kept) for every Settings card
// that reads them, and the writes that change them from there (watching, link and unlink a key, delete
// everything kept), through `sendJson` (lib/queries/api.ts). A failure is said in the route's own words
// (written for people), or plainly when there are none.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { isDataApiError } from "@/lib/data-api/errors";
import { ALERTS_KEY } from "./alerts";
import { getJson, sendJson } from "./api";

export type Watching = "off" | "on" | "paused";
/** A key linked to the workspace; `current` is the one this session signed in with. */
export type LinkedKey = { id: string; key_hint: string; linked_at: string; current: boolean };
/** What deleting everything would delete, counted. */
export type Kept = {
  snapshots: number;
  notes: number;
  views: number;
  alert_destinations: number;
  alert_rules: number;
  shares: number;
  kept_key: boolean;
  activity: number;
  /** Figures of closed days kept for the insights. */
  kept_days: number;
  tokens: number;
};
export type WorkspaceInfo = {
  watching: Watching;
  paused_reason?: string;
  linked_keys: LinkedKey[];
  history_since: string | null;
  time_zone: string;
  kept: Kept;
};

export const WORKSPACE_KEY = ["workspace"] as const;

export const OFFLINE = "The dashboard's server could not be reached. Check your connection and try again.";

/** A failure said in the route's own words, or `fallback` when its answer has none; no answer at all, OFFLINE. */
function problem(error: unknown, fallback: string): Error {
  if (!isDataApiError(error) || error.status === 0) return new Error(OFFLINE);
  return new Error(error.code === "http_error" || error.code === "unexpected_response" || !error.message ? fallback : error.message);
}

async function fetchWorkspace(): Promise<WorkspaceInfo> {
  try {
    return await getJson<WorkspaceInfo>("/api/workspace");
  } catch (error) {
    throw problem(error, "The workspace's settings could not be read. Try again.");
  }
}

/** The workspace's settings (GET /api/workspace), one query for every card that reads them. */
export const useWorkspaceInfo = () => useQuery({ queryKey: WORKSPACE_KEY, queryFn: fetchWorkspace, retry: 1 });

/** Sends a write; resolves with its answer when it was done, throws an Error saying why not (in the route's words). */
async function write<T = unknown>(method: "POST" | "PUT" | "DELETE", url: string, fallback: string, body?: unknown): Promise<T | null> {
  try {
    return await sendJson<T>(method, url, body);
  } catch (error) {
    if (isDataApiError(error) && error.status === 401) throw new Error("Your session has ended. Sign in again to change this workspace's settings.");
    throw problem(error, fallback);
  }
}

/** PUT /api/workspace/watch: the session's key is kept, sealed, so the dashboard collects (and checks alerts) while nobody is signed in. */
export const startWatching = async () => void (await write("PUT", "/api/workspace/watch", "Watching could not be turned on. Try again."));

/** DELETE /api/workspace/watch: watching off, the kept key deleted at once. */
export const stopWatching = async () => void (await write("DELETE", "/api/workspace/watch", "Watching could not be turned off. Try again."));

/** POST /api/workspace/keys {apiKey}: another key of the workspace linked; `merged` when what was kept for it joined this workspace. */
export const linkKey = async (apiKey: string) =>
  (await write<{ key_hint: string; merged: boolean }>("POST", "/api/workspace/keys", "The key could not be linked. Try again.", { apiKey }))!;

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
export const unlinkKey = async (key: LinkedKey) =>
  void (await write("DELETE", `/api/workspace/keys/${encodeURIComponent(key.id)}`, `The key ${key.key_hint} could not be unlinked. Try again.`));

/** DELETE /api/workspace {confirm: "delete"}: everything kept for the workspace goes, and this session ends. */
export const deleteEverythingKept = async () =>
  void (await write("DELETE", "/api/workspace", "What is kept could not be deleted. Try again.", { confirm: "delete" }));
