// The store's tables as Kysely sees them (the types of what queries read and write). The tables
// themselves are made by the migrations (migrations.ts). Types kept portable between SQLite and
// PostgreSQL: instants are epoch milliseconds (bigint in PostgreSQL, read back as numbers), JSON is
// text, flags are integers, ids are text. Every table of a workspace's data carries `workspace_id`.
/** A workspace's id: only ever made by the store (workspaces.ts), so no query gets one from elsewhere. */
export type WorkspaceId = string & { readonly __brand: "WorkspaceId" };

export type WatchingState = "off" | "on" | "paused";

export type JobState = "running" | "done" | "failed";

export interface StoreMetaTable {
  key: string;
  value: string;
}

export interface WorkspacesTable {
  id: WorkspaceId;
  created_at: number;
  /** The workspace's IANA zone for its calendar days (snapshots by day, digests). */
  time_zone: string;
  watching: WatchingState;
  paused_reason: string | null;
  /** The key kept for watching, sealed (secrets.ts); null unless watching is on or paused. */
  watch_key_sealed: string | null;
  /** The `at` of the first snapshot ever recorded, or null. */
  history_since: number | null;
}

export interface WorkspaceKeysTable {
  /** HMAC-SHA256 of the key under the store's own secret (store_meta), never the key. */
  fingerprint: string;
  workspace_id: WorkspaceId;
  key_hint: string;
  linked_at: number;
}

export interface JobsTable {
  name: string;
  /** '' for a job of the whole deployment, else what the slot is for (e.g. a workspace id). */
  scope: string;
  /** The slot's start (epoch ms). */
  slot: number;
  state: JobState;
  claimed_by: string;
  claimed_at: number;
  lease_until: number;
  attempts: number;
  finished_at: number | null;
  /** What the run said (its summary, or the error), JSON or text. */
  outcome: string | null;
}

export interface ScoreSnapshotsTable {
  workspace_id: WorkspaceId;
  /** The upstream's `updated_at` (epoch ms). */
  at: number;
  recorded_at: number;
  score: number | null;
  direction: string | null;
  change: number | null;
  visibility: number | null;
  sentiment: number | null;
  authority: number | null;
  coverage: number | null;
}

export interface RankingSnapshotsTable {
  workspace_id: WorkspaceId;
  at: number;
  recorded_at: number;
  /** JSON: the ranking's entries as read. */
  entries: string;
}

export interface DailyFiguresTable {
  workspace_id: WorkspaceId;
  /** What the figures are (e.g. `overview:30d`, `sources`, `platforms`). */
  kind: string;
  /** The calendar date `YYYY-MM-DD` in `tz`. */
  date: string;
  tz: string;
  /** JSON. */
  data: string;
  recorded_at: number;
}

export interface KeptDaysTable {
  workspace_id: WorkspaceId;
  /** What was summed: a dimension of a listing (`vd2`, `cd2`, `md2`, `qd2`) or one count (`vc:chatgpt:converted`). */
  figure: string;
  /** The day's (or counted span's) first instant and its end (epoch ms, end exclusive). */
  start_ms: number;
  end_ms: number;
  /** JSON: the figure. */
  data: string;
  /** JSON: the counts a late change would move ({"rows": 12, "converted": 3}). */
  checks: string;
  /** When it was read from the upstream. */
  kept_at: number;
  /** When the upstream last confirmed it (kept_at, or a later recheck). */
  checked_at: number;
}

export interface KeptZonesTable {
  workspace_id: WorkspaceId;
  /** An IANA zone the workspace's members read the insights in. */
  tz: string;
  /** When last. */
  read_at: number;
}

export interface AnnotationsTable {
  id: string;
  workspace_id: WorkspaceId;
  /** The first day `YYYY-MM-DD` in the workspace's zone. */
  date: string;
  /** The last day of a span (>= date), or null for one day. */
  end_date: string | null;
  text: string;
  author: string | null;
  created_at: number;
  /** Epoch ms of the last change: the version a PATCH names (a different one is a 409). */
  updated_at: number;
}

export interface SavedViewsTable {
  id: string;
  workspace_id: WorkspaceId;
  name: string;
  /** The name trimmed and lower-cased: unique per workspace. */
  name_key: string;
  /** One of the app's pages (e.g. `/visitors`). */
  path: string;
  /** JSON object of that page's own parameters. */
  query: string;
  created_at: number;
  updated_at: number;
}

