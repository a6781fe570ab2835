// The store's schema, as migrations in code: each one a step from the version before, run at start-up
// (on the first open) by Kysely's Migrator, in order and once. On PostgreSQL the Migrator holds an
// advisory lock while it runs, so instances starting together migrate once (the others wait, then
// find nothing left to do); the embedded database is opened by one process only (database.ts).
// SQL stays within what SQLite and PostgreSQL both accept: instants as epoch-ms bigints, JSON as
// text, flags as integers, ids as text, keys as composite primary keys (no serial/autoincrement).
// A migration also records its number as `schema_version` in store_meta, which /api/health reports.
// Never edit a migration that has shipped: add the next one.
import { randomBytes } from "node:crypto";
import { Migrator, SqliteAdapter, sql, type Kysely, type Migration, type MigrationProvider } from "kysely";

/** Writes the schema version into store_meta (every migration ends with it). */
async function setSchemaVersion(db: Kysely<unknown>, version: number): Promise<void> {
  await sql`update store_meta set value = ${String(version)} where key = 'schema_version'`.execute(db);
}

const migrations: Record<string, Migration> = {
  "0001_workspaces_jobs_snapshots": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("store_meta")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .execute();
      // The secret the key fingerprints are made with lives here, not in SESSION_SECRET, so rotating
      // the session secret keeps every workspace reachable by its keys.
      const fingerprintSecret = randomBytes(32).toString("base64url");
      await sql`insert into store_meta (key, value) values ('fingerprint_secret', ${fingerprintSecret}), ('schema_version', '0')`.execute(db);

      await db.schema
        .createTable("workspaces")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("time_zone", "text", (c) => c.notNull().defaultTo("UTC"))
        .addColumn("watching", "text", (c) =>
          c
            .notNull()
            .defaultTo("off")
            .check(sql`watching in ('off', 'on', 'paused')`),
        )
        .addColumn("paused_reason", "text")
        .addColumn("watch_key_sealed", "text")
        .addColumn("history_since", "bigint")
        .execute();

      await db.schema
        .createTable("workspace_keys")
        .addColumn("fingerprint", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("key_hint", "text", (c) => c.notNull())
        .addColumn("linked_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("workspace_keys_by_workspace").on("workspace_keys").column("workspace_id").execute();

      await db.schema
        .createTable("jobs")
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("scope", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("slot", "bigint", (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull().check(sql`state in ('running', 'done', 'failed')`))
        .addColumn("claimed_by", "text", (c) => c.notNull())
        .addColumn("claimed_at", "bigint", (c) => c.notNull())
        .addColumn("lease_until", "bigint", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("finished_at", "bigint")
        .addColumn("outcome", "text")
        .addPrimaryKeyConstraint("jobs_slot", ["name", "scope", "slot"])
        .execute();
      await db.schema.createIndex("jobs_by_state_lease").on("jobs").columns(["state", "lease_until"]).execute();

      await db.schema
        .createTable("score_snapshots")
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("at", "bigint", (c) => c.notNull())
        .addColumn("recorded_at", "bigint", (c) => c.notNull())
        .addColumn("score", "double precision")
        .addColumn("direction", "text")
        .addColumn("change", "double precision")
        .addColumn("visibility", "double precision")
        .addColumn("sentiment", "double precision")
        .addColumn("authority", "double precision")
        .addColumn("coverage", "double precision")
        .addPrimaryKeyConstraint("score_snapshots_at", ["workspace_id", "at"])
        .execute();

      await db.schema
        .createTable("ranking_snapshots")
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("at", "bigint", (c) => c.notNull())
        .addColumn("recorded_at", "bigint", (c) => c.notNull())
        .addColumn("entries", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("ranking_snapshots_at", ["workspace_id", "at"])
        .execute();

      await db.schema
        .createTable("daily_figures")
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("date", "text", (c) => c.notNull())
        .addColumn("tz", "text", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("recorded_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("daily_figures_day", ["workspace_id", "kind", "tz", "date"])
        .execute();

      await setSchemaVersion(db, 1);
    },
  },
  "0002_annotations_saved_views": {
    async up(db: Kysely<unknown>) {
      // A note on a day or a span of days (dates in the workspace's zone, as written: `YYYY-MM-DD`
      // compares as text in both databases). `updated_at` is the version a PATCH must name.
      await db.schema
        .createTable("annotations")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("date", "text", (c) => c.notNull())
        .addColumn("end_date", "text")
        .addColumn("text", "text", (c) => c.notNull())
        .addColumn("author", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("annotations_by_workspace_date").on("annotations").columns(["workspace_id", "date"]).execute();

      // A page and its query under a name, for the whole workspace; names are unique per workspace
      // as the user wrote them, compared without case (`name_key`).
      await db.schema
        .createTable("saved_views")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("name_key", "text", (c) => c.notNull())
        .addColumn("path", "text", (c) => c.notNull())
        .addColumn("query", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("saved_views_name", ["workspace_id", "name_key"])
        .execute();

      await setSchemaVersion(db, 2);
    },
  },
  "0003_alerts": {
    async up(db: Kysely<unknown>) {
      // Where alerts and digests go. The URL (a Slack webhook's path is its credential) and a signed
      // webhook's secret are sealed (secrets.ts), bound to the destination's id; `url_hint` is what
      // the screen shows. A receiver that answered 410 Gone is `stopped` and sent nothing more.
      await db.schema
        .createTable("alert_destinations")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('slack', 'webhook')`))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("url_sealed", "text", (c) => c.notNull())
        .addColumn("url_hint", "text", (c) => c.notNull())
        .addColumn("secret_sealed", "text")
        .addColumn("status", "text", (c) =>
          c
            .notNull()
            .defaultTo("active")
            .check(sql`status in ('active', 'stopped')`),
        )
        .addColumn("stopped_reason", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("alert_destinations_by_workspace").on("alert_destinations").column("workspace_id").execute();

      // A rule and its state. `notified_state`/`notified_at`: what was last sent and when, so a state
      // that flaps inside the cooldown is not sent again and again. `detail`: JSON the next check
      // needs (who passed us).
      await db.schema
        .createTable("alert_rules")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("threshold", "double precision")
        .addColumn("destination_id", "text", (c) => c.notNull().references("alert_destinations.id").onDelete("cascade"))
        .addColumn("cooldown_ms", "bigint", (c) => c.notNull())
        .addColumn("state", "text", (c) =>
          c
            .notNull()
            .defaultTo("ok")
            .check(sql`state in ('ok', 'firing')`),
        )
        .addColumn("detail", "text")
        .addColumn("last_checked_at", "bigint")
        .addColumn("last_changed_at", "bigint")
        .addColumn("notified_state", "text")
        .addColumn("notified_at", "bigint")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("alert_rules_by_workspace").on("alert_rules").column("workspace_id").execute();

      // Every check of a rule, once per what it looked at (`basis`: a snapshot's instant or a day):
      // the instance whose insert makes the row is the one that acts on it.
      await db.schema
        .createTable("alert_checks")
        .addColumn("rule_id", "text", (c) => c.notNull().references("alert_rules.id").onDelete("cascade"))
        .addColumn("basis", "text", (c) => c.notNull())
        .addColumn("at", "bigint", (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("value", "double precision")
        .addColumn("message", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("alert_checks_basis", ["rule_id", "basis"])
        .execute();

      // What was to be said (the body as sent), once per `dedupe_key`, and its delivery to each
      // destination: claimed by one instance at a time (`lease_until`), every attempt kept.
      await db.schema
        .createTable("alert_events")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("dedupe_key", "text", (c) => c.notNull().unique())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("alert_deliveries")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("event_id", "text", (c) => c.notNull().references("alert_events.id").onDelete("cascade"))
        .addColumn("destination_id", "text", (c) => c.notNull().references("alert_destinations.id").onDelete("cascade"))
        .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'sending', 'delivered', 'failed')`))
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", "bigint")
        .addColumn("claimed_by", "text")
        .addColumn("lease_until", "bigint")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("alert_deliveries_once", ["event_id", "destination_id"])
        .execute();
      await db.schema.createIndex("alert_deliveries_due").on("alert_deliveries").columns(["status", "next_attempt_at"]).execute();
      await db.schema
        .createTable("alert_attempts")
        .addColumn("delivery_id", "text", (c) => c.notNull().references("alert_deliveries.id").onDelete("cascade"))
        .addColumn("attempt", "integer", (c) => c.notNull())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("at", "bigint", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('delivered', 'retrying', 'failed')`))
        .addColumn("response_status", "integer")
        .addColumn("error", "text")
        .addColumn("duration_ms", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("alert_attempts_key", ["delivery_id", "attempt"])
        .execute();
      await db.schema.createIndex("alert_attempts_by_workspace").on("alert_attempts").columns(["workspace_id", "at"]).execute();

      // The weekly digest: one destination per workspace, or none (never).
      await db.schema
        .createTable("alert_digests")
        .addColumn("workspace_id", "text", (c) => c.primaryKey().references("workspaces.id").onDelete("cascade"))
        .addColumn("destination_id", "text", (c) => c.notNull().references("alert_destinations.id").onDelete("cascade"))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();

      await setSchemaVersion(db, 3);
    },
  },
  "0004_activity": {
    async up(db: Kysely<unknown>) {
      // Who changed what in a workspace (watching, keys, destinations, rules, the digest, shares,
      // tokens): newest first by `at`, then `id`; bounded per workspace by the store (activity.ts).
      await db.schema
        .createTable("activity")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("at", "bigint", (c) => c.notNull())
        .addColumn("key_hint", "text", (c) => c.notNull())
        .addColumn("action", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("activity_by_workspace_at").on("activity").columns(["workspace_id", "at"]).execute();
      // Housekeeping forgets what is older than 90 days, in every workspace at once.
      await db.schema.createIndex("activity_by_at").on("activity").column("at").execute();

      await setSchemaVersion(db, 4);
    },
  },
  "0005_alert_sending": {
    async up(db: Kysely<unknown>) {
      // Sending, one request at a time per destination across instances: a destination is held
      // (`inflight_*`) by the instance sending one of its deliveries, for that attempt's lease only.
      // `last_claimed_at` gives workspaces their turn (of those with as few sends going on, the one
      // served longest ago goes first); a destination that timed out REST_AFTER_TIMEOUTS times in a
      // row rests until `resting_until`.
      await db.schema.alterTable("alert_destinations").addColumn("inflight_by", "text").execute();
      await db.schema.alterTable("alert_destinations").addColumn("inflight_delivery", "text").execute();
      await db.schema.alterTable("alert_destinations").addColumn("inflight_until", "bigint").execute();
      await db.schema.alterTable("alert_destinations").addColumn("last_claimed_at", "bigint").execute();
      await db.schema
        .alterTable("alert_destinations")
        .addColumn("timeouts_in_row", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable("alert_destinations").addColumn("resting_until", "bigint").execute();
      // A destination's next due delivery, and how many wait for it (the bound), without a scan.
      await db.schema.createIndex("alert_deliveries_by_destination").on("alert_deliveries").columns(["destination_id", "status", "next_attempt_at"]).execute();

      // "Send a test" and "Retry" by hand, for the per-workspace limit a minute (a sliding window).
      await db.schema
        .createTable("alert_manual_sends")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('test', 'retry')`))
        .addColumn("at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("alert_manual_sends_by_workspace").on("alert_manual_sends").columns(["workspace_id", "at"]).execute();

      await setSchemaVersion(db, 5);
    },
  },
  "0006_alert_rule_edits_digest_sends": {
    async up(db: Kysely<unknown>) {
      // A rule's threshold can be changed: each change counts up `revision`, and a check is kept per
      // basis and revision, so the rule is judged again, under its new threshold, against the
      // snapshot or day it was last judged on (a check under the old one cannot overwrite the state).
      await db.schema
        .alterTable("alert_rules")
        .addColumn("revision", "integer", (c) => c.notNull().defaultTo(0))
        .execute();

      // The digest's "Send now" counts against the same 10 a minute as a test and a retry. The rows
      // count for a minute only, so the table is made again with the kind admitted rather than
      // altered (SQLite cannot change a check constraint).
      await db.schema.dropTable("alert_manual_sends").execute();
      await db.schema
        .createTable("alert_manual_sends")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('test', 'retry', 'digest')`))
        .addColumn("at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("alert_manual_sends_by_workspace").on("alert_manual_sends").columns(["workspace_id", "at"]).execute();

      await setSchemaVersion(db, 6);
    },
  },
  "0007_kept_days": {
    async up(db: Kysely<unknown>) {
      // The insights' figures of closed days, kept per workspace so a range read once answers its
      // closed days from here after a restart and on every instance (lib/store/kept-days.ts). A day is
      // named by its instants (its first and its end, which its zone and date decide); `figure` is
      // what was summed (a dimension of a listing, or one count); `checks` the counts a late change
      // would move, compared by the recheck of a day younger than a week.
      await db.schema
        .createTable("kept_days")
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("figure", "text", (c) => c.notNull())
        .addColumn("start_ms", "bigint", (c) => c.notNull())
        .addColumn("end_ms", "bigint", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("checks", "text", (c) => c.notNull())
        .addColumn("kept_at", "bigint", (c) => c.notNull())
        .addColumn("checked_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("kept_days_day", ["workspace_id", "figure", "start_ms", "end_ms"])
        .execute();
      // The zones a workspace's members read the insights in, and when last: the daily collection of
      // a watched workspace keeps yesterday's days in each of them.
      await db.schema
        .createTable("kept_zones")
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("tz", "text", (c) => c.notNull())
        .addColumn("read_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("kept_zones_zone", ["workspace_id", "tz"])
        .execute();

      await setSchemaVersion(db, 7);
    },
  },
  "0008_shares": {
    async up(db: Kysely<unknown>) {
      // A page of the app shared as a read-only link (lib/store/shares.ts). The token is never kept in
      // clear: `token_hash` (an HMAC under the store's fingerprint secret) finds the link, and
      // `token_sealed` shows it to members again. `password_hash` is scrypt's, with its salt and costs.
      await db.schema
        .createTable("shares")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("token_sealed", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("path", "text", (c) => c.notNull())
        .addColumn("query", "text", (c) => c.notNull())
        .addColumn("password_hash", "text")
        .addColumn("expires_at", "bigint")
        .addColumn("opened_count", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("last_opened_at", "bigint")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("shares_by_workspace").on("shares").columns(["workspace_id", "created_at"]).execute();

      await setSchemaVersion(db, 8);
    },
  },
  "0009_tokens": {
    async up(db: Kysely<unknown>) {
      // Read-only access tokens (lib/store/tokens.ts). A token is never kept in clear: `token_hash`
      // (an HMAC under the store's fingerprint secret) finds it; `hint` is what lists show (`wa_…abcd`).
      await db.schema
        .createTable("tokens")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("hint", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("expires_at", "bigint")
        .addColumn("last_used_at", "bigint")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("tokens_by_workspace").on("tokens").columns(["workspace_id", "created_at"]).execute();

      await setSchemaVersion(db, 9);
    },
  },
  "0010_email_destinations": {
    async up(db: Kysely<unknown>) {
      // E-mail destinations (lib/store/alerts/destinations.ts): kind `email`, and two more statuses,
      // `unconfirmed` (nothing but the confirmation is sent) and `unsubscribed` (its recipient said
      // stop). The address is sealed in `url_sealed` as a URL is, its hint in `url_hint`; the
      // unsubscribe token, needed in every message, is sealed in `secret_sealed` (an e-mail has no
      // signing secret); `confirm_hash` and `unsubscribe_hash` (SHA-256 of the tokens) find the
      // destination from a link; neither token is kept in clear.
      if (db.getExecutor().adapter instanceof SqliteAdapter) {
        // SQLite cannot change a check constraint, and dropping the table would delete what refers to
        // it (foreign keys are on, and cannot be turned off inside the migration's transaction): the
        // destinations and everything under them are copied aside, the table made again with the
        // new checks, and all of it put back, every column by name.
        const tables = ["alert_destinations", "alert_rules", "alert_checks", "alert_deliveries", "alert_attempts", "alert_digests"] as const;
        for (const t of tables) await sql`create table ${sql.raw(`${t}_0009`)} as select * from ${sql.table(t)}`.execute(db);
        await db.schema.dropTable("alert_destinations").execute();
        await db.schema
          .createTable("alert_destinations")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
          .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('slack', 'webhook', 'email')`))
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("url_sealed", "text", (c) => c.notNull())
          .addColumn("url_hint", "text", (c) => c.notNull())
          .addColumn("secret_sealed", "text")
          .addColumn("status", "text", (c) =>
            c
              .notNull()
              .defaultTo("active")
              .check(sql`status in ('active', 'unconfirmed', 'unsubscribed', 'stopped')`),
          )
          .addColumn("stopped_reason", "text")
          .addColumn("created_at", "bigint", (c) => c.notNull())
          .addColumn("inflight_by", "text")
          .addColumn("inflight_delivery", "text")
          .addColumn("inflight_until", "bigint")
          .addColumn("last_claimed_at", "bigint")
          .addColumn("timeouts_in_row", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("resting_until", "bigint")
          .execute();
        await db.schema.createIndex("alert_destinations_by_workspace").on("alert_destinations").column("workspace_id").execute();
        for (const t of tables) {
          const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${`${t}_0009`})`.execute(db);
          const columns = sql.join(rows.map((r) => sql.ref(r.name)));
          // The copies of the tables under the destinations are what was deleted with them: put back in order.
          if (t !== "alert_destinations") await sql`delete from ${sql.table(t)}`.execute(db);
          await sql`insert into ${sql.table(t)} (${columns}) select ${columns} from ${sql.raw(`${t}_0009`)}`.execute(db);
          await sql`drop table ${sql.raw(`${t}_0009`)}`.execute(db);
        }
      } else {
        await sql`alter table alert_destinations drop constraint alert_destinations_kind_check`.execute(db);
        await sql`alter table alert_destinations add constraint alert_destinations_kind_check check (kind in ('slack', 'webhook', 'email'))`.execute(db);
        await sql`alter table alert_destinations drop constraint alert_destinations_status_check`.execute(db);
        await sql`alter table alert_destinations add constraint alert_destinations_status_check check (status in ('active', 'unconfirmed', 'unsubscribed', 'stopped'))`.execute(
          db,
        );
      }
      await db.schema.alterTable("alert_destinations").addColumn("confirm_hash", "text").execute();
      await db.schema.alterTable("alert_destinations").addColumn("unsubscribe_hash", "text").execute();
      await db.schema.alterTable("alert_destinations").addColumn("confirmed_at", "bigint").execute();
      await db.schema.createIndex("alert_destinations_confirm").on("alert_destinations").column("confirm_hash").unique().execute();
      await db.schema.createIndex("alert_destinations_unsubscribe").on("alert_destinations").column("unsubscribe_hash").unique().execute();
      // The share link the weekly digest's links open (lib/store/alerts/digest.ts), for recipients
      // without a key: revoking the link drops the choice, the digest stays.
      await db.schema
        .alterTable("alert_digests")
        .addColumn("share_id", "text", (c) => c.references("shares.id").onDelete("set null"))
        .execute();

      await setSchemaVersion(db, 10);
    },
  },
};

/** The schema version this code migrates to: the number of its last migration (a number may be missing). */
export const SCHEMA_VERSION = Math.max(...Object.keys(migrations).map((name) => Number(name.slice(0, 4))));

const provider: MigrationProvider = { getMigrations: async () => migrations };

export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MigrationError";
  }
}

/** Runs the migrations up to `name` and no further (tests of a migration against the schema before it). */
export async function migrateUpTo(db: Kysely<unknown>, name: string): Promise<void> {
  const migrator = new Migrator({ db, provider, migrationTableName: "store_migrations", migrationLockTableName: "store_migrations_lock" });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error;
}

/**
 * Brings the database to SCHEMA_VERSION (a no-op when it is there) and returns the version it is at.
 * A database migrated by a newer version of the dashboard (a migration this code does not know) is
 * refused with a message saying so, rather than run against tables it does not understand.
 */
export async function migrate(db: Kysely<unknown>): Promise<number> {
  // A start on an up-to-date database (every start but the first after an upgrade) reads one row
  // instead of running the Migrator, whose catalogue introspection costs ~10 round trips.
  const found = await schemaVersion(db);
  if (found === SCHEMA_VERSION) return found;
  if (found !== undefined && found > SCHEMA_VERSION) {
    throw new MigrationError(
      `the database is at schema ${found}, made by a newer version of the dashboard (this one knows up to schema ${SCHEMA_VERSION}): run the newer version`,
    );
  }
  const migrator = new Migrator({ db, provider, migrationTableName: "store_migrations", migrationLockTableName: "store_migrations_lock" });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const message = error instanceof Error ? error.message : String(error);
    const unknown = /previously executed migration (\S+) is missing/.exec(message)?.[1];
    if (unknown) {
      throw new MigrationError(
        `the database was migrated by a newer version of the dashboard (it has migration ${unknown}, this version knows up to schema ${SCHEMA_VERSION}): run the newer version`,
        { cause: error },
      );
    }
    const failed = results?.find((r) => r.status === "Error")?.migrationName;
    throw new MigrationError(`migration ${failed ?? "(setting up)"} failed: ${message}`, { cause: error });
  }
  return (await schemaVersion(db)) ?? 0;
}

/** The version store_meta records, or undefined before the first migration (no such table yet). */
async function schemaVersion(db: Kysely<unknown>): Promise<number | undefined> {
  try {
    const { rows } = await sql<{ value: string }>`select value from store_meta where key = 'schema_version'`.execute(db);
    return rows[0] ? Number(rows[0].value) : undefined;
  } catch {
    return undefined;
  }
}
