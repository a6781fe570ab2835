import { describe, expect, it } from "vitest";
import { DataApiError } from "./errors";
import { ID_MAX, TEXT_MAX, TOKEN_MAX } from "./lenient-fields";
import {
  normalizeFunnel,
  normalizeMentionList,
  normalizeOverview,
  normalizeRanking,
  normalizeScore,
  normalizeTimeline,
  normalizeTraffic,
  normalizeVisitor,
  normalizeVisitorList,
} from "./normalize";

const event = { id: "evt_1", type: "page_view", occurred_at: "2026-11-01T10:00:00Z", url: "/pricing" };

function expectUnexpected(fn: () => unknown, requestId = "req_x") {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DataApiError);
    expect(e).toMatchObject({ status: 502, code: "unexpected_response", requestId });
    return;
  }
  throw new Error("expected an unexpected_response error");
}

describe("normalizers accept every variant of the settled unknowns (sandbox/README.md)", () => {
  it("visitor: bare or wrapped in data", () => {
    const v = { id: "vis_a", source: "chatgpt" };
    expect(normalizeVisitor(v)).toEqual(v);
    expect(normalizeVisitor({ data: v })).toEqual(v);
  });

  it("timeline: data, events or a bare array; timestamp/created_at for occurred_at; unknown types kept", () => {
    const canonical = { visitor_id: "vis_a", data: [event] };
    expect(normalizeTimeline(canonical)).toEqual(canonical);
    expect(normalizeTimeline({ visitor_id: "vis_a", events: [event] })).toEqual(canonical);
    expect(normalizeTimeline([event])).toEqual({ data: [event] });
    const { occurred_at, ...rest } = event;
    expect(normalizeTimeline([{ ...rest, timestamp: occurred_at }]).data[0]).toEqual(event);
    expect(normalizeTimeline([{ ...rest, created_at: occurred_at }]).data[0]).toEqual(event);
    expect(normalizeTimeline([{ ...rest, occurred_at: null, timestamp: occurred_at }]).data[0]).toEqual(event);
    expect(normalizeTimeline([{ ...event, type: "webinar_signup" }]).data[0]?.type).toBe("webinar_signup");
  });

  it("traffic: wrapped or bare, count for visitors", () => {
    const row = { source: "chatgpt", visitors: 12, percentage: 40 };
    expect(normalizeTraffic({ period: "30d", data: [row] })).toEqual({ period: "30d", data: [row] });
    expect(normalizeTraffic([{ source: "chatgpt", count: 12, percentage: 40 }])).toEqual({ data: [row] });
  });

  it("funnel: wrapped or bare, name for stage", () => {
    const stage = { stage: "visit", label: "Visited", count: 100, rate: 100 };
    expect(normalizeFunnel({ period: "7d", data: [stage] })).toEqual({ period: "7d", data: [stage] });
    expect(normalizeFunnel([{ name: "visit", label: "Visited", count: 100, rate: 100 }])).toEqual({ data: [stage] });
  });

  it("ranking: data, competitors or a bare array", () => {
    const row = { rank: 1, name: "Acme", score: 80, is_workspace: true };
    expect(normalizeRanking({ updated_at: "2026-11-20T00:00:00Z", data: [row] }).data).toEqual([row]);
    expect(normalizeRanking({ competitors: [row] })).toEqual({ data: [row] });
    expect(normalizeRanking([row])).toEqual({ data: [row] });
  });

  it("overview and score: bare or wrapped, with the overview's window", () => {
    const o = {
      visitors: { total: 10, change: 2.5 },
      ai_traffic: { total: 3, percentage: 30 },
      period: "7d",
      from: "2026-11-13T12:00:00.000Z",
      to: "2026-11-20T12:00:00.000Z",
    };
    expect(normalizeOverview(o)).toEqual(o);
    expect(normalizeOverview({ data: o })).toEqual(o);
    const s = { score: 72, trend: { direction: "sideways", change: 0 } };
    expect(normalizeScore(s)).toEqual(s);
    expect(normalizeScore({ data: s })).toEqual(s);
  });
});

