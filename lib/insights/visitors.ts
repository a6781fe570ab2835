// The visitor side of the insights: exact counts of visitors first seen in whole-day spans, overall,
// converted, by source, or both. Two ways to get them, never a sample:
// - counting: one upstream call per figure, `meta.total` of the filtered list with `limit=1`;
// - listing: every visitor first seen in the window, read page by page (100 a page) and summed per
//   day in the query's zone (visitors and conversions, overall and per source), which then answers
//   every figure over those days for every route.
// The planner asks for the first page of the days it lacks (its `meta.total` prices the listing),
// compares the pages still to read with the distinct figures to count, and takes the cheaper.
// Routes asking for the same days while that first page is on its way (the widgets of one page,
// within `gatherMs`) are planned together: their figures together decide, and a listing serves
// them all. A list that moved while it was read is completed day by day (counts find the days short
// of rows, which are read again); a listing that still cannot be exact, or has a row without a
// readable first_seen, source or converted, is dropped for counting, exact by construction, and so
// is a span whose total is over the listing cap (INSIGHTS_MAX_LISTED_ROWS). The listing is the
// shared pipeline of listing.ts folding every dimension of the visitor list (dimensions.ts: the
// visitor-day summariser below, countries), and a route needing a dimension only a listing gives
// joins a plan with `mustList` (planVisitorListing), which then lists.
// Day summaries and counts are stored per key (hours once closed, seconds while open).
import "server-only";
import { SharedRun } from "@/lib/data-api/cache";
import { PAGE_SIZE_MAX, SOURCES, type Source } from "@/lib/data-api/constants";
import { DataApiError } from "@/lib/data-api/errors";
import type { ListEnvelope, Visitor } from "@/lib/data-api/schemas";
import {
  coveringSpan,
  dayKey,
  eachBounded,
  isEmptySpan,
  joinAll,
  listBounds,
  listDaysInto,
  listingsFor,
  readStoredDays,
  startListing,
  VISITORS,
  type CompleteListing,
} from "./listing";
import { countFigure, keepCounts, readKeptCounts, type KeptCount } from "./kept";
import { spanOf, type Day, type DaySpan } from "./range";
import { registerDimension, dimensionsOf } from "./registry";
import type { DayEntry, InsightsContext, ListingOutcome, PendingPlan } from "./types";

/** One figure: visitors first seen in `span`, optionally only of one source and/or only converted. */
export type VisitorCell = { span: DaySpan; source?: Source; converted?: true };

/** A day's visitors (by first_seen), overall and per source (SOURCES order). */
export type VisitorDay = { visitors: number; conversions: number; bySource: number[]; conversionsBySource: number[] };

/** A plan's outcome: the listing it ran, or null to count. */
type Planned = ListingOutcome | null;

/** A figure as the kept days name it (kept.ts). */
const keptCount = (c: VisitorCell): KeptCount => ({ key: cellKey(c), figure: countFigure(c), span: c.span });

const cellKey = (c: VisitorCell) => `vc:${dayKey(c.span)}:${c.source ?? "*"}:${c.converted ? "converted" : "*"}`;
const unlistableKey = (span: DaySpan) => `vx:${dayKey(span)}`;

const emptyDay = (): VisitorDay => ({ visitors: 0, conversions: 0, bySource: SOURCES.map(() => 0), conversionsBySource: SOURCES.map(() => 0) });

/**
 * Visitors per day, overall and per source, converted or not: what the trend, sources and platforms
 * figures are sums of. Strict: a visitor without a readable first_seen, source or converted cannot
 * be put in an exact figure, and counting (exact by construction) answers instead.
 */
export const VISITOR_DAYS = registerDimension<Visitor, VisitorDay, VisitorDay>({
  key: "vd2:",
  resource: VISITORS,
  strict: true,
  empty: emptyDay,
  add(day, row) {
    const s = row.source === undefined ? -1 : SOURCES.indexOf(row.source as Source);
    if (s < 0 || row.converted === undefined) return false;
    const c = row.converted ? 1 : 0;
    day.visitors++;
    day.conversions += c;
    day.bySource[s]!++;
    day.conversionsBySource[s]! += c;
    return true;
  },
  finish: (day) => day,
});

