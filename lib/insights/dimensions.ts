// The one way a route reads a list-only dimension's days (`dimensionDays`): stored, joined in
// flight, or listed now, each listing folding every dimension registered for its list (registry.ts).
import "server-only";
import { formatCount, formatDateRange, formatNumber } from "@/lib/format/format";
import { finalError } from "@/lib/server/http";
import type { DayEntry, InsightsContext, ListingOutcome } from "./types";
import {
  coveringSpan,
  dayKey,
  isEmptySpan,
  isListing,
  joinAll,
  listDaysInto,
  listingsFor,
  MENTIONS,
  readStoredDays,
  startListing,
  VISITORS,
  type CompleteListing,
  type Dimension,
} from "./listing";
import { runsOf, spanOf, type Day, type DaySpan } from "./range";
import { dimensionsOf } from "./registry";
import { planVisitorListing } from "./visitors";

/**
 * A mention listing that moved while it was read is read once more, asking the Data API itself: the
 * short response cache still holds the first read's pages, which would only move the same way again.
 */
const readAgainFresh: CompleteListing = async (ictx, span, dimensions) => {
  const again = await listDaysInto(ictx, span, dimensions, { fresh: true });
  return again.kind === "summed" && again.exact ? again : null;
};

/** How a listing of a resource's days is started: the visitors through their planner (a plan gathering those days is joined). */
function startFor(ictx: InsightsContext, resource: { noun: string }, span: DaySpan): Promise<ListingOutcome> {
  if (resource.noun === VISITORS.noun) return planVisitorListing(ictx, span);
  return startListing(ictx, MENTIONS, dimensionsOf(MENTIONS), span, { complete: readAgainFresh }).join(ictx.signal);
}

/**
 * The day entries of `dim` for `days` (any order; answered in that order): stored, from listings in
 * flight, or from listings started now (one per run of consecutive days lacking them). For a
 * dimension nothing else can answer: a listing over the cap is a 422 `listing_too_large`, and one
 * that could not be exact (it moved twice) a 503 `listing_changed`.
 */
export async function dimensionDays<Row, S>(ictx: InsightsContext, dim: Dimension<Row, unknown, S>, days: readonly Day[]): Promise<Array<DayEntry<S>>> {
  const resource = dim.resource;
  // A day the zone skipped has no instant, so no row: known without asking.
  const found = new Map<string, DayEntry<S>>(days.filter(isEmptySpan).map((d) => [dayKey(d), { summary: dim.finish(dim.empty()) }]));
  await readStoredDays(ictx, dim, days, found);
  let missing = days.filter((d) => !found.has(dayKey(d)));
  if (missing.some((d) => !isListing(ictx, resource, d))) {
    // A listing may have stored these days and ended while the store was read: read once more
    // before listing them a second time (the insights store only: the kept days were just read).
    await readStoredDays(ictx, dim, missing, found, { kept: false });
    missing = missing.filter((d) => !found.has(dayKey(d)));
  }
  const unlisted = new Set(missing.filter((d) => !isListing(ictx, resource, d)).map(dayKey));
  const started = runsOf(days).flatMap((run) => {
    const some = run.days.filter((d) => unlisted.has(dayKey(d)));
    return some.length > 0 ? [startFor(ictx, resource, spanOf(coveringSpan(run.days, some)))] : [];
  });
  const [joined, ...own] = await Promise.all([joinAll(listingsFor(ictx, resource, missing), ictx.signal), ...started]);
  const outcomes: ListingOutcome[] = [...joined, ...own];
  for (const outcome of outcomes) {
    if (outcome.kind === "too_large") {
      const sorted = [...missing].sort((a, b) => a.startMs - b.startMs);
      throw finalError({
        status: 422,
        code: "listing_too_large",
        message: `The Data API has ${formatCount(outcome.total, resource.noun.replace(/s$/, ""))} in ${formatDateRange({ from: sorted[0]!.date, to: sorted.at(-1)!.date })}, more than the ${formatNumber(outcome.max)} the insights read for one answer. Choose a shorter range.`,
      });
    }
    if (!outcome.exact && outcome.total === undefined) {
      throw finalError({
        status: 502,
        code: "unexpected_response",
        message: `The Data API did not say how many ${resource.noun} there are, so their figures cannot be checked.`,
      });
    }
    for (const [k, entry] of outcome.byDimension.get(dim.key) ?? []) found.set(k, entry as DayEntry<S>);
  }
  if (days.some((d) => !found.has(dayKey(d)))) {
    throw finalError({
      status: 503,
      code: "listing_changed",
      message: `The ${resource.noun} changed while they were being read, so their figures could not be exact; try again in a moment.`,
      retryAfter: 2,
    });
  }
  return days.map((d) => found.get(dayKey(d))!);
}

/** How many rows of `entries` could not be placed or summed: each listing's count once. */
export function unplacedRows(entries: ReadonlyArray<DayEntry<unknown>>): number {
  const spans = new Map(entries.flatMap((e) => (e.unplaced ? [[e.unplaced.span, e.unplaced.count] as const] : [])));
  return [...spans.values()].reduce((n, c) => n + c, 0);
}
