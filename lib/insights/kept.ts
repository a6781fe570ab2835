// The one place where the insights' figures of closed days meet the store: a day's summary of every
// dimension (visitors by source, by country and city; mentions by platform and competitor, by
// question) and every count of a closed span are kept per workspace (lib/store/kept-days.ts) when a
// listing or a count produced them, in one write per listing (and one per round of counts), and read
// back for any range, after a restart and on every instance, before the upstream is asked.
// - Closed days are final once read whole: a day (or span) is kept as closed once it had ended before
//   the listing (or count) that read it began. Today's figures so far are kept too, with the instant
//   they were read, and answered as long as the insights' cache holds an open day
//   (INSIGHTS_OPEN_TTL_MS, 30 s): on every instance and across a restart, never longer than one
//   process would have answered them from memory. A row read before its day ended is never taken for
//   the closed day (its listing replaces it).
// - Late changes: a kept day younger than a week (FINAL_AFTER_MS) is checked again when read if the
//   upstream last confirmed it more than DAY_RECHECK_MINUTES ago. Counts first, the cheapest calls
//   that can show a change: per run of consecutive due days one count per check of its list (visitors:
//   all, converted; mentions: all), against the sums the listing counted; equal, the days are
//   confirmed (for every dimension of that list) and answered; different, the run is halved until the
//   days that moved are found, and only those are listed again (the new listing keeps them anew). A
//   kept count of a span with a young day is counted again, except that due counts of consecutive
//   days (a trend's) are first checked together with one count of their run. Older days are final.
// - The answers stay exact: what is answered from a kept day is the very entry the listing made, so
//   every route answers the same from kept days as from the upstream.
// A day whose rows include one the listing could not place (an unreadable first_seen) is counted by
// the upstream but not by the listing: it is listed again at each due check while it is young.
import "server-only";
import type { Source } from "@/lib/data-api/constants";
import { spanKey, type KeptDay, type KeptDayWrite, type KeptSpan } from "@/lib/store/kept-days";
import { runsOf, spanOf, type Day, type DaySpan } from "./range";
import { dimensionKeysOf } from "./registry";
import type { DayEntry, InsightsContext, ListedResource } from "./types";

/** What checking a kept day needs of its list: its name, its checks and how it counts. */
type CheckedList = { noun: string; checks: ReadonlyArray<{ name: string; filter?: "converted" }>; count: ListedResource<never>["count"] };

/** A dimension as its kept days need it: its key (the figure) and its list. */
export type KeptDimension = { key: string; resource: CheckedList };

/** How old a day must be (from its end) before it is final: never checked again. */
export const FINAL_AFTER_MS = 7 * 86_400_000;

/** The figure a dimension's days are kept under: its key without the colon (`vd2:` is `vd2`). */
const figureOf = (dim: { key: string }) => dim.key.replace(/:$/, "");

/** The figure a visitor count is kept under: `vc:<source or *>:<converted or *>`. */
export const countFigure = (cell: { source?: string; converted?: true }) => `vc:${cell.source ?? "*"}:${cell.converted ? "converted" : "*"}`;

const hasInstants = (span: KeptSpan) => span.endMs > span.startMs;

/** Whether `span` is over at `now` (a closed day or span), or still open (today). */
const isClosed = (span: KeptSpan, now: number) => span.endMs <= now;

/**
 * Whether a kept row may answer for its span at `now`: a closed span's row read after it ended
 * (whole), or an open span's row read less than the open-day cache time ago (today so far).
 */
function answers(ictx: InsightsContext, row: KeptDay, now: number): boolean {
  if (isClosed(row, now)) return row.keptAt >= row.endMs;
  return ictx.ttl.openMs > 0 && now - row.keptAt < ictx.ttl.openMs;
}

/**
 * How long the insights' cache may hold a figure answered from a kept row: a closed span's usual
 * time; an open one's what is left of its open-day time, counted from when it was read.
 */
function cacheTime(ictx: InsightsContext, span: KeptSpan, row: KeptDay | undefined): number {
  const now = ictx.now();
  if (isClosed(span, now) || !row) return ictx.ttlFor(span.endMs);
  return Math.max(1, ictx.ttl.openMs - (now - row.keptAt));
}

/** Whether today's figures are kept (the open-day cache time is not zero). */
const keepsOpen = (ictx: InsightsContext) => ictx.ttl.openMs > 0;

/** Whether a kept figure must be confirmed upstream before it is answered. */
function isDue(ictx: InsightsContext, row: KeptDay): boolean {
  const now = ictx.now();
  return isClosed(row, now) && now - row.endMs < FINAL_AFTER_MS && now - row.checkedAt >= ictx.kept!.recheckMs;
}

/**
 * Keeps the days of a listing that had ended when it began (`startedAt`): every dimension's entry of
 * each day, with the day's counts of the list's checks, in one write.
 */
