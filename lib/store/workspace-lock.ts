// The per-workspace lock that a workspace's bounds are counted under (200 saved views, 1,000 notes,
// 20 alert destinations, 50 rules, the manual sends of a minute): a no-op update of the workspace's
// row, which PostgreSQL holds until the transaction ends, so two writes at once cannot both count
// one under the bound and both insert. SQLite runs one writing transaction at a time anyway.
import "server-only";
import { sql, type Transaction } from "kysely";
import type { StoreTables, WorkspaceId } from "./schema";

/** Locks `workspace`'s row for the rest of `tx`; false when there is no such workspace. */
export async function lockWorkspace(tx: Transaction<StoreTables>, workspace: WorkspaceId): Promise<boolean> {
  const locked = await tx
    .updateTable("workspaces")
    .set({ time_zone: sql`time_zone` })
    .where("id", "=", workspace)
    .executeTakeFirst();
  return locked.numUpdatedRows > 0n;
}
