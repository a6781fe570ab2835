// The annotation routes: a workspace's notes on its charts (mounted by app/api/annotations/**/route.ts;
// the read also runs in-process for server components, lib/queries/server-api.ts). Every answer is about
// the session's own workspace: another workspace's note is a 404, never listed. The route files declare
// the bodies (schema.ts) and the writes' same-origin check. A PATCH names the `updated_at` it read: when
// the note has changed since, the answer is a 409 `conflict` that also carries the note as it is now
// (`current`), so the page can show a teammate's newer text.
import "server-only";
import type { z } from "zod";
import { historyParams, type HistoryParams } from "@/lib/history/schema";
import { resolveHistoryRange } from "@/lib/history/routes";
import { serverContext } from "@/lib/server/context";
import { finalError, json, noContent } from "@/lib/server/http";
import { defineRoute, HEAD_COSTS_UPSTREAM, type StoreScope } from "@/lib/server/route-types";
import type { Annotation } from "@/lib/store/annotations";
import type { AnnotationJson } from "./limits";
import type { newNote, noteChanges } from "./schema";

export const NOTES_SUBJECT = "the notes";

const iso = (ms: number) => new Date(ms).toISOString();

export function annotationJson(note: Annotation): AnnotationJson {
  return {
    id: note.id,
    date: note.date,
    end_date: note.endDate,
    text: note.text,
    author: note.author,
    created_at: iso(note.createdAt),
    updated_at: iso(note.updatedAt),
  };
}

const notFound = () => finalError({ status: 404, code: "not_found", message: "There is no such note in this workspace (deleted meanwhile?)." });

/** GET /api/annotations?from&to&tz: the notes touching the range, by date. */
export const annotationRoutes = {
  "/annotations": defineRoute(
    {
      access: "session",
      store: true,
      query: historyParams,
      subject: NOTES_SUBJECT,
      headRefused: HEAD_COSTS_UPSTREAM,
      tools: [{ name: "notes", description: "The team's notes on days of the range (a launch, a campaign, an outage): what happened when a figure moved." }],
    },
    async ({ scope: { store, workspace }, query }: { scope: StoreScope; query: HistoryParams }): Promise<{ data: AnnotationJson[] }> => {
      const range = resolveHistoryRange(query, serverContext().now());
      const notes = await store.annotations.list(workspace, { from: range.from, to: range.to });
      return { data: notes.map(annotationJson) };
    },
  ),
};

/** POST /api/annotations {date, end_date?, text, author?}: 201 the note; 422 `limit_reached` over the workspace's bound. */
export async function createNote({ scope: { store, workspace }, body }: { scope: StoreScope; body: z.output<typeof newNote> }): Promise<Response> {
  const note = await store.annotations.create(workspace, { date: body.date, endDate: body.end_date ?? null, text: body.text, author: body.author ?? null });
  return json(annotationJson(note), { status: 201 });
}

/** PATCH /api/annotations/{id} {updated_at, text?, date?, end_date?, author?}: 200 the note; 409 with `current` when it changed meanwhile. */
export async function updateNote({
  scope: { store, workspace },
  params,
  body,
}: {
  scope: StoreScope;
  params: { id: string };
  body: z.output<typeof noteChanges>;
}) {
  const result = await store.annotations.update(workspace, params.id, body.updated_at, {
    ...(body.date !== undefined ? { date: body.date } : {}),
    ...(body.end_date !== undefined ? { endDate: body.end_date } : {}),
    ...(body.text !== undefined ? { text: body.text } : {}),
    ...(body.author !== undefined ? { author: body.author } : {}),
  });
  if (result.outcome === "not_found") throw notFound();
  if (result.outcome === "conflict") {
    const error = { code: "conflict", message: "Someone changed this note since it was read: its current version is in `current`.", param: "updated_at" };
    return json({ error, current: annotationJson(result.current) }, { status: 409 });
  }
  return annotationJson(result.note);
}

/** DELETE /api/annotations/{id}: 204. */
export async function deleteNote({ scope: { store, workspace }, params }: { scope: StoreScope; params: { id: string } }): Promise<Response> {
  if (!(await store.annotations.remove(workspace, params.id))) throw notFound();
  return noContent();
}