describe("only a body that is not the expected envelope is unexpected_response, with the request id", () => {
  it.each([
    ["visitor list that is an array", () => normalizeVisitorList([{ id: "vis_a" }], "req_x")],
    ["visitor list without a data array", () => normalizeVisitorList({ data: { id: "vis_a" }, meta: {} }, "req_x")],
    ["mention list that is null", () => normalizeMentionList(null, "req_x")],
    ["visitor that is a string", () => normalizeVisitor("vis_a", "req_x")],
    ["visitor without an id", () => normalizeVisitor({ source: "chatgpt" }, "req_x")],
    ["timeline without an array", () => normalizeTimeline({ visitor_id: "vis_a" }, "req_x")],
    ["funnel that is null", () => normalizeFunnel(null, "req_x")],
    ["traffic that is a number", () => normalizeTraffic(12, "req_x")],
    ["ranking that is an object without rows", () => normalizeRanking({ rows: [] }, "req_x")],
    ["overview that is empty", () => normalizeOverview({}, "req_x")],
    ["overview that is an array", () => normalizeOverview([], "req_x")],
    ["score without any score field", () => normalizeScore({ rows: [] }, "req_x")],
  ])("%s", (_name, fn) => expectUnexpected(fn));

  it("a list without meta is still the list: its rows are shown, the paging values unknown", () => {
    expect(normalizeVisitorList({ data: [{ id: "vis_a" }] })).toEqual({ data: [{ id: "vis_a" }], meta: {} });
  });

  it("a single object whose fields are all null is that object, every value unknown", () => {
    expect(normalizeOverview({ visitors: null, pageviews: "n/a" })).toEqual({});
    expect(normalizeScore({ score: null })).toEqual({});
  });
});

// ---------------------------------------------------------------------------------------------
// Every field of every resource against a table of odd values. ABSENT as input removes the field;
// as expected output it means the field is absent (undefined) in the canonical item.

const ABSENT = Symbol("absent");
type Case = readonly [input: unknown, expected: unknown];

const common: Case[] = [
  [null, ABSENT],
  [ABSENT, ABSENT],
  [{ nested: 1 }, ABSENT],
];
const integerCases: Case[] = [
  ...common,
  ["12", 12],
  [" 3 ", 3],
  ["1e3", 1000],
  ["3.5", ABSENT],
  [3.5, ABSENT],
  ["12abc", ABSENT],
  ["0x10", ABSENT],
  ["", ABSENT],
  [true, ABSENT],
  [9007199254740993, ABSENT],
];
const numberCases: Case[] = [
  ...common,
  ["12", 12],
  [" 3.5 ", 3.5],
  ["-0.25", -0.25],
  ["n/a", ABSENT],
  ["Infinity", ABSENT],
  ["1e400", ABSENT],
  [false, ABSENT],
  [[1], ABSENT],
];
const booleanCases: Case[] = [...common, ["true", true], [" FALSE ", false], ["yes", ABSENT], [1, ABSENT], [0, ABSENT]];
const textCases: Case[] = [
  ...common,
  [12345, ABSENT],
  [["a"], ABSENT],
  ["", ABSENT],
  ["   ", ABSENT],
  ["<b>kept as text</b>", "<b>kept as text</b>"],
  ["x".repeat(TEXT_MAX + 50), "x".repeat(TEXT_MAX)],
];
const tokenCases: Case[] = [
  ...common,
  ["bing", "bing"],
  [" sideways ", "sideways"],
  ["", ABSENT],
  [42, ABSENT],
  ["constructor", "constructor"],
  ["y".repeat(500), "y".repeat(TOKEN_MAX)],
];
const timeCases: Case[] = [
  ...common,
  ["not a date", ABSENT],
  ["yesterday", ABSENT],
  ["March 7, 2026", ABSENT],
  ["2026-02-31T10:00:00Z", ABSENT],
  ["2026-13-01T00:00:00Z", ABSENT],
  ["2026-11-20T25:00:00Z", ABSENT],
  ["2026-11-20T10:00:00+25:00", ABSENT],
  ["", ABSENT],
  [1763632800000, ABSENT],
  ["2026-11-20T10:00:00Z", "2026-11-20T10:00:00Z"],
  ["2026-11-20T10:00:00.123+02:00", "2026-11-20T10:00:00.123+02:00"],
  ["2026-11-20", "2026-11-20T00:00:00.000Z"],
  ["2026-11-20 10:00:00", "2026-11-20T10:00:00.000Z"],
  ["2026-11-20T10:00Z", "2026-11-20T10:00:00.000Z"],
  ["2026-11-20T10:00:00+0200", "2026-11-20T08:00:00.000Z"],
  ["2026-11-20T10:00:00.123456-01:30", "2026-11-20T11:30:00.123Z"],
  ["2024-02-29 00:00", "2024-02-29T00:00:00.000Z"],
  ["2023-02-29T00:00:00Z", ABSENT],
  ["0050-01-01", "0050-01-01T00:00:00.000Z"],
];
const listCases: Case[] = [
  ...common,
  ["Acme, Globex", ABSENT],
  [
    ["Acme", 7, null, { name: "x" }, "Globex"],
    ["Acme", "Globex"],
  ],
  [[], []],
];

