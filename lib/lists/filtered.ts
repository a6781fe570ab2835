// Lists the dashboard filters itself, where the Data API has no such filter: /mentions by question
// (`query`) or competitor, /visitors by the four AI platforms together (`source=ai`). Each reads
// every row of the Data API list for the filters it does have (the range, a platform, a sentiment…)
// through the insights' listing pipeline (lib/insights/listing.ts: the key's scheduler and
// response cache, pages of 100 from a bounded pool, rows deduplicated by id and checked against the
// list's total, the cap INSIGHTS_MAX_LISTED_ROWS), keeps the rows that match in the list's own order,
// and cuts the page asked for from them, so `meta.total` is the exact count of matching rows.
// Never a partial list: over the cap a 422 `listing_too_large` asks for a shorter range (before more
// than each list's first page is read); a list that moved while read is read once more from the Data
// API itself (the short response cache would give the same pages again), then a 503 `listing_changed`.
// Items the Data API sent that could not be read cannot be checked against the filter: they are
// counted as `unchecked`, never guessed into or out of the list.
import "server-only";
import type { CallOptions } from "@/lib/data-api/api";
import type { DataApiError } from "@/lib/data-api/errors";
import type { ListEnvelope, Unreadable } from "@/lib/data-api/schemas";
import { formatCount, formatNumber } from "@/lib/format/format";
import { finalError } from "@/lib/server/http";
import type { InsightsContext } from "@/lib/insights/context";
import { readListing, UPSTREAM_CONCURRENCY, type PageAt } from "@/lib/insights/listing";

/** One page of a list the dashboard filtered: the Data API's envelope, and what could not be checked. */
export type FilteredPage<Row> = ListEnvelope<Row> & {
  /**
   * Items of the listed rows the Data API sent but that could not be read: whether they match the
   * filter is not known, so they are in no page and counted here, on every page alike.
   */
  unchecked?: Unreadable;
};

/** Every matching row of a list, in its order, and the items that could not be checked. */
export type Matching<Row> = { rows: Row[]; unchecked: number };

/** One Data API list to read: its page at an offset, asked fresh (past the response cache) or not. */
export type ListSource<Row> = (options: { fresh: boolean }) => PageAt<Row>;

/** A matching row and its place in its list (offset plus index: the list's order). */
type Kept<Row> = { row: Row; at: number };

/** What the dashboard calls the rows in its refusals ("mention", "visitor"). */
export type RowNoun = { singular: string; filter: string };

/** The refusal of a list over the cap: how many rows it holds, and what to do. */
export function tooLarge(noun: RowNoun, total: number, max: number, ranged: boolean): DataApiError {
  return finalError({
    status: 422,
    code: "listing_too_large",
    message: `The Data API has ${formatCount(total, noun.singular)} ${ranged ? "in this range" : "in all"} for these filters, more than the ${formatNumber(max)} the dashboard reads to ${noun.filter}. Choose a shorter range.`,
  });
}

const changed = (noun: RowNoun) =>
  finalError({
    status: 503,
    code: "listing_changed",
    message: `The ${noun.singular}s changed while they were being read, so the list could not be exact; try again in a moment.`,
    retryAfter: 2,
  });

const noTotal = (noun: RowNoun) =>
  finalError({
    status: 502,
    code: "unexpected_response",
    message: `The Data API did not say how many ${noun.singular}s there are, so the list cannot be checked.`,
  });

/**
 * The rows of one list that `keep` holds, with their places in it; read once, and once more fresh
 * if the list moved meanwhile. `first` is its first page when already read (the cap was checked on it).
 */
export async function readMatching<Row extends { id: string }>(
  ictx: InsightsContext,
  source: ListSource<Row>,
  keep: (row: Row) => boolean,
  noun: RowNoun,
  options: { first?: ListEnvelope<Row>; ranged: boolean; concurrency?: number },
): Promise<{ kept: Array<Kept<Row>>; unchecked: number }> {
  for (const fresh of [false, true]) {
    const kept: Array<Kept<Row>> = [];
    const read = await readListing(
      ictx,
      source({ fresh }),
      (row, at) => {
        if (keep(row)) kept.push({ row, at });
      },
      // A first page read before may be stale once the list moved: the second read asks again.
      { ...(options.first && !fresh ? { first: options.first } : {}), concurrency: options.concurrency ?? UPSTREAM_CONCURRENCY },
    );
    if (read.kind === "too_large") throw tooLarge(noun, read.total, read.max, options.ranged);
    if (read.total === undefined) throw noTotal(noun);
    if (read.exact) return { kept, unchecked: read.unreadable };
  }
  throw changed(noun);
}

/** The page at `offset` of `limit` rows of every matching row. */
export function pageOf<Row>(matching: Matching<Row>, limit: number, offset: number): FilteredPage<Row> {
  return {
    data: matching.rows.slice(offset, offset + limit),
    meta: { total: matching.rows.length, limit, offset },
    ...(matching.unchecked > 0 ? { unchecked: { count: matching.unchecked } } : {}),
  };
}

/** The options of every page call of a filtered list: the caller's priority, and `fresh` on a second read. */
export const callOptions = (signal: AbortSignal | undefined, fresh: boolean, priority: CallOptions["priority"]): CallOptions => ({
  ...(signal ? { signal } : {}),
  ...(fresh ? { fresh: true } : {}),
  ...(priority ? { priority } : {}),
});
