// Canonical shapes of the Data API's resources, as this app passes them to the browser.
// Lenient where DATA-API.md is silent: unknown fields are kept (`loose`), fields not guaranteed
// present are optional, and the UI shows "—" for a missing value. Upstream variants listed in
// DESIGN.md's "settled unknowns" (wrapped/bare bodies, alternative names) are turned into these
// shapes by the normalizers in `normalize.ts`; types are inferred from here, never restated.
import { z } from "zod";

const isoTimestamp = z.string();

export const listMetaSchema = z.looseObject({
  total: z.number().int().nonnegative(),
  limit: z.number().int(),
  offset: z.number().int().nonnegative(),
});
export type ListMeta = z.infer<typeof listMetaSchema>;

export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.looseObject({ data: z.array(item), meta: listMetaSchema });
export type ListEnvelope<T> = { data: T[]; meta: ListMeta };

export const visitorSchema = z.looseObject({
  id: z.string(),
  first_seen: isoTimestamp.optional(),
  last_seen: isoTimestamp.optional(),
  source: z.string().optional(),
  intent: z.string().optional(),
  pages_viewed: z.number().int().optional(),
  converted: z.boolean().optional(),
  email: z.string().optional(),
  country: z.string().optional(),
  city: z.string().optional(),
});
export type Visitor = z.infer<typeof visitorSchema>;

export const timelineEventSchema = z.looseObject({
  id: z.string().optional(),
  type: z.string(),
  occurred_at: isoTimestamp,
  url: z.string().optional(),
  title: z.string().optional(),
  source: z.string().optional(),
  duration_seconds: z.number().optional(),
});
export type TimelineEvent = z.infer<typeof timelineEventSchema>;

export const visitorTimelineSchema = z.looseObject({
  visitor_id: z.string().optional(),
  data: z.array(timelineEventSchema),
});
export type VisitorTimeline = z.infer<typeof visitorTimelineSchema>;

export const mentionSchema = z.looseObject({
  id: z.string(),
  query: z.string().optional(),
  platform: z.string().optional(),
  response_snippet: z.string().optional(),
  position: z.number().int().optional(),
  sentiment: z.string().optional(),
  competitors_mentioned: z.array(z.string()).optional(),
  created_at: isoTimestamp.optional(),
});
export type Mention = z.infer<typeof mentionSchema>;

const metric = <S extends z.ZodRawShape>(shape: S) => z.looseObject(shape).optional();

export const overviewSchema = z.looseObject({
  visitors: metric({ total: z.number().optional(), change: z.number().optional() }),
  pageviews: metric({ total: z.number().optional(), change: z.number().optional() }),
  conversions: metric({ total: z.number().optional(), rate: z.number().optional(), change: z.number().optional() }),
  ai_traffic: metric({ total: z.number().optional(), percentage: z.number().optional() }),
});
export type Overview = z.infer<typeof overviewSchema>;

export const trafficRowSchema = z.looseObject({
  source: z.string(),
  visitors: z.number(),
  percentage: z.number().optional(),
  change: z.number().optional(),
});
export type TrafficRow = z.infer<typeof trafficRowSchema>;
export const trafficSchema = z.looseObject({ period: z.string().optional(), data: z.array(trafficRowSchema) });
export type Traffic = z.infer<typeof trafficSchema>;

export const funnelStageSchema = z.looseObject({
  stage: z.string(),
  label: z.string().optional(),
  count: z.number(),
  rate: z.number().optional(),
});
export type FunnelStage = z.infer<typeof funnelStageSchema>;
export const funnelSchema = z.looseObject({ period: z.string().optional(), data: z.array(funnelStageSchema) });
export type Funnel = z.infer<typeof funnelSchema>;

export const scoreSchema = z.looseObject({
  score: z.number(),
  trend: z.looseObject({ direction: z.string().optional(), change: z.number().optional() }).optional(),
  breakdown: z
    .looseObject({
      visibility: z.number().optional(),
      sentiment: z.number().optional(),
      authority: z.number().optional(),
      coverage: z.number().optional(),
    })
    .optional(),
  updated_at: isoTimestamp.optional(),
});
export type Score = z.infer<typeof scoreSchema>;

export const rankingRowSchema = z.looseObject({
  rank: z.number().int(),
  name: z.string(),
  score: z.number(),
  change: z.number().optional(),
  is_workspace: z.boolean().optional(),
});
export type RankingRow = z.infer<typeof rankingRowSchema>;
export const rankingSchema = z.looseObject({ updated_at: isoTimestamp.optional(), data: z.array(rankingRowSchema) });
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