type Kind = "integer" | "number" | "boolean" | "text" | "token" | "time" | "list";
const CASES: Record<Kind, Case[]> = {
  integer: integerCases,
  number: numberCases,
  boolean: booleanCases,
  text: textCases,
  token: tokenCases,
  time: timeCases,
  list: listCases,
};

type Resource = {
  base: Record<string, unknown>;
  fields: Record<string, Kind>;
  /** The normalised item for a body built around one (possibly odd) item. */
  read: (item: Record<string, unknown>) => unknown;
};

const RESOURCES: Record<string, Resource> = {
  visitor: {
    base: {
      id: "vis_a",
      first_seen: "2026-11-01T10:00:00Z",
      last_seen: "2026-11-02T10:00:00Z",
      source: "chatgpt",
      intent: "support",
      pages_viewed: 3,
      converted: true,
      email: "a@example.com",
      country: "DE",
      city: "Berlin",
    },
    fields: {
      first_seen: "time",
      last_seen: "time",
      source: "token",
      intent: "token",
      pages_viewed: "integer",
      converted: "boolean",
      email: "text",
      country: "token",
      city: "text",
    },
    read: (item) => normalizeVisitorList({ data: [item], meta: { total: 1, limit: 20, offset: 0 } }).data[0],
  },
  mention: {
    base: {
      id: "mnt_a",
      query: "best tool",
      platform: "claude",
      response_snippet: "…",
      position: 2,
      sentiment: "positive",
      competitors_mentioned: ["Acme"],
      created_at: "2026-11-01T10:00:00Z",
    },
    fields: {
      query: "text",
      platform: "token",
      response_snippet: "text",
      position: "integer",
      sentiment: "token",
      competitors_mentioned: "list",
      created_at: "time",
    },
    read: (item) => normalizeMentionList({ data: [item], meta: { total: 1, limit: 20, offset: 0 } }).data[0],
  },
  "timeline event": {
    base: { id: "evt_1", type: "page_view", occurred_at: "2026-11-01T10:00:00Z", url: "/pricing", title: "Pricing", source: "chatgpt", duration_seconds: 42 },
    fields: { id: "token", type: "token", occurred_at: "time", url: "text", title: "text", source: "token", duration_seconds: "number" },
    read: (item) => normalizeTimeline({ visitor_id: "vis_a", data: [item] }).data[0],
  },
  overview: {
    base: {
      visitors: { total: 10, change: 1.5 },
      pageviews: { total: 30, change: -2 },
      conversions: { total: 2, rate: 20, change: 0 },
      ai_traffic: { total: 4, percentage: 40 },
      period: "7d",
      from: "2026-11-13T12:00:00Z",
      to: "2026-11-20T12:00:00Z",
    },
    fields: {
      "visitors.total": "integer",
      "visitors.change": "number",
      "pageviews.total": "integer",
      "pageviews.change": "number",
      "conversions.total": "integer",
      "conversions.rate": "number",
      "conversions.change": "number",
      "ai_traffic.total": "integer",
      "ai_traffic.percentage": "number",
      period: "token",
      from: "time",
      to: "time",
    },
    read: (item) => normalizeOverview(item),
  },
  "traffic row": {
    base: { source: "chatgpt", visitors: 12, percentage: 40, change: 3.5 },
    fields: { visitors: "integer", percentage: "number", change: "number" },
    read: (item) => normalizeTraffic({ period: "30d", data: [item] }).data[0],
  },
  "funnel stage": {
    base: { stage: "leads", label: "Leads", count: 100, rate: 12.5 },
    fields: { label: "text", count: "integer", rate: "number" },
    read: (item) => normalizeFunnel({ period: "30d", data: [item] }).data[0],
  },
  score: {
    base: {
      score: 72,
      trend: { direction: "up", change: 3 },
      breakdown: { visibility: 70, sentiment: 80, authority: 60, coverage: 78 },
      updated_at: "2026-11-20T12:00:00Z",
    },
    fields: {
      score: "integer",
      "trend.direction": "token",
      "trend.change": "integer",
      "breakdown.visibility": "integer",
      "breakdown.sentiment": "integer",
      "breakdown.authority": "integer",
      "breakdown.coverage": "integer",
      updated_at: "time",
    },
    read: (item) => normalizeScore(item),
  },
  "ranking row": {
    base: { rank: 1, name: "Acme", score: 80.5, change: -2, is_workspace: false },
    fields: { rank: "integer", score: "number", change: "number", is_workspace: "boolean" },
    read: (item) => normalizeRanking({ data: [item] }).data[0],
  },
};

