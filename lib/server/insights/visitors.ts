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
// readable first_seen, source or converted, is dropped for counting, exact by construction.
// Day summaries and counts are stored per key (hours once closed, seconds while open).
import "server-only";
import { PAGE_SIZE_MAX, SOURCES, type Source } from "@/lib/data-api/constants";
import { DataApiError } from "@/lib/data-api/errors";
import type { ListEnvelope, Visitor } from "@/lib/data-api/schemas";
import type { InsightsContext } from "./context";
import {
  coveringSpan,
  dayIndexOf,
  dayKey,
  eachBounded,
  listAll,
  listBounds,
  listingsFor,
  readStoredDays,
  storeDays,
  trackListing,
} from "./listing";
import { spanOf, type Day, type DaySpan } from "./range";

/** One figure: visitors first seen in `span`, optionally only of one source and/or only converted. */
export type VisitorCell = { span: DaySpan; source?: Source; converted?: true };

/** A day's visitors (by first_seen), overall and per source (SOURCES order). */
export type VisitorDay = { visitors: number; conversions: number; bySource: number[]; conversionsBySource: number[] };

/** A listing's day summaries by day key, or null when it could not be exact. */
export type VisitorListing = Map<string, VisitorDay> | null;

/** A plan's outcome: a listing to wait for (wrapped: a promise would flatten), or null to count. */
type Decision = { listing: Promise<VisitorListing> } | null;
export type PendingPlan = { cells: Set<string>; decision: Promise<Decision> };

const DAY = "vd:";
const cellKey = (c: VisitorCell) => `vc:${dayKey(c.span)}:${c.source ?? "*"}:${c.converted ? "converted" : "*"}`;
const unlistableKey = (span: DaySpan) => `vx:${dayKey(span)}`;

/** The figure from day summaries, when every day of its span has one. */
function fromDays(cell: VisitorCell, days: Map<string, VisitorDay>): number | undefined {
  const s = cell.source === undefined ? -1 : SOURCES.indexOf(cell.source);
  let sum = 0;
  for (const d of cell.span.days) {
    const day = days.get(dayKey(d));
    if (!day) return undefined;
    if (s < 0) sum += cell.converted ? day.conversions : day.visitors;
    else sum += cell.converted ? day.conversionsBySource[s]! : day.bySource[s]!;
  }
  return sum;
}

/** One figure counted upstream (`meta.total` with limit=1), shared by concurrent askers and stored. */
function countCell(ictx: InsightsContext, cell: VisitorCell): Promise<number> {
  const key = cellKey(cell);
  return ictx.state.flights.run(key, async () => {
    const page = await ictx.api.get("/visitors", {
      query: {
        ...listBounds(cell.span),
        limit: 1,
        ...(cell.source ? { source: cell.source } : {}),
        ...(cell.converted ? { converted: "true" as const } : {}),
      },
    });
    const total = page.meta.total;
    if (total === undefined) {
      throw new DataApiError({ status: 502, code: "unexpected_response", message: "The Data API did not say how many visitors match, so this figure cannot be counted." });
    }
    await ictx.store.set(key, total, ictx.ttlFor(cell.span.endMs));
    return total;
  });
}

const visitorPage = (ictx: InsightsContext, span: DaySpan, offset: number): Promise<ListEnvelope<Visitor>> =>
  ictx.api.get("/visitors", { query: { ...listBounds(span), limit: PAGE_SIZE_MAX, offset } });

/** Per-day summaries of the visitors of `span`, or null if a row cannot be placed exactly. */
function summarise(span: DaySpan, rows: readonly Visitor[]): VisitorDay[] | null {
  const days = span.days.map(() => ({ visitors: 0, conversions: 0, bySource: SOURCES.map(() => 0), conversionsBySource: SOURCES.map(() => 0) }));
  for (const row of rows) {
    const i = row.first_seen === undefined ? -1 : dayIndexOf(span.days, Date.parse(row.first_seen));
    const s = row.source === undefined ? -1 : SOURCES.indexOf(row.source as Source);
    if (i < 0 || s < 0 || row.converted === undefined) return null;
    const day = days[i]!;
    const c = row.converted ? 1 : 0;
    day.visitors++;
    day.conversions += c;
    day.bySource[s]!++;
    day.conversionsBySource[s]! += c;
  }
  return days;
}

/** Reads every page of `span` (its first page given, or fetched) and sums it per day; null when a row cannot be placed. */
async function readSpan(ictx: InsightsContext, span: DaySpan, first?: ListEnvelope<Visitor>): Promise<{ days: VisitorDay[] | null; exact: boolean }> {
  const read = await listAll(first ?? (await visitorPage(ictx, span, 0)), (offset) => visitorPage(ictx, span, offset));
  return { days: read.unreadable === 0 ? summarise(span, read.rows) : null, exact: read.exact };
}

/** Most days of a listing that may be read again before counting is cheaper. */
const MAX_DAYS_TO_REREAD = 8;

/**
 * Completes a listing that moved while it was read (a returning visitor jumps to the front of the
 * last_seen order: one row is seen twice and another never; a new visitor arrives). Every row seen
 * is a true member of its day, so a day is complete when its count says so. Counting halves of the
 * span finds the days short of rows (about 2 log2(days) calls per row missed); those days alone are
 * read again. Null when that does not settle it: counting takes over.
 */
