// Turns upstream response bodies into the canonical shapes of schemas.ts. The API's documentation
// leaves most shapes open; sandbox/README.md "Settled unknowns" lists the variants accepted here (wrapped or
// bare bodies, `events`/`competitors` array names, `timestamp`/`created_at` for `occurred_at`,
// `count` for `visitors`, `name` for `stage`).
//
// Parse at the edge, per item (lib/data-api/README.md "Tolerance of real data"): the envelope is checked
// strictly, each item on its own. An item that cannot be read at all (not an object, or without its
// identity; see schemas.ts) is left out and counted in `unreadable`, with the request id, so the UI
// can say "1 row could not be read". Only a body that is not the expected envelope becomes one
// clear DataApiError (`unexpected_response`, 502) carrying the request id, never a crash downstream.
import { z } from "zod";
import { DataApiError } from "./errors";
import { isRecord, itemReader } from "./lenient-fields";
import {
  funnelSchema,
  funnelStageSchema,
  listMetaSchema,
  mentionSchema,
  overviewSchema,
  rankingRowSchema,
  rankingSchema,
  scoreSchema,
  timelineEventSchema,
  trafficRowSchema,
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
  type Unreadable,
  type Visitor,
  type VisitorTimeline,
} from "./schemas";

type Obj = Record<string, unknown>;

export function unexpectedResponse(what: string, requestId?: string, detail?: string): DataApiError {
  return new DataApiError({
    status: 502,
    code: "unexpected_response",
    message: `The Data API sent an unexpected response for ${what}${detail ? ` (${detail})` : ""}.`,
    requestId,
  });
}

/** Item schemas read without zod where they allow it (itemReader), made once per schema. */
const fastReaders = new WeakMap<z.ZodType, ((item: unknown) => unknown) | null>();

function readerOf<S extends z.ZodType>(schema: S): (item: unknown) => z.output<S> | undefined {
  let fast = fastReaders.get(schema);
  if (fast === undefined) {
    fast = (schema instanceof z.ZodObject ? itemReader(schema) : undefined) ?? null;
    fastReaders.set(schema, fast);
  }
  if (fast) return fast as (item: unknown) => z.output<S> | undefined;
  return (item) => {
    const result = schema.safeParse(item);
    return result.success ? result.data : undefined;
  };
}

/** Each item read on its own: the readable ones, and how many could not be read. */
function readItems<S extends z.ZodType>(
  items: readonly unknown[],
  schema: S,
  requestId: string | undefined,
  prepare: (item: unknown) => unknown = (item) => item,
): { data: z.output<S>[]; unreadable?: Unreadable } {
  const read = readerOf(schema);
  const data: z.output<S>[] = [];
  let count = 0;
  for (const item of items) {
    const row = read(prepare(item));
    if (row !== undefined) data.push(row);
    else count++;
  }
  if (count === 0) return { data };
  return { data, unreadable: { count, ...(requestId ? { request_id: requestId } : {}) } };
}

/** The container's own fields (period, updated_at...); all lenient, so this cannot fail. */
function readHeader<S extends z.ZodObject>(schema: S, rest: Obj): z.output<S> {
  const result = schema.safeParse(rest);
  return result.success ? result.data : schema.parse({});
}

/** A single object, bare or wrapped as `{data: {...}}`. */
function unwrapObject(body: unknown, mainKey: string): unknown {
  if (isRecord(body) && !(mainKey in body) && isRecord(body.data)) return body.data;
  return body;
}

/**
 * An array-holding resource: bare array, or an object whose array is under one of `names`.
 * Returns the container's other fields (period, updated_at, visitor_id...) and the items.
 */
function unwrapArray(body: unknown, names: readonly string[]): { rest: Obj; items: unknown[] } | null {
  if (Array.isArray(body)) return { rest: {}, items: body };
  if (!isRecord(body)) return null;
  for (const name of names) {
    const items = body[name];
    if (Array.isArray(items)) {
      const rest: Obj = { ...body };
      delete rest[name];
      return { rest, items };
    }
  }
  return null;
}

