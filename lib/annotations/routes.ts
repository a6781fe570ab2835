// The annotation routes: a workspace's notes on its charts. The read is a route of the BFF's table
// (lib/server/routes.ts: its session, query validation and error shape), the writes are the table's
// write routes. Every answer is about the session's own workspace: another workspace's note is a 404,
// never listed. Writes pass the same-origin check of sign-in (lib/server/csrf.ts) before anything
// else. A body is JSON of at most MAX_BODY_BYTES; a bad field is a 400 naming it in `param`, and
// nothing is written; fields the contract does not name are ignored. A PATCH names the `updated_at` it
// read: when the note has changed since, the answer is a 409 `conflict` that also carries the note as
// it is now (`current`), so the page can show a teammate's newer text.
import "server-only";
import { z } from "zod";
import { ANNOTATION_AUTHOR_MAX, ANNOTATION_TEXT_MAX, characterCount, type AnnotationJson } from "@/lib/annotations/limits";
import { calendarDayNumber, historyParams, type HistoryParams } from "@/lib/data-api/params";
import { resolveHistoryRange } from "@/lib/history/routes";
import { serverContext } from "@/lib/server/context";
import { finalError, json, withErrors } from "@/lib/server/http";
import type { BffRouteDef } from "@/lib/server/routes";
import { jsonBodyOf, storeRead, storeScope } from "@/lib/server/store-scope";
import type { Annotation } from "@/lib/store/annotations";

const SUBJECT = "the notes";

const iso = (ms: number) => new Date(ms).toISOString();

export function annotationJson(note: Annotation): AnnotationJson {
  return { id: note.id, date: note.date, end_date: note.endDate, text: note.text, author: note.author, created_at: iso(note.createdAt), updated_at: iso(note.updatedAt) };
}

const dayField = (name: string) =>
  z
    .string({ error: `${name} must be a calendar date YYYY-MM-DD, e.g. 2026-11-03` })
    .refine((v) => calendarDayNumber(v) !== null, { error: `${name} must be a real calendar date YYYY-MM-DD between 2000 and 2100, e.g. 2026-11-03` });

const textField = z
  .string({ error: "text must be a string" })
  .transform((v) => v.trim())
  .refine((v) => v.length > 0, { error: "text must not be empty" })
  .refine((v) => characterCount(v) <= ANNOTATION_TEXT_MAX, { error: `text must be at most ${ANNOTATION_TEXT_MAX} characters` });

/** An author trimmed; empty or null is none. */
const authorField = z
  .string({ error: "author must be a string or null" })
  .transform((v) => v.trim())
  .refine((v) => characterCount(v) <= ANNOTATION_AUTHOR_MAX, { error: `author must be at most ${ANNOTATION_AUTHOR_MAX} characters` })
  .transform((v) => (v === "" ? null : v))
  .nullable();

const createBody = z
  .object({ date: dayField("date"), end_date: dayField("end_date").nullable().optional(), text: textField, author: authorField.optional() })
  .superRefine((v, ctx) => {
    if (v.end_date && v.end_date < v.date) ctx.addIssue({ code: "custom", path: ["end_date"], message: "end_date must not be before date" });
  });

/** An instant as the routes answer it (ISO), read back to the millisecond. */
const versionField = z
  .string({ error: "updated_at must be the note's updated_at as last read (an ISO instant)" })
  .refine((v) => /^\d{4}-\d\d-\d\dT/.test(v) && Number.isFinite(Date.parse(v)), { error: "updated_at must be the note's updated_at as last read (an ISO instant)" })
  .transform((v) => Date.parse(v));

const updateBody = z
  .object({ updated_at: versionField, date: dayField("date").optional(), end_date: dayField("end_date").nullable().optional(), text: textField.optional(), author: authorField.optional() })
  .superRefine((v, ctx) => {
    if (v.date && v.end_date && v.end_date < v.date) ctx.addIssue({ code: "custom", path: ["end_date"], message: "end_date must not be before date" });
    if (v.date === undefined && v.end_date === undefined && v.text === undefined && v.author === undefined) {
      ctx.addIssue({ code: "custom", path: ["body"], message: "Give at least one of text, date, end_date or author to change." });
    }
  });

const NOTE_EXAMPLE = '{"date": "2026-11-03", "text": "Campaign paused"}';

const notFound = () => finalError({ status: 404, code: "not_found", message: "There is no such note in this workspace (deleted meanwhile?)." });

/** Ids are `ann_` and base64url; anything else cannot be a note, and is not sent to the database. */
const ANNOTATION_ID = /^ann_[A-Za-z0-9_-]{1,64}$/;

/** GET /api/annotations?from&to&tz, as a route of the BFF's table: the notes touching the range, by date. */
export const annotationsListRoute = {
  query: historyParams,
  subject: SUBJECT,
  resolve: storeRead(null, async ({ store, workspace }, input: { query: Record<string, unknown> }): Promise<{ data: AnnotationJson[] }> => {
    const range = resolveHistoryRange(input.query as HistoryParams, serverContext().now());
    const notes = await store.annotations.list(workspace, { from: range.from, to: range.to });
    return { data: notes.map(annotationJson) };
  }),
} satisfies BffRouteDef;

/** POST /api/annotations {date, end_date?, text, author?}: 201 the note; 422 `limit_reached` over the workspace's bound. */
export const createAnnotation = withErrors(SUBJECT, async (req: Request) => {
  const { store, workspace } = await storeScope(req, { write: true });
  const body = await jsonBodyOf(req, createBody, NOTE_EXAMPLE);
  const note = await store.annotations.create(workspace, { date: body.date, endDate: body.end_date ?? null, text: body.text, author: body.author ?? null });
  return json(annotationJson(note), { status: 201 });
});

/** PATCH /api/annotations/{id} {updated_at, text?, date?, end_date?, author?}: 200 the note; 409 with `current` when it changed meanwhile. */
export const updateAnnotation = withErrors(SUBJECT, async (req: Request, params: Record<string, string>) => {
  const { store, workspace } = await storeScope(req, { write: true });
  const body = await jsonBodyOf(req, updateBody, NOTE_EXAMPLE);
  const id = params.id ?? "";
  if (!ANNOTATION_ID.test(id)) throw notFound();
  const result = await store.annotations.update(workspace, id, body.updated_at, {
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
  return json(annotationJson(result.note));
});

/** DELETE /api/annotations/{id}: 204. */
export const deleteAnnotation = withErrors(SUBJECT, async (req: Request, params: Record<string, string>) => {
  const { store, workspace } = await storeScope(req, { write: true });
  const id = params.id ?? "";
  if (!ANNOTATION_ID.test(id) || !(await store.annotations.remove(workspace, id))) throw notFound();
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
});
