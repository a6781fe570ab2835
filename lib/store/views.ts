// Saved views: a page of the app and its query kept under a name, for the whole workspace (everyone
// with one of its keys sees, opens, renames and deletes them). Names are unique per workspace without
// case (`name_key`: the name trimmed and lower-cased); a workspace keeps at most MAX_SAVED_VIEWS.
// What a view may hold is judged once, before it reaches the store (lib/views/schema.ts: the name
// trimmed and within MAX_VIEW_NAME, the query of the page's own parameters): the store keeps what it
// is given. Every function takes the workspace first, and no query reads or writes a row of another
// workspace.
import "server-only";
import { randomBytes } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { StoreConflictError, StoreLimitError, workspaceGone } from "./errors";
import type { SavedViewsTable, StoreTables, WorkspaceId } from "./schema";
import { lockWorkspace } from "./workspace-lock";

/** How many views one workspace may keep: enough for a team's habits, bounded so a script cannot fill the header. */
export const MAX_SAVED_VIEWS = 200;
/** The longest name, in characters after trimming. */
export const MAX_VIEW_NAME = 80;

export type SavedView = {
  id: string;
  name: string;
  path: string;
  query: Record<string, string>;
  createdAt: number;
};

export type ViewsDeps = { db: Kysely<StoreTables>; now: () => number };

export type Views = ReturnType<typeof viewsContext>;

/** What makes two names one: the name without case. */
const nameKey = (name: string) => name.toLowerCase();

/** `name` with " (n)" after it (a merge's answer to a taken name), cut so the whole stays within MAX_VIEW_NAME characters. */
export function numberedViewName(name: string, n: number): string {
  const suffix = ` (${n})`;
  const chars = [...name];
  const room = MAX_VIEW_NAME - suffix.length;
  return `${chars.length > room ? chars.slice(0, room).join("").trimEnd() : name}${suffix}`;
}

const nameTaken = (name: string) =>
  new StoreConflictError(
    `A view named "${name}" already exists in this workspace (names are compared without case). Choose another name.`,
    "name_taken",
    "name",
  );

function toView(row: Pick<Selectable<SavedViewsTable>, "id" | "name" | "path" | "query" | "created_at">): SavedView {
  return { id: row.id, name: row.name, path: row.path, query: JSON.parse(row.query) as Record<string, string>, createdAt: row.created_at };
}

/** A unique-constraint failure of either database (a rename racing another write of the same name). */
function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE";
}

const COLUMNS = ["id", "name", "path", "query", "created_at"] as const;

export function viewsContext(deps: ViewsDeps) {
  const { db } = deps;

  return {
    /** The workspace's views, by name (without case), then by when they were made. */
    async list(workspace: WorkspaceId): Promise<SavedView[]> {
      const rows = await db
        .selectFrom("saved_views")
        .select(COLUMNS)
        .where("workspace_id", "=", workspace)
        .orderBy("name_key")
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(toView);
    },

    /** Saves a view (its name as checked: trimmed, within MAX_VIEW_NAME): 409 `name_taken` for a name taken (any case), 422 `limit_reached` at MAX_SAVED_VIEWS. */
    async create(workspace: WorkspaceId, view: { name: string; path: string; query: Record<string, string> }): Promise<SavedView> {
      const { name } = view;
      const key = nameKey(name);
      const now = deps.now();
      const id = `view_${randomBytes(16).toString("base64url")}`;
      return db.transaction().execute(async (tx) => {
        // Two saves at once cannot both count 199 and both insert; a workspace merged into another or
        // deleted since the request found it is gone (workspace-data.ts).
        if (!(await lockWorkspace(tx, workspace))) throw workspaceGone();
        const { count } = await tx
          .selectFrom("saved_views")
          .select((eb) => eb.fn.countAll<number | string>().as("count"))
          .where("workspace_id", "=", workspace)
          .executeTakeFirstOrThrow();
        if (Number(count) >= MAX_SAVED_VIEWS)
          throw new StoreLimitError(`This workspace already keeps ${MAX_SAVED_VIEWS} saved views, the most it may. Delete one to save another.`);
        const inserted = await tx
          .insertInto("saved_views")
          .values({ id, workspace_id: workspace, name, name_key: key, path: view.path, query: JSON.stringify(view.query), created_at: now, updated_at: now })
          .onConflict((oc) => oc.columns(["workspace_id", "name_key"]).doNothing())
          .returning(COLUMNS)
          .executeTakeFirst();
        if (!inserted) throw nameTaken(name);
        return toView(inserted);
      });
    },

    /** Renames a view of the workspace; undefined when it has no such view; 409 `name_taken`. */
    async rename(workspace: WorkspaceId, id: string, name: string): Promise<SavedView | undefined> {
      const key = nameKey(name);
      try {
        const row = await db
          .updateTable("saved_views")
          .set({ name, name_key: key, updated_at: deps.now() })
          .where("workspace_id", "=", workspace)
          .where("id", "=", id)
          .returning(COLUMNS)
          .executeTakeFirst();
        return row ? toView(row) : undefined;
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken(name);
        throw error;
      }
    },

    /** Deletes a view of the workspace; false when it has no such view. */
    async remove(workspace: WorkspaceId, id: string): Promise<boolean> {
      const result = await db.deleteFrom("saved_views").where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
