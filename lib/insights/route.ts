// One insights route from its answer function: its query schema (the shared range: from, to, tz,
// bucket; with `compare` where the answer has a `previous`; and the route's own filters), the range
// resolved at the server's clock (400 naming `from` when a default makes it backwards or too long,
// `bucket` when days are asked for over too long a range, `compare_to` when a custom comparison is
// not as long as the range), and identical concurrent requests of a key sharing one computation,
// which ends when the last of them goes away (its signal reaches every upstream call and every
// shared run it joins); every change of the answer judged for chance. Also the rounding rules every insight shares (docs/product.md "Insights":
// percentage points and positions to one decimal).
import "server-only";
import type { z } from "zod";
import { insightsParams, type InsightsParams } from "@/lib/insights/schema";
import { defineRoute, HEAD_COSTS_UPSTREAM, type SessionPart, type ToolDeclaration } from "@/lib/server/route-types";
import { withSignificance } from "@/lib/stats/significance";
import { insightsContext, type InsightsContext } from "./context";
import { resolveRange, type InsightRange } from "./range";

/**
 * The route of an insight: `answer` computes it for a key, a resolved range and the validated query
 * (`query`, by default the shared range's schema; an insight with a `previous` takes
 * `insightsCompareParams`, whose `compare` the range resolves). Mounted by its route file
 * (app/api/insights/<name>/route.ts) from the table of routes.ts; offered to AI assistants as the MCP
 * `tools` it declares (lib/mcp), with the same parameters and answer.
 */
export function insightRoute<T, Q extends z.ZodObject = typeof insightsParams>(
  subject: string,
  answer: (ictx: InsightsContext, range: InsightRange, query: z.output<Q>) => Promise<T>,
  query?: Q,
  tools?: readonly ToolDeclaration[],
) {
  return defineRoute(
    { access: "session", query: (query ?? insightsParams) as Q, subject, headRefused: HEAD_COSTS_UPSTREAM, ...(tools ? { tools } : {}) },
    (ctx: SessionPart & { query: z.output<Q>; signal?: AbortSignal }): Promise<T> => {
      const ictx = insightsContext(ctx.session.apiKey);
      const params = ctx.query;
      // Every insights schema holds the range's fields (params.ts builds them from one shape).
      const range = resolveRange(params as InsightsParams, ictx.now());
      // Every parameter the answer depends on, in one order (the range's resolved defaults included).
      const id = `answer:${subject}:${JSON.stringify({ ...params, from: range.from, to: range.to, tz: range.tz, bucket: range.bucket, compare: range.compare })}`;
      // The flight's signal aborts when the last request for this answer leaves, and once it settles
      // (so calls a failure elsewhere in it left running stop too).
      // Every `previous: {…}` of the answer gets its `significant` and `p_values` (lib/stats/significance.ts).
      // The zone is noted for watching (kept.ts), never holding the answer up.
      void ictx.kept?.noteZone(range.tz);
      return ictx.state.flights.run(id, async (signal) => withSignificance(await answer({ ...ictx, signal }, range, params)), ctx.signal);
    },
  );
}
