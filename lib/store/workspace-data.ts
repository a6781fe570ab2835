// What the store keeps per workspace, in one list: every table with a `workspace_id`, each with how
// its rows move when two workspaces become one (a key linked to this workspace had opened one of its
// own) and in which order they go when a workspace is deleted. Merging and deleting both walk this
// list, so a table added later cannot be moved by one and forgotten by the other: the list's type
// names every table of StoreTables that has a `workspace_id` (a table missing from it does not
// compile), and workspace-data.test.ts holds the migrated database's own catalogue to it (a table
// made by a migration but missing from schema.ts fails there).
// Tables that belong to a workspace without a `workspace_id` of their own hang off one that has it
// (KEPT_THROUGH): they move with their parent's rows (whose ids do not change) and go with them
// (ON DELETE CASCADE, which the embedded database enforces too: database.ts).
import "server-only";
import { sql, type Transaction } from "kysely";
import type { StoreTables, WorkspaceId } from "./schema";
import { numberedViewName } from "./views";

/** The tables whose rows each belong to one workspace (by `workspace_id`). */
export type WorkspaceTable = { [T in keyof StoreTables]: StoreTables[T] extends { workspace_id: WorkspaceId } ? T : never }[keyof StoreTables];

type Tx = Transaction<StoreTables>;

/** How one table's rows of `from` come into `into`; what is left of `from` is deleted afterwards. */
type MergeRows = (tx: Tx, from: WorkspaceId, into: WorkspaceId) => Promise<void>;

/** Every row moves: nothing of it can clash with the other workspace's rows (ids are random). */
const moveAll =
  (table: WorkspaceTable): MergeRows =>
  async (tx, from, into) => {
    await sql`update ${sql.table(table)} set workspace_id = ${into} where workspace_id = ${from}`.execute(tx);
  };

/**
 * Rows move unless `into` holds one with the same `columns` (the same snapshot `at`, the same kept
 * day): then the one `into` holds is kept, and the other is left to be deleted with `from`.
 */
const moveUnlessHeld =
  (table: WorkspaceTable, columns: readonly string[]): MergeRows =>
  async (tx, from, into) => {
    const same = sql.join(
      columns.map((c) => sql`held.${sql.ref(c)} = ${sql.table(table)}.${sql.ref(c)}`),
      sql` and `,
    );
    await sql`update ${sql.table(table)} set workspace_id = ${into}
      where workspace_id = ${from}
      and not exists (select 1 from ${sql.table(table)} as held where held.workspace_id = ${into} and ${same})`.execute(tx);
  };

/**
 * The same kept day (kind, zone, date) in both: the one taken later wins, as a day less than a week
 * old may have changed upstream (a conversion recorded late) and was read again by one of them.
 */
const mergeDailyFigures: MergeRows = async (tx, from, into) => {
  await sql`delete from daily_figures
    where workspace_id = ${into}
    and exists (select 1 from daily_figures as other where other.workspace_id = ${from}
      and other.kind = daily_figures.kind and other.tz = daily_figures.tz and other.date = daily_figures.date
      and other.recorded_at > daily_figures.recorded_at)`.execute(tx);
  await moveUnlessHeld("daily_figures", ["kind", "tz", "date"])(tx, from, into);
};

/**
 * The same kept day of the same figure in both: the one the upstream confirmed later wins (a day
 * younger than a week may have changed upstream since the other was read).
 */
const mergeKeptDays: MergeRows = async (tx, from, into) => {
  await sql`delete from kept_days
    where workspace_id = ${into}
    and exists (select 1 from kept_days as other where other.workspace_id = ${from}
      and other.figure = kept_days.figure and other.start_ms = kept_days.start_ms and other.end_ms = kept_days.end_ms
      and other.checked_at > kept_days.checked_at)`.execute(tx);
  await moveUnlessHeld("kept_days", ["figure", "start_ms", "end_ms"])(tx, from, into);
};

/** The zones both workspaces' members read in, each once, with its latest reading. */
const mergeKeptZones: MergeRows = async (tx, from, into) => {
  await sql`delete from kept_zones
    where workspace_id = ${into}
    and exists (select 1 from kept_zones as other where other.workspace_id = ${from} and other.tz = kept_zones.tz and other.read_at > kept_zones.read_at)`.execute(
    tx,
  );
  await moveUnlessHeld("kept_zones", ["tz"])(tx, from, into);
};

