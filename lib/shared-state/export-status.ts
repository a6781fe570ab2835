// Where exports are registered while they run and kept for a while after: rows written, total,
// bytes, state (running, waiting for the rate limit, complete, failed with the request id,
// cancelled), and a cancel request that the export picks up between pages. The exports tray reads it
// through GET /api/export/status (one id, or the session's recent exports) and asks for a cancel
// through POST /api/export/cancel; the export itself writes it as it streams.
//
// Everything behind `ExportStatusStore` is async and JSON only, so a shared store (Redis, when several
// instances run) implements it as it is: records are plain objects, times ISO strings. Entries are
// scoped to the API key (a keyed hash, never the key), bounded per key and in all, and expire: an
// hour after their last write. A running export writes at least every few seconds; one whose
// instance stopped stops writing and is then shown as lost, and no longer counts as running.
import "server-only";
import { randomBytes } from "node:crypto";
import { TtlMap } from "@/lib/ttl-map";

export type ExportState = "running" | "waiting" | "complete" | "failed" | "cancelled";

/** What the store keeps about one export. */
export type ExportRecord = {
  id: string;
  /** A keyed hash of the session that started it: the tray lists its own session's exports. Never sent to the browser. */
  session: string;
  resource: string;
  format: string;
  /** The download's file name, as in its Content-Disposition. */
  filename: string;
  state: ExportState;
  rows_written: number;
  /** Rows the export holds (the upstream's meta.total), null when the upstream gave none or before the first page. */
  total: number | null;
  /** Bytes of the file sent so far. */
  bytes: number;
  unreadable: { count: number; request_ids: string[] };
  /** While waiting for the rate limit: when the next page may go (ISO). */
  wait_until?: string;
  /** While running or waiting: when it should end, by the key's rate limit and its pace so far (ISO). */
  estimated_end?: string;
  error?: { code: string; message: string; request_id?: string };
  started_at: string;
  updated_at: string;
};

/**
 * The status as the browser gets it (snake_case, like the Data API and the error shape): the record
 * without its session, and the waits as seconds from the moment of the answer, so the tray counts
 * them down without comparing clocks.
 */
export type ExportStatus = Omit<ExportRecord, "session" | "wait_until" | "estimated_end"> & {
  /** Seconds until the next page may go, while waiting for the rate limit. */
  wait_seconds?: number;
  /** Seconds the export should still take, while running or waiting. */
  seconds_left?: number;
};

export type BeginResult = "started" | "exists" | "busy";

export interface ExportStatusStore {
  /**
   * Registers a new export (state running) unless the owner already has an export with its id
   * ("exists") or `maxRunning` of the owner's exports are running or waiting and written within
   * `freshSince` (ISO; older ones are lost) ("busy"). Check and write are one step: two exports
   * started at once cannot both take the last place.
   */
  begin(owner: string, record: ExportRecord, options: { maxRunning: number; freshSince: string; ttlMs: number }): Promise<BeginResult>;
  /** Writes an export's record (progress, outcome), for `ttlMs` from now. */
  put(owner: string, record: ExportRecord, ttlMs: number): Promise<void>;
  get(owner: string, id: string): Promise<ExportRecord | undefined>;
  /** The owner's exports, newest first (at most MAX_EXPORTS_PER_OWNER). */
  list(owner: string): Promise<ExportRecord[]>;
  /** Asks the export to stop; whichever instance runs it sees this at its next check. */
  requestCancel(owner: string, id: string, ttlMs: number): Promise<void>;
  isCancelRequested(owner: string, id: string): Promise<boolean>;
}

/** How long a record is kept after its last write. */
export const EXPORT_TTL_MS = 3600_000;
/** A running export writes its record at least this often, so others can tell it still runs. */
export const HEARTBEAT_MS = 5_000;
/** A running record not written for this long belongs to an instance that stopped. */
export const STALE_MS = 30_000;
/** Records kept per key: the running ones and the most recent finished ones. */
export const MAX_EXPORTS_PER_OWNER = 20;
/** Exports of one key that may run at once; one more is refused with 429. */
export const MAX_RUNNING_EXPORTS = 3;

