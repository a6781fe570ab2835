// The insights' query (docs/product.md "Insights"): a calendar range in a time zone, its buckets and
// what a figure with a change is compared with, plus each insight's own parameters. One schema per
// route, used by the route (400 naming the parameter before any upstream call), the page's URL
// parsing (lib/range) and its prefetch alike; the range's rules (`insightsRangeProblem`) are the
// history's too (lib/history/schema.ts).
import { z } from "zod";
import {
  INSIGHT_BUCKETS,
  INSIGHT_COMPARISONS,
  INSIGHTS_DAY_BUCKETS_LIMIT_DAYS,
  INSIGHTS_MAX_DAYS,
  PLATFORMS,
  type InsightBucket,
  type InsightComparison,
} from "@/lib/data-api/constants";
import { calendarDayNumber, enumParam, timeZoneParam } from "@/lib/data-api/params";

export const calendarDateParam = (name: string) =>
  z.string().refine((v) => calendarDayNumber(v) !== null, { error: `${name} must be a calendar date YYYY-MM-DD between 2000 and 2100, e.g. 2026-11-01` });

/**
 * `from` and `to` are calendar dates in `tz`, both inclusive; omitted, the range ends today in `tz`
 * and spans 30 days (resolved on the server, which knows today). `bucket` omitted: by the range's length.
 */
const insightsShape = {
  from: calendarDateParam("from").optional(),
  to: calendarDateParam("to").optional(),
  tz: timeZoneParam.default("UTC"),
  bucket: enumParam("bucket", INSIGHT_BUCKETS).optional(),
};

/**
 * What a figure with a change is compared with: the previous period (default), the same dates a
 * year before, or a custom window of as many days (`compare_from`, `compare_to`, read only with
 * `compare=custom`).
 */
const compareShape = {
  compare: enumParam("compare", INSIGHT_COMPARISONS).default("previous"),
  compare_from: calendarDateParam("compare_from").optional(),
  compare_to: calendarDateParam("compare_to").optional(),
};

type InsightsShapeOutput = { from?: string; to?: string; bucket?: InsightBucket };
type CompareShapeOutput = { compare: InsightComparison; compare_from?: string; compare_to?: string };

function checkInsightsRange(v: InsightsShapeOutput, ctx: z.RefinementCtx): void {
  if (!v.from || !v.to) return;
  const [first, last] = [calendarDayNumber(v.from)!, calendarDayNumber(v.to)!];
  const problem = insightsRangeProblem(first, last);
  if (problem) ctx.addIssue({ code: "custom", path: ["from"], message: problem, params: { reason: first > last ? "backwards" : "too_long" } });
  const bucketProblem = problem ? null : insightsBucketProblem(first, last, v.bucket);
  if (bucketProblem) ctx.addIssue({ code: "custom", path: ["bucket"], message: bucketProblem });
}

function checkComparison(v: InsightsShapeOutput & CompareShapeOutput, ctx: z.RefinementCtx): void {
  // Without both dates the range's length is known on the server only (resolveRange checks it there).
  const length = v.from && v.to ? calendarDayNumber(v.to)! - calendarDayNumber(v.from)! + 1 : undefined;
  const problem = comparisonProblem(v, length);
  if (problem) ctx.addIssue({ code: "custom", path: [problem.param], message: problem.message });
}

export const insightsParams = z.object(insightsShape).superRefine(checkInsightsRange);
export type InsightsParams = z.output<typeof insightsParams> & Partial<CompareShapeOutput>;

/** An insight with a change (it has a `previous`): the range and what it is compared with. */
export const insightsCompareParams = z.object({ ...insightsShape, ...compareShape }).superRefine((v, ctx) => {
  checkInsightsRange(v, ctx);
  checkComparison(v, ctx);
});

/** /insights/countries: the comparison, and `country` (a two-letter code, any case, or `unknown`) for its top cities. */
export const insightsCountriesParams = z
  .object({
    ...insightsShape,
    ...compareShape,
    country: z
      .string()
      .regex(/^([A-Za-z]{2}|unknown)$/, { error: "country must be a two-letter country code such as US or DE, or unknown" })
      .transform((c) => (c === "unknown" ? c : c.toUpperCase()))
      .optional(),
  })
  .superRefine((v, ctx) => {
    checkInsightsRange(v, ctx);
    checkComparison(v, ctx);
  });

/** /insights/queries: one platform's mentions only, and `never_first=true` for the queries never named first. */
export const insightsQueriesParams = z
  .object({
    ...insightsShape,
    platform: enumParam("platform", PLATFORMS).optional(),
    never_first: enumParam("never_first", ["true", "false"] as const).optional(),
  })
  .superRefine(checkInsightsRange);

/**
 * What is wrong with a comparison (named on its parameter), given the range's length in days when
 * known; null when it is fine. A custom window needs both dates, forwards, and as many days as the range.
 */
export function comparisonProblem(v: CompareShapeOutput, rangeDays: number | undefined): { param: string; message: string } | null {
  if (v.compare !== "custom") return null;
  if (!v.compare_from) return { param: "compare_from", message: "compare=custom needs compare_from and compare_to (calendar dates YYYY-MM-DD)" };
  if (!v.compare_to) return { param: "compare_to", message: "compare=custom needs compare_from and compare_to (calendar dates YYYY-MM-DD)" };
  const days = calendarDayNumber(v.compare_to)! - calendarDayNumber(v.compare_from)! + 1;
  if (days < 1) return { param: "compare_from", message: "compare_from must not be after compare_to" };
  if (rangeDays !== undefined && days !== rangeDays) {
    return { param: "compare_to", message: `the comparison is ${days} days long; it must be as long as the range, ${rangeDays} days (move compare_to)` };
  }
  return null;
}

/** What is wrong with a range of calendar days (both inclusive), named on `from`; null when it is fine. */
export function insightsRangeProblem(fromDay: number, toDay: number): string | null {
  if (fromDay > toDay) return "from must not be after to";
  const days = toDay - fromDay + 1;
  if (days > INSIGHTS_MAX_DAYS) return `the range is ${days} days long; at most ${INSIGHTS_MAX_DAYS} days (move from closer to to)`;
  return null;
}

/**
 * What is wrong with asking for day buckets over a range (from `fromDay` to `toDay`, both inclusive),
 * named on `bucket`; null when it is fine. Each day bucket and its previous-period twin are figures
 * of their own, so days are taken up to INSIGHTS_DAY_BUCKETS_LIMIT_DAYS; weeks cover any range.
 */
export function insightsBucketProblem(fromDay: number, toDay: number, bucket: InsightBucket | undefined): string | null {
  const days = toDay - fromDay + 1;
  if (bucket !== "day" || days <= INSIGHTS_DAY_BUCKETS_LIMIT_DAYS) return null;
  return `bucket=day is accepted for ranges of at most ${INSIGHTS_DAY_BUCKETS_LIMIT_DAYS} days; this range is ${days} days long (use bucket=week, or leave bucket out)`;
}
