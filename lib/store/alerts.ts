// Alerts as the store keeps them: destinations (their URL and signing secret sealed, secrets.ts),
// rules with their state, every check of a rule, the events to send and their delivery to each
// destination with every attempt, and the weekly digest's destination.
// Exactly once across instances rests on three unique keys: a rule's check per basis (the snapshot or
// day it looked at: the instance whose insert makes the row acts on it), an event per `dedupe_key`,
// and a delivery per event and destination. Sending is claimed row by row with a lease
// (compare-and-set), so one instance sends a delivery at a time; a lease that ran out (its instance
// died mid-send) lets another instance try again with the same event id, which receivers use to
// drop a repeat. Times are passed in or read from the injected clock, so all of it runs on fake time.
// Every function of a workspace's data takes the workspace first and touches no other workspace's rows.
import "server-only";
import { randomBytes } from "node:crypto";
import type { Kysely, Selectable, Transaction } from "kysely";
import { StoreLimitError } from "./errors";
import type {
  AlertDeliveriesTable,
  AlertDestinationsTable,
  AlertRulesTable,
  AttemptStatus,
  DestinationKind,
  RuleState,
  StoreTables,
  WorkspaceId,
} from "./schema";
import { openSecret, sealSecret, type SealingSecrets } from "./secrets";
import { lockWorkspace } from "./workspace-lock";

/** Bounds per workspace: enough for a team, small enough that a script cannot fill the screen. */
export const MAX_DESTINATIONS = 20;
export const MAX_RULES = 50;

export type Destination = {
  id: string;
  kind: DestinationKind;
  name: string;
  urlHint: string;
  status: "active" | "stopped";
  stoppedReason: string | null;
  createdAt: number;
};

/** A destination with what sending needs, opened: never leaves the server. */
export type OpenDestination = Destination & { workspaceId: WorkspaceId; url: string; secret: string | null };

export type Rule = {
  id: string;
  kind: string;
  threshold: number | null;
  destinationId: string;
  cooldownMs: number;
  state: RuleState;
  detail: unknown;
  lastCheckedAt: number | null;
  lastChangedAt: number | null;
  notifiedState: RuleState | null;
  notifiedAt: number | null;
  createdAt: number;
};

export type Check = { ruleId: string; basis: string; at: number; state: RuleState; value: number | null; message: string };

export type Delivery = {
  id: string;
  workspaceId: WorkspaceId;
  eventId: string;
  destinationId: string;
  status: Selectable<AlertDeliveriesTable>["status"];
  attempts: number;
  nextAttemptAt: number | null;
  createdAt: number;
};

export type Attempt = {
  deliveryId: string;
  destinationId: string;
  destinationName: string;
  type: string;
  attempt: number;
  at: number;
  status: AttemptStatus;
  responseStatus: number | null;
  error: string | null;
  /** Whether the delivery this attempt belongs to can be tried again by hand (it failed for good). */
  retryable: boolean;
  nextAttemptAt: number | null;
};

export type AlertsDeps = { db: Kysely<StoreTables>; now: () => number; secrets: () => SealingSecrets };

export type Alerts = ReturnType<typeof alertsContext>;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url")}`;
const urlAad = (id: string) => `alert-destination-url:${id}`;
const secretAad = (id: string) => `alert-destination-secret:${id}`;

function toDestination(row: Selectable<AlertDestinationsTable>): Destination {
  return { id: row.id, kind: row.kind, name: row.name, urlHint: row.url_hint, status: row.status, stoppedReason: row.stopped_reason, createdAt: row.created_at };
}

function toRule(row: Selectable<AlertRulesTable>): Rule {
  return {
    id: row.id,
    kind: row.kind,
    threshold: row.threshold,
    destinationId: row.destination_id,
    cooldownMs: row.cooldown_ms,
    state: row.state,
    detail: row.detail === null ? null : (JSON.parse(row.detail) as unknown),
    lastCheckedAt: row.last_checked_at,
    lastChangedAt: row.last_changed_at,
    notifiedState: row.notified_state,
    notifiedAt: row.notified_at,
    createdAt: row.created_at,
  };
}

function toDelivery(row: Selectable<AlertDeliveriesTable>): Delivery {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    eventId: row.event_id,
    destinationId: row.destination_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
  };
}

/** What an attempt's error may say: short, one line. */
const clip = (text: string, max = 300) => text.replace(/\s+/g, " ").slice(0, max);