/** Views keep their names; one whose name `into` already has (without case) gets " (2)", " (3)"… */
const mergeSavedViews: MergeRows = async (tx, from, into) => {
  const taken = new Set((await tx.selectFrom("saved_views").select("name_key").where("workspace_id", "=", into).execute()).map((r) => r.name_key));
  const incoming = await tx
    .selectFrom("saved_views")
    .select(["id", "name", "name_key"])
    .where("workspace_id", "=", from)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  for (const view of incoming) {
    let name = view.name;
    let key = view.name_key;
    for (let n = 2; taken.has(key); n++) {
      name = numberedViewName(view.name, n);
      key = name.toLowerCase();
    }
    taken.add(key);
    await tx.updateTable("saved_views").set({ workspace_id: into, name, name_key: key }).where("id", "=", view.id).execute();
  }
};

/** One digest per workspace: the one `into` has stays; it takes `from`'s when it has none. */
const mergeDigest: MergeRows = async (tx, from, into) => {
  await sql`update alert_digests set workspace_id = ${into}
    where workspace_id = ${from}
    and not exists (select 1 from alert_digests as held where held.workspace_id = ${into})`.execute(tx);
};

/**
 * Every per-workspace table, in the order a workspace's rows are deleted (rows that point at others
 * first: attempts before their deliveries, deliveries before their events and destinations, rules
 * before their destinations), each with how it merges.
 */
export const WORKSPACE_TABLES: { readonly [T in WorkspaceTable]: MergeRows } = {
  alert_attempts: moveAll("alert_attempts"),
  alert_manual_sends: moveAll("alert_manual_sends"),
  alert_deliveries: moveAll("alert_deliveries"),
  alert_events: moveAll("alert_events"),
  alert_digests: mergeDigest,
  alert_rules: moveAll("alert_rules"),
  alert_destinations: moveAll("alert_destinations"),
  annotations: moveAll("annotations"),
  saved_views: mergeSavedViews,
  // Links keep their tokens (unique across workspaces), so every link shared still opens.
  shares: moveAll("shares"),
  // Tokens keep their hashes (unique across workspaces), so every token made still opens the merged one.
  tokens: moveAll("tokens"),
  daily_figures: mergeDailyFigures,
  kept_days: mergeKeptDays,
  // A zone both read in: the later reading stays.
  kept_zones: mergeKeptZones,
  ranking_snapshots: moveUnlessHeld("ranking_snapshots", ["at"]),
  score_snapshots: moveUnlessHeld("score_snapshots", ["at"]),
  // Both lists become one, in time order; the next record trims it to its bound (activity.ts).
  activity: moveAll("activity"),
  // Last: the keys of the workspace, so every key of both opens the merged one.
  workspace_keys: moveAll("workspace_keys"),
};

/** Tables of a workspace's data without a `workspace_id`: each kept through the table named (its rows' parent). */
export const KEPT_THROUGH: Readonly<Record<string, WorkspaceTable>> = {
  alert_checks: "alert_rules",
};

/** Tables of the whole deployment, no workspace's (the workspaces themselves included). */
export const DEPLOYMENT_TABLES: readonly string[] = ["store_meta", "jobs", "workspaces", "store_migrations", "store_migrations_lock"];

export const workspaceTables = Object.keys(WORKSPACE_TABLES) as WorkspaceTable[];

/**
 * Locks the rows of `workspaces` for the rest of the transaction, in id order (two transactions
 * locking the same two never wait for each other crosswise), and answers the ids found.
 * PostgreSQL: `FOR UPDATE`, which also holds back rows being inserted elsewhere that refer to them
 * (their foreign key takes a share lock): nothing can slip into a workspace while it is merged away
 * or deleted, and what tried fails on the key instead of being lost. The embedded database runs one
 * write transaction at a time (one connection), so it needs no lock.
 */
export async function lockWorkspaces(tx: Tx, postgres: boolean, workspaces: readonly WorkspaceId[]): Promise<Set<WorkspaceId>> {
  const ids = [...new Set(workspaces)].sort();
  const query = tx.selectFrom("workspaces").select("id").where("id", "in", ids).orderBy("id");
  const rows = await (postgres ? query.forUpdate() : query).execute();
  return new Set(rows.map((r) => r.id));
}

/** Moves every row of `from` into `into`, table by table; the caller then deletes `from`. */
export async function moveWorkspaceRows(tx: Tx, from: WorkspaceId, into: WorkspaceId): Promise<void> {
  for (const table of workspaceTables) await WORKSPACE_TABLES[table](tx, from, into);
}

/** Deletes every row `workspace` has in every per-workspace table, then the workspace itself. */
export async function deleteWorkspaceRows(tx: Tx, workspace: WorkspaceId): Promise<void> {
  for (const table of workspaceTables) await sql`delete from ${sql.table(table)} where workspace_id = ${workspace}`.execute(tx);
  await tx.deleteFrom("workspaces").where("id", "=", workspace).execute();
}
