// What a note's writes take, checked once here (a bad field is a 400 naming it in `param`, and
// nothing is written; fields the contract does not name are ignored): a day or a span of days, text of
// at most ANNOTATION_TEXT_MAX characters after trimming, an author; an update names the `updated_at` it
// read and at least one field to change. The form counts characters by the same rule (limits.ts).
import { z } from "zod";
import { calendarDayNumber } from "@/lib/data-api/params";
import { ANNOTATION_AUTHOR_MAX, ANNOTATION_TEXT_MAX, characterCount } from "./limits";

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

/** POST /api/annotations {date, end_date?, text, author?} */
export const newNote = z
  .object({ date: dayField("date"), end_date: dayField("end_date").nullable().optional(), text: textField, author: authorField.optional() })
  .superRefine((v, ctx) => {
    if (v.end_date && v.end_date < v.date) ctx.addIssue({ code: "custom", path: ["end_date"], message: "end_date must not be before date" });
  });

/** An instant as the routes answer it (ISO), read back to the millisecond. */
const versionField = z
  .string({ error: "updated_at must be the note's updated_at as last read (an ISO instant)" })
  .refine((v) => /^\d{4}-\d\d-\d\dT/.test(v) && Number.isFinite(Date.parse(v)), {
    error: "updated_at must be the note's updated_at as last read (an ISO instant)",
  })
  .transform((v) => Date.parse(v));

/** PATCH /api/annotations/{id} {updated_at, text?, date?, end_date?, author?} */
export const noteChanges = z
  .object({
    updated_at: versionField,
    date: dayField("date").optional(),
    end_date: dayField("end_date").nullable().optional(),
    text: textField.optional(),
    author: authorField.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.date && v.end_date && v.end_date < v.date) ctx.addIssue({ code: "custom", path: ["end_date"], message: "end_date must not be before date" });
    if (v.date === undefined && v.end_date === undefined && v.text === undefined && v.author === undefined) {
      ctx.addIssue({ code: "custom", path: ["body"], message: "Give at least one of text, date, end_date or author to change." });
    }
  });

export const NOTE_EXAMPLE = '{"date": "2026-11-03", "text": "Campaign paused"}';

/** Ids are `ann_` and base64url; anything else cannot be a note, is not sent to the database, and is simply not found. */
export const NOTE_ID = {
  pattern: /^ann_[A-Za-z0-9_-]{1,64}$/,
  message: "There is no such note in this workspace (deleted meanwhile?).",
  refusal: "not_found",
} as const;