export const isActive = (state: ExportState) => state === "running" || state === "waiting";

/** What the browser is told about a record at `now` (ms): lost ones as failed, waits as seconds left. */
export function statusOf(record: ExportRecord, now: number): ExportStatus {
  const { session: _session, wait_until, estimated_end, ...rest } = record;
  if (isActive(record.state) && Date.parse(record.updated_at) < now - STALE_MS) {
    return {
      ...rest,
      state: "failed",
      error: { code: "export_lost", message: "The server running this export stopped; the download did not complete. Start it again." },
    };
  }
  const secondsFrom = (iso: string | undefined) => (iso === undefined ? undefined : Math.max(0, Math.ceil((Date.parse(iso) - now) / 1000)));
  const wait = record.state === "waiting" ? secondsFrom(wait_until) : undefined;
  const left = isActive(record.state) ? secondsFrom(estimated_end) : undefined;
  return { ...rest, ...(wait === undefined ? {} : { wait_seconds: wait }), ...(left === undefined ? {} : { seconds_left: left }) };
}

/**
 * In-process store: per key a bounded map of records (finished ones give way first, running ones
 * only as a last resort), at most `maxOwners` keys (keys with nothing running give way first).
 */
export class MemoryExportStatusStore implements ExportStatusStore {
  private readonly owners: TtlMap<TtlMap<ExportRecord>>;
  private readonly cancels: TtlMap<true>;

  constructor(
    private readonly maxOwners = 5000,
    private readonly now: () => number = Date.now,
  ) {
    this.owners = new TtlMap({ maxEntries: maxOwners, now, evictFirst: (records) => records.size === 0 || !this.hasActive(records) });
    this.cancels = new TtlMap({ maxEntries: maxOwners * 4, now });
  }

  async begin(owner: string, record: ExportRecord, options: { maxRunning: number; freshSince: string; ttlMs: number }): Promise<BeginResult> {
    const records = this.owners.get(owner);
    if (records?.get(record.id)) return "exists";
    const fresh = Date.parse(options.freshSince);
    const running = records ? this.values(records).filter((r) => isActive(r.state) && Date.parse(r.updated_at) >= fresh).length : 0;
    if (running >= options.maxRunning) return "busy";
    this.write(owner, record, options.ttlMs);
    return "started";
  }

  async put(owner: string, record: ExportRecord, ttlMs: number): Promise<void> {
    this.write(owner, record, ttlMs);
  }

  async get(owner: string, id: string): Promise<ExportRecord | undefined> {
    return this.owners.get(owner)?.get(id);
  }

  async list(owner: string): Promise<ExportRecord[]> {
    const records = this.owners.get(owner);
    return records ? this.values(records).sort((a, b) => b.started_at.localeCompare(a.started_at)) : [];
  }

  async requestCancel(owner: string, id: string, ttlMs: number): Promise<void> {
    this.cancels.set(`${owner}:${id}`, true, ttlMs);
  }

  async isCancelRequested(owner: string, id: string): Promise<boolean> {
    return this.cancels.get(`${owner}:${id}`) === true;
  }

  private write(owner: string, record: ExportRecord, ttlMs: number): void {
    let records = this.owners.get(owner);
    if (!records) {
      records = new TtlMap<ExportRecord>({ maxEntries: MAX_EXPORTS_PER_OWNER, now: this.now, evictFirst: (r) => !isActive(r.state) });
    }
    records.set(record.id, record, ttlMs);
    // The key's entry lives as long as its newest record.
    this.owners.set(owner, records, ttlMs);
  }

  private values(records: TtlMap<ExportRecord>): ExportRecord[] {
    return records.keys().flatMap((id) => {
      const record = records.get(id);
      return record ? [record] : [];
    });
  }

  private hasActive(records: TtlMap<ExportRecord>): boolean {
    return this.values(records).some((r) => isActive(r.state));
  }
}

export const EXPORT_ID_PATTERN = /^exp_[A-Za-z0-9_-]{22}$/;

export function newExportId(): string {
  return `exp_${randomBytes(16).toString("base64url")}`;
}
