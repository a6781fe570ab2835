// Hostile-but-realistic variants of successful bodies, for testing how the app tolerates real data
// (lib/data-api/README.md "Tolerance of real data"). Three switches, all fault fields (per key scope and path):
//
// - `oddRate` (0..1): that share of the items and objects of a 200 body get oddities a real API
//   sends somewhere: null or missing fields, numbers as numeric strings, non-numeric strings, a
//   string where an array is expected, unknown enum values (source "bing", platform "copilot",
//   sentiment "mixed", intent "newsletter", direction "sideways", timeline type "video_play"),
//   impossible timestamps. A fifth of the odd list items (and none of the single objects) cannot be
//   read at all: null, a bare string, or an object without its identity. Deterministic: each item's
//   draw is seeded by its identity (id, source, stage, name), so a page always has the same oddities.
// - `echoKey`: the caller's key is echoed in unknown extra fields and in a known text field of every
//   item (errors and X-Request-ID are handled by the server).
// - `metaTotal`: `meta.total` of list bodies is replaced by this number (e.g. 1e11).
import { hashString, mulberry32, type Rng } from "./prng";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Share of odd list items that cannot be read at all. */
export const UNREADABLE_SHARE = 0.2;

/** What a field holds, which decides the oddities it can get. */
type Kind = "int" | "num" | "bool" | "text" | "time" | "list" | { unknown: string };

type Resource = {
  /** Field that identifies an item (never made odd; removed to make an item unreadable). */
  identity?: string[];
  fields: Record<string, Kind>;
  /** A known text field that `echoKey` appends the key to. */
  echoField?: string;
};

const VISITOR: Resource = {
  identity: ["id"],
  fields: {
    first_seen: "time",
    last_seen: "time",
    source: { unknown: "bing" },
    intent: { unknown: "newsletter" },
    pages_viewed: "int",
    converted: "bool",
    email: "text",
    country: "text",
    city: "text",
  },
  echoField: "city",
};

const MENTION: Resource = {
  identity: ["id"],
  fields: {
    query: "text",
    platform: { unknown: "copilot" },
    response_snippet: "text",
    position: "int",
    sentiment: { unknown: "mixed" },
    competitors_mentioned: "list",
    created_at: "time",
  },
  echoField: "response_snippet",
};

const EVENT: Resource = {
  // Unreadable without both (an event needs a type or a time: lib/data-api/README.md "Tolerance of
  // real data"); one alone stays readable.
  identity: ["type", "occurred_at"],
  fields: { type: { unknown: "video_play" }, occurred_at: "time", url: "text", title: "text", source: { unknown: "bing" }, duration_seconds: "num" },
  echoField: "title",
};

const TRAFFIC_ROW: Resource = { identity: ["source"], fields: { visitors: "int", percentage: "num", change: "num" } };
const FUNNEL_STAGE: Resource = { identity: ["stage"], fields: { label: "text", count: "int", rate: "num" }, echoField: "label" };
const RANKING_ROW: Resource = { identity: ["name"], fields: { rank: "int", score: "num", change: "num", is_workspace: "bool" } };

const OVERVIEW: Resource = {
  fields: {
    "visitors.total": "int",
    "visitors.change": "num",
    "pageviews.total": "int",
    "pageviews.change": "num",
    "conversions.total": "int",
    "conversions.rate": "num",
    "conversions.change": "num",
    "ai_traffic.total": "int",
    "ai_traffic.percentage": "num",
  },
};

const SCORE: Resource = {
  fields: {
    score: "int",
    "trend.direction": { unknown: "sideways" },
    "trend.change": "int",
    "breakdown.visibility": "int",
    "breakdown.sentiment": "int",
    "breakdown.authority": "int",
    "breakdown.coverage": "int",
    updated_at: "time",
  },
};

const INVALID_TIMES = ["not a date", "2026-02-31T10:00:00Z", "2026-13-01T00:00:00Z", "yesterday", ""];

