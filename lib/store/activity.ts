// A workspace's activity: every change to what it has set up (watching, keys, destinations, rules, the
// digest, shares, tokens), with the key hint of the session that made it, newest first. Kept 90 days
// and at most 1,000 records per workspace: each record trims its workspace's list on the way in, and
// housekeeping (background.ts) forgets what grew old in workspaces nobody changes. Every function but
// that housekeeping takes the workspace first; no query reads or writes a row of another workspace.
import "server-only";
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { StoreTables, WorkspaceId } from "./schema";

/** How long a record is kept. */
export const ACTIVITY_KEEP_DAYS = 90;
/** How many records a workspace keeps; the oldest go first. */
export const ACTIVITY_MAX = 1_000;
/** A subject longer than this (a name is at most 80 characters, a rule's sentence about 100) is cut. */
const SUBJECT_MAX = 300;

const DAY_MS = 86_400_000;

export type ActivityRecord = { at: number; keyHint: string; action: string; subject: string };

export type ActivityDeps = { db: Kysely<StoreTables>; now: () => number };

export type Activity = ReturnType<typeof activityContext>;

export function activityContext(deps: ActivityDeps) {
  const { db } = deps;
  /**
   * The last `at` this store instance recorded: the next is strictly later, so records made within one
   * millisecond keep their order (newest first means the last one made).
   */
  let lastAt = 0;

  return {
    /** Records a change made in `workspace` by the key of `keyHint`; trims the workspace's list to its bounds. */
    async record(workspace: WorkspaceId, entry: { keyHint: string; action: string; subject: string }): Promise<ActivityRecord> {
      const at = Math.max(deps.now(), lastAt + 1);
      lastAt = at;
      const subject = [...entry.subject].length > SUBJECT_MAX ? `${[...entry.subject].slice(0, SUBJECT_MAX - 1).join("")}…` : entry.subject;
      await db
        .insertInto("activity")
        .values({ id: `act_${randomBytes(12).toString("base64url")}`, workspace_id: workspace, at, key_hint: entry.keyHint, action: entry.action, subject })
        .execute();
      // The first record past the bound, if any: it and everything older go (also what is past 90 days).
      const past = await db
        .selectFrom("activity")
        .select(["at", "id"])
        .where("workspace_id", "=", workspace)
        .orderBy("at", "desc")
        .orderBy("id", "desc")
        .limit(1)
        .offset(ACTIVITY_MAX)
        .executeTakeFirst();
      await db
        .deleteFrom("activity")
        .where("workspace_id", "=", workspace)
        .where((eb) => {
          const old = eb("at", "<", at - ACTIVITY_KEEP_DAYS * DAY_MS);
          return past ? eb.or([old, eb("at", "<", past.at), eb.and([eb("at", "=", past.at), eb("id", "<=", past.id)])]) : old;
        })
        .execute();
      return { at, keyHint: entry.keyHint, action: entry.action, subject };
    },

    /** The workspace's records of the last 90 days, newest first, at most ACTIVITY_MAX. */
    async list(workspace: WorkspaceId): Promise<ActivityRecord[]> {
      const rows = await db
        .selectFrom("activity")
        .select(["at", "key_hint", "action", "subject"])
        .where("workspace_id", "=", workspace)
        .where("at", ">=", deps.now() - ACTIVITY_KEEP_DAYS * DAY_MS)
        .orderBy("at", "desc")
        .orderBy("id", "desc")
        .limit(ACTIVITY_MAX)
        .execute();
      return rows.map((r) => ({ at: r.at, keyHint: r.key_hint, action: r.action, subject: r.subject }));
    },

    /** Forgets every workspace's records older than `before` (housekeeping); returns how many went. */
    async prune(before: number): Promise<number> {
      const result = await db.deleteFrom("activity").where("at", "<", before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
