// Annotations: a team's notes on a day or a span of days of its charts ("campaign paused"), kept per
// workspace. Dates are calendar days `YYYY-MM-DD` in the workspace's zone, compared as text (the
// format sorts as the days do). A workspace holds at most ANNOTATIONS_PER_WORKSPACE notes, counted in
// the transaction that inserts one, after the workspace's row is locked: two creates at once cannot
// both pass the bound. A note's `updated_at` is its version: an update names the version it read,
// and is applied in one statement only if the note still has it; it then moves strictly forward
// (max(now, previous + 1)), so two changes within one millisecond still differ. What a note may hold
// is judged once, before it reaches the store (lib/annotations/schema.ts: real calendar days, a span
// forwards, text and author trimmed and within their bounds): the store keeps what it is given, and
// judges only what needs the stored note (a new date past its stored end). Every function takes the
// workspace first; no query reads or writes a note without it.
import "server-only";
import { randomBytes } from "node:crypto";
import { sql, type Kysely, type Selectable } from "kysely";
import { ANNOTATIONS_PER_WORKSPACE } from "@/lib/annotations/limits";
import { StoreInputError, StoreLimitError, workspaceGone } from "./errors";
import type { AnnotationsTable, StoreTables, WorkspaceId } from "./schema";
import { lockWorkspace } from "./workspace-lock";

export type Annotation = {
  id: string;
  /** The first day, `YYYY-MM-DD` in the workspace's zone. */
  date: string;
  /** The last day of a span (>= date), or null for a note on one day. */
  endDate: string | null;
  text: string;
  author: string | null;
  createdAt: number;
  /** The version an update must name (epoch ms of the last change). */
  updatedAt: number;
};

export type NewAnnotation = { date: string; endDate?: string | null; text: string; author?: string | null };

/** What an update changes: a field left out stays; `endDate: null` makes a span one day, `author: null` clears it. */
export type AnnotationChanges = { date?: string; endDate?: string | null; text?: string; author?: string | null };

export type UpdateOutcome =
  | { outcome: "updated"; note: Annotation }
  /** No such note in this workspace. */
  | { outcome: "not_found" }
  /** Someone changed it since `updatedAt` was read: the note as it is now. */
  | { outcome: "conflict"; current: Annotation };

export type AnnotationsDeps = { db: Kysely<StoreTables>; now: () => number };

export type Annotations = ReturnType<typeof annotationsContext>;

const COLUMNS = ["id", "date", "end_date", "text", "author", "created_at", "updated_at"] as const;

function toAnnotation(row: Pick<Selectable<AnnotationsTable>, (typeof COLUMNS)[number]>): Annotation {
  return { id: row.id, date: row.date, endDate: row.end_date, text: row.text, author: row.author, createdAt: row.created_at, updatedAt: row.updated_at };
}

export function annotationsContext(deps: AnnotationsDeps) {
  const { db } = deps;

  async function note(workspace: WorkspaceId, id: string): Promise<Annotation | undefined> {
    const row = await db.selectFrom("annotations").select(COLUMNS).where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
    return row ? toAnnotation(row) : undefined;
  }

  return {
    note,

    /** The notes touching the days `from`..`to` (both inclusive): a span counts if any of its days is in them. By date, then creation. */
    async list(workspace: WorkspaceId, range: { from: string; to: string }): Promise<Annotation[]> {
      const rows = await db
        .selectFrom("annotations")
        .select(COLUMNS)
        .where("workspace_id", "=", workspace)
        .where("date", "<=", range.to)
        .where(sql<string>`coalesce(end_date, date)`, ">=", range.from)
        .orderBy("date")
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(toAnnotation);
    },

    /** How many notes the workspace keeps. */
    async count(workspace: WorkspaceId): Promise<number> {
      const row = await db
        .selectFrom("annotations")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("workspace_id", "=", workspace)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Keeps a new note (as its schema admitted it); over the workspace's bound a StoreLimitError. */
    async create(workspace: WorkspaceId, input: NewAnnotation): Promise<Annotation> {
      const endDate = input.endDate ?? null;
      const { text } = input;
      const author = input.author ?? null;
      const now = deps.now();
      const row = {
        id: `ann_${randomBytes(16).toString("base64url")}`,
        workspace_id: workspace,
        date: input.date,
        end_date: endDate,
        text,
        author,
        created_at: now,
        updated_at: now,
      };
      return db.transaction().execute(async (tx) => {
        // A concurrent create counts after this one's insert; a workspace merged into another or
        // deleted since the request found it is gone (workspace-data.ts).
        if (!(await lockWorkspace(tx, workspace))) throw workspaceGone();
        const { n } = await tx
          .selectFrom("annotations")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where("workspace_id", "=", workspace)
          .executeTakeFirstOrThrow();
        if (Number(n) >= ANNOTATIONS_PER_WORKSPACE) {
          throw new StoreLimitError(`This workspace keeps at most ${ANNOTATIONS_PER_WORKSPACE} notes; delete one to add another.`);
        }
        await tx.insertInto("annotations").values(row).execute();
        return toAnnotation(row);
      });
    },

    /**
     * Changes a note if it still has the version `updatedAt`, in one statement; the checks that need
     * the stored dates (a new date after the stored end, a new end before the stored date) are part
     * of its condition. Zero rows changed is then told apart: no such note, a newer version
     * (conflict, with the note as it is), or the stored dates refusing the change (a StoreInputError).
     */
    async update(workspace: WorkspaceId, id: string, updatedAt: number, changes: AnnotationChanges): Promise<UpdateOutcome> {
      const set: Partial<Pick<AnnotationsTable, "date" | "end_date" | "text" | "author" | "updated_at">> = {
        ...(changes.date !== undefined ? { date: changes.date } : {}),
        ...(changes.endDate !== undefined ? { end_date: changes.endDate } : {}),
        ...(changes.text !== undefined ? { text: changes.text } : {}),
        ...(changes.author !== undefined ? { author: changes.author } : {}),
        updated_at: Math.max(deps.now(), updatedAt + 1),
      };
      let query = db.updateTable("annotations").set(set).where("workspace_id", "=", workspace).where("id", "=", id).where("updated_at", "=", updatedAt);
      // Only one of the two given: the other side of the span is the stored one.
      if (changes.date !== undefined && changes.endDate === undefined)
        query = query.where((eb) => eb.or([eb("end_date", "is", null), eb("end_date", ">=", changes.date!)]));
      if (changes.endDate != null && changes.date === undefined) query = query.where("date", "<=", changes.endDate);
      const row = await query.returning(COLUMNS).executeTakeFirst();
      if (row) return { outcome: "updated", note: toAnnotation(row) };
      const current = await note(workspace, id);
      if (!current) return { outcome: "not_found" };
      if (current.updatedAt !== updatedAt) return { outcome: "conflict", current };
      if (changes.date !== undefined) throw new StoreInputError(`date must not be after the note's end_date (${current.endDate})`, "date");
      throw new StoreInputError(`end_date must not be before the note's date (${current.date})`, "end_date");
    },

    /** Deletes a note; false when the workspace has no such note. */
    async remove(workspace: WorkspaceId, id: string): Promise<boolean> {
      const { numDeletedRows } = await db.deleteFrom("annotations").where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
      return numDeletedRows > 0n;
    },
  };
}
