// What an insight computation works with, as types only (context.ts makes one per key): a leaf, so
// every module of the insights can name the context, a listing's outcome and a day's entry without
// importing the modules that compute them.
import type { DataApi } from "@/lib/data-api/api";
import type { CacheStore, SharedRun, SingleFlight } from "@/lib/data-api/cache";
import type { InsightsPolicy } from "@/lib/server/context";

/**
 * A day's kept summary of one dimension, and the rows of the listing it came from that fit no day
 * or no summary (`span` names that listing, so days of one listing report them once).
 */
export type DayEntry<S> = { summary: S; unplaced?: { span: string; count: number } };

/** What a listing of a resource gave: per dimension key, its days' entries (absent: that dimension could not be summed). */
export type ListingOutcome =
  | { kind: "listed"; exact: boolean; total: number | undefined; byDimension: Map<string, Map<string, DayEntry<unknown>>> }
  | { kind: "too_large"; total: number; max: number };

/** A plan gathering visitor counts for a span (visitors.ts): its cells, whether it must list, and its shared run. */
export type PendingPlan = { cells: Set<string>; mustList: boolean; run: SharedRun<ListingOutcome | null> };

/** Work in progress for one key; promises cannot live in a shared store, so this stays in-process. */
export type KeyState = {
  /** Plans being gathered, by the span they would list (see visitors.ts). */
  plans: Map<string, PendingPlan>;
  /**
   * Listings in flight, by list and each day they cover (`visitors:<day>`), so a later request for
   * any of those days joins; each ends when it settles or when the last computation waiting for it
   * has gone.
   */
  listings: Map<string, SharedRun<ListingOutcome>>;
  /** Counts and whole answers being computed, shared by identical concurrent requests (ended likewise). */
  flights: SingleFlight;
};

export type InsightsContext = {
  api: DataApi;
  store: CacheStore;
  state: KeyState;
  policy: InsightsPolicy;
  now: () => number;
  ttl: { closedMs: number; openMs: number };
  /** The most rows one listing may read (INSIGHTS_MAX_LISTED_ROWS). */
  maxListedRows: number;
  /**
   * Aborts when nobody waits for this computation any more (its requests went away) or when the
   * part of it this context was handed to has ended: passed to every upstream call and every join.
   */
  signal?: AbortSignal;
  /** How long to keep a figure whose days end at `endMs`: hours once closed, seconds while open. */
  ttlFor: (endMs: number) => number;
};
