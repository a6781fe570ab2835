// Queries over the visitor columns: the filtered list, and per-period aggregates (overview, traffic,
// funnel) computed from the same rows with the same window rule, so they always agree.
import { KNOWN_INTENTS, SOURCES, type Period, type VisitorListQuery } from "./contract";
import { DAY_MS, isAiSourceIndex, type VisitorColumns } from "./visitors";

export const PERIOD_MS: Record<Period, number> = {
  "24h": DAY_MS,
  "7d": 7 * DAY_MS,
  "30d": 30 * DAY_MS,
  "90d": 90 * DAY_MS,
};

/**
 * A period's window: visitors first seen at or after `startMs` and at or before `endMs` (= now),
 * exactly what `/visitors?from=<start ISO>&to=<now ISO>` selects. The previous window is the same
 * length just before it: [startMs - P, startMs).
 */
export function periodWindow(nowMs: number, period: Period): { startMs: number; endMs: number } {
  return { startMs: nowMs - PERIOD_MS[period], endMs: nowMs };
}

export type WindowTotals = {
  visitors: number;
  pageviews: number;
  engaged: number;
  leads: number;
  conversions: number;
  ai: number;
  bySource: number[];
};

const emptyTotals = (): WindowTotals => ({
  visitors: 0,
  pageviews: 0,
  engaged: 0,
  leads: 0,
  conversions: 0,
  ai: 0,
  bySource: SOURCES.map(() => 0),
});

/** Totals over visitors with first_seen in [fromMs, toMs] (toInclusive) or [fromMs, toMs). */
function windowTotals(cols: VisitorColumns, fromMs: number, toMs: number, toInclusive: boolean): WindowTotals {
  const t = emptyTotals();
  const { firstSeen, lastSeen, source, pages, lead, converted } = cols;
  for (let r = 0; r < cols.count; r++) {
    // Rows run by last_seen descending and first_seen <= last_seen: nothing further can match.
    if (lastSeen[r]! < fromMs) break;
    const f = firstSeen[r]!;
    if (f < fromMs || (toInclusive ? f > toMs : f >= toMs)) continue;
    const s = source[r]!;
    const p = pages[r]!;
    t.visitors++;
    t.pageviews += p;
    if (p >= 2) t.engaged++;
    t.leads += lead[r]!;
    t.conversions += converted[r]!;
    if (isAiSourceIndex(s)) t.ai++;
    t.bySource[s]!++;
  }
  return t;
}

export type PeriodAggregate = { period: Period; startMs: number; endMs: number; current: WindowTotals; previous: WindowTotals };

/** Per-period aggregates, computed once per period and cached (the data never changes). */
export function createAggregates(cols: VisitorColumns): (period: Period) => PeriodAggregate {
  const cache = new Map<Period, PeriodAggregate>();
  return (period) => {
    let agg = cache.get(period);
    if (!agg) {
      const { startMs, endMs } = periodWindow(cols.nowMs, period);
      agg = {
        period,
        startMs,
        endMs,
        current: windowTotals(cols, startMs, endMs, true),
        previous: windowTotals(cols, startMs - PERIOD_MS[period], startMs, false),
      };
      cache.set(period, agg);
    }
    return agg;
  };
}

/** Percentage points with one decimal (12.5 means 12.5%). */
export const pct = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

/** Relative change in percentage points; 0 when both are 0, 100 when growing from 0. */
export const change = (current: number, previous: number): number =>
  previous === 0 ? (current === 0 ? 0 : 100) : Math.round(((current - previous) / previous) * 1000) / 10;

function windowFields(agg: PeriodAggregate) {
  return { period: agg.period, from: new Date(agg.startMs).toISOString(), to: new Date(agg.endMs).toISOString() };
}

export function overviewJson(agg: PeriodAggregate) {
  const { current: c, previous: p } = agg;
  return {
    visitors: { total: c.visitors, change: change(c.visitors, p.visitors) },
    pageviews: { total: c.pageviews, change: change(c.pageviews, p.pageviews) },
    conversions: { total: c.conversions, rate: pct(c.conversions, c.visitors), change: change(c.conversions, p.conversions) },
    ai_traffic: { total: c.ai, percentage: pct(c.ai, c.visitors) },
    ...windowFields(agg),
  };
}

export function trafficJson(agg: PeriodAggregate) {
  return {
    ...windowFields(agg),
    data: SOURCES.map((source, i) => ({
      source,
      visitors: agg.current.bySource[i]!,
      percentage: pct(agg.current.bySource[i]!, agg.current.visitors),
      change: change(agg.current.bySource[i]!, agg.previous.bySource[i]!),
    })),
  };
}

/** Funnel stages in order; `rate` is each stage's share of the period's visitors (percentage points). */
export function funnelJson(agg: PeriodAggregate) {
  const c = agg.current;
  const stages: Array<[string, string, number]> = [
    ["visitors", "Visitors", c.visitors],
    ["engaged", "Engaged (2+ pages)", c.engaged],
    ["leads", "Leads (form submitted)", c.leads],
    ["conversions", "Conversions", c.conversions],
  ];
  return {
    ...windowFields(agg),
    data: stages.map(([stage, label, count]) => ({ stage, label, count, rate: pct(count, c.visitors) })),
  };
}

// ---------------------------------------------------------------------------------------------
// The visitor list.

/** Rows matching the filters, in list order: the total and the rows of one page. */
export function queryVisitors(cols: VisitorColumns, query: VisitorListQuery): { total: number; rows: number[] } {
  const fromMs = query.from ?? -Infinity;
  const toMs = query.to ?? Infinity;
  const sourceIdx = query.source ? SOURCES.indexOf(query.source) : -1;
  // Intent is an open set: a well-formed value no visitor has simply matches nothing.
  const intentIdx = query.intent === undefined ? -1 : (KNOWN_INTENTS as readonly string[]).indexOf(query.intent);
  if (query.intent !== undefined && intentIdx < 0) return { total: 0, rows: [] };
  const conv = query.converted === undefined ? -1 : query.converted ? 1 : 0;
  const { firstSeen, lastSeen, source, intent, converted } = cols;
  const start = query.offset;
  const end = query.offset + query.limit;
  const rows: number[] = [];
  let total = 0;
  for (let r = 0; r < cols.count; r++) {
    if (lastSeen[r]! < fromMs) break;
    if (sourceIdx >= 0 && source[r] !== sourceIdx) continue;
    if (intentIdx >= 0 && intent[r] !== intentIdx) continue;
    if (conv >= 0 && converted[r] !== conv) continue;
    const f = firstSeen[r]!;
    if (f < fromMs || f > toMs) continue;
    if (total >= start && total < end) rows.push(r);
    total++;
  }
  return { total, rows };
}
