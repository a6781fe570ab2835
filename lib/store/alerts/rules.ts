// Alert rules and their checks: a rule's state, and one check per basis (the snapshot or day it looked
// at) and revision of the rule, so the instance whose insert makes the check's row is the one that acts
// on it; at most MAX_RULES per workspace.
import "server-only";
import { sql } from "kysely";
import { StoreLimitError } from "../errors";
import type { RuleState, WorkspaceId } from "../schema";
import { MAX_RULES, newId, toRule, clip, countLocked, type Rule, type RuleChanges, type Check, type AlertsDeps } from "./shared";

/** Thrown inside recordCheck's transaction to roll it back: the rule was changed (or deleted) since it was judged. */
class RuleChanged extends Error {}

/** The basis a check is kept under: what it looked at, and the rule's revision once its threshold was changed. */
const checkBasis = (basis: string, revision: number) => (revision === 0 ? basis : `${basis}#${revision}`);

export function ruleQueries(deps: AlertsDeps) {
  const { db } = deps;

  return {
    async rules(workspace: WorkspaceId): Promise<Rule[]> {
      const rows = await db.selectFrom("alert_rules").selectAll().where("workspace_id", "=", workspace).orderBy("created_at").orderBy("id").execute();
      return rows.map(toRule);
    },

    async rule(workspace: WorkspaceId, id: string): Promise<Rule | undefined> {
      const row = await db.selectFrom("alert_rules").selectAll().where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
      return row ? toRule(row) : undefined;
    },

    /** Keeps a rule (state `ok`, nothing checked yet); 404 is the caller's for an unknown destination; 422 at MAX_RULES (counted under the workspace's lock). */
    async createRule(
      workspace: WorkspaceId,
      input: { kind: string; threshold: number | null; destinationId: string; cooldownMs: number },
    ): Promise<Rule | undefined> {
      const row = await db.transaction().execute(async (tx) => {
        const count = await countLocked(tx, "alert_rules", workspace);
        // Read after the lock: a destination deleted meanwhile is not found.
        const destination = await tx
          .selectFrom("alert_destinations")
          .select("id")
          .where("workspace_id", "=", workspace)
          .where("id", "=", input.destinationId)
          .executeTakeFirst();
        if (!destination) return undefined;
        if (count >= MAX_RULES) {
          throw new StoreLimitError(`This workspace already has ${MAX_RULES} alert rules, the most it may. Delete one to add another.`);
        }
        return tx
          .insertInto("alert_rules")
          .values({
            id: newId("rule"),
            workspace_id: workspace,
            kind: input.kind,
            threshold: input.threshold,
            destination_id: input.destinationId,
            cooldown_ms: input.cooldownMs,
            state: "ok",
            detail: null,
            last_checked_at: null,
            last_changed_at: null,
            notified_state: null,
            notified_at: null,
            created_at: deps.now(),
            revision: 0,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return row ? toRule(row) : undefined;
    },

    /**
     * Changes a rule's threshold, destination or cooldown (what `changes` gives). A new threshold
     * counts up its revision and leaves it not checked under it yet (its state stays the one last
     * judged, and sent, until the next check says otherwise). Undefined for an unknown rule;
     * "destination" for a destination not of this workspace. Answers the rule before and after.
     */
    async updateRule(workspace: WorkspaceId, id: string, changes: RuleChanges): Promise<{ before: Rule; after: Rule } | "destination" | undefined> {
      return db.transaction().execute(async (tx) => {
        // Locked, so two edits at once are applied one after the other, each against what the other left.
        const row = await tx
          .updateTable("alert_rules")
          .set({ id: sql`id` })
          .where("workspace_id", "=", workspace)
          .where("id", "=", id)
          .returningAll()
          .executeTakeFirst();
        if (!row) return undefined;
        const before = toRule(row);
        if (changes.destinationId !== undefined && changes.destinationId !== before.destinationId) {
          const destination = await tx
            .selectFrom("alert_destinations")
            .select("id")
            .where("workspace_id", "=", workspace)
            .where("id", "=", changes.destinationId)
            .executeTakeFirst();
          if (!destination) return "destination";
        }
        const rethreshold = changes.threshold !== undefined && changes.threshold !== before.threshold;
        const set = {
          ...(changes.destinationId !== undefined && changes.destinationId !== before.destinationId ? { destination_id: changes.destinationId } : {}),
          ...(changes.cooldownMs !== undefined && changes.cooldownMs !== before.cooldownMs ? { cooldown_ms: changes.cooldownMs } : {}),
          ...(rethreshold ? { threshold: changes.threshold ?? null, revision: before.revision + 1, last_checked_at: null } : {}),
        };
        if (Object.keys(set).length === 0) return { before, after: before };
        const after = await tx.updateTable("alert_rules").set(set).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
        return { before, after: toRule(after) };
      });
    },

    async removeRule(workspace: WorkspaceId, id: string): Promise<boolean> {
      const result = await db.deleteFrom("alert_rules").where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * Keeps a check of `rule` against what it looked at (`check.basis`), once per revision of the
     * rule: false when that basis was already checked (by this instance or another), and then the
     * caller does nothing more; false too when the rule was changed since it was read (the judgement
     * was of its old threshold: nothing is kept). When kept, the rule's state, detail and last check
     * are updated in the same transaction.
     */
    async recordCheck(rule: Rule, check: Omit<Check, "ruleId">, detail: unknown): Promise<boolean> {
      try {
        return await db.transaction().execute(async (tx) => {
          // A rule deleted (or changed) since it was read has nothing to keep: said before the insert,
          // whose foreign key would otherwise fail the whole collection that judged it.
          const exists = await tx.selectFrom("alert_rules").select(["id"]).where("id", "=", rule.id).where("revision", "=", rule.revision).executeTakeFirst();
          if (!exists) throw new RuleChanged();
          const inserted = await tx
            .insertInto("alert_checks")
            .values({
              rule_id: rule.id,
              basis: checkBasis(check.basis, rule.revision),
              at: check.at,
              state: check.state,
              value: check.value,
              message: clip(check.message, 2000),
            })
            .onConflict((oc) => oc.columns(["rule_id", "basis"]).doNothing())
            .returning("basis")
            .executeTakeFirst();
          if (!inserted) return false;
          const current = await tx
            .selectFrom("alert_rules")
            .select(["state"])
            .where("id", "=", rule.id)
            .where("revision", "=", rule.revision)
            .executeTakeFirst();
          if (!current) throw new RuleChanged();
          const updated = await tx
            .updateTable("alert_rules")
            .set({
              state: check.state,
              detail: detail === null || detail === undefined ? null : JSON.stringify(detail),
              // When it was checked (and changed), not the instant of what it looked at.
              last_checked_at: deps.now(),
              ...(current.state !== check.state ? { last_changed_at: deps.now() } : {}),
            })
            .where("id", "=", rule.id)
            .where("revision", "=", rule.revision)
            .executeTakeFirst();
          if (updated.numUpdatedRows === 0n) throw new RuleChanged();
          return true;
        });
      } catch (error) {
        // Deleted between that read and the insert, by another instance's transaction.
        if (error instanceof RuleChanged || isForeignKeyViolation(error)) return false;
        throw error;
      }
    },

    /** Marks that `state` was sent for `rule` at `at` (the cooldown counts from here). */
    async markNotified(ruleId: string, state: RuleState, at: number): Promise<void> {
      await db.updateTable("alert_rules").set({ notified_state: state, notified_at: at }).where("id", "=", ruleId).execute();
    },

    /** A rule's checks, newest first. */
    async checks(workspace: WorkspaceId, ruleId: string, limit = 100): Promise<Check[]> {
      const rows = await db
        .selectFrom("alert_checks")
        .innerJoin("alert_rules", "alert_rules.id", "alert_checks.rule_id")
        .select(["alert_checks.rule_id", "alert_checks.basis", "alert_checks.at", "alert_checks.state", "alert_checks.value", "alert_checks.message"])
        .where("alert_rules.workspace_id", "=", workspace)
        .where("alert_checks.rule_id", "=", ruleId)
        .orderBy("alert_checks.at", "desc")
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ruleId: r.rule_id, basis: r.basis, at: r.at, state: r.state, value: r.value, message: r.message }));
    },

    /** Workspaces with at least one rule (the checks' list). */
    async hasRules(workspace: WorkspaceId): Promise<boolean> {
      const row = await db.selectFrom("alert_rules").select("id").where("workspace_id", "=", workspace).limit(1).executeTakeFirst();
      return row !== undefined;
    },
  };
}

/** A foreign key refused: SQLite's SQLITE_CONSTRAINT_FOREIGNKEY, PostgreSQL's 23503. */
function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_FOREIGNKEY" || code === "23503";
}
