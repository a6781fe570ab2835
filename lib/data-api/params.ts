// Query-parameter schemas: the single source of truth for a view's filters. The same schema parses
// the page's URL (server prefetch and client), validates the route handler's query before any
// upstream call, and serialises the upstream request, so a URL copied from the browser maps
// one-to-one onto the Data API call.
import { z } from "zod";
import {
  AI_SOURCE_GROUP,
  COMPETITOR_PARAM_MAX,
  DEFAULT_PERIOD,
  INSIGHT_BUCKETS,
  INSIGHT_COMPARISONS,
  type InsightComparison,
  INSIGHTS_DAY_BUCKETS_LIMIT_DAYS,
  INSIGHTS_MAX_DAYS,
  OFFSET_MAX,
  type InsightBucket,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  PERIODS,
  PLATFORMS,
  QUERY_PARAM_MAX,
  SENTIMENTS,
  SOURCES,
} from "./constants";
import { isLocaleTag } from "@/lib/format/spreadsheet";

const listOf = (values: readonly string[]) => values.join(", ");

const intParam = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, { error: `${name} must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: `${name} must be at least ${min}` }).max(max, { error: `${name} must be at most ${max}` }));

const enumParam = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of: ${listOf(values)}` });

const ISO_DATE_OR_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * Earliest instant a `from`/`to` value denotes (a date-only value is that day's 00:00 UTC), or null.
 * Every field is range-checked before Date sees it: Date rolls impossible values over
 * (2026-02-31T10:00:00Z becomes March 3rd), which would silently query another range.
 */
export function parseIsoBound(value: string): Date | null {
  const m = ISO_DATE_OR_DATETIME.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, sec, offH, offM] = m;
  const [year, month, day] = [Number(y), Number(mo), Number(d)];
  if (year < 2000 || year > 2100 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (h !== undefined) {
    if (Number(h) > 23 || Number(mi) > 59 || (sec !== undefined && Number(sec) > 59)) return null;
    if (offH !== undefined && (Number(offH) > 23 || Number(offM) > 59)) return null;
  }
  const date = new Date(h === undefined ? `${y}-${mo}-${d}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Whether a valid `from`/`to` value is a calendar date (and not a datetime). */
const isDateOnly = (value: string) => value.length === 10;

const dateParam = (name: string) =>
  z
    .string()
    .max(40, { error: `${name} must be an ISO 8601 date (2026-11-01) or UTC datetime (2026-11-01T12:00:00Z)` })
    .refine((v) => parseIsoBound(v) !== null, {
      error: `${name} must be an ISO 8601 date (2026-11-01) or UTC datetime (2026-11-01T12:00:00Z)`,
    });

const fromTo = {
  from: dateParam("from").optional(),
  to: dateParam("to").optional(),
};

/**
 * Why a range's two ends do not fit together, as a machine-readable `params.reason` on the issue
 * (the route's message stays for API callers; the UI words it from the reason: lib/ui/messages.ts).
 * A single bad value carries no reason: it is not a date, or not a zone.
 */
export type RangeIssueReason = "backwards" | "too_long" | "mixed";

/** The reason a range issue carries, or undefined for a single bad value. */
export function rangeIssueReason(issue: z.core.$ZodIssue): RangeIssueReason | undefined {
  const reason = issue.code === "custom" ? (issue.params as { reason?: unknown } | undefined)?.reason : undefined;
  return reason === "backwards" || reason === "too_long" || reason === "mixed" ? reason : undefined;
}

const checkRange = (v: { from?: string; to?: string }, ctx: z.RefinementCtx) => {
  if (v.from && v.to) {
    // A date-only `to` includes its whole day, a datetime `to` is an instant: mixing the forms makes
    // the range mean something other than what either reading suggests.
    if (isDateOnly(v.from) !== isDateOnly(v.to)) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: "to must have the same form as from: both dates (2026-11-01) or both datetimes (2026-11-01T12:00:00Z)",
        params: { reason: "mixed" },
      });
      return;
    }
    const from = parseIsoBound(v.from);
    const to = parseIsoBound(v.to);
    if (from && to && from.getTime() > to.getTime()) {
      ctx.addIssue({ code: "custom", path: ["to"], message: "to must not be earlier than from", params: { reason: "backwards" } });
    }
  }
};

/** Intent is an open set: any snake_case identifier (the form of every known value). */
export const INTENT_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

const visitorListShape = {
  source: enumParam("source", SOURCES).optional(),
  intent: z
    .string()
    .regex(INTENT_PATTERN, { error: "intent must be a lowercase identifier such as problem_research (letters, digits, _; up to 64)" })
    .optional(),
  converted: enumParam("converted", ["true", "false"] as const).optional(),
  ...fromTo,
  limit: intParam("limit", 1, PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  offset: intParam("offset", 0, OFFSET_MAX).default(0),
};

const mentionListShape = {
  platform: enumParam("platform", PLATFORMS).optional(),
  sentiment: enumParam("sentiment", SENTIMENTS).optional(),
  ...fromTo,
  limit: intParam("limit", 1, PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  offset: intParam("offset", 0, OFFSET_MAX).default(0),
};

const textParam = (name: string, max: number, what: string) =>
  z
    .string()
    .max(max, { error: `${name} must be ${what} of 1 to ${max} characters` })
    .refine((v) => v.trim() !== "", { error: `${name} must be ${what} of 1 to ${max} characters` });

/**
 * Filters of /mentions that the Data API does not have, applied by the dashboard over the range's
 * mentions (lib/server/lists) and never sent upstream: `query`, a question, compared trimmed and
 * case-folded as /queries groups questions; `competitor`, a name of `competitors_mentioned`, compared
 * as sent, as the competitors' figures count it.
 */
const mentionOwnShape = {
  query: textParam("query", QUERY_PARAM_MAX, "a question").optional(),
  competitor: textParam("competitor", COMPETITOR_PARAM_MAX, "a competitor's name").optional(),
};

/** /visitors' `source` on the dashboard: a Data API source, or `ai` (the four AI platforms as one list; never sent upstream). */
const visitorSourceParam = z.enum([...SOURCES, AI_SOURCE_GROUP] as const, {
  error: `source must be one of: ${listOf(SOURCES)}, or ${AI_SOURCE_GROUP} (the four AI platforms together)`,
});

/** Export formats: plain CSV (RFC 4180, for tools), CSV for Excel (BOM, readable headers), JSON. */
export const EXPORT_FORMATS = ["csv", "csv-excel", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const formatShape = { format: enumParam("format", EXPORT_FORMATS).default("csv") };

const timeZoneParam = z.string().refine((v) => isTimeZoneName(v), { error: "tz must be an IANA time zone name, e.g. UTC, Europe/Berlin or America/New_York" });

/**
 * Who an export is for, besides its rows: `tz`, the zone "CSV for Excel" writes date-times in and
 * the file name's dates are read in (the range's days, not its UTC instants); `locale`, the browser's
 * language, whose decimal mark decides the list separator of "CSV for Excel". Plain CSV and JSON
 * content ignore both.
 */
const viewerShape = {
  tz: timeZoneParam.optional(),
  locale: z
    .string()
    .max(35, { error: "locale must be a language tag such as en-US, de-DE or fr" })
    .refine(isLocaleTag, { error: "locale must be a language tag such as en-US, de-DE or fr" })
    .optional(),
};

/** The Data API's visitor list: what the upstream is asked for (endpoints.ts). */
export const visitorListParams = z.object(visitorListShape).superRefine(checkRange);

/** The Data API's mention list: what the upstream is asked for (endpoints.ts). */
export const mentionListParams = z.object(mentionListShape).superRefine(checkRange);

/**
 * The dashboard's visitor list (/visitors and GET /api/visitors): the Data API's filters, with
 * `source=ai` besides its sources. The route answers `ai` itself (lib/server/lists).
 */
export const visitorPageParams = z.object({ ...visitorListShape, source: visitorSourceParam.optional() }).superRefine(checkRange);
export type VisitorPageParams = z.output<typeof visitorPageParams>;

/**
 * The dashboard's mention list (/mentions and GET /api/mentions): the Data API's filters, with
 * `query` and `competitor`, which the route applies itself (lib/server/lists).
 */
export const mentionPageParams = z.object({ ...mentionListShape, ...mentionOwnShape }).superRefine(checkRange);
export type MentionPageParams = z.output<typeof mentionPageParams>;

/** Overview, traffic and funnel all take the same period (default 30d: sandbox/README.md "Settled unknowns"). */
export const periodParams = z.object({
  period: enumParam("period", PERIODS).default(DEFAULT_PERIOD),
});

/**
 * Exports take a list page's filters (the dashboard's own included) plus `format`, `tz` and
 * `locale`; limit/offset are ignored (every matching row).
 */
export const visitorExportParams = z
  .object({ ...visitorListShape, source: visitorSourceParam.optional(), ...formatShape, ...viewerShape })
  .superRefine(checkRange);
export type VisitorExportParams = z.output<typeof visitorExportParams>;
export const mentionExportParams = z.object({ ...mentionListShape, ...mentionOwnShape, ...formatShape, ...viewerShape }).superRefine(checkRange);
export type MentionExportParams = z.output<typeof mentionExportParams>;

// ---------------------------------------------------------------------------------------------
// Insights (docs/product.md "Insights"): a calendar range in a time zone.

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a real calendar date `YYYY-MM-DD` (years 2000-2100), or null (no rollover). */
export function calendarDayNumber(value: string): number | null {
  const m = CALENDAR_DATE.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 2000 || year > 2100 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  // Calendar arithmetic only (which day, how many days apart): no clock or time zone is involved.
  return Date.UTC(year, month - 1, day) / 86_400_000;
}

/** Whether Intl knows `value` as a time zone. Offsets (`+05:30`) and abbreviations other than UTC are not names. */
export function isTimeZoneName(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const calendarDateParam = (name: string) =>
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

/** The history routes' query: the insights' range rules without buckets (every snapshot is its own point). */
export const historyParams = z
  .object({
    from: calendarDateParam("from").optional(),
    to: calendarDateParam("to").optional(),
    tz: timeZoneParam.default("UTC"),
  })
  .superRefine((v, ctx) => {
    if (!v.from || !v.to) return;
    const problem = insightsRangeProblem(calendarDayNumber(v.from)!, calendarDayNumber(v.to)!);
    if (problem) ctx.addIssue({ code: "custom", path: ["from"], message: problem });
  });
export type HistoryParams = z.output<typeof historyParams>;

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

// ---------------------------------------------------------------------------------------------
// Reading a query string with a schema.

export type QueryInput = URLSearchParams | Record<string, string | string[] | undefined>;

export type ParseResult<T> =
  | { success: true; data: T }
  | { success: false; param: string; message: string };

function entries(input: QueryInput): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (k: string, v: string) => out.set(k, [...(out.get(k) ?? []), v]);
  if (input instanceof URLSearchParams) {
    for (const [k, v] of input) add(k, v);
  } else {
    for (const [k, v] of Object.entries(input)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) add(k, one);
    }
  }
  return out;
}

/**
 * Parses a query with a params schema: unknown parameters are dropped, a repeated known parameter
 * is an error, and the first failing parameter is named (the error shape's `param`).
 */
export function parseQuery<S extends z.ZodObject>(schema: S, input: QueryInput): ParseResult<z.output<S>> {
  const known = new Set(Object.keys(schema.shape));
  const raw: Record<string, string> = {};
  for (const [key, values] of entries(input)) {
    if (!known.has(key)) continue;
    if (values.length > 1) return { success: false, param: key, message: `${key} must be given once` };
    raw[key] = values[0]!;
  }
  const result = schema.safeParse(raw);
  if (result.success) return { success: true, data: result.data };
  const issue = result.error.issues[0]!;
  const param = String(issue.path[0] ?? "query");
  return { success: false, param, message: issue.message };
}

// Lives in query-string.ts so browser code can use it without importing zod.
export { toSearchParams } from "./query-string";