/** A page shared as a read-only link (lib/store/shares.ts). */
export interface SharesTable {
  id: string;
  workspace_id: WorkspaceId;
  /** HMAC of the token under the store's fingerprint secret: how a link is found. */
  token_hash: string;
  /** The token, sealed: how members see the link again. */
  token_sealed: string;
  name: string;
  /** One of the five shareable pages (`/`, `/platforms`…). */
  path: string;
  /** JSON object of that page's own parameters. */
  query: string;
  /** scrypt's hash of the password (`scrypt$N$r$p$salt$hash`), or null without one. */
  password_hash: string | null;
  expires_at: number | null;
  opened_count: number;
  last_opened_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A read-only access token of a workspace (lib/store/tokens.ts). */
export interface TokensTable {
  id: string;
  workspace_id: WorkspaceId;
  /** HMAC of the token under the store's fingerprint secret: how a token is found, never the token. */
  token_hash: string;
  /** What lists show of it: `wa_…abcd`. */
  hint: string;
  name: string;
  expires_at: number | null;
  last_used_at: number | null;
  created_at: number;
}

export type DestinationKind = "slack" | "webhook" | "email";
/** `unconfirmed`: an e-mail address not confirmed yet; `unsubscribed`: its recipient said stop; `stopped`: the receiver refused it for good. */
export type DestinationStatus = "active" | "unconfirmed" | "unsubscribed" | "stopped";
export type RuleState = "ok" | "firing";
export type DeliveryStatus = "pending" | "sending" | "delivered" | "failed";
export type AttemptStatus = "delivered" | "retrying" | "failed";

export interface AlertDestinationsTable {
  id: string;
  workspace_id: WorkspaceId;
  kind: DestinationKind;
  name: string;
  /** The URL, sealed (secrets.ts) and bound to the destination's id. */
  url_sealed: string;
  /** What the screen shows of the URL: its origin and last characters. */
  url_hint: string;
  /** A signed webhook's `whsec_` secret, sealed; null for Slack. */
  secret_sealed: string | null;
  status: DestinationStatus;
  stopped_reason: string | null;
  created_at: number;
  /** SHA-256 (base64url) of an e-mail destination's confirmation token, until it is confirmed; null otherwise. */
  confirm_hash: string | null;
  /** SHA-256 (base64url) of an e-mail destination's unsubscribe token (the token itself sealed in `secret_sealed`). */
  unsubscribe_hash: string | null;
  confirmed_at: number | null;
  /** The instance sending to it now, the delivery it sends, and until when it holds it (one attempt's lease). */
  inflight_by: string | null;
  inflight_delivery: string | null;
  inflight_until: number | null;
  /** When a delivery to it was last claimed: the workspace's latest is its place in the turn. */
  last_claimed_at: number | null;
  /** Attempts that timed out one after another (reset by any other outcome). */
  timeouts_in_row: number;
  /** Nothing is sent to it before this instant (it timed out too often in a row), or null. */
  resting_until: number | null;
}

export interface AlertRulesTable {
  id: string;
  workspace_id: WorkspaceId;
  kind: string;
  threshold: number | null;
  destination_id: string;
  cooldown_ms: number;
  state: RuleState;
  /** JSON the next check needs (e.g. who passed us), or null. */
  detail: string | null;
  last_checked_at: number | null;
  last_changed_at: number | null;
  /** The state last sent, and when: inside the cooldown a change is kept but not sent. */
  notified_state: RuleState | null;
  notified_at: number | null;
  created_at: number;
  /** Counts the threshold's changes: checks are kept per basis and revision (a changed rule is judged again). */
  revision: number;
}

export interface AlertChecksTable {
  rule_id: string;
  /** What the check looked at: `score:<at>`, `ranking:<at>`, `day:<YYYY-MM-DD>`. */
  basis: string;
  at: number;
  state: RuleState;
  value: number | null;
  message: string;
}

export interface AlertEventsTable {
  id: string;
  workspace_id: WorkspaceId;
  /** One event per key, whoever tries to make it again (another instance, a retried job). */
  dedupe_key: string;
  type: string;
  /** JSON: the body as sent to a signed webhook. */
  body: string;
  created_at: number;
}

export interface AlertDeliveriesTable {
  id: string;
  workspace_id: WorkspaceId;
  event_id: string;
  destination_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  claimed_by: string | null;
  lease_until: number | null;
  created_at: number;
}

export interface AlertAttemptsTable {
  delivery_id: string;
  attempt: number;
  workspace_id: WorkspaceId;
  at: number;
  status: AttemptStatus;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
}

/** What was sent by hand: a test, a retry, or the weekly digest now. */
export type ManualSendKind = "test" | "retry" | "digest";
export interface AlertManualSendsTable {
  id: string;
  workspace_id: WorkspaceId;
  kind: ManualSendKind;
  at: number;
}
export interface AlertDigestsTable {
  workspace_id: WorkspaceId;
  destination_id: string;
  /** The share link (of the same workspace) whose link the digest's figures open instead of the dashboard's pages; null for none. */
  share_id: string | null;
  created_at: number;
}

export interface ActivityTable {
  id: string;
  workspace_id: WorkspaceId;
  /** When the change was made (epoch ms), strictly after the previous record of this store instance. */
  at: number;
  /** The masked key of the session that made it (`svc_sk_live_…9f2c`). */
  key_hint: string;
  /** What was done (lib/activity/actions.ts), e.g. `destination.added`. */
  action: string;
  /** What it was done to, in words (a destination's name, a rule in a sentence, a key's hint). */
  subject: string;
}

export interface StoreTables {
  store_meta: StoreMetaTable;
  workspaces: WorkspacesTable;
  workspace_keys: WorkspaceKeysTable;
  jobs: JobsTable;
  score_snapshots: ScoreSnapshotsTable;
  ranking_snapshots: RankingSnapshotsTable;
  daily_figures: DailyFiguresTable;
  kept_days: KeptDaysTable;
  kept_zones: KeptZonesTable;
  annotations: AnnotationsTable;
  saved_views: SavedViewsTable;
  alert_destinations: AlertDestinationsTable;
  alert_rules: AlertRulesTable;
  alert_checks: AlertChecksTable;
  alert_events: AlertEventsTable;
  alert_deliveries: AlertDeliveriesTable;
  alert_attempts: AlertAttemptsTable;
  alert_digests: AlertDigestsTable;
  alert_manual_sends: AlertManualSendsTable;
  activity: ActivityTable;
  shares: SharesTable;
  tokens: TokensTable;
}
