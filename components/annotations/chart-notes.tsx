"use client";
// A time chart with its team's notes: the notes of the chart's range (one React Query family,
// use-annotations.ts) handed to the chart to draw (marks and flags), and listed under it with their
// days, text and author, each edited or deleted in place (a delete asks first). "Add note" opens the
// form by keyboard; a click on a day of the chart opens it on that day. Saves and deletes are
// announced in a polite live region. A save on a note a teammate changed meanwhile (409) says so in
// plain words with their text, and lets the user save theirs over it or keep the teammate's.
// Every text is rendered as text, never as markup.
import { useSharedView } from "@/components/shares/shared-view";
import { useCallback, useId, useMemo, useRef, useState, type ReactNode } from "react";
import type { AnnotationJson } from "@/lib/annotations/limits";
import { isDataApiError } from "@/lib/data-api/errors";
import { todayIn } from "@/lib/range/calendar";
import { noteErrorText, loadErrorText } from "@/lib/ui/messages";
import { noteMarks, noteDays, type ChartBucket, type NoteMark } from "./annotation-data";
import { NoteForm, type NoteDraft } from "./note-form";
import { NoteWriteError, useNoteWrites, useNotes, type NoteFields, type NotesRange } from "./use-annotations";
import styles from "./annotations.module.css";

/** What a chart needs to draw the notes: their marks on its buckets, where to put flags, and how to ask for a note on a day. */
export type ChartNotesView = {
  marks: NoteMark[];
  buckets: ChartBucket[];
  /** The layer over the chart (outside its hidden drawing) that flags are rendered into. */
  layer: HTMLElement | null;
  pickDate: (date: string) => void;
};

type Editing = { kind: "new"; date: string } | { kind: "edit"; id: string } | null;

const toFields = (d: NoteDraft): NoteFields => ({ date: d.date, end_date: d.endDate || null, text: d.text.trim(), author: d.author.trim() || null });

const draftOf = (n: AnnotationJson): NoteDraft => ({ date: n.date, endDate: n.end_date ?? "", text: n.text, author: n.author ?? "" });

/** What a failed write says, besides a conflict (which the form shows with the teammate's text). */
const failureText = (error: unknown) => (error instanceof NoteWriteError ? noteErrorText(error) : noteErrorText({ status: 0 }));

function NoteItem({
  note,
  readOnly,
  editing,
  onEdit,
  onClose,
  onSaved,
  onDeleted,
}: {
  note: AnnotationJson;
  /** A shared page's viewer reads the notes, never changes them. */
  readOnly: boolean;
  editing: boolean;
  onEdit: () => void;
  onClose: () => void;
  onSaved: (message: string) => void;
  onDeleted: () => void;
}) {
  const { update, remove } = useNoteWrites();
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<AnnotationJson | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);

  async function save(draft: NoteDraft, over?: AnnotationJson): Promise<string | null> {
    try {
      await update.mutateAsync({ id: note.id, updatedAt: (over ?? note).updated_at, fields: toFields(draft) });
      setConflict(null);
      onSaved(`Note on ${noteDays({ date: draft.date, end_date: draft.endDate || null })} saved.`);
      requestAnimationFrame(() => editButton.current?.focus());
      return null;
    } catch (error) {
      if (error instanceof NoteWriteError && error.status === 409 && error.current) {
        setConflict(error.current);
        return null;
      }
      return failureText(error);
    }
  }

  if (editing) {
    return (
      <li className={styles.item} data-testid="note-item">
        <NoteForm
          legend={`Edit the note of ${noteDays(note)}`}
          initial={draftOf(note)}
          submitLabel="Save changes"
          conflict={conflict}
          onSubmit={(draft) => save(draft, conflict ?? undefined)}
          onKeepTheirs={() => {
            setConflict(null);
            onSaved("Kept your teammate's version of the note.");
            onClose();
          }}
          onCancel={() => {
            setConflict(null);
            onClose();
            requestAnimationFrame(() => editButton.current?.focus());
          }}
        />
      </li>
    );
  }

  return (
    <li className={styles.item} data-testid="note-item">
      <div className={styles.itemBody}>
        <span className={styles.itemDays}>{noteDays(note)}</span>
        <span className={styles.noteText} data-testid="note-text" data-content="people">
          {note.text}
        </span>
        {note.author ? <span className="small muted">— {note.author}</span> : null}
      </div>
      {readOnly ? null : confirming ? (
        <div className={styles.itemActions} role="group" aria-label={`Delete the note of ${noteDays(note)}?`}>
          <span className="small">Delete this note?</span>
          <button
            ref={confirmButton}
            type="button"
            className="button button-small button-danger"
            disabled={remove.isPending}
            onClick={async () => {
              setDeleteError(null);
              try {
                await remove.mutateAsync(note.id);
                onDeleted();
              } catch (error) {
                setDeleteError(failureText(error));
              }
            }}
          >
            Yes, delete
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => {
              setConfirming(false);
              setDeleteError(null);
              requestAnimationFrame(() => editButton.current?.focus());
            }}
          >
            Keep it
          </button>
        </div>
      ) : (
        <div className={styles.itemActions}>
          <button
            ref={editButton}
            type="button"
            className="button button-small button-secondary"
            aria-label={`Edit the note of ${noteDays(note)}`}
            onClick={onEdit}
          >
            Edit
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            aria-label={`Delete the note of ${noteDays(note)}`}
            onClick={() => {
              setConfirming(true);
              requestAnimationFrame(() => confirmButton.current?.focus());
            }}
          >
            Delete
          </button>
        </div>
      )}
      {deleteError && (
        <p className="field-error" role="alert">
          {deleteError}
        </p>
      )}
    </li>
  );
}

