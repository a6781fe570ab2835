// Alerts as the store keeps them: destinations (their URL and signing secret sealed, sealed.ts),
// rules with their state, every check of a rule, the events to send and their delivery to each
// destination with every attempt, and the weekly digest's destination.
// Exactly once across instances rests on three unique keys: a rule's check per basis (the snapshot or
// day it looked at: the instance whose insert makes the row acts on it), an event per `dedupe_key`,
// and a delivery per event and destination. Sending is claimed per destination, one attempt at a
// time (claimNext): the destination's row holds who sends to it and until when (one attempt's
// lease), so one request at a time is in flight to it across instances, and its next due delivery
// is taken in the same transaction. A lease that ran out (its instance died mid-send) lets another
// instance try again with the same event id, which receivers use to drop a repeat. Workspaces are
// offered in turn (dueDestinations: the one with the fewest sends going on, then the one served
// longest ago). At most MAX_WAITING_PER_DESTINATION deliveries wait per destination, and one that
// times out REST_AFTER_TIMEOUTS times in a row rests. Every writer of a
// destination's deliveries locks the destination's row first (the bound of waiting deliveries is
// counted under it), and a workspace's bounds are counted under its row's lock (workspace-lock.ts).
// Times are passed in or read from the injected clock, so all of it runs on fake time.
// Every function of a workspace's data takes the workspace first and touches no other workspace's rows.
import "server-only";
import { randomBytes } from "node:crypto";
import { sql, type ExpressionBuilder, type Kysely, type Selectable, type Transaction } from "kysely";
import { StoreLimitError } from "./errors";
import type {
  AlertDeliveriesTable,
  AlertDestinationsTable,
  AlertRulesTable,
  AttemptStatus,
  DestinationKind,
  ManualSendKind,
  RuleState,
  StoreTables,
  WorkspaceId,
} from "./schema";
import { SEALED, type SealedValues } from "./sealed";
import { lockWorkspace } from "./workspace-lock";

/** Bounds per workspace: enough for a team, small enough that a script cannot fill the screen. */
export const MAX_DESTINATIONS = 20;
export const MAX_RULES = 50;
/** Deliveries that may wait (to be sent, or being sent) per destination: more are failed at once, saying why. */
export const MAX_WAITING_PER_DESTINATION = 100;
/** A destination whose attempts time out this many times in a row rests REST_MS: nothing is sent to it meanwhile. */
export const REST_AFTER_TIMEOUTS = 5;
export const REST_MS = 10 * 60_000;
/** "Send a test", "Retry" and the digest's "Send now", by hand: this many per workspace within MANUAL_SEND_WINDOW_MS (a sliding window). */
export const MANUAL_SENDS_PER_WINDOW = 10;
export const MANUAL_SEND_WINDOW_MS = 60_000;

export type Destination = {
  id: string;
  kind: DestinationKind;
  name: string;
  urlHint: string;
  status: "active" | "stopped";
  stoppedReason: string | null;
  /** Until when it rests after timing out REST_AFTER_TIMEOUTS times in a row; null when it does not rest now. */
  restingUntil: number | null;
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
  /** How many times its threshold was changed (its checks are kept per revision). */
  revision: number;
};

/** What an edit of a rule may change (each optional: what is not given stays). */
export type RuleChanges = { threshold?: number | null; destinationId?: string; cooldownMs?: number };

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

export type AlertsDeps = { db: Kysely<StoreTables>; now: () => number; sealed: SealedValues };

export type Alerts = ReturnType<typeof alertsContext>;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url")}`;

