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

export interface StoreTables {
  store_meta: StoreMetaTable;
  workspaces: WorkspacesTable;
  workspace_keys: WorkspaceKeysTable;
  jobs: JobsTable;
  score_snapshots: ScoreSnapshotsTable;
  ranking_snapshots: RankingSnapshotsTable;
  daily_figures: DailyFiguresTable;
  annotations: AnnotationsTable;
  saved_views: SavedViewsTable;
}
