// Canonical shapes of the Data API's resources, as this app passes them to the browser and to exports.
// Tolerant of real data (lib/data-api/README.md "Tolerance of real data"): every field is read on its own by the
// lenient readers of `lenient-fields.ts`; a null, missing or wrongly typed value becomes absent
// (the UI shows "—"), numeric strings are read as numbers, enum-ish fields keep any string. Only an
// item's identity is required: an item without one cannot be read and is left out and counted by
// the normalizers (`normalize.ts`), which also turn the upstream variants of sandbox/README.md
// "Settled unknowns" into these shapes.
// Objects strip unknown fields: only what the UI and the exports use reaches the browser, so an
// upstream that echoes secrets into extra fields cannot pass them on. Types are inferred from here.
import { z } from "zod";
import {
  booleanField,
  countField,
  groupField,
  idField,
  keyField,
  integerField,
  numberField,
  stringListField,
  textField,
  timestampField,
  tokenField,
} from "./lenient-fields";

/** Items of one response that could not be read at all: left out, counted, shown with the request id. */
export type Unreadable = { count: number; request_id?: string };
export const unreadableSchema = z.object({ count: z.number().int().positive(), request_id: z.string().optional() }) satisfies z.ZodType<Unreadable>;

/**
 * Paging of a list. Each value is absent when the upstream's is not a valid one; `total` must be a
 * non-negative safe integer (a numeric string is read; a negative, fractional or larger value is
 * not a count). Without a total the UI still shows the rows it got and pages by their number.
 */
export const listMetaSchema = z.object({
  total: countField(),
  limit: countField(),
  offset: countField(),
});
export type ListMeta = z.infer<typeof listMetaSchema>;

/** The rows of any answer that carries a list: its readable items, and how many could not be read. */
const rowsShape = <T extends z.ZodType>(item: T) => ({ data: z.array(item), unreadable: unreadableSchema.optional() });

/** A list body (visitors, mentions); the normalizers read its items one by one. */
export const listEnvelope = <T extends z.ZodType>(item: T) => z.object({ ...rowsShape(item), meta: listMetaSchema });
export type ListEnvelope<T> = { data: T[]; meta: ListMeta; unreadable?: Unreadable };

export const visitorSchema = z.object({
  id: idField(),
  first_seen: timestampField(),
  last_seen: timestampField(),
  source: tokenField(),
  intent: tokenField(),
  pages_viewed: integerField(),
  converted: booleanField(),
  email: textField(),
  country: tokenField(),
  city: textField(),
});
export type Visitor = z.infer<typeof visitorSchema>;

/**
 * A timeline event is readable when it says what happened (`type`) or when (`occurred_at`): with
 * neither there is nothing to show. `id` is optional (the UI keys events by position).
 */
export const timelineEventSchema = z
  .object({
    id: tokenField(),
    type: tokenField(),
    occurred_at: timestampField(),
    url: textField(),
    title: textField(),
    source: tokenField(),
    duration_seconds: numberField(),
  })
  .refine((e) => e.type !== undefined || e.occurred_at !== undefined, { error: "an event needs a type or a time" });
export type TimelineEvent = z.infer<typeof timelineEventSchema>;

export const visitorTimelineSchema = z.object({
  visitor_id: tokenField(),
  ...rowsShape(timelineEventSchema),
});
export type VisitorTimeline = z.infer<typeof visitorTimelineSchema>;

export const mentionSchema = z.object({
  id: idField(),
  query: textField(),
  platform: tokenField(),
  response_snippet: textField(),
  position: integerField(),
  sentiment: tokenField(),
  competitors_mentioned: stringListField(),
  created_at: timestampField(),
});
export type Mention = z.infer<typeof mentionSchema>;

/** The window an aggregate covers (the sandbox sends it; the overview links to its visitors). */
const windowShape = { period: tokenField(), from: timestampField(), to: timestampField() };

export const overviewSchema = z.object({
  visitors: groupField({ total: integerField(), change: numberField() }),
  pageviews: groupField({ total: integerField(), change: numberField() }),
  conversions: groupField({ total: integerField(), rate: numberField(), change: numberField() }),
  ai_traffic: groupField({ total: integerField(), percentage: numberField() }),
  ...windowShape,
});
export type Overview = z.infer<typeof overviewSchema>;

/** Readable with its `source` (the row's identity; any string, unknown sources included). */
export const trafficRowSchema = z.object({
  source: keyField(),
  visitors: integerField(),
  percentage: numberField(),
  change: numberField(),
});
export const trafficSchema = z.object({ ...windowShape, ...rowsShape(trafficRowSchema) });
export type Traffic = z.infer<typeof trafficSchema>;

/** Readable with its `stage` (the row's identity). */
export const funnelStageSchema = z.object({
  stage: keyField(),
  label: textField(),
  count: integerField(),
  rate: numberField(),
});
export type FunnelStage = z.infer<typeof funnelStageSchema>;
export const funnelSchema = z.object({ ...windowShape, ...rowsShape(funnelStageSchema) });
export type Funnel = z.infer<typeof funnelSchema>;

export const scoreSchema = z.object({
  score: integerField(),
  trend: groupField({ direction: tokenField(), change: integerField() }),
  breakdown: groupField({
    visibility: integerField(),
    sentiment: integerField(),
    authority: integerField(),
    coverage: integerField(),
  }),
  updated_at: timestampField(),
});
export type Score = z.infer<typeof scoreSchema>;

/** Readable with its `name` (the row's identity). */
export const rankingRowSchema = z.object({
  rank: integerField(),
  name: keyField(),
  score: numberField(),
  change: numberField(),
  is_workspace: booleanField(),
});
export type RankingRow = z.infer<typeof rankingRowSchema>;
export const rankingSchema = z.object({ updated_at: timestampField(), ...rowsShape(rankingRowSchema) });
export type Ranking = z.infer<typeof rankingSchema>;

/** The error body, browser-facing and upstream alike. */
export const errorBodySchema = z.object({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    param: z.string().optional(),
    request_id: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
