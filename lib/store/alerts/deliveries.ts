// Deliveries of alert events to destinations, and every attempt. Sending is claimed per destination,
// one attempt at a time (claimNext): the destination's row holds who sends to it and until when (one
// attempt's lease), so one request at a time is in flight to it across instances, and its next due
// delivery is taken in the same transaction. A lease that ran out (its instance died mid-send) lets
// another instance try again with the same event id, which receivers use to drop a repeat. Workspaces
// are offered in turn (dueDestinations). At most MAX_WAITING_PER_DESTINATION deliveries wait per
// destination, and one that times out REST_AFTER_TIMEOUTS times in a row rests.
import "server-only";
import { sql, type ExpressionBuilder } from "kysely";
import type { AttemptStatus, StoreTables, WorkspaceId } from "../schema";
import {
  MAX_WAITING_PER_DESTINATION,
  REST_AFTER_TIMEOUTS,
  REST_MS,
  newId,
  toDelivery,
  clip,
  lockDestination,
  type Delivery,
  type Attempt,
  type AlertsDeps,
} from "./shared";

/** A delivery that may be sent now: waiting and due, or being sent by an instance whose lease ran out. */
const dueAt = (now: number) => (eb: ExpressionBuilder<StoreTables, "alert_deliveries">) =>
  eb.or([
    eb.and([eb("alert_deliveries.status", "=", "pending"), eb("alert_deliveries.next_attempt_at", "<=", now)]),
    eb.and([eb("alert_deliveries.status", "=", "sending"), eb("alert_deliveries.lease_until", "<", now)]),
  ]);

const utcMinute = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** Thrown inside claimNext's transaction to roll it back: the destination had nothing due after all. */
class NothingDue extends Error {}

export function deliveryQueries(deps: AlertsDeps) {
  const { db } = deps;

  return {
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
              eb
                .selectFrom("alert_destinations as turn")
                .select((e) => e.fn.max("turn.last_claimed_at").as("at"))
                .whereRef("turn.workspace_id", "=", "alert_destinations.workspace_id"),
              sql.lit(0),
            )
            .as("workspace_served_at"),
        )
        .where("alert_destinations.status", "=", "active")
        .where((eb) => eb.or([eb("alert_destinations.inflight_until", "is", null), eb("alert_destinations.inflight_until", "<", now)]))
        .where((eb) => eb.or([eb("alert_destinations.resting_until", "is", null), eb("alert_destinations.resting_until", "<=", now)]))
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom("alert_deliveries")
              .select("alert_deliveries.id")
              .whereRef("alert_deliveries.destination_id", "=", "alert_destinations.id")
              .where(dueAt(now)),
          ),
        )
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
      outcome: {
        at: number;
        status: AttemptStatus;
        responseStatus: number | null;
        error: string | null;
        durationMs: number;
        nextAttemptAt: number | null;
        timedOut?: boolean;
      },
    ): Promise<{ current: boolean; restingUntil: number | null }> {
      const now = deps.now();
      return db.transaction().execute(async (tx) => {
        // The destination first, as every writer of its deliveries does.
        const freed = await tx
          .updateTable("alert_destinations")
          .set((eb) => ({
            inflight_by: null,
            inflight_delivery: null,
            inflight_until: null,
            timeouts_in_row: outcome.timedOut ? eb("timeouts_in_row", "+", 1) : 0,
          }))
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
          await tx
            .updateTable("alert_destinations")
            .set({ resting_until: restingUntil, timeouts_in_row: 0 })
            .where("id", "=", delivery.destinationId)
            .execute();
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
      const row = await db
        .selectFrom("alert_deliveries")
        .select(["status", "destination_id"])
        .where("workspace_id", "=", workspace)
        .where("id", "=", deliveryId)
        .executeTakeFirst();
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
  };
}
