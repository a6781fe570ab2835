// The Data API as the sandbox implements it: its value sets and the query parsing of every endpoint,
// written from the API's documentation and the settled unknowns (sandbox/README.md). Deliberately the
// sandbox's own: the app has its own schemas (lib/data-api/params.ts), and the sandbox is the
// reference they are tested against, so it must not borrow them (sandbox/independence.test.ts).
// Where the app is stricter than the document, this file follows the document (sandbox/README.md).
import { z } from "zod";

/** Values accepted by the source filter (the API's documentation, Visitor). */
export const SOURCES = ["chatgpt", "perplexity", "claude", "gemini", "organic", "direct", "paid", "social", "referral"] as const;
export type Source = (typeof SOURCES)[number];

/** Sources that are AI platforms (sandbox/README.md "Settled unknowns": AI sources). */
export const AI_SOURCES = ["chatgpt", "perplexity", "claude", "gemini"] as const satisfies readonly Source[];

/** The API's documentation, Mention. */
export const PLATFORMS = ["chatgpt", "claude", "perplexity", "gemini"] as const;
export const SENTIMENTS = ["positive", "neutral", "negative"] as const;

/** The API's documentation, GET /analytics/overview; the default is settled (sandbox/README.md "Settled unknowns"). */
export const PERIODS = ["24h", "7d", "30d", "90d"] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = "30d";

/**
 * Intents the generated visitors have: the two the API's documentation names and the four the
 * settled unknowns add (sandbox/README.md).
 * Intent is an open set, so the filter takes any well-formed value (see `INTENT_FORM`).
 */
export const KNOWN_INTENTS = ["problem_research", "solution_comparison", "brand_search", "pricing_research", "support", "unknown"] as const;

/** sandbox/README.md "Settled unknowns": a timeline. */
export const TIMELINE_TYPES = ["page_view", "ai_referral", "form_submit", "conversion", "return_visit"] as const;
export type TimelineType = (typeof TIMELINE_TYPES)[number];

/** sandbox/README.md "Settled unknowns": score. */
export const TREND_DIRECTIONS = ["up", "down", "flat"] as const;
export type TrendDirection = (typeof TREND_DIRECTIONS)[number];

/** The API's documentation, Limits: page size of visitors and mentions. */
export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

// ---------------------------------------------------------------------------------------------
// Query parameters.

