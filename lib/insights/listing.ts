// The one listing pipeline of the insights: every row of a span of days read from a Data API list
// (pages of 100) and folded, page by page as each arrives, into one summary per day by each of the
// list's pluggable summarisers, its *dimensions* (dimensions.ts: visitors by source, by country;
// mentions by platform and competitor, by query). One listing folds every row into all of them and
// stores each one's days, so a new dimension is a summariser registered there, plus its route.
// What the pipeline guarantees, whatever the upstream claims:
// - bounded: a listing whose `meta.total` is over the cap (INSIGHTS_MAX_LISTED_ROWS) is refused on
//   its first page, before anything else is planned; offsets are made one at a time as a worker of
//   the bounded pool is free, and rows are folded and dropped, so memory holds the day summaries,
//   the ids seen (at most the total, itself under the cap) and the pages in flight;
// - exact or said not to be: rows are deduplicated by id and checked against `meta.total` (the same
//   on every page, unique rows plus unreadable items adding up to it), so a listing that moved under
//   us (rows inserted or reordered between pages) is detected rather than summed;
// - cancellable: every call carries the computation's signal; an abort or the first failure stops
//   the pool at once (nothing more is pulled, the calls in flight are aborted).
// Its core, `readListing` (every page of one list, each row handed on once with its place in the
// list), also reads the lists the dashboard filters itself (lib/lists), under the same cap.
// Also the bits the listings share: day lookup, the stored day summaries (a `DayEntry` per day and
// dimension), and listings in flight that later requests for any of their days join (a shared run,
// ended when its last waiter leaves).
import "server-only";
import { SharedRun, withScope } from "@/lib/data-api/cache";
import { PAGE_SIZE_MAX } from "@/lib/data-api/constants";
import type { ListEnvelope, Mention, Visitor } from "@/lib/data-api/schemas";
import { keepListed, readKeptDays, type KeptDimension } from "./kept";
import type { DayEntry, DaySummariser, Dimension, InsightsContext, ListedResource, ListingOutcome } from "./types";

export type { DaySummariser, Dimension, ListedResource } from "./types";
import type { Day, DaySpan } from "./range";

export const dayKey = (d: { startMs: number; endMs: number }) => `${d.startMs}-${d.endMs}`;

/**
 * Whether a span holds no instant at all: a calendar day the zone skipped (Pacific/Apia went from
 * 29 to 31 December 2011), alone. Nothing happened in it, so it is read as empty, never asked for
 * (its bounds would be backwards).
 */
export const isEmptySpan = (span: { startMs: number; endMs: number }) => span.endMs <= span.startMs;

/** `from`/`to` of a Data API list for [startMs, endMs): its `to` is inclusive, so the last millisecond. */
export const listBounds = (span: { startMs: number; endMs: number }) => ({
  from: new Date(span.startMs).toISOString(),
  to: new Date(span.endMs - 1).toISOString(),
});

/**
 * Upstream calls one computation keeps waiting in the key's scheduler at a time. The scheduler paces
 * them anyway; the bound keeps other widgets' requests from queuing behind hundreds of pages, and
 * each call's wait for the budget short (the scheduler gives up on a call after 90 s).
 */
export const UPSTREAM_CONCURRENCY = 16;

/**
 * `work` for each item of `items`, at most `limit` (UPSTREAM_CONCURRENCY) at a time, results in order. Items
 * are pulled one at a time as a worker is free, so a generator is never run ahead. On the first
 * failure, or when `signal` aborts, nothing more is pulled and the work in flight sees its signal
 * abort; the promise rejects with that failure (or the abort) at once.
 */