/** One oddity for a field of this kind, given its current value. */
function oddValue(kind: Kind, value: unknown, rng: Rng): { drop: true } | { value: unknown } {
  const roll = rng();
  if (roll < 0.2) return { value: null };
  if (roll < 0.35) return { drop: true };
  if (typeof kind === "object") return { value: rng() < 0.8 ? kind.unknown : 42 };
  switch (kind) {
    case "int":
    case "num":
      // Mostly the same number as a string (which the app must read); sometimes one it cannot read.
      if (roll < 0.8) return { value: rng() < 0.5 ? String(value) : ` ${String(value)} ` };
      return { value: kind === "int" && rng() < 0.5 ? Number(value) + 0.5 : "n/a" };
    case "bool":
      return { value: roll < 0.8 ? String(value) : "yes" };
    case "text":
      return { value: roll < 0.7 ? 12345 : ["not", "text"] };
    case "time":
      return { value: INVALID_TIMES[Math.floor(rng() * INVALID_TIMES.length)] };
    case "list": {
      const names = Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
      return { value: roll < 0.7 ? names.join(", ") || "Acme" : [...names, 7, null, { name: "x" }] };
    }
  }
}

function getPath(obj: Json, path: string): { parent: Json; key: string } | null {
  const parts = path.split(".");
  let parent: unknown = obj;
  for (const part of parts.slice(0, -1)) {
    parent = isObject(parent) ? parent[part] : undefined;
  }
  return isObject(parent) ? { parent, key: parts.at(-1)! } : null;
}

/** 1 to 3 fields of `item` (a copy) made odd. */
function oddFields(item: Json, resource: Resource, rng: Rng): Json {
  const out = structuredClone(item);
  const names = Object.keys(resource.fields);
  const count = 1 + Math.floor(rng() * 3);
  for (let i = 0; i < count; i++) {
    const name = names[Math.floor(rng() * names.length)]!;
    const at = getPath(out, name);
    if (!at) continue;
    const odd = oddValue(resource.fields[name]!, at.parent[at.key], rng);
    if ("drop" in odd) delete at.parent[at.key];
    else at.parent[at.key] = odd.value;
  }
  // An event keeps one of type and time as sent: losing both is the unreadable case, not an odd one.
  const identity = resource.identity ?? [];
  if (identity.length > 1 && identity.every((k) => out[k] !== item[k])) out[identity[0]!] = item[identity[0]!];
  return out;
}

/** An item that cannot be read: null, a bare string, or the object without its identity. */
function unreadableItem(item: Json, resource: Resource, rng: Rng): unknown {
  const roll = rng();
  if (roll < 0.3) return null;
  if (roll < 0.5) return `${String(item[resource.identity?.[0] ?? "id"] ?? "item")} (unavailable)`;
  const out = { ...item };
  for (const key of resource.identity ?? []) delete out[key];
  return out;
}

/** What seeds an item's draw: its id when it has one (events), else its identity fields. */
function identityOf(item: Json, resource: Resource, fallback: string): string {
  if (typeof item.id === "string") return item.id;
  const values = (resource.identity ?? []).map((k) => item[k]).filter((v) => typeof v === "string");
  return values.length ? values.join("|") : fallback;
}

function oddItem(item: unknown, resource: Resource, rate: number, fallbackIdentity: string, allowUnreadable: boolean): unknown {
  if (!isObject(item)) return item;
  const rng = mulberry32(hashString(`odd|${identityOf(item, resource, fallbackIdentity)}`));
  const u = rng();
  if (u >= rate) return item;
  if (allowUnreadable && u < rate * UNREADABLE_SHARE) return unreadableItem(item, resource, rng);
  return oddFields(item, resource, rng);
}

function oddList(items: unknown, resource: Resource, rate: number, scope: string): unknown {
  return Array.isArray(items) ? items.map((item, i) => oddItem(item, resource, rate, `${scope}#${i}`, true)) : items;
}