function withField(base: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const out = structuredClone(base);
  const parts = path.split(".");
  const parent = parts.slice(0, -1).reduce<Record<string, unknown>>((o, k) => o[k] as Record<string, unknown>, out);
  if (value === ABSENT) delete parent[parts.at(-1)!];
  else parent[parts.at(-1)!] = value;
  return out;
}

const table = Object.entries(RESOURCES).flatMap(([name, r]) =>
  Object.entries(r.fields).flatMap(([field, kind]) => CASES[kind].map(([input, expected]) => [name, field, kind, input, expected] as const)),
);

describe("every field of every resource: an odd value becomes its canonical value or absent, and costs nothing else", () => {
  const show = (v: unknown) =>
    v === ABSENT ? "(absent)" : typeof v === "string" && v.length > 40 ? `"${v.slice(0, 12)}…" (${v.length} chars)` : JSON.stringify(v);
  it.each(
    table.map(
      ([name, field, kind, input, expected]) => [`${name}.${field} (${kind}) = ${show(input)} -> ${show(expected)}`, name, field, input, expected] as const,
    ),
  )("%s", (_title, name, field, input, expected) => {
    const resource = RESOURCES[name]!;
    const out = resource.read(withField(resource.base, field, input));
    // Every other field is exactly as in the clean item.
    expect(out).toEqual(withField(resource.base, field, expected));
  });

  it("an overview metric, the score's trend or breakdown that is not an object is absent as a whole", () => {
    expect(normalizeOverview({ visitors: "12", pageviews: { total: 3 } })).toEqual({ pageviews: { total: 3 } });
    expect(normalizeScore({ score: 70, trend: "up", breakdown: [1, 2] })).toEqual({ score: 70 });
  });

  it("unknown fields are not passed on, at any level", () => {
    const body = {
      data: [{ id: "vis_a", source: "bing", debug_api_key: "secret", auth: { token: "t" } }],
      meta: { total: 1, limit: 1, offset: 0, next: "x" },
      debug: 1,
    };
    expect(normalizeVisitorList(body)).toEqual({ data: [{ id: "vis_a", source: "bing" }], meta: { total: 1, limit: 1, offset: 0 } });
    expect(normalizeOverview({ visitors: { total: 1, secret: "s" }, debug_api_key: "k" })).toEqual({ visitors: { total: 1 } });
    expect(normalizeRanking({ updated_at: "2026-11-20T12:00:00Z", debug_api_key: "k", data: [] })).toEqual({ updated_at: "2026-11-20T12:00:00Z", data: [] });
  });
});

