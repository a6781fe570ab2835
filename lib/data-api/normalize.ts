// Turns upstream response bodies into the canonical shapes of schemas.ts. DATA-API.md leaves most
// shapes open; DESIGN.md's "settled unknowns" table lists the variants accepted here (wrapped or
// bare bodies, `events`/`competitors` array names, `timestamp`/`created_at` for `occurred_at`,
// `count` for `visitors`, `name` for `stage`). A body that matches none of them becomes one clear
// DataApiError (`unexpected_response`, 502) carrying the request id, never a crash downstream.
import type { z } from "zod";
import { DataApiError } from "./errors";
import {
  funnelSchema,
  listEnvelope,
  mentionSchema,
  overviewSchema,
  rankingSchema,
  scoreSchema,
  trafficSchema,
  visitorSchema,
  visitorTimelineSchema,
  type Funnel,
  type ListEnvelope,
  type Mention,
  type Overview,
  type Ranking,
  type Score,
  type Traffic,
  type Visitor,
  type VisitorTimeline,
} from "./schemas";

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export function unexpectedResponse(what: string, requestId?: string, detail?: string): DataApiError {
  return new DataApiError({
    status: 502,
    code: "unexpected_response",
    message: `The Data API sent an unexpected response for ${what}${detail ? ` (${detail})` : ""}.`,
    requestId,
  });
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string, requestId?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length ? issue.path.join(".") : undefined;
  throw unexpectedResponse(what, requestId, where ? `field ${where}` : undefined);
}

/** A single object, bare or wrapped as `{data: {...}}`. */
function unwrapObject(body: unknown, mainKey: string): unknown {
  if (isObject(body) && !(mainKey in body) && isObject(body.data)) return body.data;
  return body;
}

/**
 * An array-holding resource: bare array, or an object whose array is under one of `names`.
 * Returns the container's other fields (period, updated_at, visitor_id...) and the items.
 */
function unwrapArray(body: unknown, names: readonly string[]): { rest: Obj; items: unknown } | null {
  if (Array.isArray(body)) return { rest: {}, items: body };
  if (!isObject(body)) return null;
  for (const name of names) {
    if (Array.isArray(body[name])) {
      const rest: Obj = { ...body };
      delete rest[name];
      return { rest, items: body[name] };
    }
  }
  return null;
}

/** Copies the first present alternative name into `canonical` when `canonical` is absent. */
function renamed(item: unknown, canonical: string, alternatives: readonly string[]): unknown {
  if (!isObject(item) || item[canonical] !== undefined) return item;
  for (const alt of alternatives) {
    if (item[alt] !== undefined) {
      const out: Obj = { ...item, [canonical]: item[alt] };
      delete out[alt];
      return out;
    }
  }
  return item;
}

const visitorList = listEnvelope(visitorSchema);
const mentionList = listEnvelope(mentionSchema);

export function normalizeVisitorList(body: unknown, requestId?: string): ListEnvelope<Visitor> {
  return parseWith(visitorList, body, "the visitor list", requestId);
}

export function normalizeMentionList(body: unknown, requestId?: string): ListEnvelope<Mention> {
  return parseWith(mentionList, body, "the mention list", requestId);
}

export function normalizeVisitor(body: unknown, requestId?: string): Visitor {
  return parseWith(visitorSchema, unwrapObject(body, "id"), "the visitor", requestId);
}

export function normalizeTimeline(body: unknown, requestId?: string): VisitorTimeline {
  const found = unwrapArray(body, ["data", "events"]);
  if (!found || !Array.isArray(found.items)) throw unexpectedResponse("the visitor timeline", requestId);
  const data = found.items.map((e) => renamed(e, "occurred_at", ["timestamp", "created_at"]));
  return parseWith(visitorTimelineSchema, { ...found.rest, data }, "the visitor timeline", requestId);
}

export function normalizeTraffic(body: unknown, requestId?: string): Traffic {
  const found = unwrapArray(body, ["data"]);
  if (!found || !Array.isArray(found.items)) throw unexpectedResponse("traffic by source", requestId);
  const data = found.items.map((row) => renamed(row, "visitors", ["count"]));
  return parseWith(trafficSchema, { ...found.rest, data }, "traffic by source", requestId);
}

export function normalizeFunnel(body: unknown, requestId?: string): Funnel {
  const found = unwrapArray(body, ["data"]);
  if (!found || !Array.isArray(found.items)) throw unexpectedResponse("the funnel", requestId);
  const data = found.items.map((row) => renamed(row, "stage", ["name"]));
  return parseWith(funnelSchema, { ...found.rest, data }, "the funnel", requestId);
}

export function normalizeRanking(body: unknown, requestId?: string): Ranking {
  const found = unwrapArray(body, ["data", "competitors"]);
  if (!found || !Array.isArray(found.items)) throw unexpectedResponse("the ranking", requestId);
  return parseWith(rankingSchema, { ...found.rest, data: found.items }, "the ranking", requestId);
}

const OVERVIEW_KEYS = ["visitors", "pageviews", "conversions", "ai_traffic"] as const;

export function normalizeOverview(body: unknown, requestId?: string): Overview {
  const value = unwrapObject(body, "visitors");
  // Every overview field is optional, so require at least one known metric: `{}` or an unrelated
  // object is a wrong body, not an overview of nothing.
  if (!isObject(value) || !OVERVIEW_KEYS.some((k) => isObject(value[k]))) throw unexpectedResponse("the overview", requestId);
  return parseWith(overviewSchema, value, "the overview", requestId);
}

export function normalizeScore(body: unknown, requestId?: string): Score {
  return parseWith(scoreSchema, unwrapObject(body, "score"), "the AI Positioning Score", requestId);
}