async function completeMovedListing(ictx: InsightsContext, span: DaySpan, days: VisitorDay[]): Promise<VisitorDay[] | null> {
  const seen = (a: number, b: number) => days.slice(a, b).reduce((n, d) => n + d.visitors, 0);
  const short = async (a: number, b: number): Promise<number[]> => {
    // Counted after the listing, so a count below what was seen is older than the rows: settled.
    if (seen(a, b) >= (await countCell(ictx, { span: spanOf(span.days.slice(a, b)) }))) return [];
    if (b - a === 1) return [a];
    const mid = (a + b) >> 1;
    return (await Promise.all([short(a, mid), short(mid, b)])).flat();
  };
  const missing = await short(0, span.days.length);
  if (missing.length > MAX_DAYS_TO_REREAD) return null;
  const reread = await Promise.all(missing.map((i) => readSpan(ictx, spanOf([span.days[i]!]))));
  if (reread.some((r) => !r.exact || !r.days)) return null;
  const out = [...days];
  missing.forEach((i, k) => (out[i] = reread[k]!.days![0]!));
  return out;
}

/** Lists `span` from its first page, stores its day summaries, and tells joiners while it runs. */
function startListing(ictx: InsightsContext, span: DaySpan, first: ListEnvelope<Visitor>): Promise<VisitorListing> {
  const job = (async (): Promise<VisitorListing> => {
    const read = await readSpan(ictx, span, first);
    const days = read.days && !read.exact ? await completeMovedListing(ictx, span, read.days) : read.days;
    if (!days) {
      // Counting answers this span from now on: as long as its days last if a row cannot be read
      // (it stays so), seconds if the list kept moving (it may settle).
      await ictx.store.set(unlistableKey(span), true, read.days ? ictx.ttl.openMs : ictx.ttlFor(span.endMs));
      return null;
    }
    await storeDays(ictx, DAY, span.days, days);
    return new Map(span.days.map((d, i) => [dayKey(d), days[i]!]));
  })();
  return trackListing(ictx.state.visitorListings, span, job);
}

/**
 * Decides how to get `cells` (none answerable from stored figures) whose missing days are `span`:
 * a listing to wait for, or null to count them. Routes asking for the same span while its first
 * page is fetched join the plan with their figures.
 */
async function plan(ictx: InsightsContext, span: DaySpan, cells: VisitorCell[]): Promise<Decision> {
  const strategy = ictx.policy.strategy;
  if (strategy === "count") return null;
  if (strategy === "auto" && (await ictx.store.get(unlistableKey(span))) !== undefined) return null;
  const id = dayKey(span);
  const pending = ictx.state.plans.get(id);
  if (pending) {
    for (const c of cells) pending.cells.add(cellKey(c));
    return pending.decision;
  }
  const gathering: PendingPlan = { cells: new Set(cells.map(cellKey)), decision: Promise.resolve(null) };
  gathering.decision = (async () => {
    try {
      const [first] = await Promise.all([visitorPage(ictx, span, 0), new Promise((r) => setTimeout(r, ictx.policy.gatherMs))]);
      const total = first.meta.total;
      // Without a total a listing cannot be checked, so it cannot be exact.
      if (total === undefined) return null;
      const pagesLeft = Math.ceil(total / PAGE_SIZE_MAX) - 1;
      if (strategy === "auto" && pagesLeft > gathering.cells.size) return null;
      return { listing: startListing(ictx, span, first) };
    } finally {
      ictx.state.plans.delete(id);
    }
  })();
  ictx.state.plans.set(id, gathering);
  return gathering.decision;
}

/** The listings that will summarise `missing` days: those in flight for them, else one planned now (null: count). */
async function listingsOf(ictx: InsightsContext, window: DaySpan, missing: Day[], open: VisitorCell[]): Promise<VisitorListing[] | null> {
  const inFlight = listingsFor(ictx.state.visitorListings, missing);
  if (inFlight.length > 0) return Promise.all(inFlight);
  const decision = await plan(ictx, spanOf(coveringSpan(window.days, missing)), open);
  return decision && [await decision.listing];
}

/**
 * The exact values of `cells` (spans of whole days within `window`), from stored day summaries,
 * stored counts, a listing (in flight, or planned now) or counting.
 */
export async function visitorCounts(ictx: InsightsContext, window: DaySpan, cells: readonly VisitorCell[]): Promise<number[]> {
  const days = new Map<string, VisitorDay>();
  const values = new Map<string, number>();
  const unique = [...new Map(cells.map((c) => [cellKey(c), c])).values()];
  // Each pass answers more from what is stored or was just listed; at worst the last one counts.
  for (let pass = 0; ; pass++) {
    await readStoredDays(ictx, DAY, window.days, days);
    const open: VisitorCell[] = [];
    const unknown: VisitorCell[] = [];
    for (const c of unique) {
      if (values.has(cellKey(c))) continue;
      const value = fromDays(c, days);
      if (value !== undefined) values.set(cellKey(c), value);
      else unknown.push(c);
    }
    // The stored counts of the rest, in one read.
    const stored = await ictx.store.getMany(unknown.map(cellKey));
    unknown.forEach((c, i) => {
      const value = stored[i];
      if (typeof value === "number") values.set(cellKey(c), value);
      else open.push(c);
    });
    if (open.length === 0) break;
    const missing = window.days.filter((d) => !days.has(dayKey(d)) && open.some((c) => c.span.startMs <= d.startMs && d.endMs <= c.span.endMs));
    if (pass < 3 && missing.length > 0) {
      const listed = await listingsOf(ictx, window, missing, open);
      for (const l of listed ?? []) for (const [k, v] of l ?? []) days.set(k, v);
      // A listing that could not be exact leaves its days to counting.
      if (listed?.every((l) => l !== null)) continue;
    }
    await eachBounded(open, (c) => countCell(ictx, c).then((v) => values.set(cellKey(c), v)));
    break;
  }
  return cells.map((c) => values.get(cellKey(c))!);
}