export async function keepListed(
  ictx: InsightsContext,
  dimensions: ReadonlyArray<{ key: string }>,
  span: DaySpan,
  byDimension: ReadonlyMap<string, ReadonlyMap<string, DayEntry<unknown>>>,
  checks: ReadonlyArray<Record<string, number>>,
  startedAt: number,
): Promise<void> {
  if (!ictx.kept) return;
  const now = startedAt;
  const rows: KeptDayWrite[] = [];
  for (const dim of dimensions) {
    const entries = byDimension.get(dim.key);
    if (!entries) continue;
    span.days.forEach((d, i) => {
      const entry = entries.get(spanKey(d));
      if (!entry || !hasInstants(d)) return;
      // As read when the listing began: a closed day's row then shows it was read whole.
      if (isClosed(d, now) || keepsOpen(ictx))
        rows.push({ figure: figureOf(dim), startMs: d.startMs, endMs: d.endMs, data: entry, checks: checks[i]!, readAt: now });
    });
  }
  await ictx.kept.keep(rows);
}

/**
 * Fills `into` with the kept entries of `dim` for the closed days of `days` it lacks (one read of
 * the store), after confirming upstream those due for a check; a day found changed is left out (it
 * is listed again by the caller). What is answered from here is also put in the insights store.
 */
export async function readKeptDays<S>(ictx: InsightsContext, dim: KeptDimension, days: readonly Day[], into: Map<string, DayEntry<S>>): Promise<void> {
  if (!ictx.kept) return;
  const now = ictx.now();
  const wanted = days.filter((d) => !into.has(spanKey(d)) && hasInstants(d) && (isClosed(d, now) || keepsOpen(ictx)));
  if (wanted.length === 0) return;
  const figure = figureOf(dim);
  const rows = (await ictx.kept.read([figure], wanted)).get(figure) ?? new Map<string, KeptDay>();
  const ready: Array<[Day, KeptDay]> = [];
  const due: Array<[Day, KeptDay]> = [];
  for (const d of wanted) {
    const row = rows.get(spanKey(d));
    if (row && answers(ictx, row, now)) (isDue(ictx, row) ? due : ready).push([d, row]);
  }
  const remember = (days: ReadonlyArray<[Day, KeptDay]>) =>
    ictx.store.setMany(days.map(([d, row]) => ({ key: dim.key + spanKey(d), value: row.data, ttlMs: cacheTime(ictx, d, row) })));
  if (due.length > 0) {
    // Another request may have just checked them (its answer is then in the insights store): read it
    // once more rather than counting again.
    const cached = await ictx.store.getMany(due.map(([d]) => dim.key + spanKey(d)));
    const unchecked = due.filter((_, i) => cached[i] === undefined);
    due.forEach(([d], i) => cached[i] !== undefined && into.set(spanKey(d), cached[i] as DayEntry<S>));
    if (unchecked.length > 0) {
      const confirmed = await checkKeptDays(ictx, dim.resource, unchecked);
      // In the insights store first, then marked in the kept days: a request reading either meanwhile counts nothing again.
      await remember(confirmed);
      await ictx.kept.confirm(
        dimensionKeysOf(dim.resource.noun).map((key) => figureOf({ key })),
        confirmed.map(([d]) => ({ startMs: d.startMs, endMs: d.endMs })),
      );
      for (const [d, row] of confirmed) into.set(spanKey(d), row.data as DayEntry<S>);
    }
  }
  for (const [d, row] of ready) into.set(spanKey(d), row.data as DayEntry<S>);
  await remember(ready);
}

/** `meta.total` of `resource` over `span` with `check`'s filter, asked of the Data API itself, shared by concurrent checks. */
function countCheck(ictx: InsightsContext, resource: CheckedList, span: KeptSpan, check: { name: string; filter?: "converted" }): Promise<number | undefined> {
  return ictx.state.flights.run(
    `kept-check:${resource.noun}:${spanKey(span)}:${check.name}`,
    (signal) =>
      resource.count(
        ictx.api,
        { from: new Date(span.startMs).toISOString(), to: new Date(span.endMs - 1).toISOString(), ...(check.filter ? { filter: check.filter } : {}) },
        { signal, fresh: true },
      ),
    ictx.signal,
  );
}

/**
 * Checks `due` kept days of `resource` upstream: per run of consecutive days, one count per check
 * against the sums kept; a run that differs is halved until the days that moved are found. Answers
 * the days found unchanged (the caller marks them, for every dimension of the list); the others are
 * left out.
 */
