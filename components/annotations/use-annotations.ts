"use client";
// The notes of a chart's range through React Query: one key family, ["annotations", {from, to, tz}]
// (the route table's key for GET /api/annotations), read again whenever the window regains focus, so
// a note a teammate wrote in another session shows on focus or reload; every write invalidates the
// whole family, so every chart of every range on the page reads its notes again. Writes go to the
// same routes with JSON bodies (`sendJson`, lib/queries/api.ts); a failure is a NoteWriteError with the
// route's status, code and field, and for a 409 the note as it is now (`current`).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AnnotationJson } from "@/lib/annotations/limits";
import { isDataApiError } from "@/lib/data-api/errors";
import { apiQuery, browserApi, sendJson } from "@/lib/queries/api";

export type NotesRange = { from: string; to: string; tz: string };

export const NOTES_KEY = ["annotations"] as const;

export function useNotes(range: NotesRange) {
  return useQuery({ ...apiQuery(browserApi, "/annotations", { query: range }), refetchOnWindowFocus: "always" });
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
