// GET /api/visitors and the visitor export's rows: the Data API's list as it is, or, with
// `source=ai`, the four AI platforms' visitors as one list (filtered.ts), since the Data API's list
// filters one source at a time: each platform's visitors of the range (and of the intent and
// converted filter asked for) are listed, and the four lists merged in the order the Data API gives
// visitors (`last_seen`, newest first), so `meta.total` is exactly the overview's AI visitors of the
// range. `ai` is never sent upstream. The four lists are bounded together: their first pages'
// totals over the cap (INSIGHTS_MAX_LISTED_ROWS) together are a 422 before anything more is read.
import "server-only";
import type { CallOptions } from "@/lib/data-api/api";
import { withScope } from "@/lib/data-api/cache";
import { AI_SOURCE_GROUP, AI_SOURCES, PAGE_SIZE_MAX } from "@/lib/data-api/constants";
import { visitorPageParams, type VisitorPageParams } from "@/lib/data-api/params";
import type { Visitor } from "@/lib/data-api/schemas";
import { defineRoute, HEAD_COSTS_UPSTREAM } from "@/lib/server/route-types";
import { insightsContext, type InsightsContext } from "@/lib/insights/context";
import { UPSTREAM_CONCURRENCY } from "@/lib/insights/listing";
import { callOptions, pageOf, readMatching, tooLarge, type FilteredPage, type ListSource, type Matching } from "./filtered";

export type VisitorList = FilteredPage<Visitor>;

/** The filters of a visitor query sent to the Data API with each platform: all but `source`. */
type UpstreamVisitorFilters = Pick<VisitorPageParams, "intent" | "converted" | "from" | "to">;

export function upstreamVisitorFilters(q: UpstreamVisitorFilters): UpstreamVisitorFilters {
  const { intent, converted, from, to } = q;
  return { ...(intent ? { intent } : {}), ...(converted ? { converted } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** Whether the dashboard makes this list itself (`source=ai`). */
export const filtersVisitors = (q: Pick<VisitorPageParams, "source">): boolean => q.source === AI_SOURCE_GROUP;

const NOUN = { singular: "AI visitor", filter: "list the AI platforms' visitors together" };

/** When a visitor was last seen, for the merge (newest first); a missing time sorts after every known one. */
const lastSeenMs = (v: Visitor): number => {
  const ms = v.last_seen === undefined ? Number.NaN : Date.parse(v.last_seen);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
};

/**
 * The AI platforms' visitors of the filters, newest `last_seen` first (a tie: the platforms' order,
 * then each list's own), each platform's list read through the key's client at `priority`.
 */
export async function matchingAiVisitors(ictx: InsightsContext, q: UpstreamVisitorFilters, priority?: CallOptions["priority"]): Promise<Matching<Visitor>> {
  const filters = upstreamVisitorFilters(q);
  const ranged = Boolean(filters.from || filters.to);
  const lists = AI_SOURCES.map(
    (source): ListSource<Visitor> =>
      ({ fresh }) =>
      (offset, signal) =>
        ictx.api.get("/visitors", { query: { ...filters, source, limit: PAGE_SIZE_MAX, offset } }, callOptions(signal, fresh, priority)),
  );
  // One failing list stops the others at once (the scope aborts when this settles).
  return withScope(ictx.signal, async (signal) => {
    const own = { ...ictx, signal };
    const firsts = await Promise.all(lists.map((list) => list({ fresh: false })(0, signal)));
    const total = firsts.reduce((n, first) => n + (first.meta.total ?? 0), 0);
    if (total > ictx.maxListedRows) throw tooLarge(NOUN, total, ictx.maxListedRows, ranged);
    // Four lists at once share one computation's pool of calls.
    const concurrency = Math.max(1, Math.floor(UPSTREAM_CONCURRENCY / lists.length));
    const read = await Promise.all(lists.map((list, i) => readMatching(own, list, () => true, NOUN, { first: firsts[i]!, ranged, concurrency })));
    const merged = read.flatMap((r, platform) => r.kept.map((k) => ({ ...k, platform, seen: lastSeenMs(k.row) })));
    merged.sort((a, b) => b.seen - a.seen || a.platform - b.platform || a.at - b.at);
    return { rows: merged.map((m) => m.row), unchecked: read.reduce((n, r) => n + r.unchecked, 0) };
  });
}

/** The AI platforms' visitors for a page's requests: identical concurrent ones (any page of the same filters) share one listing. */
function sharedAiVisitors(apiKey: string, q: UpstreamVisitorFilters, signal: AbortSignal | undefined): Promise<Matching<Visitor>> {
  const ictx = insightsContext(apiKey);
  const id = `list:visitors:ai:${JSON.stringify(upstreamVisitorFilters(q))}`;
  return ictx.state.flights.run(id, (own) => matchingAiVisitors({ ...ictx, signal: own }, q), signal);
}

/** GET /api/visitors: the Data API's visitor list, or the four AI platforms' visitors together with `source=ai`. */
export const visitorsRoute = defineRoute(
  { access: "session", query: visitorPageParams, subject: "the visitor list", headRefused: HEAD_COSTS_UPSTREAM },
  async ({ api, session, query: q, signal }): Promise<VisitorList> => {
    if (!filtersVisitors(q)) {
      const source = q.source as Exclude<VisitorPageParams["source"], typeof AI_SOURCE_GROUP>;
      const query = { ...upstreamVisitorFilters(q), ...(source ? { source } : {}), limit: q.limit, offset: q.offset };
      return api.get("/visitors", { query }, signal ? { signal } : {});
    }
    return pageOf(await sharedAiVisitors(session.apiKey, q, signal), q.limit, q.offset);
  },
);