export function eachBounded<T, R>(
  items: Iterable<T>,
  work: (item: T, signal: AbortSignal) => Promise<R>,
  signal?: AbortSignal,
  limit: number = UPSTREAM_CONCURRENCY,
): Promise<R[]> {
  return withScope(signal, (scope) => {
    const results: R[] = [];
    const source = items[Symbol.iterator]();
    let next = 0;
    return new Promise<R[]>((resolve, reject) => {
      let running = 0;
      let failed = false;
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        reject(error);
      };
      const onAbort = () => fail(scope.reason);
      scope.addEventListener("abort", onAbort, { once: true });
      const pull = () => {
        while (!failed && running < limit) {
          let item: IteratorResult<T>;
          try {
            item = source.next();
          } catch (error) {
            return fail(error);
          }
          if (item.done) break;
          const at = next++;
          running++;
          work(item.value, scope).then(
            (value) => {
              results[at] = value;
              running--;
              pull();
            },
            (error: unknown) => {
              running--;
              fail(error);
            },
          );
        }
        if (!failed && running === 0) {
          scope.removeEventListener("abort", onAbort);
          resolve(results);
        }
      };
      if (scope.aborted) onAbort();
      else pull();
    });
  });
}

/** The index of the day holding instant `t` (days sorted and consecutive), or -1. */
export function dayIndexOf(days: readonly Day[], t: number): number {
  let lo = 0;
  let hi = days.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = days[mid]!;
    if (t < d.startMs) hi = mid - 1;
    else if (t >= d.endMs) lo = mid + 1;
    else return mid;
  }
  return -1;
}

export const VISITORS: ListedResource<Visitor> = {
  noun: "visitors",
  page: (api, query, options) => api.get("/visitors", { query }, options),
  placedAt: (row) => row.first_seen,
  // A visitor recorded late changes its day's rows; one converting later, its conversions.
  checks: [
    { name: "rows", holds: () => true },
    { name: "converted", filter: "converted", holds: (row) => row.converted === true },
  ],
  count: async (api, { from, to, filter }, options) =>
    (await api.get("/visitors", { query: { from, to, limit: 1, ...(filter === "converted" ? { converted: "true" as const } : {}) } }, options)).meta.total,
};

export const MENTIONS: ListedResource<Mention> = {
  noun: "mentions",
  page: (api, query, options) => api.get("/mentions", { query }, options),
  placedAt: (row) => row.created_at,
  checks: [{ name: "rows", holds: () => true }],
  count: async (api, { from, to }, options) => (await api.get("/mentions", { query: { from, to, limit: 1 } }, options)).meta.total,
};

export type DayListing<Summary> =
  /** Read through: a summary per day of the span (in order), the rows that fit no day, and whether it was exact. */
  | { kind: "summed"; days: Summary[]; total: number | undefined; unplaced: number; exact: boolean }
  /** The upstream's total is over the cap: nothing was read beyond the first page. */
  | { kind: "too_large"; total: number; max: number }
  /** A strict summariser met a row it cannot place or sum: the listing stopped there. */
  | { kind: "unsummable" };

/**
 * One listing folded into several summarisers: per summariser its days, or null where a strict one
 * met a row it cannot sum; and per day the counts of its list's checks (`ListedResource.checks`).
 */
export type MultiListing =
  | {
      kind: "summed";
      per: Array<{ days: unknown[]; unplaced: number } | null>;
      checks: Array<Record<string, number>>;
      total: number | undefined;
      exact: boolean;
    }
  | { kind: "too_large"; total: number; max: number };

/** Why the pool stopped on its own (not an abort from outside, not a failure). */
const STOPPED = new DOMException("The listing stopped early.", "AbortError");

/**
 * Lists every row of `span` (its first page given, or fetched) and folds each page into `summariser`'s
 * day summaries as it arrives. `fresh` asks the Data API again rather than the short response cache
 * (a second read after a listing that moved must not see the first one's pages).
 */