describe("list meta: total must be a non-negative safe integer", () => {
  it.each([
    [120, 120],
    ["120", 120],
    [1e11, 1e11],
    [0, 0],
    [-1, ABSENT],
    [2.5, ABSENT],
    ["many", ABSENT],
    [null, ABSENT],
    [1e16, ABSENT],
    [Number.MAX_SAFE_INTEGER + 2, ABSENT],
  ])("total %s -> %s", (total, expected) => {
    const meta = normalizeVisitorList({ data: [], meta: { total, limit: "20", offset: 0 } }).meta;
    expect(meta).toEqual(expected === ABSENT ? { limit: 20, offset: 0 } : { total: expected, limit: 20, offset: 0 });
  });
});

describe("per item, not per list: an item that cannot be read is left out and counted, with the request id", () => {
  const meta = { total: 9, limit: 20, offset: 0 };
  it.each([
    [
      "visitors",
      () =>
        normalizeVisitorList(
          {
            data: [
              { id: "vis_a" },
              null,
              "vis_b",
              { source: "chatgpt" },
              { id: 42 },
              { id: "" },
              { id: "v".repeat(ID_MAX + 1) },
              [],
              { id: "vis_c", pages_viewed: null },
            ],
            meta,
          },
          "req_x",
        ),
      ["vis_a", "vis_c"],
      7,
    ],
    [
      "mentions",
      () => normalizeMentionList({ data: [{ id: "mnt_a", position: null }, 12, { platform: "copilot" }, { id: "mnt_b" }], meta }, "req_x"),
      ["mnt_a", "mnt_b"],
      2,
    ],
  ])("%s", (_name, run, ids, count) => {
    const out = run();
    expect(out.data.map((i) => i.id)).toEqual(ids);
    expect(out.unreadable).toEqual({ count, request_id: "req_x" });
  });

  it("timeline: an event needs a type or a time; with either it is kept", () => {
    const out = normalizeTimeline(
      { data: [{ type: "video_play" }, { occurred_at: "2026-11-01T10:00:00Z" }, { url: "/x" }, { type: 42, occurred_at: "not a date" }, null, event] },
      "req_t",
    );
    expect(out.data).toEqual([{ type: "video_play" }, { occurred_at: "2026-11-01T10:00:00Z" }, event]);
    expect(out.unreadable).toEqual({ count: 3, request_id: "req_t" });
  });

  it("traffic, funnel and ranking rows need their source, stage and name", () => {
    const traffic = normalizeTraffic({ data: [{ source: "bing", visitors: "3" }, { visitors: 4 }, { source: 7 }, "x"] }, "req_1");
    expect(traffic).toEqual({ data: [{ source: "bing", visitors: 3 }], unreadable: { count: 3, request_id: "req_1" } });
    const funnel = normalizeFunnel([{ stage: "visitors", count: 10 }, { label: "Lost", count: 3 }, { name: "leads" }]);
    expect(funnel).toEqual({ data: [{ stage: "visitors", count: 10 }, { stage: "leads" }], unreadable: { count: 1 } });
    const ranking = normalizeRanking({ data: [{ rank: 1, name: "Acme" }, { rank: 2, score: 50 }, null] }, "req_3");
    expect(ranking).toEqual({ data: [{ rank: 1, name: "Acme" }], unreadable: { count: 2, request_id: "req_3" } });
  });

  it("says nothing when every item was read", () => {
    expect(normalizeVisitorList({ data: [{ id: "vis_a" }], meta }, "req_x")).not.toHaveProperty("unreadable");
    expect(normalizeTimeline([event], "req_x")).not.toHaveProperty("unreadable");
  });

  it("a page of only unreadable items is an empty page with its count, not an error", () => {
    expect(normalizeMentionList({ data: [null, null], meta }, "req_x")).toEqual({ data: [], meta, unreadable: { count: 2, request_id: "req_x" } });
  });
});
