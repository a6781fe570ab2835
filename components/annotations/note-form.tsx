"use client";
// The form of a note, new or edited in place: its first day, an optional last day (a span), the
// text with a live count of its characters (counted as the server counts them), and the author's
// name, which a new note takes from this browser (localStorage) and remembers there when saved.
// Problems are said on their field before anything is sent; what the server refuses comes back as a
// sentence. When a teammate changed the note meanwhile, the form says so with their text and offers
// to save this version over theirs or keep theirs.
import { useId, useState, type FormEvent } from "react";
import { DateInput } from "@/components/range/date-input";
import { ANNOTATION_AUTHOR_MAX, ANNOTATION_TEXT_MAX, characterCount, type AnnotationJson } from "@/lib/annotations/limits";
import { formatNumber } from "@/lib/format/format";
import { noteDays } from "./annotation-data";
import styles from "./annotations.module.css";

export type NoteDraft = { date: string; endDate: string; text: string; author: string };

/** Where this browser keeps the name its notes are signed with. */
export const AUTHOR_STORAGE_KEY = "wa:annotation-author";

function rememberedAuthor(): string {
  try {
    return window.localStorage.getItem(AUTHOR_STORAGE_KEY) ?? "";
  } catch {
    return ""; // storage refused (private mode, a policy): the name is simply not remembered
  }
}

function rememberAuthor(author: string): void {
  try {
    if (author) window.localStorage.setItem(AUTHOR_STORAGE_KEY, author);
  } catch {
    // As above: nothing to do.
  }
}

/** A real calendar day written `YYYY-MM-DD`, within the years the server takes. */
function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const ms = Date.parse(`${value}T00:00:00Z`);
  return year >= 2000 && year <= 2100 && Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

type Problems = Partial<Record<"date" | "endDate" | "text" | "author", string>>;

function problemsOf(d: NoteDraft): Problems {
  const problems: Problems = {};
  if (!isCalendarDay(d.date)) problems.date = "Enter the note's day as year-month-day, e.g. 2026-11-03.";
  if (d.endDate && !isCalendarDay(d.endDate)) problems.endDate = "Enter the last day as year-month-day, or leave it empty for one day.";
  else if (d.endDate && isCalendarDay(d.date) && d.endDate < d.date) problems.endDate = "The last day cannot be before the first day.";
  const length = characterCount(d.text.trim());
  if (length === 0) problems.text = "Write what happened, e.g. “Campaign paused”.";
  else if (length > ANNOTATION_TEXT_MAX)
    problems.text = `A note holds at most ${formatNumber(ANNOTATION_TEXT_MAX)} characters; this one has ${formatNumber(length)}.`;
  if (characterCount(d.author.trim()) > ANNOTATION_AUTHOR_MAX) problems.author = `A name has at most ${formatNumber(ANNOTATION_AUTHOR_MAX)} characters.`;
  return problems;
}

export function NoteForm({
  legend,
  initial,
  submitLabel,
  rememberAuthor: remembers = false,
  conflict = null,
  onSubmit,
  onCancel,
  onKeepTheirs,
}: {
  legend: string;
  initial: NoteDraft;
  submitLabel: string;
  /** A new note: the author comes from this browser and is remembered there. */
  rememberAuthor?: boolean;
  /** The note as a teammate saved it meanwhile (a 409), to show and choose from. */
  conflict?: AnnotationJson | null;
  /** Saves the draft; resolves with what went wrong, in words, or null. */
  onSubmit: (draft: NoteDraft) => Promise<string | null>;
  onCancel: () => void;
  onKeepTheirs?: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<NoteDraft>(() => (remembers && !initial.author ? { ...initial, author: rememberedAuthor() } : initial));
  const [problems, setProblems] = useState<Problems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const length = characterCount(draft.text.trim());
  const over = length > ANNOTATION_TEXT_MAX;

  const set = (field: keyof NoteDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setProblems((p) => ({ ...p, [field]: undefined }));
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = problemsOf(draft);
    setProblems(found);
    setFailure(null);
    const first = (["date", "endDate", "text", "author"] as const).find((f) => found[f]);
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setSaving(true);
    try {
      const problem = await onSubmit(draft);
      setFailure(problem);
      if (!problem && remembers) rememberAuthor(draft.author.trim());
    } finally {
      setSaving(false);
    }
  }

  const describe = (field: keyof Problems, extra?: string) => [problems[field] ? `${id}-${field}-error` : null, extra].filter(Boolean).join(" ") || undefined;

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-labelledby={`${id}-legend`} data-testid="note-form">
      <p id={`${id}-legend`} className={styles.formLegend}>
        {legend}
      </p>
      {conflict && (
        <div className="notice notice-warning" role="alert" data-testid="note-conflict">
          <p>
            A teammate changed this note while you were editing it. Their version ({noteDays(conflict)}
            {conflict.author ? `, by ${conflict.author}` : ""}): <span className={styles.noteText}>“{conflict.text}”</span>
          </p>
          <p className="small">Save yours to replace it, or keep theirs.</p>
        </div>
      )}
      <div className={styles.formDates}>
        <div className="field">
          <label htmlFor={`${id}-date`}>Day (first day of a span)</label>
          <DateInput
            id={`${id}-date`}
            name="date"
            label="the note's day"
            value={draft.date}
            onChange={set("date")}
            onPick={set("date")}
            invalid={Boolean(problems.date)}
            describedBy={describe("date")}
          />
          {problems.date && (
            <span id={`${id}-date-error`} className="field-error">
              {problems.date}
            </span>
          )}
        </div>
        <div className="field">
          <label htmlFor={`${id}-endDate`}>Last day (optional)</label>
          <DateInput
            id={`${id}-endDate`}
            name="end_date"
            label="the note's last day"
            value={draft.endDate}
            onChange={set("endDate")}
            onPick={set("endDate")}
            invalid={Boolean(problems.endDate)}
            describedBy={describe("endDate")}
          />
          {problems.endDate && (
            <span id={`${id}-endDate-error`} className="field-error">
              {problems.endDate}
            </span>
          )}
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>Note</label>
        <textarea
          id={`${id}-text`}
          name="text"
          className={`input ${styles.textarea}`}
          rows={2}
          value={draft.text}
          onChange={(e) => set("text")(e.target.value)}
          aria-invalid={problems.text || over ? true : undefined}
          aria-describedby={describe("text", `${id}-count`)}
          autoFocus
        />
        <span id={`${id}-count`} className={`small ${over ? "field-error" : "muted"}`} data-testid="note-count">
          {formatNumber(length)} of {formatNumber(ANNOTATION_TEXT_MAX)} characters
        </span>
        {problems.text && (
          <span id={`${id}-text-error`} className="field-error">
            {problems.text}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-author`}>Your name (optional)</label>
        <input
          id={`${id}-author`}
          name="author"
          className="input"
          autoComplete="name"
          value={draft.author}
          onChange={(e) => set("author")(e.target.value)}
          aria-invalid={problems.author ? true : undefined}
          aria-describedby={describe("author")}
        />
        {problems.author && (
          <span id={`${id}-author-error`} className="field-error">
            {problems.author}
          </span>
        )}
      </div>
      {failure && (
        <p className="field-error" role="alert">
          {failure}
        </p>
      )}
      <div className={styles.formActions}>
        <button type="submit" className="button button-small" disabled={saving}>
          {conflict ? "Save mine over theirs" : submitLabel}
        </button>
        {conflict && onKeepTheirs && (
          <button type="button" className="button button-small button-secondary" onClick={onKeepTheirs}>
            Keep theirs
          </button>
        )}
        <button type="button" className="button button-small button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
