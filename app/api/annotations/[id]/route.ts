// PATCH /api/annotations/{id} - changes a note {updated_at, text?, date?, end_date?, author?} (409 with `current` when it changed since it was read); DELETE - deletes it (lib/annotations/routes.ts).
import { deleteNote, NOTES_SUBJECT, updateNote } from "@/lib/annotations/routes";
import { NOTE_EXAMPLE, NOTE_ID, noteChanges } from "@/lib/annotations/schema";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const PATCH = route(
  { access: "session", write: true, store: true, pathParams: { id: NOTE_ID }, body: noteChanges, bodyExample: NOTE_EXAMPLE, subject: NOTES_SUBJECT },
  updateNote,
);
export const DELETE = route({ access: "session", write: true, store: true, pathParams: { id: NOTE_ID }, subject: NOTES_SUBJECT }, deleteNote);
