// One insights route from its answer function: the shared query schema (from, to, tz, bucket), the
// range resolved at the server's clock (400 naming `from` when a default makes it backwards or too
// long, `bucket` when days are asked for over too long a range), and identical concurrent requests
// of a key sharing one computation, which ends when the last of them goes away (its signal reaches
// every upstream call and every shared run it joins). Also the rounding rules every insight shares
// (README.md "Insights": percentage points and positions to one decimal).
import "server-only";
import { insightsParams, type InsightsParams } from "@/lib/data-api/params";
import type { BffRouteDef, RouteContext } from "../routes";
import { insightsContext, type InsightsContext } from "./context";
import { resolveRange, type InsightRange } from "./range";

/** The route declaration of an insight: `answer` computes it for a key and a resolved range. */
export function insightRoute<T>(subject: string, answer: (ictx: InsightsContext, range: InsightRange) => Promise<T>) {
  return {
    query: insightsParams,
    subject,
    resolve: (ctx: RouteContext, input: { query: Record<string, unknown> }): Promise<T> => {
      const ictx = insightsContext(ctx.session.apiKey);
      // routes.ts validated the query with `insightsParams`: this is its output.
      const range = resolveRange(input.query as InsightsParams, ictx.now());
      const id = `answer:${subject}:${range.from}:${range.to}:${range.tz}:${range.bucket}`;
      // The flight's signal aborts when the last request for this answer leaves, and once it settles
      // (so calls a failure elsewhere in it left running stop too).
      return ictx.state.flights.run(id, (signal) => answer({ ...ictx, signal }, range), ctx.signal);
    },
  } satisfies BffRouteDef;
}

/** `part` of `whole` in percentage points to one decimal (12.5 means 12.5%); null when `whole` is 0. */
export const percent = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part * 1000) / whole) / 10);

/** A mean to one decimal; null when there is nothing to average. */
export const mean = (sum: number, count: number): number | null => (count === 0 ? null : Math.round((sum * 10) / count) / 10);

/** A bucket's or period's first instant as ISO UTC. */
export const isoStart = (span: { startMs: number }) => new Date(span.startMs).toISOString();

/** The window an answer covers, as it was asked (dates in `tz`). */
export const windowOf = (range: InsightRange) => ({ from: range.from, to: range.to, tz: range.tz });
