// Alert destinations: where alerts go, their URL and signing secret sealed (sealed.ts) and opened only
// for sending; at most MAX_DESTINATIONS per workspace; a receiver that answers 410 stops its destination.
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import { StoreLimitError } from "../errors";
import type { AlertDestinationsTable, DestinationKind, WorkspaceId } from "../schema";
import { SEALED } from "../sealed";
import { MAX_DESTINATIONS, newId, toDestination, clip, countLocked, type Destination, type OpenDestination, type AlertsDeps } from "./shared";

export function destinationQueries(deps: AlertsDeps) {
  const { db } = deps;

  async function open(row: Selectable<AlertDestinationsTable>): Promise<OpenDestination> {
    const url = await deps.sealed.open(SEALED.destinationUrl, row.id, row.url_sealed);
    const secret = row.secret_sealed === null ? null : await deps.sealed.open(SEALED.destinationSecret, row.id, row.secret_sealed);
    return { ...toDestination(row, deps.now()), workspaceId: row.workspace_id, url, secret };
  }

  return {
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
    async createDestination(
      workspace: WorkspaceId,
      input: { kind: DestinationKind; name: string; url: string; urlHint: string; secret: string | null },
    ): Promise<Destination> {
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
        confirm_hash: null,
        unsubscribe_hash: null,
        confirmed_at: null,
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

    /**
     * Keeps an e-mail destination, `unconfirmed` (nothing but its confirmation is sent): the address
     * sealed as a URL is, the unsubscribe token sealed as a secret is, and both tokens' hashes to find
     * it from a link. Answers the tokens, in clear this once (the confirmation e-mail carries both).
     */
    async createEmailDestination(
      workspace: WorkspaceId,
      input: { name: string; to: string; toHint: string },
    ): Promise<{ destination: Destination; confirmToken: string; unsubscribeToken: string }> {
      const id = newId("dst");
      const confirmToken = linkToken();
      const unsubscribeToken = linkToken();
      const values = {
        id,
        workspace_id: workspace,
        kind: "email" as const,
        name: input.name,
        url_sealed: deps.sealed.seal(SEALED.destinationUrl, id, input.to),
        url_hint: input.toHint,
        secret_sealed: deps.sealed.seal(SEALED.destinationSecret, id, unsubscribeToken),
        status: "unconfirmed" as const,
        stopped_reason: null,
        created_at: deps.now(),
        confirm_hash: tokenHash(confirmToken),
        unsubscribe_hash: tokenHash(unsubscribeToken),
        confirmed_at: null,
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
      return { destination: toDestination(row, deps.now()), confirmToken, unsubscribeToken };
    },

    /** The e-mail destination a link's token names (`which`: the confirmation's or the unsubscribe's), or undefined. */
    async destinationByToken(which: "confirm" | "unsubscribe", token: string): Promise<Destination | undefined> {
      if (!isLinkToken(token)) return undefined;
      const row = await db
        .selectFrom("alert_destinations")
        .selectAll()
        .where(which === "confirm" ? "confirm_hash" : "unsubscribe_hash", "=", tokenHash(token))
        .where("kind", "=", "email")
        .executeTakeFirst();
      return row ? toDestination(row, deps.now()) : undefined;
    },

    /**
     * Confirms the e-mail destination of a confirmation token: `active` from now on, the token spent.
     * Undefined when no unconfirmed destination has it (spent, deleted, or never made). With its
     * workspace, for the activity list.
     */
    async confirmEmail(token: string): Promise<(Destination & { workspaceId: WorkspaceId }) | undefined> {
      if (!isLinkToken(token)) return undefined;
      const row = await db
        .updateTable("alert_destinations")
        .set({ status: "active", confirm_hash: null, confirmed_at: deps.now() })
        .where("confirm_hash", "=", tokenHash(token))
        .where("kind", "=", "email")
        .where("status", "=", "unconfirmed")
        .returningAll()
        .executeTakeFirst();
      return row ? { ...toDestination(row, deps.now()), workspaceId: row.workspace_id as WorkspaceId } : undefined;
    },

    /**
     * Unsubscribes the e-mail destination of an unsubscribe token: nothing more is sent there (what
     * waited fails, saying so). The same answer again for a destination already unsubscribed;
     * undefined when no destination has the token. With its workspace and whether this call changed
     * it (false the second time), for the activity list.
     */
    async unsubscribeEmail(token: string): Promise<(Destination & { workspaceId: WorkspaceId; changed: boolean }) | undefined> {
      if (!isLinkToken(token)) return undefined;
      return db.transaction().execute(async (tx) => {
        const before = await tx
          .selectFrom("alert_destinations")
          .select("status")
          .where("unsubscribe_hash", "=", tokenHash(token))
          .where("kind", "=", "email")
          .executeTakeFirst();
        if (!before) return undefined;
        const row = await tx
          .updateTable("alert_destinations")
          .set({ status: "unsubscribed", confirm_hash: null, stopped_reason: "Its recipient unsubscribed: nothing more is sent there." })
          .where("unsubscribe_hash", "=", tokenHash(token))
          .where("kind", "=", "email")
          .returningAll()
          .executeTakeFirst();
        if (!row) return undefined;
        await tx
          .updateTable("alert_deliveries")
          .set({ status: "failed", next_attempt_at: null, lease_until: null, claimed_by: null })
          .where("destination_id", "=", row.id)
          .where("status", "=", "pending")
          .execute();
        return { ...toDestination(row, deps.now()), workspaceId: row.workspace_id as WorkspaceId, changed: before.status !== "unsubscribed" };
      });
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
        await tx
          .updateTable("alert_destinations")
          .set({ status: "stopped", stopped_reason: clip(reason, 500) })
          .where("id", "=", id)
          .execute();
        await tx
          .updateTable("alert_deliveries")
          .set({ status: "failed", next_attempt_at: null, lease_until: null, claimed_by: null })
          .where("destination_id", "=", id)
          .where("status", "=", "pending")
          .execute();
      });
    },
  };
}

/** A link's token: 32 random bytes, base64url (43 characters). */
const linkToken = () => randomBytes(32).toString("base64url");
const isLinkToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);
/** What is kept of a link's token: its SHA-256 (the token is random, so no salt or slow hash is needed). */
const tokenHash = (token: string) => createHash("sha256").update(token).digest("base64url");