const DAY_MS = 86_400_000;

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    // At most 16 digits, so the number stays exact up to the bounds checked next.
    .regex(/^\d{1,16}$/, { error: `${name} must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `${name} must be at least ${min}` })
        .max(max, { error: `${name} must be at most ${max}` }),
    );

const oneOf = <T extends readonly [string, ...string[]]>(name: string, values: T) => z.enum(values, { error: `${name} must be one of: ${values.join(", ")}` });

/**
 * The sandbox's form for an intent: a lowercase identifier, like every value the API's documentation
 * and the settled unknowns name. Any such value is a valid filter; one no visitor has matches nothing.
 */
const INTENT_FORM = /^[a-z][a-z0-9_]{0,63}$/;

// ISO 8601 calendar date, or date and time with a zone (Z or ±hh:mm); a time without a zone names
// no instant, so it is refused rather than guessed.
const ISO_BOUND = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2})))?$/;

const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The instant range a `from`/`to` value denotes, as ms epoch: [first, last] inclusive. A date is its
 * whole UTC day (a date-only `to` includes that day: sandbox/README.md "Settled unknowns"), a
 * datetime a single instant.
 * Fields are range-checked here because Date rolls impossible values over (February 31st would
 * quietly become March 3rd and query another range).
 */
function isoRange(value: string): { first: number; last: number } | null {
  const m = ISO_BOUND.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return null;
  if (day > (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!)) return null;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const midnight = new Date(0).setUTCFullYear(year, month - 1, day);
  if (m[4] === undefined) return { first: midnight, last: midnight + DAY_MS - 1 };
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMin = 0;
  if (m[8] !== "Z") {
    const [offH, offM] = [Number(m[10]), Number(m[11])];
    if (offH > 23 || offM > 59) return null;
    offsetMin = (m[9] === "-" ? -1 : 1) * (offH * 60 + offM);
  }
  // Data is whole seconds; finer fractions are cut to the millisecond.
  const ms = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
  const instant = midnight + ((hour * 60 + minute - offsetMin) * 60 + second) * 1000 + ms;
  return { first: instant, last: instant };
}

export const DATE_FORMS = "an ISO 8601 date (2026-11-01) or datetime with a zone (2026-11-01T12:00:00Z)";

/** The instant an ISO 8601 date (its 00:00 UTC) or zoned datetime names, as ms epoch; null when invalid. */
export const instantOf = (value: string): number | null => isoRange(value)?.first ?? null;

/** `from` → first instant it denotes, `to` → last instant (ms epoch), both inclusive. */
const isoBound = (name: "from" | "to") =>
  z.string().transform((value, ctx) => {
    const range = isoRange(value);
    if (range) return name === "from" ? range.first : range.last;
    ctx.addIssue({ code: "custom", message: `${name} must be ${DATE_FORMS}` });
    return z.NEVER;
  });

const rangeShape = { from: isoBound("from").optional(), to: isoBound("to").optional() };

const checkRange = (q: { from?: number; to?: number }, ctx: z.RefinementCtx) => {
  if (q.from !== undefined && q.to !== undefined && q.from > q.to) {
    ctx.addIssue({ code: "custom", path: ["to"], message: "to must not be earlier than from" });
  }
};

const pageShape = {
  limit: wholeNumber("limit", PAGE_SIZE.min, PAGE_SIZE.max).default(PAGE_SIZE.default),
  // Offset is settled as accepted on both lists, default 0 (sandbox/README.md "Settled unknowns").
  offset: wholeNumber("offset", 0, Number.MAX_SAFE_INTEGER).default(0),
};

/** GET /visitors. `from`/`to` are ms epoch bounds of first_seen, both inclusive. */
export const visitorListQuery = z
  .object({
    source: oneOf("source", SOURCES).optional(),
    intent: z.string().regex(INTENT_FORM, { error: "intent must be a lowercase identifier such as problem_research or solution_comparison" }).optional(),
    converted: oneOf("converted", ["true", "false"])
      .transform((v) => v === "true")
      .optional(),
    ...rangeShape,
    ...pageShape,
  })
  .superRefine(checkRange);
export type VisitorListQuery = z.output<typeof visitorListQuery>;

/** GET /mentions. `from`/`to` are ms epoch bounds of created_at, both inclusive. */
export const mentionListQuery = z
  .object({
    platform: oneOf("platform", PLATFORMS).optional(),
    sentiment: oneOf("sentiment", SENTIMENTS).optional(),
    ...rangeShape,
    ...pageShape,
  })
  .superRefine(checkRange);
export type MentionListQuery = z.output<typeof mentionListQuery>;

/** GET /analytics/overview, /analytics/traffic, /analytics/funnel. */
export const periodQuery = z.object({ period: oneOf("period", PERIODS).default(DEFAULT_PERIOD) });

/** Every other endpoint: no parameters (any given are ignored). */
export const noQuery = z.object({});

export type QueryResult<T> = { ok: true; query: T } | { ok: false; param: string; message: string };

/**
 * Reads a query string with an endpoint's schema: unknown parameters are ignored, a known one given
 * twice is refused (which value would count is not documented), and the first invalid parameter is
 * named, as the error body's `param`.
 */
export function readQuery<S extends z.ZodObject>(schema: S, search: URLSearchParams): QueryResult<z.output<S>> {
  const raw: Record<string, string> = {};
  for (const [name, value] of search) {
    if (!Object.hasOwn(schema.shape, name)) continue;
    if (Object.hasOwn(raw, name)) return { ok: false, param: name, message: `${name} must be given once` };
    raw[name] = value;
  }
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, query: result.data };
  const issue = result.error.issues[0]!;
  return { ok: false, param: String(issue.path[0] ?? "query"), message: issue.message };
}