export async function listDays<Row extends { id: string }, Tally, Summary>(
  ictx: InsightsContext,
  span: DaySpan,
  summariser: DaySummariser<Row, Tally, Summary>,
  options: { first?: ListEnvelope<Row>; fresh?: boolean } = {},
): Promise<DayListing<Summary>> {
  const read = await listDaysInto(ictx, span, [summariser as DaySummariser<Row, unknown, unknown>], options);
  if (read.kind === "too_large") return read;
  const own = read.per[0];
  if (!own) return { kind: "unsummable" };
  return { kind: "summed", days: own.days as Summary[], total: read.total, unplaced: own.unplaced, exact: read.exact };
}

/**
 * `listDays` folding each row into every one of `summarisers` (one read serves them all). The
 * listing stops early only when every summariser is strict and has met a row it cannot sum.
 */
export async function listDaysInto<Row extends { id: string }>(
  ictx: InsightsContext,
  span: DaySpan,
  summarisers: ReadonlyArray<DaySummariser<Row, unknown, unknown>>,
  options: { first?: ListEnvelope<Row>; fresh?: boolean } = {},
): Promise<MultiListing> {
  const tallies = summarisers.map((s) => span.days.map(() => s.empty()));
  const finish = () => summarisers.map((s, k) => (spoiled[k] ? null : { days: tallies[k]!.map((t) => s.finish(t)), unplaced: unreadable + unfit[k]! }));
  const spoiled = summarisers.map(() => false);
  const unfit = summarisers.map(() => 0);
  const resource = summarisers[0]!.resource;
  // Per day, the rows each check of the list counts (what a late change would move).
  const counted = span.days.map(() => resource.checks.map(() => 0));
  const checks = () => counted.map((c) => Object.fromEntries(resource.checks.map((k, j) => [k.name, c[j]!])));
  // Items without an id (in the total, never folded).
  let unreadable = 0;
  if (isEmptySpan(span)) return { kind: "summed", per: finish(), checks: checks(), total: 0, exact: true };
  const page: PageAt<Row> = (offset, signal) =>
    resource.page(ictx.api, { ...listBounds(span), limit: PAGE_SIZE_MAX, offset }, { signal, ...(options.fresh ? { fresh: true } : {}) });
  const read = await readListing(
    ictx,
    page,
    (row) => {
      const at = resource.placedAt(row);
      const i = at === undefined ? -1 : dayIndexOf(span.days, Date.parse(at));
      if (i >= 0) resource.checks.forEach((c, j) => c.holds(row) && counted[i]![j]!++);
      summarisers.forEach((s, k) => {
        if (i < 0 || !s.add(tallies[k]![i], row)) unfit[k]!++;
      });
    },
    {
      ...(options.first ? { first: options.first } : {}),
      stopWhen: (unreadableSoFar) => {
        summarisers.forEach((s, k) => {
          if (s.strict && unreadableSoFar + unfit[k]! > 0) spoiled[k] = true;
        });
        return spoiled.every(Boolean);
      },
    },
  );
  if (read.kind === "too_large") return read;
  unreadable = read.unreadable;
  return { kind: "summed", per: finish(), checks: checks(), total: read.total, exact: read.exact };
}

/** The page of a Data API list at `offset` (PAGE_SIZE_MAX rows), through the key's client. */
export type PageAt<Row> = (offset: number, signal: AbortSignal | undefined) => Promise<ListEnvelope<Row>>;

/** What reading every page of a list gave. */
export type ListRead =
  /** Every page read: the list's total, its items that could not be read, and whether rows and total added up. */
  | { kind: "read"; total: number | undefined; unreadable: number; exact: boolean }
  /** The upstream's total is over the cap: nothing was read beyond the first page. */
  | { kind: "too_large"; total: number; max: number };

/**
 * The pipeline's core: every page of one Data API list (`page`, its first one given or fetched),
 * each row handed to `onRow` once, with its place in the list (offset plus index on its page, so
 * sorting by it is the list's own order). Bounded by the cap (`ictx.maxListedRows`, checked on the
 * first page's total), read by a pool of at most `concurrency` calls, deduplicated by id and checked
 * against the total. `stopWhen` is asked after each page (with the unreadable items so far) whether
 * what is read already decides the outcome.
 */
