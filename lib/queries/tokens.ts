"use client";
// The workspace's access tokens in the browser: one React Query list (`["tokens"]`, GET /api/tokens)
// and the writes (make one, revoke one; through `sendJson`, lib/queries/api.ts), each refreshing the
// list and the activity. The made token comes back once, in the POST's answer, and is never read again.
import { useQuery } from "@tanstack/react-query";
import { isDataApiError } from "@/lib/data-api/errors";
import { tokenErrorText } from "@/lib/ui/messages";
import { getJson, sendJson } from "./api";

export type AccessToken = { id: string; name: string; hint: string; created_at: string; last_used_at: string | null; expires_at: string | null };
export type MadeToken = AccessToken & { token: string };

export const TOKENS_KEY = ["tokens"] as const;

/** A failed read or write, in words a person can act on, with the field it is about. */
export class TokenProblem extends Error {
  constructor(
    message: string,
    readonly field?: "name" | "expires_at",
  ) {
    super(message);
    this.name = "TokenProblem";
  }
}

function problem(error: unknown): TokenProblem {
  if (!isDataApiError(error)) return new TokenProblem(tokenErrorText({ status: 0, code: "network_error" }));
  const field = error.param === "name" || error.param === "expires_at" ? error.param : undefined;
  return new TokenProblem(tokenErrorText({ status: error.status, code: error.code, ...(error.param ? { param: error.param } : {}) }), field);
}

async function saying<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw problem(error);
  }
}

const fetchTokens = () => saying(async () => (await getJson<{ data: AccessToken[] }>("/api/tokens")).data);

export const useAccessTokens = () => useQuery({ queryKey: TOKENS_KEY, queryFn: fetchTokens, retry: 1 });

/** POST /api/tokens: the token, with its secret this once. */
export const makeToken = (body: { name: string; expires_at: string | null }) => saying(async () => (await sendJson<MadeToken>("POST", "/api/tokens", body))!);

/** DELETE /api/tokens/{id}. */
export const revokeToken = (token: AccessToken) => saying(async () => void (await sendJson("DELETE", `/api/tokens/${encodeURIComponent(token.id)}`)));
