// Where a running or finished export can be looked up by id: rows written, total, unreadable rows
// (with request ids), outcome. The browser reads it through GET /api/export/status?id=… (e.g. to say
// "3 rows could not be read" once a download ends). Entries are scoped to the API key that started
// the export (a keyed hash, never the key), bounded in number, and expire: running ones a day after
// their last update, finished ones after an hour. The store is an interface so a shared store
// (Redis) can back it when several instances run.
import "server-only";
import { randomBytes } from "node:crypto";
import { TtlMap } from "@/lib/ttl-map";

export type ExportState = "running" | "complete" | "failed" | "cancelled";

/** The status as the browser gets it (snake_case, like the Data API and the error shape). */
export type ExportStatus = {
  id: string;
  resource: string;
  format: string;
  state: ExportState;
  rows_written: number;
  /** Rows the export holds (the upstream's meta.total), null when the upstream gave none. */
  total: number | null;
  unreadable: { count: number; request_ids: string[] };
  error?: { code: string; message: string; request_id?: string };
  started_at: string;
  updated_at: string;
};

export interface ExportStatusStore {
  put(owner: string, status: ExportStatus, ttlMs: number): Promise<void>;
  get(owner: string, id: string): Promise<ExportStatus | undefined>;
}

export const RUNNING_TTL_MS = 24 * 3600_000;
export const FINISHED_TTL_MS = 3600_000;

/**
 * In-process store. When full, expired entries go first, then finished ones, oldest first; running
 * ones only as a last resort (a download in progress keeps its status).
 */
export class MemoryExportStatusStore implements ExportStatusStore {
  private readonly entries: TtlMap<ExportStatus>;

  constructor(maxEntries = 5000, now: () => number = Date.now) {
    this.entries = new TtlMap({ maxEntries, now, evictFirst: (status) => status.state !== "running" });
  }

  async put(owner: string, status: ExportStatus, ttlMs: number): Promise<void> {
    this.entries.set(`${owner}:${status.id}`, status, ttlMs);
  }

  async get(owner: string, id: string): Promise<ExportStatus | undefined> {
    return this.entries.get(`${owner}:${id}`);
  }

  get size(): number {
    return this.entries.size;
  }
}

export const EXPORT_ID_PATTERN = /^exp_[A-Za-z0-9_-]{22}$/;

export function newExportId(): string {
  return `exp_${randomBytes(16).toString("base64url")}`;
}
