// Background jobs as rows: one row per job, scope and slot (e.g. the hourly job's 14:00 slot). The
// instance whose INSERT ... ON CONFLICT DO NOTHING makes the row runs the slot; every other instance's
// insert does nothing, so each slot runs once however many instances try. A job run per workspace has
// a row per workspace (`scope`) and slot, each claimed the same way. The claimer holds a lease
// it renews while it runs; a run whose lease ran out (its instance died) is taken over by one other
// instance, with a compare-and-set on the row. Finished rows keep the outcome until housekeeping
// deletes them. Times are passed in (the scheduler's clock), so all of it runs on fake time in tests.
import "server-only";
import type { Kysely, Selectable } from "kysely";
import type { JobsTable, JobState, StoreTables } from "./schema";

/** One slot of one job: `scope` '' is the whole deployment (else e.g. a workspace id). */
export type SlotKey = { name: string; scope?: string; slot: number };

export type JobRun = {
  name: string;
  scope: string;
  slot: number;
  state: JobState;
  claimedBy: string;
  claimedAt: number;
  leaseUntil: number;
  attempts: number;
  finishedAt: number | null;
  outcome: string | null;
};

export type Jobs = ReturnType<typeof jobsContext>;

function toRun(row: Selectable<JobsTable>): JobRun {
  return {
    name: row.name,
    scope: row.scope,
    slot: row.slot,
    state: row.state,
    claimedBy: row.claimed_by,
    claimedAt: row.claimed_at,
    leaseUntil: row.lease_until,
    attempts: row.attempts,
    finishedAt: row.finished_at,
    outcome: row.outcome,
  };
}

/** Outcomes are kept short: a summary or an error message, not a log. */
const clip = (text: string) => text.slice(0, 2000);