export async function readListing<Row extends { id: string }>(
  ictx: InsightsContext,
  page: PageAt<Row>,
  onRow: (row: Row, at: number) => void,
  options: { first?: ListEnvelope<Row>; stopWhen?: (unreadable: number) => boolean; concurrency?: number } = {},
): Promise<ListRead> {
  const first = options.first ?? (await page(0, ictx.signal));
  const total = first.meta.total;
  const max = ictx.maxListedRows;
  if (total !== undefined && total > max) return { kind: "too_large", total, max };

  // Ids seen: a row seen twice is handed on once. At most `total` (under the cap) are kept: more
  // unique rows than the total says is a listing that moved, and the pool stops there.
  const seen = new Set<string>();
  // Items without an id (in the total, never in `seen`).
  let unreadable = 0;
  let sameTotal = true;
  let stopped = false;
  const fold = (got: ListEnvelope<Row>, offset: number) => {
    if (stopped) return;
    sameTotal &&= got.meta.total === total;
    unreadable += got.unreadable?.count ?? 0;
    got.data.forEach((row, index) => {
      if (seen.has(row.id)) return;
      seen.add(row.id);
      onRow(row, offset + index);
    });
    if (options.stopWhen?.(unreadable)) stopped = true;
    if (total === undefined || seen.size + unreadable > total) stopped = true;
  };
  fold(first, 0);

  const stop = new AbortController();
  function* offsets() {
    for (let offset = PAGE_SIZE_MAX; total !== undefined && offset < total && !stopped; offset += PAGE_SIZE_MAX) yield offset;
  }
  const onAbort = () => stop.abort(ictx.signal?.reason);
  // Gone while the first page was read: plan nothing.
  ictx.signal?.throwIfAborted();
  ictx.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    await eachBounded(
      offsets(),
      async (offset, signal) => {
        fold(await page(offset, signal), offset);
        if (stopped) stop.abort(STOPPED);
      },
      stop.signal,
      options.concurrency,
    );
  } catch (error) {
    if (stop.signal.reason !== STOPPED || ictx.signal?.aborted) throw error;
  } finally {
    ictx.signal?.removeEventListener("abort", onAbort);
  }
  const exact = total !== undefined && sameTotal && seen.size + unreadable === total;
  return { kind: "read", total, unreadable, exact };
}

// ---------------------------------------------------------------------------------------------
// Listings of a resource for all its dimensions, stored and shared.

/**
 * Fixes up a listing that moved while it was read (visitors.ts: counts find the days short of rows,
 * which are read again); null when it cannot, and the listing stays not exact.
 */
export type CompleteListing = <Row extends { id: string }>(
  ictx: InsightsContext,
  span: DaySpan,
  dimensions: ReadonlyArray<Dimension<Row>>,
  read: Extract<MultiListing, { kind: "summed" }>,
) => Promise<Extract<MultiListing, { kind: "summed" }> | null>;

const inFlightKey = (resource: { noun: string }, day: Day) => `${resource.noun}:${dayKey(day)}`;

/**
 * Lists `span` of `resource` once for all `dimensions` (registered in flight until it settles or
 * is abandoned, so requests for any of its days join it), and stores every exact dimension's days
 * in one write: each day's summary for as long as that day allows.
 */