/**
 * The day a new note starts on: today in the range's zone when the range holds it (what a team
 * writes down is mostly what happened today), else the range's day nearest to today.
 */
export function newNoteDay(range: NotesRange, nowMs: number): string {
  const today = todayIn(range.tz, nowMs);
  return today < range.from ? range.from : today > range.to ? range.to : today;
}

export function ChartNotes({
  range,
  buckets,
  subject,
  children,
}: {
  range: NotesRange;
  buckets: ChartBucket[];
  subject: string;
  children: (view: ChartNotesView) => ReactNode;
}) {
  const notes = useNotes(range);
  const { create } = useNoteWrites();
  const readOnly = useSharedView() !== null;
  const [layer, setLayer] = useState<HTMLDivElement | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [announcement, setAnnouncement] = useState("");
  const addButton = useRef<HTMLButtonElement>(null);
  const [panel, setPanel] = useState<HTMLElement | null>(null);
  const headingId = useId();

  const list = useMemo(() => notes.data?.data ?? [], [notes.data]);
  const marks = useMemo(() => noteMarks(list, buckets), [list, buckets]);
  const pickDate = useCallback(
    (date: string) => {
      if (readOnly) return;
      setEditing({ kind: "new", date });
      // The form is below the chart: bring it into view for a pointer user who clicked up there.
      requestAnimationFrame(() => panel?.scrollIntoView?.({ block: "nearest" }));
    },
    [panel, readOnly],
  );
  const view: ChartNotesView = { marks, buckets, layer, pickDate };

  const announce = (message: string) => setAnnouncement(message);
  const backToAdd = () => requestAnimationFrame(() => addButton.current?.focus());

  async function createNote(draft: NoteDraft): Promise<string | null> {
    try {
      await create.mutateAsync(toFields(draft));
      setEditing(null);
      announce(`Note on ${noteDays({ date: draft.date, end_date: draft.endDate || null })} saved.`);
      backToAdd();
      return null;
    } catch (error) {
      return failureText(error);
    }
  }

  return (
    <div className={styles.chartNotes}>
      <div className={styles.frame}>
        {children(view)}
        <div ref={setLayer} className={styles.flagLayer} />
      </div>
      <section ref={setPanel} className={styles.panel} aria-labelledby={headingId} data-testid="chart-notes">
        <div className={styles.panelHead}>
          <h3 id={headingId} className={styles.panelTitle}>
            Notes on {subject}
          </h3>
          {!readOnly && editing?.kind !== "new" && (
            <button
              ref={addButton}
              type="button"
              className="button button-small button-secondary"
              onClick={() => setEditing({ kind: "new", date: newNoteDay(range, Date.now()) })}
            >
              Add note
            </button>
          )}
        </div>
        {editing?.kind === "new" && (
          <NoteForm
            key={editing.date}
            legend="New note"
            initial={{ date: editing.date, endDate: "", text: "", author: "" }}
            rememberAuthor
            submitLabel="Save note"
            onSubmit={createNote}
            onCancel={() => {
              setEditing(null);
              backToAdd();
            }}
          />
        )}
        {notes.isPending ? (
          <p className="small muted" data-testid="notes-loading">
            Loading notes…
          </p>
        ) : notes.isError && !notes.data ? (
          <div className={styles.notesError} role="alert">
            <p className="small">{loadErrorText(isDataApiError(notes.error) ? notes.error : { status: 0 }, "the notes")}</p>
            <button type="button" className="button button-small button-secondary" onClick={() => void notes.refetch()}>
              Try again
            </button>
          </div>
        ) : list.length === 0 ? (
          <p className="small muted" data-testid="notes-empty">
            No notes in this range.
          </p>
        ) : (
          <ul className={styles.list} aria-label={`Notes on ${subject}`}>
            {list.map((note) => (
              <NoteItem
                key={note.id}
                note={note}
                readOnly={readOnly}
                editing={editing?.kind === "edit" && editing.id === note.id}
                onEdit={() => setEditing({ kind: "edit", id: note.id })}
                onClose={() => setEditing(null)}
                onSaved={(message) => {
                  setEditing(null);
                  announce(message);
                }}
                onDeleted={() => {
                  announce(`Note on ${noteDays(note)} deleted.`);
                  backToAdd();
                }}
              />
            ))}
          </ul>
        )}
      </section>
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="notes-status">
        {announcement}
      </p>
    </div>
  );
}