/** The figure from day summaries, when every day of its span has one. */
function fromDays(cell: VisitorCell, days: Map<string, DayEntry<VisitorDay>>): number | undefined {
  const s = cell.source === undefined ? -1 : SOURCES.indexOf(cell.source);
  let sum = 0;
  for (const d of cell.span.days) {
    const day = days.get(dayKey(d))?.summary;
    if (!day) return undefined;
    if (s < 0) sum += cell.converted ? day.conversions : day.visitors;
    else sum += cell.converted ? day.conversionsBySource[s]! : day.bySource[s]!;
  }
  return sum;
}

/**
 * One figure counted upstream (`meta.total` with limit=1), shared by concurrent askers and stored.
 * `fresh` asks the Data API itself, not the short response cache: a count taken to check a listing
 * must be newer than the listing.
 */
function countCell(ictx: InsightsContext, cell: VisitorCell, options: { fresh?: boolean } = {}): Promise<number> {
  if (isEmptySpan(cell.span)) return Promise.resolve(0);
  const key = cellKey(cell);
  return ictx.state.flights.run(
    options.fresh ? `fresh:${key}` : key,
    async (signal) => {
      const page = await ictx.api.get(
        "/visitors",
        {
          query: {
            ...listBounds(cell.span),
            limit: 1,
            ...(cell.source ? { source: cell.source } : {}),
            ...(cell.converted ? { converted: "true" as const } : {}),
          },
        },
        { signal, ...(options.fresh ? { fresh: true } : {}) },
      );
      const total = page.meta.total;
      if (total === undefined) {
        throw new DataApiError({
          status: 502,
          code: "unexpected_response",
          message: "The Data API did not say how many visitors match, so this figure cannot be counted.",
        });
      }
      await ictx.store.set(key, total, ictx.ttlFor(cell.span.endMs));
      return total;
    },
    ictx.signal,
  );
}

const visitorPage = (ictx: InsightsContext, span: DaySpan, offset: number): Promise<ListEnvelope<Visitor>> =>
  ictx.api.get("/visitors", { query: { ...listBounds(span), limit: PAGE_SIZE_MAX, offset } }, { signal: ictx.signal });

/** Most days of a listing that may be read again before counting is cheaper. */
const MAX_DAYS_TO_REREAD = 8;

/**
 * Completes a listing that moved while it was read (a returning visitor jumps to the front of the
 * last_seen order: one row is seen twice and another never; a new visitor arrives). Every row seen
 * is a true member of its day, so a day is complete when its count says so. Counting halves of the
 * span finds the days short of rows (about 2 log2(days) calls per row missed); those days alone are
 * read again, for every dimension. Counts and re-reads ask the Data API afresh (the response cache
 * may still hold answers from before the listing). Null when that does not settle it: counting
 * takes over (and the list-only dimensions say the listing changed).
 */
const completeMovedListing: CompleteListing = async (ictx, span, dimensions, read) => {
  const own = read.per[dimensions.indexOf(VISITOR_DAYS as unknown as (typeof dimensions)[number])];
  if (!own) return null;
  const days = own.days as VisitorDay[];
  const seen = (a: number, b: number) => days.slice(a, b).reduce((n, d) => n + d.visitors, 0);
  const short = async (a: number, b: number): Promise<number[]> => {
    // Counted after the listing, so a count below what was seen is older than the rows: settled.
    if (seen(a, b) >= (await countCell(ictx, { span: spanOf(span.days.slice(a, b)) }, { fresh: true }))) return [];
    if (b - a === 1) return [a];
    const mid = (a + b) >> 1;
    return (await Promise.all([short(a, mid), short(mid, b)])).flat();
  };
  const missing = await short(0, span.days.length);
  if (missing.length > MAX_DAYS_TO_REREAD) return null;
  const reread = await Promise.all(missing.map((i) => listDaysInto(ictx, spanOf([span.days[i]!]), dimensions, { fresh: true })));
  const per = read.per.map((p) => p && { days: [...p.days], unplaced: p.unplaced });
  const checks = [...read.checks];
  for (const [k, again] of reread.entries()) {
    if (again.kind !== "summed" || !again.exact) return null;
    checks.splice(missing[k]!, 1, again.checks[0]!);
    again.per.forEach((p, d) => {
      if (!p) per[d] = null;
      else per[d]?.days.splice(missing[k]!, 1, p.days[0]);
    });
  }
  return { ...read, per, checks, exact: true };
};