/** A list's meta with, at the odd share, its numbers sent as numeric strings (still valid). */
function oddMeta(meta: unknown, rate: number, scope: string): unknown {
  if (!isObject(meta)) return meta;
  const rng = mulberry32(hashString(`meta|${scope}`));
  if (rng() >= rate) return meta;
  return Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, typeof v === "number" ? String(v) : v]));
}

/** The resource a /v1 path serves (path after /v1), by shape. */
function resourceOf(path: string): "visitors" | "visitor" | "timeline" | "mentions" | "overview" | "traffic" | "funnel" | "score" | "ranking" | null {
  if (path === "/visitors") return "visitors";
  if (/^\/visitors\/[^/]+$/.test(path)) return "visitor";
  if (/^\/visitors\/[^/]+\/timeline$/.test(path)) return "timeline";
  if (path === "/mentions") return "mentions";
  if (path === "/analytics/overview") return "overview";
  if (path === "/analytics/traffic") return "traffic";
  if (path === "/analytics/funnel") return "funnel";
  if (path === "/intelligence/score") return "score";
  if (path === "/intelligence/ranking") return "ranking";
  return null;
}

/** The 200 body of `path` (after /v1) with oddities at `rate`; `query` scopes the meta's draw. */
export function withOddities(body: unknown, path: string, query: string, rate: number): unknown {
  if (!(rate > 0) || !isObject(body)) return body;
  const scope = `${path}?${query}`;
  switch (resourceOf(path)) {
    case "visitors":
      return { ...body, data: oddList(body.data, VISITOR, rate, scope), meta: oddMeta(body.meta, rate, scope) };
    case "mentions":
      return { ...body, data: oddList(body.data, MENTION, rate, scope), meta: oddMeta(body.meta, rate, scope) };
    case "visitor":
      return oddItem(body, VISITOR, rate, scope, false);
    case "timeline":
      return { ...body, data: oddList(body.data, EVENT, rate, scope) };
    case "traffic":
      return { ...body, data: oddList(body.data, TRAFFIC_ROW, rate, scope) };
    case "funnel":
      return { ...body, data: oddList(body.data, FUNNEL_STAGE, rate, scope) };
    case "ranking":
      return { ...body, data: oddList(body.data, RANKING_ROW, rate, scope) };
    case "overview":
      return oddItem(body, OVERVIEW, rate, scope, false);
    case "score":
      return oddItem(body, SCORE, rate, scope, false);
    default:
      return body;
  }
}

/** A list body with `meta.total` replaced. */
export function withMetaTotal(body: unknown, total: number): unknown {
  if (!isObject(body) || !isObject(body.meta)) return body;
  return { ...body, meta: { ...body.meta, total } };
}

const ECHO_FIELDS: Partial<Record<NonNullable<ReturnType<typeof resourceOf>>, Resource>> = {
  visitors: VISITOR,
  visitor: VISITOR,
  mentions: MENTION,
  timeline: EVENT,
  funnel: FUNNEL_STAGE,
};

/**
 * A 200 body echoing `key` the ways a careless upstream might: in an unknown field of the body and
 * of every item, and appended to a known text field of every item.
 */
export function withEchoedKey(body: unknown, path: string, key: string): unknown {
  if (!isObject(body)) return body;
  const resource = resourceOf(path);
  const echoField = resource ? ECHO_FIELDS[resource]?.echoField : undefined;
  const echo = (item: unknown): unknown => {
    if (!isObject(item)) return item;
    const out: Json = { ...item, debug_api_key: key, auth: { authorization: `Bearer ${key}` } };
    if (echoField) out[echoField] = `${typeof item[echoField] === "string" ? item[echoField] : ""} [${key}]`;
    return out;
  };
  if (resource === "visitor") return echo(body);
  const out: Json = { ...body, debug_api_key: key };
  if (Array.isArray(body.data)) out.data = body.data.map(echo);
  return out;
}
