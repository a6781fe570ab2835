// Query-parameter schemas: the single source of truth for a view's filters. The same schema parses
// the page's URL (server prefetch and client), validates the route handler's query before any
// upstream call, and serialises the upstream request, so a URL copied from the browser maps
// one-to-one onto the Data API call.
import { z } from "zod";
import {
  AI_SOURCE_GROUP,
  COMPETITOR_PARAM_MAX,
  DEFAULT_PERIOD,
  OFFSET_MAX,
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
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: `${name} must be at least ${min}` })
        .max(max, { error: `${name} must be at most ${max}` }),
    );

export const enumParam = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of: ${listOf(values)}` });

const ISO_DATE_OR_DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

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
 * mentions (lib/lists) and never sent upstream: `query`, a question, compared trimmed and
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

export const timeZoneParam = z
  .string()
  .refine((v) => isTimeZoneName(v), { error: "tz must be an IANA time zone name, e.g. UTC, Europe/Berlin or America/New_York" });

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
 * `source=ai` besides its sources. The route answers `ai` itself (lib/lists).
 */
export const visitorPageParams = z.object({ ...visitorListShape, source: visitorSourceParam.optional() }).superRefine(checkRange);
export type VisitorPageParams = z.output<typeof visitorPageParams>;

/**
 * The dashboard's mention list (/mentions and GET /api/mentions): the Data API's filters, with
 * `query` and `competitor`, which the route applies itself (lib/lists).
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
// Calendar dates and time zones (the insights' and history's ranges: lib/insights/schema.ts).

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

// ---------------------------------------------------------------------------------------------
// Reading a query string with a schema.

export type QueryInput = URLSearchParams | Record<string, string | string[] | undefined>;

export type ParseResult<T> = { success: true; data: T } | { success: false; param: string; message: string };

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
