"use client";
// The notes of a chart's range through React Query: one key family, ["annotations", {from, to, tz}]
// (the route table's key for GET /api/annotations), read again whenever the window regains focus, so
// a note a teammate wrote in another session shows on focus or reload; every write invalidates the
// whole family, so every chart of every range on the page reads its notes again. Writes go to the
// same routes with JSON bodies (`sendJson`, lib/queries/api.ts); a failure is a NoteWriteError with the
// route's status, code and field, and for a 409 the note as it is now (`current`).
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import type { AnnotationJson } from "@/lib/annotations/limits";
import { isDataApiError } from "@/lib/data-api/errors";
import { apiQuery, browserApi, sendJson } from "@/lib/queries/api";
import { useHydrated } from "@/lib/ui/use-hydrated";

export type NotesRange = { from: string; to: string; tz: string };

export const NOTES_KEY = ["annotations"] as const;

/** The notes of a range as a chart shows them: pending, failed (keeping what was read before), or read. */
export type NotesView = Pick<UseQueryResult<{ data: AnnotationJson[] }>, "data" | "isPending" | "isError" | "error" | "refetch">;

/**
 * The notes of a range. The pages do not prefetch them, so the server renders every chart's notes as
 * loading; the browser does too until the page has hydrated, even when the notes are already in its
 * cache: one chart's fetch can answer before another chart, in a widget streamed in later, hydrates,
 * and that chart rendering the notes would differ from the server's HTML (a hydration mismatch, seen
 * on /intelligence, whose two history charts read the same notes).
 */
export function useNotes(range: NotesRange): NotesView {
  const query = useQuery({ ...apiQuery(browserApi, "/annotations", { query: range }), refetchOnWindowFocus: "always" });
  const hydrated = useHydrated();
  if (hydrated) return query;
  return { data: undefined, isPending: true, isError: false, error: null, refetch: query.refetch };
}

export class NoteWriteError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly param?: string,
    /** A 409's note as it is now, after a teammate's change. */
    readonly current?: AnnotationJson,
  ) {
    super(`note write failed: ${status} ${code}`);
    this.name = "NoteWriteError";
  }
}

export type NoteFields = { date: string; end_date: string | null; text: string; author: string | null };

async function writeNote(method: "POST" | "PATCH" | "DELETE", url: string, body?: object): Promise<AnnotationJson | null> {
  try {
    return await sendJson<AnnotationJson>(method, url, body);
  } catch (error) {
    if (!isDataApiError(error)) throw new NoteWriteError(0, "network_error");
    throw new NoteWriteError(error.status, error.code, error.param, error.extra?.current as AnnotationJson | undefined);
  }
}

const noteUrl = (id: string) => `/api/annotations/${encodeURIComponent(id)}`;

/** Create, update (naming the version read) and delete; each invalidates every range's notes, success or not. */
export function useNoteWrites() {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: NOTES_KEY });
  const create = useMutation({ mutationFn: (fields: NoteFields) => writeNote("POST", "/api/annotations", fields), onSettled });
  const update = useMutation({
    mutationFn: ({ id, updatedAt, fields }: { id: string; updatedAt: string; fields: NoteFields }) =>
      writeNote("PATCH", noteUrl(id), { updated_at: updatedAt, ...fields }),
    onSettled,
  });
  const remove = useMutation({ mutationFn: (id: string) => writeNote("DELETE", noteUrl(id)), onSettled });
  return { create, update, remove };
}