/** Copies the first present alternative name into `canonical` when `canonical` is absent. */
function renamed(canonical: string, alternatives: readonly string[]): (item: unknown) => unknown {
  return (item) => {
    if (!isRecord(item) || (item[canonical] !== undefined && item[canonical] !== null)) return item;
    for (const alt of alternatives) {
      if (item[alt] !== undefined && item[alt] !== null) return { ...item, [canonical]: item[alt] };
    }
    return item;
  };
}

function normalizeList<S extends z.ZodType>(body: unknown, item: S, what: string, requestId?: string): ListEnvelope<z.output<S>> {
  if (!isRecord(body) || !Array.isArray(body.data)) throw unexpectedResponse(what, requestId, "no data array");
  // Paging values are lenient like any field; a missing meta leaves them unknown, not the page unread.
  const meta = listMetaSchema.parse(isRecord(body.meta) ? body.meta : {});
  const { data, unreadable } = readItems(body.data, item, requestId);
  return { data, meta, ...(unreadable ? { unreadable } : {}) };
}

export function normalizeVisitorList(body: unknown, requestId?: string): ListEnvelope<Visitor> {
  return normalizeList(body, visitorSchema, "the visitor list", requestId);
}

export function normalizeMentionList(body: unknown, requestId?: string): ListEnvelope<Mention> {
  return normalizeList(body, mentionSchema, "the mention list", requestId);
}

export function normalizeVisitor(body: unknown, requestId?: string): Visitor {
  const result = visitorSchema.safeParse(unwrapObject(body, "id"));
  if (!result.success) throw unexpectedResponse("the visitor", requestId, "no visitor id");
  return result.data;
}

const timelineHeader = visitorTimelineSchema.pick({ visitor_id: true });

export function normalizeTimeline(body: unknown, requestId?: string): VisitorTimeline {
  const found = unwrapArray(body, ["data", "events"]);
  if (!found) throw unexpectedResponse("the visitor timeline", requestId);
  const items = readItems(found.items, timelineEventSchema, requestId, renamed("occurred_at", ["timestamp", "created_at"]));
  return { ...readHeader(timelineHeader, found.rest), ...items };
}

const trafficHeader = trafficSchema.pick({ period: true, from: true, to: true });

export function normalizeTraffic(body: unknown, requestId?: string): Traffic {
  const found = unwrapArray(body, ["data"]);
  if (!found) throw unexpectedResponse("traffic by source", requestId);
  return { ...readHeader(trafficHeader, found.rest), ...readItems(found.items, trafficRowSchema, requestId, renamed("visitors", ["count"])) };
}

const funnelHeader = funnelSchema.pick({ period: true, from: true, to: true });

export function normalizeFunnel(body: unknown, requestId?: string): Funnel {
  const found = unwrapArray(body, ["data"]);
  if (!found) throw unexpectedResponse("the funnel", requestId);
  return { ...readHeader(funnelHeader, found.rest), ...readItems(found.items, funnelStageSchema, requestId, renamed("stage", ["name"])) };
}

const rankingHeader = rankingSchema.pick({ updated_at: true });

export function normalizeRanking(body: unknown, requestId?: string): Ranking {
  const found = unwrapArray(body, ["data", "competitors"]);
  if (!found) throw unexpectedResponse("the ranking", requestId);
  return { ...readHeader(rankingHeader, found.rest), ...readItems(found.items, rankingRowSchema, requestId) };
}

/**
 * Single objects whose every field is optional need one of their own keys present (with any
 * value, null included): `{}` or an unrelated object is a wrong body, not a resource of nothing.
 */
function singleObject(body: unknown, mainKey: string, keys: readonly string[], what: string, requestId?: string): Obj {
  const value = unwrapObject(body, mainKey);
  if (!isRecord(value) || !keys.some((k) => k in value)) throw unexpectedResponse(what, requestId);
  return value;
}

export function normalizeOverview(body: unknown, requestId?: string): Overview {
  return overviewSchema.parse(singleObject(body, "visitors", ["visitors", "pageviews", "conversions", "ai_traffic"], "the overview", requestId));
}

export function normalizeScore(body: unknown, requestId?: string): Score {
  return scoreSchema.parse(singleObject(body, "score", ["score", "trend", "breakdown"], "the AI Positioning Score", requestId));
}
