// What an insight computation works with, as types only (context.ts makes one per key): a leaf, so
// every module of the insights can name the context, a listing's outcome and a day's entry without
// importing the modules that compute them.
import type { CallOptions, DataApi } from "@/lib/data-api/api";
import type { CacheStore, SharedRun, SingleFlight } from "@/lib/data-api/cache";
import type { ListEnvelope } from "@/lib/data-api/schemas";
import type { InsightsPolicy } from "@/lib/server/context";
import type { KeptDay, KeptDayWrite, KeptSpan } from "@/lib/store/kept-days";

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

/**
 * The kept days of the workspace a key opens (the store's kept-days.ts), as the insights use them
 * (kept.ts): a failing store reads as nothing kept and keeps nothing, said in the log, never an
 * answer's failure.
 */
export type KeptAccess = {
  read(figures: readonly string[], spans: readonly KeptSpan[]): Promise<Map<string, Map<string, KeptDay>>>;
  keep(days: readonly KeptDayWrite[]): Promise<void>;
  confirm(figures: readonly string[], spans: readonly KeptSpan[]): Promise<void>;
  /** Notes that the insights were read in `tz` (the zones watching keeps yesterday's days in). */
  noteZone(tz: string): Promise<void>;
  /** How long a kept day younger than a week is trusted before it is checked again (DAY_RECHECK_MINUTES). */
  recheckMs: number;
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
  /** The workspace's kept days (kept.ts); undefined where they are off. */
  kept?: KeptAccess;
};

/**
 * A count a late change to a kept day would move (kept.ts): the list filtered by `filter` counts
 * the rows of a span for which `holds` is true. A listing counts them per day as it folds.
 */
export type DayCheck<Row> = { name: string; filter?: "converted"; holds: (row: Row) => boolean };

/** A Data API list the insights read, and the field that puts one of its rows in a day. */
export type ListedResource<Row> = {
  /** "visitors", "mentions": for messages. */
  noun: string;
  page: (api: DataApi, query: { from: string; to: string; limit: number; offset: number }, options: CallOptions) => Promise<ListEnvelope<Row>>;
  /** The instant that places a row in its day; undefined when it has none readable. */
  placedAt: (row: Row) => string | undefined;
  /** What a kept day of this list is checked with: the counts first (one call each), cheapest first. */
  checks: ReadonlyArray<DayCheck<Row>>;
  /** `meta.total` of the list over [from, to] (inclusive `to`), filtered by `filter`: one call with limit=1. */
  count: (api: DataApi, query: { from: string; to: string; filter?: "converted" }, options: CallOptions) => Promise<number | undefined>;
};

/**
 * How a listing's rows become one summary per day (the pluggable part of the pipeline): a day's
 * tally while rows arrive (`Tally`), and what is kept of it (`Summary`, JSON for the store).
 */
export type DaySummariser<Row, Tally, Summary = Tally> = {
  resource: ListedResource<Row>;
  /** A day with nothing in it yet. */
  empty: () => Tally;
  // Method syntax: a summariser of its own tally type is one of `DaySummariser<Row, unknown>` (a
  // listing hands each summariser only the tallies it made).
  /** Folds a row placed in this day into its tally; false when the row cannot be summed exactly. */
  add(day: Tally, row: Row): boolean;
  /** The day's summary once every row is in. */
  finish(day: Tally): Summary;
  /**
   * Whether one row that cannot be placed or summed (or an unreadable item) spoils the whole
   * listing, which then stops at once (visitors: counting answers instead, exactly); otherwise such
   * rows are counted as `unplaced` and reported (mentions: there is nothing else to count them with).
   */
  strict: boolean;
};

/**
 * A summariser whose day summaries are kept: `key` prefixes them in the insights store. Every
 * dimension of a resource is folded by every listing of that resource (dimensions.ts).
 */
export type Dimension<Row, Tally = unknown, Summary = unknown> = DaySummariser<Row, Tally, Summary> & { key: string };
