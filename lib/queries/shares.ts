"use client";
// The workspace's share links in the browser: one React Query list (`["shares"]`) read from
// GET /api/shares, and the writes (share, change, revoke; through `sendJson`), each invalidating the
// list. Failures become sentences a person can act on, with the field they are about (the dialog and
// Settings show them there): watching required, a short password, a past expiry, the connection.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { isDataApiError } from "@/lib/data-api/errors";
import { alertsKeys } from "./alerts";
import { getJson, sendJson } from "./api";

export type ShareLink = {
  id: string;
  name: string;
  path: string;
  query: Record<string, string>;
  url: string | null;
  password: boolean;
  expires_at: string | null;
  created_at: string;
  last_opened_at: string | null;
  opened_count: number;
};

export type ShareField = "name" | "password" | "expires_at";

export const SHARES_KEY = ["shares"] as const;

/** A failed read or write of the links, with the field it is about when there is one. */
export class ShareProblem extends Error {
  constructor(
    message: string,
    readonly field?: ShareField,
    readonly code?: string,
  ) {
    super(message);
    this.name = "ShareProblem";
  }
}

function shareProblem(error: unknown, doing: string): ShareProblem {
  if (!isDataApiError(error) || error.status === 0)
    return new ShareProblem("The dashboard's server could not be reached. Check your connection and try again.");
  if (error.code === "watching_required")
    return new ShareProblem("A share link reads with the key this dashboard keeps: turn on watching in Settings first.", undefined, error.code);
  if (error.code === "limit_reached") return new ShareProblem("This workspace already keeps 100 share links, the most it may. Revoke one to share another.");
  if (error.status === 404) return new ShareProblem("This link no longer exists: someone may have revoked it.");
  if (error.status === 401) return new ShareProblem("Your session has ended. Sign in again to share pages.");
  if (error.param === "password") return new ShareProblem("Use a password of 6 to 128 characters, or none.", "password");
  if (error.param === "expires_at") return new ShareProblem("Choose an expiry in the future, or none.", "expires_at");
  if (error.param === "name") return new ShareProblem("Give the link a name of one line, up to 80 characters.", "name");
  return new ShareProblem(`${doing} failed (error ${error.status}). Try again.`);
}

async function saying<T>(doing: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw shareProblem(error, doing);
  }
}

const shareUrl = (id: string) => `/api/shares/${encodeURIComponent(id)}`;

export const useShareLinks = (enabled = true) =>
  useQuery({
    queryKey: SHARES_KEY,
    queryFn: () => saying("Reading the share links", async () => (await getJson<{ data: ShareLink[] }>("/api/shares")).data),
    enabled,
    retry: 1,
  });

export type NewShareLink = { name: string; path: string; query: Record<string, string>; password?: string; expires_at?: string };
export type ShareLinkChange = { name?: string; password?: string | null; expires_at?: string | null };

/** The writes, each refreshing the list once done (or failed: someone else may have changed it). */
export function useShareWrites() {
  const queryClient = useQueryClient();
  // The digest's share link is one of these: revoked or expired, it is the digest's no more (and its preview's links change).
  const settle = () => Promise.all([SHARES_KEY, alertsKeys.digest].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  const create = useMutation({
    mutationFn: (share: NewShareLink) => saying("Sharing the page", async () => (await sendJson<ShareLink>("POST", "/api/shares", share))!),
    onSettled: settle,
  });
  const change = useMutation({
    mutationFn: ({ id, ...body }: ShareLinkChange & { id: string }) =>
      saying("Changing the link", async () => (await sendJson<ShareLink>("PATCH", shareUrl(id), body))!),
    onSettled: settle,
  });
  const revoke = useMutation({
    mutationFn: (id: string) => saying("Revoking the link", async () => void (await sendJson<never>("DELETE", shareUrl(id)))),
    onSettled: settle,
  });
  return { create, change, revoke };
}