export function jobsContext(deps: { db: Kysely<StoreTables> }) {
  const { db } = deps;
  const where = (key: SlotKey) => ({ name: key.name, scope: key.scope ?? "", slot: key.slot });

  return {
    /** Claims the slot for `instance` until `leaseUntil`: true for exactly one caller per slot. */
    async claim(key: SlotKey, instance: string, now: number, leaseUntil: number): Promise<boolean> {
      const row = await db
        .insertInto("jobs")
        .values({ ...where(key), state: "running", claimed_by: instance, claimed_at: now, lease_until: leaseUntil, attempts: 1 })
        .onConflict((oc) => oc.columns(["name", "scope", "slot"]).doNothing())
        .returning("slot")
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Takes over a run whose lease ran out before `now` (its instance died or stalled), as long as it
     * has had fewer than `maxAttempts`: true for exactly one caller. The row's attempts count up.
     */
    async takeOver(key: SlotKey, instance: string, now: number, leaseUntil: number, maxAttempts: number): Promise<boolean> {
      const k = where(key);
      const current = await db
        .selectFrom("jobs")
        .select(["claimed_by", "attempts"])
        .where("name", "=", k.name)
        .where("scope", "=", k.scope)
        .where("slot", "=", k.slot)
        .where("state", "=", "running")
        .where("lease_until", "<", now)
        .executeTakeFirst();
      if (!current || current.attempts >= maxAttempts) return false;
      // Compare-and-set on who held it and how often it was tried: of two instances taking over at
      // once, the second finds the row changed and updates nothing.
      const { numUpdatedRows } = await db
        .updateTable("jobs")
        .set({ claimed_by: instance, claimed_at: now, lease_until: leaseUntil, attempts: current.attempts + 1 })
        .where("name", "=", k.name)
        .where("scope", "=", k.scope)
        .where("slot", "=", k.slot)
        .where("state", "=", "running")
        .where("lease_until", "<", now)
        .where("claimed_by", "=", current.claimed_by)
        .where("attempts", "=", current.attempts)
        .executeTakeFirst();
      return numUpdatedRows > 0n;
    },

    /** Extends `instance`'s lease; false when the run is no longer its own (taken over or finished). */
    async renew(key: SlotKey, instance: string, leaseUntil: number): Promise<boolean> {
      const k = where(key);
      const { numUpdatedRows } = await db
        .updateTable("jobs")
        .set({ lease_until: leaseUntil })
        .where("name", "=", k.name)
        .where("scope", "=", k.scope)
        .where("slot", "=", k.slot)
        .where("state", "=", "running")
        .where("claimed_by", "=", instance)
        .executeTakeFirst();
      return numUpdatedRows > 0n;
    },

    /** Records how `instance`'s run ended; false (nothing written) when it was no longer its own. */
    async finish(key: SlotKey, instance: string, now: number, state: "done" | "failed", outcome: string | null): Promise<boolean> {
      const k = where(key);
      const { numUpdatedRows } = await db
        .updateTable("jobs")
        .set({ state, finished_at: now, outcome: outcome === null ? null : clip(outcome) })
        .where("name", "=", k.name)
        .where("scope", "=", k.scope)
        .where("slot", "=", k.slot)
        .where("state", "=", "running")
        .where("claimed_by", "=", instance)
        .executeTakeFirst();
      return numUpdatedRows > 0n;
    },

    /**
     * Marks runs of `name` whose lease ran out and that will not be taken over (tried `maxAttempts`
     * times, or a slot no longer wanted) as failed, saying why. Returns how many.
     */
    async abandon(name: string, now: number, reason: string, options: { maxAttempts?: number; before?: number } = {}): Promise<number> {
      let query = db
        .updateTable("jobs")
        .set({ state: "failed", finished_at: now, outcome: clip(reason) })
        .where("name", "=", name)
        .where("state", "=", "running")
        .where("lease_until", "<", now);
      if (options.maxAttempts !== undefined) query = query.where("attempts", ">=", options.maxAttempts);
      if (options.before !== undefined) query = query.where("slot", "<", options.before);
      const { numUpdatedRows } = await query.executeTakeFirst();
      return Number(numUpdatedRows);
    },

    /** Runs of `name` still running whose lease ran out before `now` (candidates to take over). */
    async expired(name: string, now: number): Promise<JobRun[]> {
      const rows = await db
        .selectFrom("jobs")
        .selectAll()
        .where("name", "=", name)
        .where("state", "=", "running")
        .where("lease_until", "<", now)
        .orderBy("slot")
        .execute();
      return rows.map(toRun);
    },

    /** One slot's row, if it was ever claimed. */
    async run(key: SlotKey): Promise<JobRun | undefined> {
      const k = where(key);
      const row = await db.selectFrom("jobs").selectAll().where("name", "=", k.name).where("scope", "=", k.scope).where("slot", "=", k.slot).executeTakeFirst();
      return row ? toRun(row) : undefined;
    },

    /** The latest slot of each scope of `name` ever claimed: where each scope's catch-up starts from. */
    async latestSlots(name: string): Promise<Map<string, number>> {
      const rows = await db
        .selectFrom("jobs")
        .select(["scope"])
        .select((eb) => eb.fn.max("slot").as("slot"))
        .where("name", "=", name)
        .groupBy("scope")
        .execute();
      return new Map(rows.map((r) => [r.scope, r.slot]));
    },

    /** The scopes whose `slot` of `name` was claimed already (by any instance). */
    async claimedScopes(name: string, slot: number): Promise<Set<string>> {
      const rows = await db.selectFrom("jobs").select("scope").where("name", "=", name).where("slot", "=", slot).execute();
      return new Set(rows.map((r) => r.scope));
    },

    /** The latest slot of `name` (and scope) ever claimed, or null: where a catch-up starts from. */
    async latestSlot(name: string, scope = ""): Promise<number | null> {
      const row = await db
        .selectFrom("jobs")
        .select((eb) => eb.fn.max("slot").as("slot"))
        .where("name", "=", name)
        .where("scope", "=", scope)
        .executeTakeFirst();
      return row?.slot ?? null;
    },

    /** The runs of `name` (of one scope, '' by default, or of every scope), newest slot first (for a status page and the tests). */
    async runs(name: string, options: { scope?: string; allScopes?: boolean; limit?: number } = {}): Promise<JobRun[]> {
      let query = db.selectFrom("jobs").selectAll().where("name", "=", name);
      if (!options.allScopes) query = query.where("scope", "=", options.scope ?? "");
      const rows = await query
        .orderBy("slot", "desc")
        .orderBy("scope")
        .limit(options.limit ?? 100)
        .execute();
      return rows.map(toRun);
    },

    /** Deletes finished runs (done or failed) that finished before `before`. Returns how many. */
    async deleteFinished(before: number): Promise<number> {
      const { numDeletedRows } = await db.deleteFrom("jobs").where("state", "in", ["done", "failed"]).where("finished_at", "<", before).executeTakeFirst();
      return Number(numDeletedRows);
    },
  };
}
