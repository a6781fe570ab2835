// Reading every row of a span from a Data API list, exactly: pages of 100, rows deduplicated by id
// and checked against `meta.total`, so a listing that moved under us (rows inserted or reordered
// between pages) is detected rather than summed. Also the bits both listings share: bounded
// concurrency, day lookup, the stored day summaries, and listings in flight that later requests for
// the same days join.
import "server-only";
import PQueue from "p-queue";
import type { ListEnvelope } from "@/lib/data-api/schemas";
import { PAGE_SIZE_MAX } from "@/lib/data-api/constants";
import type { InsightsContext } from "./context";
import type { Day, DaySpan } from "./range";

export const dayKey = (d: { startMs: number; endMs: number }) => `${d.startMs}-${d.endMs}`;

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

/** `work` for every item, at most UPSTREAM_CONCURRENCY at a time, results in order. */
export function eachBounded<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  return new PQueue({ concurrency: UPSTREAM_CONCURRENCY }).addAll(items.map((item) => () => work(item)));
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

export type ReadListing<T> = {
  rows: T[];
  total: number | undefined;
  /** Items the normaliser could not read at all (no id): in the total, not in `rows`. */
  unreadable: number;
  /** Every page reported the same total, and unique rows plus unreadable items add up to it. */
  exact: boolean;
};

/** Every page of a list whose first page is `first`, the others fetched through `page(offset)`. */
export async function listAll<T extends { id: string }>(first: ListEnvelope<T>, page: (offset: number) => Promise<ListEnvelope<T>>): Promise<ReadListing<T>> {
  const total = first.meta.total;
  const offsets: number[] = [];
  for (let offset = PAGE_SIZE_MAX; total !== undefined && offset < total; offset += PAGE_SIZE_MAX) offsets.push(offset);
  const pages = [first, ...(await eachBounded(offsets, page))];
  const byId = new Map<string, T>();
  let unreadable = 0;
  let sameTotal = true;
  for (const p of pages) {
    sameTotal &&= p.meta.total === total;
    unreadable += p.unreadable?.count ?? 0;
    for (const row of p.data) byId.set(row.id, row);
  }
  return { rows: [...byId.values()], total, unreadable, exact: total !== undefined && sameTotal && byId.size + unreadable === total };
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
 * Registers `job` as the listing of every day of `span` until it settles, so requests for any of
 * those days wait for it instead of listing them again.
 */
export function trackListing<R>(inFlight: Map<string, Promise<R>>, span: DaySpan, job: Promise<R>): Promise<R> {
  for (const d of span.days) inFlight.set(dayKey(d), job);
  const done = () => {
    for (const d of span.days) if (inFlight.get(dayKey(d)) === job) inFlight.delete(dayKey(d));
  };
  job.then(done, done);
  return job;
}

/** The listings in flight for `days`, each once. */
export const listingsFor = <R>(inFlight: Map<string, Promise<R>>, days: readonly Day[]): Promise<R>[] => [
  ...new Set(days.flatMap((d) => inFlight.get(dayKey(d)) ?? [])),
];

/** The consecutive days from the first to the last of `some` within `all` (a span to list). */
export function coveringSpan(all: readonly Day[], some: readonly Day[]): Day[] {
  const keys = new Set(some.map(dayKey));
  const first = all.findIndex((d) => keys.has(dayKey(d)));
  const last = all.findLastIndex((d) => keys.has(dayKey(d)));
  return all.slice(first, last + 1);
}