async function checkKeptDays(ictx: InsightsContext, resource: CheckedList, due: ReadonlyArray<[Day, KeptDay]>): Promise<Array<[Day, KeptDay]>> {
  const rowOf = new Map(due.map(([d, row]) => [spanKey(d), row]));
  const unchanged: Day[] = [];
  const same = async (days: Day[]): Promise<boolean> => {
    const span = spanOf(days);
    for (const check of resource.checks) {
      const kept = days.reduce((n, d) => n + (rowOf.get(spanKey(d))!.checks[check.name] ?? Number.NaN), 0);
      if ((await countCheck(ictx, resource, span, check)) !== kept) return false;
    }
    return true;
  };
  const settle = async (days: Day[]): Promise<void> => {
    if (await same(days)) unchanged.push(...days);
    else if (days.length > 1) {
      const mid = days.length >> 1;
      await Promise.all([settle(days.slice(0, mid)), settle(days.slice(mid))]);
    }
  };
  await Promise.all(runsOf(due.map(([d]) => d)).map((run) => settle(run.days)));
  return unchanged.map((d) => [d, rowOf.get(spanKey(d))!]);
}

/** A visitor count to find among the kept ones: its insights-store key, figure and span. */
export type KeptCount = { key: string; figure: string; span: KeptSpan };

/**
 * The kept values of `counts` whose spans are closed and not due for a check (one read of the
 * store), by key; each also put in the insights store. A due one is left to be counted again (the
 * count is its own check).
 */
export async function readKeptCounts(ictx: InsightsContext, counts: readonly KeptCount[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (!ictx.kept) return found;
  const now = ictx.now();
  const wanted = counts.filter((c) => hasInstants(c.span) && (isClosed(c.span, now) || keepsOpen(ictx)));
  if (wanted.length === 0) return found;
  const rows = await ictx.kept.read(
    [...new Set(wanted.map((c) => c.figure))],
    wanted.map((c) => c.span),
  );
  const due = new Map<string, Array<{ count: KeptCount; value: number }>>();
  for (const c of wanted) {
    const row = rows.get(c.figure)?.get(spanKey(c.span));
    if (!row || typeof row.data !== "number" || !answers(ictx, row, now)) continue;
    if (!isDue(ictx, row)) found.set(c.key, row.data);
    else due.set(c.figure, [...(due.get(c.figure) ?? []), { count: c, value: row.data }]);
  }
  // Due counts of consecutive spans (a trend's days) are checked together: one count of the run
  // against their sum; equal, all are confirmed; else each is counted again by the caller.
  await Promise.all(
    [...due].flatMap(([figure, counts]) =>
      runsOfSpans(counts).map(async (run) => {
        if (run.length < 2) return;
        const span = { startMs: run[0]!.count.span.startMs, endMs: run.at(-1)!.count.span.endMs };
        if ((await countFigureOver(ictx, figure, span)) !== run.reduce((n, r) => n + r.value, 0)) return;
        for (const r of run) found.set(r.count.key, r.value);
        await ictx.kept!.confirm(
          [figure],
          run.map((r) => r.count.span),
        );
      }),
    ),
  );
  await ictx.store.setMany(
    wanted.flatMap((c) =>
      found.has(c.key) ? [{ key: c.key, value: found.get(c.key), ttlMs: cacheTime(ictx, c.span, rows.get(c.figure)?.get(spanKey(c.span))) }] : [],
    ),
  );
  return found;
}

/** `counts` (of one figure) as runs of consecutive spans, each in order. */
function runsOfSpans<T extends { count: KeptCount }>(counts: readonly T[]): T[][] {
  const sorted = [...counts].sort((a, b) => a.count.span.startMs - b.count.span.startMs);
  const runs: T[][] = [];
  for (const c of sorted) {
    const last = runs.at(-1)?.at(-1);
    if (last && last.count.span.endMs === c.count.span.startMs) runs.at(-1)!.push(c);
    else runs.push([c]);
  }
  return runs;
}

/** A visitor count figure (`vc:<source or *>:<converted or *>`) counted upstream over `span`, asked of the Data API itself. */
function countFigureOver(ictx: InsightsContext, figure: string, span: KeptSpan): Promise<number | undefined> {
  const [, source, converted] = figure.split(":");
  return ictx.state.flights.run(
    `kept-check:${figure}:${spanKey(span)}`,
    async (signal) =>
      (
        await ictx.api.get(
          "/visitors",
          {
            query: {
              from: new Date(span.startMs).toISOString(),
              to: new Date(span.endMs - 1).toISOString(),
              limit: 1,
              ...(source && source !== "*" ? { source: source as Source } : {}),
              ...(converted === "converted" ? { converted: "true" as const } : {}),
            },
          },
          { signal, fresh: true },
        )
      ).meta.total,
    ictx.signal,
  );
}

/** Keeps the counts just counted of spans that had ended when the counting began (`startedAt`), in one write. */
export async function keepCounts(ictx: InsightsContext, counted: ReadonlyArray<KeptCount & { value: number }>, startedAt: number): Promise<void> {
  if (!ictx.kept) return;
  const now = startedAt;
  await ictx.kept.keep(
    counted
      .filter((c) => hasInstants(c.span) && (isClosed(c.span, now) || keepsOpen(ictx)))
      .map((c) => ({
        figure: c.figure,
        startMs: c.span.startMs,
        endMs: c.span.endMs,
        data: c.value,
        checks: { rows: c.value },
        readAt: now,
      })),
  );
}