/**
 * Decides how to get `cells` (none answerable from stored figures) whose missing days are `span`:
 * a listing, whose outcome it waits for, or null to count them. Routes asking for the same span
 * while its first page is fetched join the plan with their figures, or with `mustList` when what
 * they need only a listing gives (a list-only dimension: visitors by country); then it lists. The
 * plan (and the listing it starts) ends when the last request waiting for it has gone.
 */
async function plan(ictx: InsightsContext, span: DaySpan, cells: VisitorCell[], mustList = false): Promise<Planned> {
  const strategy = ictx.policy.strategy;
  if (!mustList && strategy === "count") return null;
  if (!mustList && strategy === "auto" && (await ictx.store.get(unlistableKey(span))) !== undefined) return null;
  const id = dayKey(span);
  const pending = ictx.state.plans.get(id);
  if (pending) {
    for (const c of cells) pending.cells.add(cellKey(c));
    pending.mustList ||= mustList;
    return pending.run.join(ictx.signal);
  }
  // From the first page on, later requests join the listing itself (or count). Only called once
  // `run` exists: after the first page's await, or when the run ends.
  const forget = () => {
    if (ictx.state.plans.get(id)?.run === run) ictx.state.plans.delete(id);
  };
  const run: SharedRun<Planned> = new SharedRun(async (signal) => {
    const own: InsightsContext = { ...ictx, signal };
    let first: ListEnvelope<Visitor>;
    // When the listing began: its days that had ended by then can be kept (kept.ts).
    const startedAt = ictx.now();
    try {
      [first] = await Promise.all([visitorPage(own, span, 0), new Promise((r) => setTimeout(r, ictx.policy.gatherMs))]);
    } finally {
      forget();
    }
    // Everyone left while the first page was read: start nothing.
    signal.throwIfAborted();
    const total = first.meta.total;
    if (total !== undefined && total > ictx.maxListedRows) {
      // Over the cap it is not read: counting answers this span for as long as its days last.
      await ictx.store.set(unlistableKey(span), true, ictx.ttlFor(span.endMs));
      return { kind: "too_large", total, max: ictx.maxListedRows };
    }
    // Without a total a listing cannot be checked, so it cannot be exact (it is then said not to be).
    if (total === undefined && !entry.mustList) return null;
    const pagesLeft = Math.ceil((total ?? 0) / PAGE_SIZE_MAX) - 1;
    if (!entry.mustList && strategy === "auto" && pagesLeft > entry.cells.size) return null;
    const outcome = await startListing(own, VISITORS, dimensionsOf(VISITORS), span, { first, startedAt, complete: completeMovedListing }).join(signal);
    if (outcome.kind === "listed" && !outcome.byDimension.has(VISITOR_DAYS.key)) {
      // Counting answers this span from now on: seconds if the list kept moving (it may settle), as
      // long as its days last if a row cannot be read (it stays so).
      await ictx.store.set(unlistableKey(span), true, outcome.exact ? ictx.ttlFor(span.endMs) : ictx.ttl.openMs);
    }
    return outcome;
  }, forget);
  const entry: PendingPlan = { cells: new Set(cells.map(cellKey)), mustList, run };
  ictx.state.plans.set(id, entry);
  return run.join(ictx.signal);
}

/**
 * A listing of the visitors of `span` for a dimension only a listing gives (visitors by country):
 * joins a plan gathering those days (which then lists) or plans one that lists.
 */
export async function planVisitorListing(ictx: InsightsContext, span: DaySpan): Promise<ListingOutcome> {
  return (await plan(ictx, span, [], true))!;
}