function toDestination(row: Selectable<AlertDestinationsTable>, now: number): Destination {
  const restingUntil = row.resting_until !== null && row.resting_until > now ? row.resting_until : null;
  return { id: row.id, kind: row.kind, name: row.name, urlHint: row.url_hint, status: row.status, stoppedReason: row.stopped_reason, restingUntil, createdAt: row.created_at };
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
    revision: row.revision,
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

/** A delivery that may be sent now: waiting and due, or being sent by an instance whose lease ran out. */
const dueAt = (now: number) => (eb: ExpressionBuilder<StoreTables, "alert_deliveries">) =>
  eb.or([
    eb.and([eb("alert_deliveries.status", "=", "pending"), eb("alert_deliveries.next_attempt_at", "<=", now)]),
    eb.and([eb("alert_deliveries.status", "=", "sending"), eb("alert_deliveries.lease_until", "<", now)]),
  ]);

/** Deliveries that count against MAX_WAITING_PER_DESTINATION. */
const WAITING = ["pending", "sending"] as const;

const utcMinute = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** Thrown inside claimNext's transaction to roll it back: the destination had nothing due after all. */
class NothingDue extends Error {}

/** Thrown inside recordCheck's transaction to roll it back: the rule was changed (or deleted) since it was judged. */
class RuleChanged extends Error {}

/** The basis a check is kept under: what it looked at, and the rule's revision once its threshold was changed. */
const checkBasis = (basis: string, revision: number) => (revision === 0 ? basis : `${basis}#${revision}`);

export function alertsContext(deps: AlertsDeps) {
  const { db } = deps;

  /** How many of the workspace's `table` rows there are, counted in `tx` after its lock (no create can race past the bound). */
  async function countLocked(tx: Transaction<StoreTables>, table: "alert_destinations" | "alert_rules", workspace: WorkspaceId): Promise<number> {
    await lockWorkspace(tx, workspace);
    const { count } = await tx.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as("count")).where("workspace_id", "=", workspace).executeTakeFirstOrThrow();
    return Number(count);
  }

  /**
   * Locks an active destination's row for the rest of `tx` (the first thing every writer of its
   * deliveries does, so they take locks in one order), and counts what waits for it: undefined when
   * it is not active (or not of `workspace`, when given).
   */
  async function lockDestination(tx: Transaction<StoreTables>, id: string, workspace?: WorkspaceId): Promise<{ waiting: number } | undefined> {
    let update = tx.updateTable("alert_destinations").set({ status: sql`status` }).where("id", "=", id).where("status", "=", "active");
    if (workspace !== undefined) update = update.where("workspace_id", "=", workspace);
    const locked = await update.returning("id").executeTakeFirst();
    if (!locked) return undefined;
    const { count } = await tx
      .selectFrom("alert_deliveries")
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .where("destination_id", "=", id)
      .where("status", "in", WAITING)
      .executeTakeFirstOrThrow();
    return { waiting: Number(count) };
  }

  async function open(row: Selectable<AlertDestinationsTable>): Promise<OpenDestination> {
    const url = await deps.sealed.open(SEALED.destinationUrl, row.id, row.url_sealed);
    const secret = row.secret_sealed === null ? null : await deps.sealed.open(SEALED.destinationSecret, row.id, row.secret_sealed);
    return { ...toDestination(row, deps.now()), workspaceId: row.workspace_id, url, secret };
  }

  return {
    // ---- destinations ----

    async destinations(workspace: WorkspaceId): Promise<Destination[]> {
      const rows = await db.selectFrom("alert_destinations").selectAll().where("workspace_id", "=", workspace).orderBy("created_at").orderBy("id").execute();
      const now = deps.now();
      return rows.map((row) => toDestination(row, now));
    },

    async destination(workspace: WorkspaceId, id: string): Promise<Destination | undefined> {
      const row = await db.selectFrom("alert_destinations").selectAll().where("workspace_id", "=", workspace).where("id", "=", id).executeTakeFirst();
      return row ? toDestination(row, deps.now()) : undefined;
    },

    /**
     * The destination with its URL and secret opened, for sending; undefined when it is gone. What
     * opened under SESSION_SECRET_PREVIOUS is sealed again under SESSION_SECRET. Throws
     * SealedUnreadableError when this instance has no secret that opens them (they are left as they
     * are: the delivery waits, see lib/alerts/deliver.ts).
     */
    async openDestination(id: string): Promise<OpenDestination | undefined> {
      const row = await db.selectFrom("alert_destinations").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? open(row) : undefined;
    },

    /** Keeps a destination, its URL and secret sealed; 422 at MAX_DESTINATIONS (counted under the workspace's lock). */
    async createDestination(workspace: WorkspaceId, input: { kind: DestinationKind; name: string; url: string; urlHint: string; secret: string | null }): Promise<Destination> {
      const id = newId("dst");
      const values = {
        id,
        workspace_id: workspace,
        kind: input.kind,
        name: input.name,
        url_sealed: deps.sealed.seal(SEALED.destinationUrl, id, input.url),
        url_hint: input.urlHint,
        secret_sealed: input.secret === null ? null : deps.sealed.seal(SEALED.destinationSecret, id, input.secret),
        status: "active" as const,
        stopped_reason: null,
        created_at: deps.now(),
        inflight_by: null,
        inflight_delivery: null,
        inflight_until: null,
        last_claimed_at: null,
        timeouts_in_row: 0,
        resting_until: null,
      };
      const row = await db.transaction().execute(async (tx) => {
        if ((await countLocked(tx, "alert_destinations", workspace)) >= MAX_DESTINATIONS) {
          throw new StoreLimitError(`This workspace already has ${MAX_DESTINATIONS} alert destinations, the most it may. Delete one to add another.`);
        }
        return tx.insertInto("alert_destinations").values(values).returningAll().executeTakeFirstOrThrow();
      });
      return toDestination(row, deps.now());
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
        const row = await tx.updateTable("alert_rules").set({ id: sql`id` }).where("workspace_id", "=", workspace).where("id", "=", id).returningAll().executeTakeFirst();
        if (!row) return undefined;
        const before = toRule(row);
        if (changes.destinationId !== undefined && changes.destinationId !== before.destinationId) {
          const destination = await tx.selectFrom("alert_destinations").select("id").where("workspace_id", "=", workspace).where("id", "=", changes.destinationId).executeTakeFirst();
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
          const inserted = await tx
            .insertInto("alert_checks")
            .values({ rule_id: rule.id, basis: checkBasis(check.basis, rule.revision), at: check.at, state: check.state, value: check.value, message: clip(check.message, 2000) })
            .onConflict((oc) => oc.columns(["rule_id", "basis"]).doNothing())
            .returning("basis")
            .executeTakeFirst();
          if (!inserted) return false;
          const current = await tx.selectFrom("alert_rules").select(["state"]).where("id", "=", rule.id).where("revision", "=", rule.revision).executeTakeFirst();
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
        if (error instanceof RuleChanged) return false;
        throw error;
      }
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
     * Makes the event (once per `dedupeKey`: null when it already exists) and one delivery to each of
     * `destinationIds` that is active: due now, or failed at once, saying why, when
     * MAX_WAITING_PER_DESTINATION already wait for that destination. Returns the deliveries made.
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
        // In the order of their ids: two enqueues to the same destinations lock them in one order.
        for (const destinationId of [...new Set(destinationIds)].sort()) {
          const destination = await lockDestination(tx, destinationId, workspace);
          if (!destination) continue;
          const full = destination.waiting >= MAX_WAITING_PER_DESTINATION;
          const row = await tx
            .insertInto("alert_deliveries")
            .values({
              id: newId("dlv"),
              workspace_id: workspace,
              event_id: id,
              destination_id: destinationId,
              status: full ? "failed" : "pending",
              attempts: full ? 1 : 0,
              next_attempt_at: full ? null : now,
              claimed_by: null,
              lease_until: null,
              created_at: now,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          if (full) {
            // Settings lists attempts: the refusal is one, so it is seen with its reason.
            await tx
              .insertInto("alert_attempts")
              .values({
                delivery_id: row.id,
                attempt: 1,
                workspace_id: workspace,
                at: now,
                status: "failed",
                response_status: null,
                error: `not sent: ${MAX_WAITING_PER_DESTINATION} deliveries were already waiting for this destination (its receiver answers slowly or not at all), the most that may wait`,
                duration_ms: 0,
              })
              .execute();
          }
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

    /**
     * Destinations that have a delivery to send now and that nobody sends to (active, not held by an
     * instance, not resting), in the order they should be served: the workspace with the fewest
     * sends going on (across instances) first, then the one served longest ago (by the last claim of
     * any of its destinations), and within it the destination served longest ago. So workspaces take
     * turns, whatever the times their deliveries were made, and a workspace whose receivers hold
     * requests open goes after one whose receivers do not.
     */
    async dueDestinations(now: number, limit: number): Promise<{ destinationId: string; workspaceId: WorkspaceId }[]> {
      const rows = await db
        .selectFrom("alert_destinations")
        .select(["alert_destinations.id", "alert_destinations.workspace_id"])
        .select((eb) =>
          eb
            .selectFrom("alert_destinations as busy")
            .select((e) => e.fn.countAll<number | string>().as("n"))
            .whereRef("busy.workspace_id", "=", "alert_destinations.workspace_id")
            .where("busy.inflight_until", ">=", now)
            .as("workspace_sending"),
        )
        .select((eb) =>
          eb.fn
            .coalesce(
              eb.selectFrom("alert_destinations as turn").select((e) => e.fn.max("turn.last_claimed_at").as("at")).whereRef("turn.workspace_id", "=", "alert_destinations.workspace_id"),
              sql.lit(0),
            )
            .as("workspace_served_at"),
        )
        .where("alert_destinations.status", "=", "active")
        .where((eb) => eb.or([eb("alert_destinations.inflight_until", "is", null), eb("alert_destinations.inflight_until", "<", now)]))
        .where((eb) => eb.or([eb("alert_destinations.resting_until", "is", null), eb("alert_destinations.resting_until", "<=", now)]))
        .where((eb) => eb.exists(eb.selectFrom("alert_deliveries").select("alert_deliveries.id").whereRef("alert_deliveries.destination_id", "=", "alert_destinations.id").where(dueAt(now))))
        .orderBy("workspace_sending")
        .orderBy("workspace_served_at")
        .orderBy(sql`coalesce(alert_destinations.last_claimed_at, 0)`)
        .orderBy("alert_destinations.id")
        .limit(limit)
        .execute();
      return rows.map((r) => ({ destinationId: r.id, workspaceId: r.workspace_id }));
    },

    /**
     * Claims the next due delivery of `destinationId` for one attempt by `instance`, until
     * `leaseUntil`, if nobody sends to that destination now: in one transaction the destination is
     * held (a compare-and-set on its row, so one request at a time is in flight to it across
     * instances) and its oldest due delivery moves to `sending` with its attempt number counted up.
     * Undefined when the destination is held, resting, stopped or has nothing due.
     */
    async claimNext(destinationId: string, instance: string, now: number, leaseUntil: number): Promise<Delivery | undefined> {
      try {
        return await db.transaction().execute(async (tx) => {
          const held = await tx
            .updateTable("alert_destinations")
            .set({ inflight_by: instance, inflight_until: leaseUntil, last_claimed_at: now })
            .where("id", "=", destinationId)
            .where("status", "=", "active")
            .where((eb) => eb.or([eb("inflight_until", "is", null), eb("inflight_until", "<", now)]))
            .where((eb) => eb.or([eb("resting_until", "is", null), eb("resting_until", "<=", now)]))
            .executeTakeFirst();
          if (held.numUpdatedRows === 0n) return undefined;
          const row = await tx
            .selectFrom("alert_deliveries")
            .selectAll()
            .where("destination_id", "=", destinationId)
            .where(dueAt(now))
            .orderBy("next_attempt_at")
            .orderBy("created_at")
            .orderBy("id")
            .limit(1)
            .executeTakeFirst();
          if (!row) throw new NothingDue();
          const claimed = await tx
            .updateTable("alert_deliveries")
            .set({ status: "sending", claimed_by: instance, lease_until: leaseUntil, attempts: row.attempts + 1 })
            .where("id", "=", row.id)
            .where("attempts", "=", row.attempts)
            .returningAll()
            .executeTakeFirst();
          // Every claim of this destination's deliveries holds the destination first: none can have moved.
          if (!claimed) throw new NothingDue();
          await tx.updateTable("alert_destinations").set({ inflight_delivery: row.id }).where("id", "=", destinationId).execute();
          return toDelivery(claimed);
        });
      } catch (error) {
        if (error instanceof NothingDue) return undefined;
        throw error;
      }
    },

    /**
     * Gives back a claim that was not sent (the lease would not have covered the attempt): the
     * delivery is due again as it was, and the destination free. False when it was no longer `instance`'s.
     */
    async release(delivery: Delivery, instance: string): Promise<boolean> {
      return db.transaction().execute(async (tx) => {
        await tx
          .updateTable("alert_destinations")
          .set({ inflight_by: null, inflight_delivery: null, inflight_until: null })
          .where("id", "=", delivery.destinationId)
          .where("inflight_by", "=", instance)
          .where("inflight_delivery", "=", delivery.id)
          .execute();
        const { numUpdatedRows } = await tx
          .updateTable("alert_deliveries")
          .set({ status: "pending", claimed_by: null, lease_until: null, attempts: delivery.attempts - 1 })
          .where("id", "=", delivery.id)
          .where("status", "=", "sending")
          .where("claimed_by", "=", instance)
          .where("attempts", "=", delivery.attempts)
          .executeTakeFirst();
        return numUpdatedRows > 0n;
      });
    },

    /**
     * Keeps how `instance`'s attempt (`delivery.attempts`, as claimed) ended, and when the claim is
     * still its own moves the delivery on (delivered, pending again at `nextAttemptAt`, or failed)
     * and frees the destination. A timeout counts towards the destination's rest (any other outcome
     * starts the count again): the REST_AFTER_TIMEOUTS-th in a row rests it REST_MS, said in this
     * attempt's error. The attempt is kept even when the claim was no longer its own (its lease ran
     * out and another instance claimed the delivery again): every request made is on record.
     */
    async finishAttempt(
      delivery: Delivery,
      instance: string,
      outcome: { at: number; status: AttemptStatus; responseStatus: number | null; error: string | null; durationMs: number; nextAttemptAt: number | null; timedOut?: boolean },
    ): Promise<{ current: boolean; restingUntil: number | null }> {
      const now = deps.now();
      return db.transaction().execute(async (tx) => {
        // The destination first, as every writer of its deliveries does.
        const freed = await tx
          .updateTable("alert_destinations")
          .set((eb) => ({ inflight_by: null, inflight_delivery: null, inflight_until: null, timeouts_in_row: outcome.timedOut ? eb("timeouts_in_row", "+", 1) : 0 }))
          .where("id", "=", delivery.destinationId)
          .where("inflight_by", "=", instance)
          .where("inflight_delivery", "=", delivery.id)
          .returning("timeouts_in_row")
          .executeTakeFirst();
        let restingUntil: number | null = null;
        let error = outcome.error;
        let nextAttemptAt = outcome.nextAttemptAt;
        if (freed && freed.timeouts_in_row >= REST_AFTER_TIMEOUTS) {
          restingUntil = now + REST_MS;
          await tx.updateTable("alert_destinations").set({ resting_until: restingUntil, timeouts_in_row: 0 }).where("id", "=", delivery.destinationId).execute();
          error = `${REST_AFTER_TIMEOUTS} timeouts in a row: nothing is sent to this destination for ${REST_MS / 60_000} minutes, until ${utcMinute(restingUntil)} (${outcome.error ?? "no answer"})`;
          if (nextAttemptAt !== null) nextAttemptAt = Math.max(nextAttemptAt, restingUntil);
        }
        const { numUpdatedRows } = await tx
          .updateTable("alert_deliveries")
          .set({
            status: outcome.status === "retrying" ? "pending" : outcome.status,
            next_attempt_at: outcome.status === "retrying" ? nextAttemptAt : null,
            claimed_by: null,
            lease_until: null,
          })
          .where("id", "=", delivery.id)
          .where("status", "=", "sending")
          .where("claimed_by", "=", instance)
          .where("attempts", "=", delivery.attempts)
          .executeTakeFirst();
        const current = numUpdatedRows > 0n;
        // A delivery deleted meanwhile (its destination was) has nothing to keep an attempt under.
        const exists = current || (await tx.selectFrom("alert_deliveries").select("id").where("id", "=", delivery.id).executeTakeFirst()) !== undefined;
        if (exists) {
          await tx
            .insertInto("alert_attempts")
            .values({
              delivery_id: delivery.id,
              attempt: delivery.attempts,
              workspace_id: delivery.workspaceId,
              at: outcome.at,
              status: outcome.status,
              response_status: outcome.responseStatus,
              error: error === null ? null : clip(error),
              duration_ms: Math.max(0, Math.round(outcome.durationMs)),
            })
            .onConflict((oc) => oc.columns(["delivery_id", "attempt"]).doNothing())
            .execute();
        }
        return { current, restingUntil };
      });
    },

    /** Whether `retry` would send the delivery again (it failed for good, to a destination still active), read without changing it. */
    async retryable(workspace: WorkspaceId, deliveryId: string): Promise<"retryable" | "not_retryable" | "unknown"> {
      const row = await db
        .selectFrom("alert_deliveries")
        .innerJoin("alert_destinations", "alert_destinations.id", "alert_deliveries.destination_id")
        .select(["alert_deliveries.status as status", "alert_destinations.status as destination_status"])
        .where("alert_deliveries.workspace_id", "=", workspace)
        .where("alert_deliveries.id", "=", deliveryId)
        .executeTakeFirst();
      if (!row) return "unknown";
      return row.status === "failed" && row.destination_status === "active" ? "retryable" : "not_retryable";
    },

    /**
     * Due again now, by hand: only a delivery that failed for good, to a destination still active,
     * and while fewer than MAX_WAITING_PER_DESTINATION wait for it (`queue_full` otherwise).
     */
    async retry(workspace: WorkspaceId, deliveryId: string): Promise<"retrying" | "not_retryable" | "queue_full" | "unknown"> {
      const row = await db.selectFrom("alert_deliveries").select(["status", "destination_id"]).where("workspace_id", "=", workspace).where("id", "=", deliveryId).executeTakeFirst();
      if (!row) return "unknown";
      if (row.status !== "failed") return "not_retryable";
      const destinationId = row.destination_id;
      return db.transaction().execute(async (tx) => {
        const destination = await lockDestination(tx, destinationId, workspace);
        if (!destination) return "not_retryable";
        if (destination.waiting >= MAX_WAITING_PER_DESTINATION) return "queue_full";
        const { numUpdatedRows } = await tx
          .updateTable("alert_deliveries")
          .set({ status: "pending", next_attempt_at: deps.now() })
          .where("id", "=", deliveryId)
          .where("status", "=", "failed")
          .executeTakeFirst();
        return numUpdatedRows > 0n ? "retrying" : "not_retryable";
      });
    },

    /**
     * Counts a "Send a test" or a "Retry" by hand against the workspace's MANUAL_SENDS_PER_WINDOW in
     * the last MANUAL_SEND_WINDOW_MS (under the workspace's lock, so instances share the count):
     * allowed, and counted; or refused with how long until the oldest counted one leaves the window.
     */
    async takeManualSend(workspace: WorkspaceId, kind: ManualSendKind): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> {
      const now = deps.now();
      return db.transaction().execute(async (tx) => {
        await lockWorkspace(tx, workspace);
        await tx.deleteFrom("alert_manual_sends").where("workspace_id", "=", workspace).where("at", "<=", now - MANUAL_SEND_WINDOW_MS).execute();
        const recent = await tx.selectFrom("alert_manual_sends").select("at").where("workspace_id", "=", workspace).orderBy("at", "desc").limit(MANUAL_SENDS_PER_WINDOW).execute();
        if (recent.length >= MANUAL_SENDS_PER_WINDOW) return { allowed: false, retryAfterMs: Math.max(1, recent.at(-1)!.at + MANUAL_SEND_WINDOW_MS - now) };
        await tx.insertInto("alert_manual_sends").values({ id: newId("ms"), workspace_id: workspace, kind, at: now }).execute();
        return { allowed: true };
      });
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
      // Manual sends count for a minute only; a workspace that stopped sending leaves a few rows.
      await db.deleteFrom("alert_manual_sends").where("at", "<", before).execute();
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

    /** Workspaces with a digest, where it goes, and the workspace's time zone (when it is due). */
    async digests(): Promise<{ workspaceId: WorkspaceId; destinationId: string; timeZone: string }[]> {
      const rows = await db
        .selectFrom("alert_digests")
        .innerJoin("workspaces", "workspaces.id", "alert_digests.workspace_id")
        .select(["alert_digests.workspace_id", "alert_digests.destination_id", "workspaces.time_zone"])
        .orderBy("alert_digests.workspace_id")
        .execute();
      return rows.map((r) => ({ workspaceId: r.workspace_id, destinationId: r.destination_id, timeZone: r.time_zone }));
    },

    /** Which of `dedupeKeys` have their event made already (digests sent this week). */
    async eventsMade(dedupeKeys: string[]): Promise<Set<string>> {
      if (dedupeKeys.length === 0) return new Set();
      const rows = await db.selectFrom("alert_events").select("dedupe_key").where("dedupe_key", "in", dedupeKeys).execute();
      return new Set(rows.map((r) => r.dedupe_key));
    },

    /** Workspaces with at least one rule (the checks' list). */
    async hasRules(workspace: WorkspaceId): Promise<boolean> {
      const row = await db.selectFrom("alert_rules").select("id").where("workspace_id", "=", workspace).limit(1).executeTakeFirst();
      return row !== undefined;
    },
  };
}