export function startListing<Row extends { id: string }>(
  ictx: InsightsContext,
  resource: ListedResource<Row>,
  dimensions: ReadonlyArray<Dimension<Row>>,
  span: DaySpan,
  options: { first?: ListEnvelope<Row>; fresh?: boolean; complete?: CompleteListing; startedAt?: number } = {},
): SharedRun<ListingOutcome> {
  const keys = span.days.map((d) => inFlightKey(resource, d));
  const listings = ictx.state.listings;
  const run: SharedRun<ListingOutcome> = new SharedRun(
    async (signal) => {
      const own: InsightsContext = { ...ictx, signal };
      // Only days that had ended when the listing began (its first page was asked for, when given) are
      // kept: a day closing while it is read was not read whole.
      const startedAt = options.startedAt ?? own.now();
      const read = await listDaysInto(own, span, dimensions, options);
      if (read.kind === "too_large") return read;
      const settled = read.exact ? read : options.complete ? await options.complete(own, span, dimensions, read) : null;
      const byDimension = new Map<string, Map<string, DayEntry<unknown>>>();
      if (settled) {
        const id = dayKey(span);
        const writes: Array<{ key: string; value: unknown; ttlMs: number }> = [];
        dimensions.forEach((dim, k) => {
          const got = settled.per[k];
          if (!got) return;
          const entries = new Map<string, DayEntry<unknown>>();
          span.days.forEach((d, i) => {
            const entry: DayEntry<unknown> = { summary: got.days[i], ...(got.unplaced > 0 ? { unplaced: { span: id, count: got.unplaced } } : {}) };
            entries.set(dayKey(d), entry);
            writes.push({ key: dim.key + dayKey(d), value: entry, ttlMs: own.ttlFor(d.endMs) });
          });
          byDimension.set(dim.key, entries);
        });
        await own.store.setMany(writes);
        // The closed days of every dimension in one write to the workspace's kept days.
        await keepListed(own, dimensions, span, byDimension, settled.checks, startedAt);
      }
      return { kind: "listed", exact: settled !== null, total: read.total, byDimension };
    },
    () => {
      for (const k of keys) if (listings.get(k) === run) listings.delete(k);
    },
  );
  for (const k of keys) listings.set(k, run);
  return run;
}

/** The listings of `resource` in flight for `days`, each once. */
export const listingsFor = (ictx: InsightsContext, resource: { noun: string }, days: readonly Day[]): SharedRun<ListingOutcome>[] => [
  ...new Set(days.flatMap((d) => ictx.state.listings.get(inFlightKey(resource, d)) ?? [])),
];

/** Whether a listing of `resource` is in flight for `day`. */
export const isListing = (ictx: InsightsContext, resource: { noun: string }, day: Day): boolean => ictx.state.listings.has(inFlightKey(resource, day));

/**
 * Fills `into` with the stored entries of `dim` for `days` it does not hold yet: the insights store
 * first (one read), then, unless `kept` is false, the workspace's kept days for the closed ones
 * (kept.ts: one read of the store, and a check upstream of those due for one).
 */
export async function readStoredDays<S>(
  ictx: InsightsContext,
  dim: KeptDimension,
  days: readonly Day[],
  into: Map<string, DayEntry<S>>,
  options: { kept?: boolean } = {},
): Promise<void> {
  const wanted = days.map(dayKey).filter((k) => !into.has(k));
  const hits = await ictx.store.getMany(wanted.map((k) => dim.key + k));
  wanted.forEach((k, i) => {
    if (hits[i] !== undefined) into.set(k, hits[i] as DayEntry<S>);
  });
  if (options.kept !== false) await readKeptDays(ictx, dim, days, into);
}

/**
 * Waits for every run of `runs` as one waiter with `signal`. If one fails, the caller leaves the
 * others at once (a run nobody else waits for is then abandoned).
 */
export const joinAll = <R>(runs: readonly SharedRun<R>[], signal: AbortSignal | undefined): Promise<R[]> =>
  withScope(signal, (scope) => Promise.all(runs.map((r) => r.join(scope))));

/** The consecutive days from the first to the last of `some` within `all` (a span to list). */
export function coveringSpan(all: readonly Day[], some: readonly Day[]): Day[] {
  const keys = new Set(some.map(dayKey));
  const first = all.findIndex((d) => keys.has(dayKey(d)));
  const last = all.findLastIndex((d) => keys.has(dayKey(d)));
  return all.slice(first, last + 1);
}
