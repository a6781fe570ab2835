// The one listing pipeline of the insights: every row of a span of days read from a Data API list
// (pages of 100) and folded, page by page as each arrives, into one summary per day by a pluggable
// summariser (visitors.ts: visitors and conversions per source; mentions.ts: platforms, sentiment,
// positions, competitors). A new dimension is a summariser over the same pipeline, plus its route.
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
// Also the bits the listings share: day lookup, the stored day summaries, and listings in flight
// that later requests for the same days join (a shared run, ended when its last waiter leaves).
import "server-only";
import type { CallOptions, DataApi } from "@/lib/data-api/api";
import { SharedRun, withScope } from "@/lib/data-api/cache";
import { PAGE_SIZE_MAX } from "@/lib/data-api/constants";
import type { ListEnvelope, Mention, Visitor } from "@/lib/data-api/schemas";
import type { InsightsContext } from "./context";
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
 * `work` for each item of `items`, at most UPSTREAM_CONCURRENCY at a time, results in order. Items
 * are pulled one at a time as a worker is free, so a generator is never run ahead. On the first
 * failure, or when `signal` aborts, nothing more is pulled and the work in flight sees its signal
 * abort; the promise rejects with that failure (or the abort) at once.
 */
export function eachBounded<T, R>(items: Iterable<T>, work: (item: T, signal: AbortSignal) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
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
        while (!failed && running < UPSTREAM_CONCURRENCY) {
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

/** A Data API list the insights read, and the field that puts one of its rows in a day. */
export type ListedResource<Row> = {
  /** "visitors", "mentions": for messages. */
  noun: string;
  page: (api: DataApi, query: { from: string; to: string; limit: number; offset: number }, options: CallOptions) => Promise<ListEnvelope<Row>>;
  /** The instant that places a row in its day; undefined when it has none readable. */
  placedAt: (row: Row) => string | undefined;
};

export const VISITORS: ListedResource<Visitor> = {
  noun: "visitors",
  page: (api, query, options) => api.get("/visitors", { query }, options),
  placedAt: (row) => row.first_seen,
};

export const MENTIONS: ListedResource<Mention> = {
  noun: "mentions",
  page: (api, query, options) => api.get("/mentions", { query }, options),
  placedAt: (row) => row.created_at,
};

/**
 * How a listing's rows become one summary per day (the pluggable part of the pipeline): a day's
 * tally while rows arrive (`Tally`), and what is kept of it (`Summary`, JSON for the store).
 */
export type DaySummariser<Row, Tally, Summary = Tally> = {
  resource: ListedResource<Row>;
  /** A day with nothing in it yet. */
  empty: () => Tally;
  /** Folds a row placed in this day into its tally; false when the row cannot be summed exactly. */
  add: (day: Tally, row: Row) => boolean;
  /** The day's summary once every row is in. */
  finish: (day: Tally) => Summary;
  /**
   * Whether one row that cannot be placed or summed (or an unreadable item) spoils the whole
   * listing, which then stops at once (visitors: counting answers instead, exactly); otherwise such
   * rows are counted as `unplaced` and reported (mentions: there is nothing else to count them with).
   */
  strict: boolean;
};

export type DayListing<Summary> =
  /** Read through: a summary per day of the span (in order), the rows that fit no day, and whether it was exact. */
  | { kind: "summed"; days: Summary[]; total: number | undefined; unplaced: number; exact: boolean }
  /** The upstream's total is over the cap: nothing was read beyond the first page. */
  | { kind: "too_large"; total: number; max: number }
  /** A strict summariser met a row it cannot place or sum: the listing stopped there. */
  | { kind: "unsummable" };

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
  const days = span.days.map(() => summariser.empty());
  if (isEmptySpan(span)) return { kind: "summed", days: days.map(summariser.finish), total: 0, unplaced: 0, exact: true };
  const call = (offset: number, signal: AbortSignal | undefined) =>
    summariser.resource.page(ictx.api, { ...listBounds(span), limit: PAGE_SIZE_MAX, offset }, { signal, ...(options.fresh ? { fresh: true } : {}) });
  const first = options.first ?? (await call(0, ictx.signal));
  const total = first.meta.total;
  const max = ictx.maxListedRows;
  if (total !== undefined && total > max) return { kind: "too_large", total, max };

  // Ids seen: a row seen twice is folded once. At most `total` (under the cap) are kept: more unique
  // rows than the total says is a listing that moved, and the pool stops there.
  const seen = new Set<string>();
  // Items without an id (in the total, never in `seen`), and rows that fit no day or summary.
  let unreadable = 0;
  let unfit = 0;
  let sameTotal = true;
  let spoiled = false;
  let stopped = false;
  const fold = (page: ListEnvelope<Row>) => {
    if (stopped) return;
    sameTotal &&= page.meta.total === total;
    unreadable += page.unreadable?.count ?? 0;
    for (const row of page.data) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      const at = summariser.resource.placedAt(row);
      const i = at === undefined ? -1 : dayIndexOf(span.days, Date.parse(at));
      if (i < 0 || !summariser.add(days[i]!, row)) unfit++;
    }
    if (summariser.strict && unreadable + unfit > 0) stopped = spoiled = true;
    if (total === undefined || seen.size + unreadable > total) stopped = true;
  };
  fold(first);

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
        fold(await call(offset, signal));
        if (stopped) stop.abort(STOPPED);
      },
      stop.signal,
    );
  } catch (error) {
    if (stop.signal.reason !== STOPPED || ictx.signal?.aborted) throw error;
  } finally {
    ictx.signal?.removeEventListener("abort", onAbort);
  }
  if (spoiled) return { kind: "unsummable" };
  const exact = total !== undefined && sameTotal && seen.size + unreadable === total;
  return { kind: "summed", days: days.map(summariser.finish), total, unplaced: unreadable + unfit, exact };
}

/** Fills `into` with the stored summaries of `days` it does not hold yet (one read of the store). */
export async function readStoredDays<S>(ictx: InsightsContext, prefix: string, days: readonly Day[], into: Map<string, S>): Promise<void> {
  const wanted = days.map(dayKey).filter((k) => !into.has(k));
  const hits = await ictx.store.getMany(wanted.map((k) => prefix + k));
  wanted.forEach((k, i) => {
    if (hits[i] !== undefined) into.set(k, hits[i] as S);
  });
}

/** Stores each day's summary for as long as that day allows (hours once closed), in one write. */
export async function storeDays<S>(ictx: InsightsContext, prefix: string, days: readonly Day[], summaries: readonly S[]): Promise<void> {
  await ictx.store.setMany(days.map((d, i) => ({ key: prefix + dayKey(d), value: summaries[i], ttlMs: ictx.ttlFor(d.endMs) })));
}

/**
 * Starts `work` as the listing of every day of `span`, registered until it settles or is abandoned
 * (its last waiter left), so requests for any of those days join it instead of listing them again.
 */
export function shareListing<R>(inFlight: Map<string, SharedRun<R>>, span: DaySpan, work: (signal: AbortSignal) => Promise<R>): SharedRun<R> {
  const run: SharedRun<R> = new SharedRun(work, () => {
    for (const d of span.days) if (inFlight.get(dayKey(d)) === run) inFlight.delete(dayKey(d));
  });
  for (const d of span.days) inFlight.set(dayKey(d), run);
  return run;
}

/** The listings in flight for `days`, each once. */
export const listingsFor = <R>(inFlight: Map<string, SharedRun<R>>, days: readonly Day[]): SharedRun<R>[] => [
  ...new Set(days.flatMap((d) => inFlight.get(dayKey(d)) ?? [])),
];

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
