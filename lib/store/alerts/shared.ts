// What the alerts' queries share (lib/store/alerts/*.ts): the bounds, the shapes they answer, the rows
// read into them, and the two locks every writer takes first: the workspace's row before a bound is
// counted, and a destination's row before any of its deliveries is written.
import "server-only";
import { randomBytes } from "node:crypto";
import { sql, type Kysely, type Selectable, type Transaction } from "kysely";
import type {
  AlertDeliveriesTable,
  AlertDestinationsTable,
  AlertRulesTable,
  AttemptStatus,
  DestinationKind,
  DestinationStatus,
  RuleState,
  StoreTables,
  WorkspaceId,
} from "../schema";
import type { SealedValues } from "../sealed";
import { lockWorkspace } from "../workspace-lock";

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
  status: DestinationStatus;
  /** When an e-mail destination's recipient confirmed it (null before, and for the other kinds). */
  confirmedAt: number | null;
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

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url")}`;

export function toDestination(row: Selectable<AlertDestinationsTable>, now: number): Destination {
  const restingUntil = row.resting_until !== null && row.resting_until > now ? row.resting_until : null;
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    urlHint: row.url_hint,
    status: row.status,
    confirmedAt: row.confirmed_at,
    stoppedReason: row.stopped_reason,
    restingUntil,
    createdAt: row.created_at,
  };
}

export function toRule(row: Selectable<AlertRulesTable>): Rule {
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

export function toDelivery(row: Selectable<AlertDeliveriesTable>): Delivery {
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
export const clip = (text: string, max = 300) => text.replace(/\s+/g, " ").slice(0, max);

/** Deliveries that count against MAX_WAITING_PER_DESTINATION. */
export const WAITING = ["pending", "sending"] as const;

/** How many of the workspace's `table` rows there are, counted in `tx` after its lock (no create can race past the bound). */
export async function countLocked(tx: Transaction<StoreTables>, table: "alert_destinations" | "alert_rules", workspace: WorkspaceId): Promise<number> {
  await lockWorkspace(tx, workspace);
  const { count } = await tx
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("workspace_id", "=", workspace)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * Locks an active destination's row for the rest of `tx` (the first thing every writer of its
 * deliveries does, so they take locks in one order), and counts what waits for it: undefined when
 * it is not active (or not of `workspace`, when given).
 */
export async function lockDestination(tx: Transaction<StoreTables>, id: string, workspace?: WorkspaceId): Promise<{ waiting: number } | undefined> {
  let update = tx
    .updateTable("alert_destinations")
    .set({ status: sql`status` })
    .where("id", "=", id)
    .where("status", "=", "active");
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