/** The listings that will summarise `missing` days: those in flight for them, else one planned per run of `windows` (null: count). */
async function listingsOf(ictx: InsightsContext, windows: readonly DaySpan[], missing: Day[], open: VisitorCell[]): Promise<Planned[]> {
  const inFlight = listingsFor(ictx, VISITORS, missing);
  if (inFlight.length > 0) return joinAll(inFlight, ictx.signal);
  const keys = new Set(missing.map(dayKey));
  return Promise.all(
    windows.flatMap((w) => {
      const some = w.days.filter((d) => keys.has(dayKey(d)));
      if (some.length === 0) return [];
      const cells = open.filter((c) => w.startMs <= c.span.startMs && c.span.endMs <= w.endMs);
      return [plan(ictx, spanOf(coveringSpan(w.days, some)), cells)];
    }),
  );
}

/**
 * The exact values of `cells` (spans of whole days within one of `windows`, the runs of consecutive
 * days the insight reads), from stored day summaries, stored counts, a listing (in flight, or
 * planned now, one per run) or counting.
 */
export async function visitorCounts(ictx: InsightsContext, windows: readonly DaySpan[], cells: readonly VisitorCell[]): Promise<number[]> {
  const all = windows.flatMap((w) => w.days);
  // A day the zone skipped has no instant, so no visitor: known without asking.
  const entries = new Map<string, DayEntry<VisitorDay>>(all.filter(isEmptySpan).map((d) => [dayKey(d), { summary: emptyDay() }]));
  const values = new Map<string, number>();
  const unique = [...new Map(cells.map((c) => [cellKey(c), c])).values()];
  // Each pass answers more from what is stored or was just listed; at worst the last one counts.
  for (let pass = 0; ; pass++) {
    // The kept days once (a day found changed there is listed, not checked again).
    await readStoredDays(ictx, VISITOR_DAYS, all, entries, { kept: pass === 0 });
    const open: VisitorCell[] = [];
    const unknown: VisitorCell[] = [];
    for (const c of unique) {
      if (values.has(cellKey(c))) continue;
      const value = fromDays(c, entries);
      if (value !== undefined) values.set(cellKey(c), value);
      else unknown.push(c);
    }
    // The stored counts of the rest, in one read.
    const stored = await ictx.store.getMany(unknown.map(cellKey));
    const notStored: VisitorCell[] = [];
    unknown.forEach((c, i) => {
      const value = stored[i];
      if (typeof value === "number") values.set(cellKey(c), value);
      else notStored.push(c);
    });
    // Then the kept counts of closed spans (once: one read of the store).
    const kept = pass === 0 ? await readKeptCounts(ictx, notStored.map(keptCount)) : new Map<string, number>();
    for (const c of notStored) {
      const value = kept.get(cellKey(c));
      if (value !== undefined) values.set(cellKey(c), value);
      else open.push(c);
    }
    if (open.length === 0) break;
    const missing = all.filter((d) => !entries.has(dayKey(d)) && open.some((c) => c.span.startMs <= d.startMs && d.endMs <= c.span.endMs));
    if (pass < 3 && missing.length > 0) {
      const listed = await listingsOf(ictx, windows, missing, open);
      for (const l of listed)
        for (const [k, v] of (l?.kind === "listed" && l.byDimension.get(VISITOR_DAYS.key)) || []) entries.set(k, v as DayEntry<VisitorDay>);
      // A listing that could not be exact leaves its days to counting.
      if (listed.every((l) => l?.kind === "listed" && l.byDimension.has(VISITOR_DAYS.key))) continue;
    }
    const countedFrom = ictx.now();
    await eachBounded(open, (c, signal) => countCell({ ...ictx, signal }, c).then((v) => values.set(cellKey(c), v)), ictx.signal);
    // The counts of spans closed before counting began, kept in one write.
    await keepCounts(
      ictx,
      open.map((c) => ({ ...keptCount(c), value: values.get(cellKey(c))! })),
      countedFrom,
    );
    break;
  }
  return cells.map((c) => values.get(cellKey(c))!);
}