export function alertsContext(deps: AlertsDeps) {
  const { db } = deps;

  /** How many of the workspace's `table` rows there are, counted in `tx` after its lock (no create can race past the bound). */
  async function countLocked(tx: Transaction<StoreTables>, table: "alert_destinations" | "alert_rules", workspace: WorkspaceId): Promise<number> {
    await lockWorkspace(tx, workspace);
    const { count } = await tx.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as("count")).where("workspace_id", "=", workspace).executeTakeFirstOrThrow();
    return Number(count);
  }

  function open(row: Selectable<AlertDestinationsTable>): OpenDestination | undefined {
    const secrets = deps.secrets();
    const url = openSecret(secrets, urlAad(row.id), row.url_sealed);
    const secret = row.secret_sealed === null ? null : openSecret(secrets, secretAad(row.id), row.secret_sealed);
    if (!url || secret === undefined) return undefined;
    return { ...toDestination(row), workspaceId: row.workspace_id, url: url.value, secret: secret?.value ?? null };
  }

  return {
    // ---- destinations ----

    async destinations(workspace: WorkspaceId): Promise<Destination[]> {
      const rows = await db.selectFrom("alert_destinations").selectAll().where("workspace_id", "=", workspace).orderBy("created_at").orderBy("id").execute();
      return rows.map(toDestination);
    },

    async destination(workspace: WorkspaceId, id: string): Promise<Destination | undefined> {
      const row = await db.selectFrom("alert_destinations").selectAll().where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
      return row ? toDestination(row) : undefined;
    },

    /**
     * The destination with its URL and secret opened, for sending. Undefined when it is gone, or when
     * neither session secret opens what was sealed (the secret changed without a rotation).
     */
    async openDestination(id: string): Promise<OpenDestination | undefined> {
      const row = await db.selectFrom("alert_destinations").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? open(row) : undefined;
    },

    /** Keeps a destination, its URL and secret sealed; 422 at MAX_DESTINATIONS (counted under the workspace's lock). */
    async createDestination(workspace: WorkspaceId, input: { kind: DestinationKind; name: string; url: string; urlHint: string; secret: string | null }): Promise<Destination> {
      const id = newId("dst");
      const secrets = deps.secrets();
      const values = {
        id,
        workspace_id: workspace,
        kind: input.kind,
        name: input.name,
        url_sealed: sealSecret(secrets, urlAad(id), input.url),
        url_hint: input.urlHint,
        secret_sealed: input.secret === null ? null : sealSecret(secrets, secretAad(id), input.secret),
        status: "active" as const,
        stopped_reason: null,
        created_at: deps.now(),
      };
      const row = await db.transaction().execute(async (tx) => {
        if ((await countLocked(tx, "alert_destinations", workspace)) >= MAX_DESTINATIONS) {
          throw new StoreLimitError(`This workspace already has ${MAX_DESTINATIONS} alert destinations, the most it may. Delete one to add another.`);
        }
        return tx.insertInto("alert_destinations").values(values).returningAll().executeTakeFirstOrThrow();
      });
      return toDestination(row);
    },

    /** Deletes a destination with its rules, deliveries and the digest going there; false when unknown. */
    async removeDestination(workspace: WorkspaceId, id: string): Promise<boolean> {
      const result = await db.deleteFrom("alert_destinations").where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * Stops a destination (its receiver answered 410 Gone): nothing more is sent there, and what was
     * waiting to be sent fails with the same reason.
     */
    async stopDestination(id: string, reason: string): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx.updateTable("alert_destinations").set({ status: "stopped", stopped_reason: clip(reason, 500) }).where("id", "=", id).execute();
        await tx.updateTable("alert_deliveries").set({ status: "failed", next_attempt_at: null, lease_until: null, claimed_by: null }).where("destination_id", "=", id).where("status", "=", "pending").execute();
      });
    },

    // ---- rules ----

    async rules(workspace: WorkspaceId): Promise<Rule[]> {
      const rows = await db.selectFrom("alert_rules").selectAll().where("workspace_id", "=", workspace).orderBy("created_at").orderBy("id").execute();
      return rows.map(toRule);
    },

    /** Keeps a rule (state `ok`, nothing checked yet); 404 is the caller's for an unknown destination; 422 at MAX_RULES (counted under the workspace's lock). */
    async createRule(workspace: WorkspaceId, input: { kind: string; threshold: number | null; destinationId: string; cooldownMs: number }): Promise<Rule | undefined> {
      const row = await db.transaction().execute(async (tx) => {
        const count = await countLocked(tx, "alert_rules", workspace);
        // Read after the lock: a destination deleted meanwhile is not found.
        const destination = await tx.selectFrom("alert_destinations").select("id").where("workspace_id", "=", workspace).where("id", "=", input.destinationId).executeTakeFirst();
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
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return row ? toRule(row) : undefined;
    },

    async removeRule(workspace: WorkspaceId, id: string): Promise<boolean> {
      const result = await db.deleteFrom("alert_rules").where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * Keeps a check of `rule` against what it looked at (`check.basis`), once: false when that basis
     * was already checked (by this instance or another), and then the caller does nothing more. When
     * kept, the rule's state, detail and last check are updated in the same transaction.
     */
    async recordCheck(rule: Rule, check: Omit<Check, "ruleId">, detail: unknown): Promise<boolean> {
      return db.transaction().execute(async (tx) => {
        const inserted = await tx
          .insertInto("alert_checks")
          .values({ rule_id: rule.id, basis: check.basis, at: check.at, state: check.state, value: check.value, message: clip(check.message, 2000) })
          .onConflict((oc) => oc.columns(["rule_id", "basis"]).doNothing())
          .returning("basis")
          .executeTakeFirst();
        if (!inserted) return false;
        const current = await tx.selectFrom("alert_rules").select(["state"]).where("id", "=", rule.id).executeTakeFirst();
        if (!current) return false;
        await tx
          .updateTable("alert_rules")
          .set({
            state: check.state,
            detail: detail === null || detail === undefined ? null : JSON.stringify(detail),
            // When it was checked (and changed), not the instant of what it looked at.
            last_checked_at: deps.now(),
            ...(current.state !== check.state ? { last_changed_at: deps.now() } : {}),
          })
          .where("id", "=", rule.id)
          .execute();
        return true;
      });
    },

    /** Marks that `state` was sent for `rule` at `at` (the cooldown counts from here). */
    async markNotified(ruleId: string, state: RuleState, at: number): Promise<void> {
      await db.updateTable("alert_rules").set({ notified_state: state, notified_at: at }).where("id", "=", ruleId).execute();
    },

    async rule(workspace: WorkspaceId, id: string): Promise<Rule | undefined> {
      const row = await db.selectFrom("alert_rules").selectAll().where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
      return row ? toRule(row) : undefined;
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

    // ---- events and deliveries ----

    /**
     * Makes the event (once per `dedupeKey`: null when it already exists) and one pending delivery to
     * each of `destinationIds` that is active, due now. Returns the deliveries made.
     */
    async enqueue(workspace: WorkspaceId, event: { dedupeKey: string; type: string; body: unknown }, destinationIds: string[]): Promise<Delivery[] | null> {
      const now = deps.now();
      return db.transaction().execute(async (tx) => {
        const id = newId("evt");
        const made = await tx
          .insertInto("alert_events")
          .values({ id, workspace_id: workspace, dedupe_key: event.dedupeKey, type: event.type, body: JSON.stringify(event.body), created_at: now })
          .onConflict((oc) => oc.column("dedupe_key").doNothing())
          .returning("id")
          .executeTakeFirst();
        if (!made) return null;
        const deliveries: Delivery[] = [];
        const active = destinationIds.length === 0 ? [] : await tx.selectFrom("alert_destinations").select("id").where("workspace_id", "=", workspace).where("id", "in", destinationIds).where("status", "=", "active").execute();
        for (const { id: destinationId } of active) {
          const row = await tx
            .insertInto("alert_deliveries")
            .values({ id: newId("dlv"), workspace_id: workspace, event_id: id, destination_id: destinationId, status: "pending", attempts: 0, next_attempt_at: now, claimed_by: null, lease_until: null, created_at: now })
            .returningAll()
            .executeTakeFirstOrThrow();
          deliveries.push(toDelivery(row));
        }
        return deliveries;
      });
    },

    /** Whether the event of `dedupeKey` was made (a digest already sent this week). */
    async eventExists(dedupeKey: string): Promise<boolean> {
      const row = await db.selectFrom("alert_events").select("id").where("dedupe_key", "=", dedupeKey).executeTakeFirst();
      return row !== undefined;
    },

    /** The event's body and type, as made. */
    async event(id: string): Promise<{ id: string; type: string; body: unknown; createdAt: number } | undefined> {
      const row = await db.selectFrom("alert_events").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? { id: row.id, type: row.type, body: JSON.parse(row.body) as unknown, createdAt: row.created_at } : undefined;
    },

    /** Deliveries due at `now` (pending, or sending with a lease run out), oldest due first. */
    async due(now: number, limit: number): Promise<Delivery[]> {
      const rows = await db
        .selectFrom("alert_deliveries")
        .selectAll()
        .where((eb) => eb.or([eb.and([eb("status", "=", "pending"), eb("next_attempt_at", "<=", now)]), eb.and([eb("status", "=", "sending"), eb("lease_until", "<", now)])]))
        .orderBy("next_attempt_at")
        .limit(limit)
        .execute();
      return rows.map(toDelivery);
    },

    /** The earliest instant a pending delivery is due, or null (when to look again). */
    async nextDue(): Promise<number | null> {
      const row = await db.selectFrom("alert_deliveries").select((eb) => eb.fn.min("next_attempt_at").as("at")).where("status", "=", "pending").executeTakeFirst();
      return row?.at ?? null;
    },

    /**
     * Claims `delivery` for `instance` until `leaseUntil`, if it is still as read (pending and due,
     * or sending with a lease run out): true for exactly one caller. The attempt number counts up.
     */
    async claim(delivery: Delivery, instance: string, now: number, leaseUntil: number): Promise<boolean> {
      const { numUpdatedRows } = await db
        .updateTable("alert_deliveries")
        .set({ status: "sending", claimed_by: instance, lease_until: leaseUntil, attempts: delivery.attempts + 1 })
        .where("id", "=", delivery.id)
        .where("attempts", "=", delivery.attempts)
        .where((eb) => eb.or([eb.and([eb("status", "=", "pending"), eb("next_attempt_at", "<=", now)]), eb.and([eb("status", "=", "sending"), eb("lease_until", "<", now)])]))
        .executeTakeFirst();
      return numUpdatedRows > 0n;
    },

    /**
     * Keeps how `instance`'s attempt ended and moves the delivery on: delivered, pending again at
     * `nextAttemptAt` (retrying), or failed. False (nothing written) when the claim was no longer its own.
     */
    async finishAttempt(
      delivery: Delivery & { attempts: number },
      instance: string,
      outcome: { at: number; status: AttemptStatus; responseStatus: number | null; error: string | null; durationMs: number; nextAttemptAt: number | null },
    ): Promise<boolean> {
      return db.transaction().execute(async (tx) => {
        const { numUpdatedRows } = await tx
          .updateTable("alert_deliveries")
          .set({
            status: outcome.status === "retrying" ? "pending" : outcome.status,
            next_attempt_at: outcome.status === "retrying" ? outcome.nextAttemptAt : null,
            claimed_by: null,
            lease_until: null,
          })
          .where("id", "=", delivery.id)
          .where("status", "=", "sending")
          .where("claimed_by", "=", instance)
          .where("attempts", "=", delivery.attempts)
          .executeTakeFirst();
        if (numUpdatedRows === 0n) return false;
        await tx
          .insertInto("alert_attempts")
          .values({
            delivery_id: delivery.id,
            attempt: delivery.attempts,
            workspace_id: delivery.workspaceId,
            at: outcome.at,
            status: outcome.status,
            response_status: outcome.responseStatus,
            error: outcome.error === null ? null : clip(outcome.error),
            duration_ms: Math.max(0, Math.round(outcome.durationMs)),
          })
          .onConflict((oc) => oc.columns(["delivery_id", "attempt"]).doNothing())
          .execute();
        return true;
      });
    },

    /** Due again now, by hand: only a delivery that failed for good, to a destination still active. */
    async retry(workspace: WorkspaceId, deliveryId: string): Promise<"retrying" | "not_retryable" | "unknown"> {
      const row = await db
        .selectFrom("alert_deliveries")
        .innerJoin("alert_destinations", "alert_destinations.id", "alert_deliveries.destination_id")
        .select(["alert_deliveries.status as status", "alert_destinations.status as destination_status"])
        .where("alert_deliveries.workspace_id", "=", workspace)
        .where("alert_deliveries.id", "=", deliveryId)
        .executeTakeFirst();
      if (!row) return "unknown";
      if (row.status !== "failed" || row.destination_status !== "active") return "not_retryable";
      const { numUpdatedRows } = await db
        .updateTable("alert_deliveries")
        .set({ status: "pending", next_attempt_at: deps.now() })
        .where("id", "=", deliveryId)
        .where("status", "=", "failed")
        .executeTakeFirst();
      return numUpdatedRows > 0n ? "retrying" : "not_retryable";
    },

    async delivery(id: string): Promise<Delivery | undefined> {
      const row = await db.selectFrom("alert_deliveries").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? toDelivery(row) : undefined;
    },

    /** The workspace's attempts, newest first, with what the screen shows of each. */
    async attempts(workspace: WorkspaceId, limit = 50): Promise<Attempt[]> {
      const rows = await db
        .selectFrom("alert_attempts")
        .innerJoin("alert_deliveries", "alert_deliveries.id", "alert_attempts.delivery_id")
        .innerJoin("alert_events", "alert_events.id", "alert_deliveries.event_id")
        .innerJoin("alert_destinations", "alert_destinations.id", "alert_deliveries.destination_id")
        .select([
          "alert_attempts.delivery_id",
          "alert_attempts.attempt",
          "alert_attempts.at",
          "alert_attempts.status",
          "alert_attempts.response_status",
          "alert_attempts.error",
          "alert_deliveries.destination_id",
          "alert_deliveries.status as delivery_status",
          "alert_deliveries.attempts as delivery_attempts",
          "alert_deliveries.next_attempt_at",
          "alert_destinations.name as destination_name",
          "alert_destinations.status as destination_status",
          "alert_events.type",
        ])
        .where("alert_attempts.workspace_id", "=", workspace)
        .orderBy("alert_attempts.at", "desc")
        .orderBy("alert_attempts.attempt", "desc")
        .limit(limit)
        .execute();
      return rows.map((r) => {
        const latest = r.attempt === r.delivery_attempts;
        return {
          deliveryId: r.delivery_id,
          destinationId: r.destination_id,
          destinationName: r.destination_name,
          type: r.type,
          attempt: r.attempt,
          at: r.at,
          status: r.status,
          responseStatus: r.response_status,
          error: r.error,
          retryable: latest && r.delivery_status === "failed" && r.destination_status === "active",
          nextAttemptAt: latest && r.delivery_status === "pending" ? r.next_attempt_at : null,
        };
      });
    },

    /**
     * Forgets checks, and events whose deliveries all ended (delivered or failed), older than
     * `before`, with their attempts. Returns how many checks and events went.
     */
    async prune(before: number): Promise<{ checks: number; events: number }> {
      const checks = await db.deleteFrom("alert_checks").where("at", "<", before).executeTakeFirst();
      const events = await db
        .deleteFrom("alert_events")
        .where("created_at", "<", before)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom("alert_deliveries").select("id").whereRef("alert_deliveries.event_id", "=", "alert_events.id").where("status", "in", ["pending", "sending"]))))
        .executeTakeFirst();
      return { checks: Number(checks.numDeletedRows), events: Number(events.numDeletedRows) };
    },

    // ---- digest ----

    async digest(workspace: WorkspaceId): Promise<string | null> {
      const row = await db.selectFrom("alert_digests").select("destination_id").where("workspace_id", "=", workspace).executeTakeFirst();
      return row?.destination_id ?? null;
    },

    /** Sends the weekly digest to `destinationId` (of this workspace), or nowhere (null); false for an unknown destination. */
    async setDigest(workspace: WorkspaceId, destinationId: string | null): Promise<boolean> {
      if (destinationId === null) {
        await db.deleteFrom("alert_digests").where("workspace_id", "=", workspace).execute();
        return true;
      }
      const destination = await db.selectFrom("alert_destinations").select("id").where("workspace_id", "=", workspace).where("id", "=", destinationId).executeTakeFirst();
      if (!destination) return false;
      await db
        .insertInto("alert_digests")
        .values({ workspace_id: workspace, destination_id: destinationId, created_at: deps.now() })
        .onConflict((oc) => oc.column("workspace_id").doUpdateSet({ destination_id: destinationId }))
        .execute();
      return true;
    },

    /** Workspaces with a digest, and where it goes. */
    async digests(): Promise<{ workspaceId: WorkspaceId; destinationId: string }[]> {
      const rows = await db.selectFrom("alert_digests").select(["workspace_id", "destination_id"]).orderBy("workspace_id").execute();
      return rows.map((r) => ({ workspaceId: r.workspace_id, destinationId: r.destination_id }));
    },

    /** Workspaces with at least one rule (the checks' list). */
    async hasRules(workspace: WorkspaceId): Promise<boolean> {
      const row = await db.selectFrom("alert_rules").select("id").where("workspace_id", "=", workspace).limit(1).executeTakeFirst();
      return row !== undefined;
    },
  };
}
