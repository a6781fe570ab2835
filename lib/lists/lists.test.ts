// The lists the dashboard filters itself (lib/lists), through GET /api/mentions and
// GET /api/visitors over real HTTP to the sandbox: the rows are the sandbox's own rows of the range,
// filtered here by this file's own reading of the rule (a question trimmed and lower-cased, a
// competitor's name as sent, the four AI sources), in the Data API's order, paged with an exact
// total; the counts equal the figures that open them (a question's mentions on /insights/queries, a
// competitor's on /insights/competitors, the AI visitors of /insights/trend); `query`, `competitor`
// and `source=ai` never reach the Data API (its request log); over the listing cap a 422 after each
// list's first page only; a list that moves while read is read again, then refused, never partial;
// bad values are a 400 naming the parameter before any upstream call.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ListEnvelope, Mention, Visitor } from "@/lib/data-api/schemas";
import { resolveListRange } from "@/lib/range/list-range";
import { DEMO_KEYS } from "@/sandbox/keys";
import { serverContext } from "@/lib/server/context";
import { createMemoryInsightsStore } from "@/lib/shared-state/insights";
import { callApi, serverContextPerTest, sessionCookie, TEST_NOW, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import { discardKey } from "@/lib/server/upstream";
import { mentionMatcher } from "./mentions";

const sandbox = upstreamForFile({ visitors: 2000 });
const overrideContext = serverContextPerTest();
const KEY = DEMO_KEYS.pro;
/** The 30 days ending on the sandbox's today, as the header's range sends them in UTC (dates). */
const FROM = "2026-10-22";
const TO = "2026-11-20";
const RANGE = `from=${FROM}&to=${TO}`;
const AI = ["chatgpt", "claude", "perplexity", "gemini"];
let cookie: string;

type Page<T> = ListEnvelope<T> & { unchecked?: { count: number } };

beforeAll(async () => {
  cookie = await sessionCookie(KEY);
});
beforeEach(() => {
  // A client with no budget spent and no insights figures kept: each test's calls are its own.
  discardKey(KEY);
  overrideContext({ stores: { ...serverContext().stores, insights: createMemoryInsightsStore() } });
  sandbox().setFaults({});
  sandbox().reset();
});
afterEach(() => {
  delete process.env.INSIGHTS_MAX_LISTED_ROWS;
});

/**
 * Every row of a Data API list as the sandbox pages it, asked with the "limited" demo key (the same
 * workspace, its own rate limit), so the reference costs the key under test nothing.
 */
async function sandboxRows<T>(path: "/mentions" | "/visitors", filters: Record<string, string>): Promise<T[]> {
  const rows: T[] = [];
  for (let offset = 0; ; offset += 100) {
    const qs = new URLSearchParams({ ...filters, limit: "100", offset: String(offset) });
    const res = await fetch(`${sandbox().baseUrl}${path}?${qs}`, { headers: { Authorization: `Bearer ${DEMO_KEYS.limited}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ListEnvelope<T> & { meta: { total: number } };
    rows.push(...body.data);
    if (offset + 100 >= body.meta.total) return rows;
  }
}

const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((r) => r.id);
const get = <T>(path: string) => callApi<T>(path, { cookie });

/** Every page of a route's list, `limit` at a time: the rows in order and the totals each page said. */
async function allPages<T extends { id: string }>(path: string, limit: number): Promise<{ rows: T[]; totals: number[] }> {
  const rows: T[] = [];
  const totals: number[] = [];
  for (let offset = 0; ; offset += limit) {
    const res = await get<Page<T>>(`${path}&limit=${limit}&offset=${offset}`);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.meta).toMatchObject({ limit, offset });
    totals.push(res.body.meta.total!);
    rows.push(...res.body.data);
    if (offset + limit >= res.body.meta.total!) return { rows, totals };
  }
}

/** What the Data API was asked with the key under test since the last reset, as query strings of its list paths (the sandbox's log). */
const upstreamQueries = () =>
  sandbox()
    .stats()
    .log.filter((l) => (l.path === "/v1/mentions" || l.path === "/v1/visitors") && l.key === `…${KEY.slice(-4)}`)
    .map((l) => new URLSearchParams(l.query));

/** This file's own reading of a question's grouping (docs/product.md "Questions": trimmed and lower-cased). */
const sameQuestion = (m: Mention, question: string) => typeof m.query === "string" && m.query.trim().toLowerCase() === question.trim().toLowerCase();

/** The range's most frequent question and competitor, as the sandbox's rows have them. */
async function frequent(): Promise<{ mentions: Mention[]; question: string; competitor: string }> {
  const mentions = await sandboxRows<Mention>("/mentions", { from: FROM, to: TO });
  const count = <K>(keys: K[]) => [...keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<K, number>())].sort((a, b) => b[1] - a[1])[0]![0];
  const question = count(mentions.flatMap((m) => (typeof m.query === "string" && m.query.trim() ? [m.query.trim().toLowerCase()] : [])));
  const competitor = count(mentions.flatMap((m) => [...new Set(m.competitors_mentioned ?? [])]));
  return { mentions, question, competitor };
}

describe("which mentions the dashboard's filters keep", () => {
  const mention = (query: string | undefined, competitors?: string[]): Mention => ({
    id: "men_1",
    query,
    ...(competitors ? { competitors_mentioned: competitors } : {}),
  });

  it("a question: trimmed and case-folded on both sides; a mention without one matches none", () => {
    const keep = mentionMatcher({ query: "  Best Analytics Tool for SaaS? " });
    expect(keep(mention("best analytics tool for saas?"))).toBe(true);
    expect(keep(mention("\tBEST ANALYTICS TOOL FOR SAAS?  "))).toBe(true);
    expect(keep(mention("best analytics tools for saas?"))).toBe(false);
    expect(keep(mention(undefined))).toBe(false);
  });

  it("a competitor: a name as sent (no case folding, as the competitors' figures count it); with a question, both", () => {
    expect(mentionMatcher({ competitor: "Acme" })(mention("q", ["Foo", "Acme", "Acme"]))).toBe(true);
    expect(mentionMatcher({ competitor: "acme" })(mention("q", ["Acme"]))).toBe(false);
    expect(mentionMatcher({ competitor: "Acme" })(mention("q"))).toBe(false);
    expect(mentionMatcher({ competitor: "Acme", query: "Q" })(mention("q", ["Acme"]))).toBe(true);
    expect(mentionMatcher({ competitor: "Acme", query: "other" })(mention("q", ["Acme"]))).toBe(false);
  });
});

describe("GET /api/mentions?query=", () => {
  it("lists exactly the range's mentions of the question, however it is written, in the Data API's order, paged with an exact total", async () => {
    const { mentions, question } = await frequent();
    const expected = mentions.filter((m) => sameQuestion(m, question));
    expect(expected.length).toBeGreaterThan(1);
    // Another way of writing it: capitals and spaces around.
    const written = `  ${question.toUpperCase()} `;
    const { rows, totals } = await allPages<Mention>(`/api/mentions?${RANGE}&query=${encodeURIComponent(written)}`, 2);
    expect(ids(rows)).toEqual(ids(expected));
    expect(new Set(totals)).toEqual(new Set([expected.length]));
    // Past the end: no rows, the same total.
    const past = await get<Page<Mention>>(`/api/mentions?${RANGE}&query=${encodeURIComponent(question)}&offset=${expected.length}`);
    expect(past.body).toEqual({ data: [], meta: { total: expected.length, limit: 20, offset: expected.length } });
  });

  it("keeps the page's other filters: platform and sentiment are asked of the Data API, the question applied here", async () => {
    const { mentions, question } = await frequent();
    const platform = mentions.find((m) => sameQuestion(m, question))!.platform!;
    const expected = mentions.filter((m) => sameQuestion(m, question) && m.platform === platform && m.sentiment === "positive");
    const res = await get<Page<Mention>>(`/api/mentions?${RANGE}&query=${encodeURIComponent(question)}&platform=${platform}&sentiment=positive&limit=100`);
    expect(ids(res.body.data)).toEqual(ids(expected));
    expect(res.body.meta.total).toBe(expected.length);
    const asked = upstreamQueries();
    expect(asked.length).toBeGreaterThan(0);
    for (const q of asked) expect([q.get("platform"), q.get("sentiment"), q.get("from"), q.get("to")]).toEqual([platform, "positive", FROM, TO]);
  });

  it("a question no mention has: an empty list, not an error", async () => {
    const res = await get<Page<Mention>>(`/api/mentions?${RANGE}&query=${encodeURIComponent("what nobody asks")}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], meta: { total: 0, limit: 20, offset: 0 } });
  });

  it("without a range: every mention of the question, all time (the list the page says it shows)", async () => {
    const { question } = await frequent();
    const all = await sandboxRows<Mention>("/mentions", {});
    const expected = all.filter((m) => sameQuestion(m, question));
    const res = await get<Page<Mention>>(`/api/mentions?query=${encodeURIComponent(question)}&limit=100`);
    expect(res.body.meta.total).toBe(expected.length);
    expect(ids(res.body.data)).toEqual(ids(expected.slice(0, 100)));
    expect(upstreamQueries().every((q) => !q.has("from") && !q.has("to"))).toBe(true);
  });
});

describe("GET /api/mentions?competitor=", () => {
  it("lists exactly the mentions naming the competitor (a name listed twice in one mention counts once), alone or with a question", async () => {
    const { mentions, question, competitor } = await frequent();
    const naming = mentions.filter((m) => (m.competitors_mentioned ?? []).includes(competitor));
    const { rows, totals } = await allPages<Mention>(`/api/mentions?${RANGE}&competitor=${encodeURIComponent(competitor)}`, 50);
    expect(ids(rows)).toEqual(ids(naming));
    expect(totals.every((t) => t === naming.length)).toBe(true);
    // Names are compared as sent: another case is another name.
    const other = await get<Page<Mention>>(`/api/mentions?${RANGE}&competitor=${encodeURIComponent(competitor.toUpperCase())}`);
    expect(other.body.meta.total).toBe(mentions.filter((m) => (m.competitors_mentioned ?? []).includes(competitor.toUpperCase())).length);
    const both = await get<Page<Mention>>(
      `/api/mentions?${RANGE}&competitor=${encodeURIComponent(competitor)}&query=${encodeURIComponent(question)}&limit=100`,
    );
    expect(ids(both.body.data)).toEqual(ids(naming.filter((m) => sameQuestion(m, question))));
  });
});

describe("the count on the list is the figure that opened it", () => {
  it.each(["UTC", "Europe/Berlin"])("each question of /insights/queries and each competitor of /insights/competitors, over 30 days in %s", async (tz) => {
    const insights = `from=${FROM}&to=${TO}&tz=${encodeURIComponent(tz)}`;
    const queries = await get<{ data: Array<{ key: string; query: string; mentions: number; platforms: Record<string, number> }> }>(
      `/api/insights/queries?${insights}`,
    );
    const competitors = await get<{ data: Array<{ name: string; mentions: number }> }>(`/api/insights/competitors?${insights}`);
    expect(queries.body.data.length).toBeGreaterThan(2);
    expect(competitors.body.data.length).toBeGreaterThan(2);
    // The list's range as the page sends it (the zone's days as instants; UTC days as dates).
    const range = new URLSearchParams(resolveListRange({ from: FROM, to: TO, tz }, Date.parse(TEST_NOW)).query).toString();
    for (const row of queries.body.data.slice(0, 5)) {
      const res = await get<Page<Mention>>(`/api/mentions?${range}&query=${encodeURIComponent(row.query)}&limit=1`);
      expect(res.body.meta.total, row.key).toBe(row.mentions);
      // One platform's figure opens that platform's mentions of the question.
      const platform = Object.entries(row.platforms).find(([, n]) => n > 0)![0];
      const one = await get<Page<Mention>>(`/api/mentions?${range}&query=${encodeURIComponent(row.query)}&platform=${platform}&limit=1`);
      expect(one.body.meta.total, `${row.key} on ${platform}`).toBe(row.platforms[platform]);
    }
    for (const row of competitors.body.data) {
      const res = await get<Page<Mention>>(`/api/mentions?${range}&competitor=${encodeURIComponent(row.name)}&limit=1`);
      expect(res.body.meta.total, row.name).toBe(row.mentions);
    }
  });
});

describe("GET /api/visitors?source=ai", () => {
  it("lists the four AI platforms' visitors of the range as one list, last seen first, with the exact total: the overview's AI visitors", async () => {
    const expected = (await Promise.all(AI.map((source) => sandboxRows<Visitor>("/visitors", { source, from: FROM, to: TO })))).flat();
    const trend = await get<{ data: Array<{ ai_visitors: number }> }>(`/api/insights/trend?${RANGE}&tz=UTC`);
    const aiVisitors = trend.body.data.reduce((n, d) => n + d.ai_visitors, 0);
    expect(expected.length).toBe(aiVisitors);
    const { rows, totals } = await allPages<Visitor>(`/api/visitors?${RANGE}&source=ai`, 100);
    expect(totals.every((t) => t === aiVisitors)).toBe(true);
    expect(new Set(ids(rows))).toEqual(new Set(ids(expected)));
    expect(rows).toHaveLength(expected.length);
    expect(rows.every((v) => AI.includes(v.source!))).toBe(true);
    const seen = rows.map((v) => Date.parse(v.last_seen!));
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
  });

  it("keeps intent and converted, asked of the Data API with each platform; `ai` is never sent", async () => {
    const filters = { converted: "true", intent: "problem_research" };
    const expected = (await Promise.all(AI.map((source) => sandboxRows<Visitor>("/visitors", { ...filters, source, from: FROM, to: TO })))).flat();
    sandbox().reset();
    const res = await get<Page<Visitor>>(`/api/visitors?${RANGE}&source=ai&converted=true&intent=problem_research&limit=100`);
    expect(res.body.meta.total).toBe(expected.length);
    expect(new Set(ids(res.body.data))).toEqual(new Set(ids(expected)));
    const asked = upstreamQueries();
    expect(asked.map((q) => q.get("source")).sort()).toEqual([...AI].sort());
    for (const q of asked) expect([q.get("converted"), q.get("intent"), q.get("from"), q.get("to")]).toEqual(["true", "problem_research", FROM, TO]);
  });

  it("one source is still the Data API's own list, asked as it is", async () => {
    const res = await get<Page<Visitor>>(`/api/visitors?${RANGE}&source=claude&limit=5`);
    expect(res.body.data.every((v) => v.source === "claude")).toBe(true);
    expect(upstreamQueries().map((q) => q.toString())).toEqual([`from=${FROM}&limit=5&offset=0&source=claude&to=${TO}`]);
  });
});

describe("nothing of the dashboard's own filters reaches the Data API", () => {
  it("query, competitor and source=ai are never in an upstream request; unknown parameters are dropped", async () => {
    const { question, competitor } = await frequent();
    sandbox().reset();
    await get(`/api/mentions?${RANGE}&query=${encodeURIComponent(question)}&competitor=${encodeURIComponent(competitor)}&highlight=x&debug=1`);
    await get(`/api/mentions?${RANGE}&query=${encodeURIComponent(question)}`);
    await get(`/api/visitors?${RANGE}&source=ai&debug=1`);
    const asked = upstreamQueries();
    expect(asked.length).toBeGreaterThan(4);
    for (const q of asked) {
      expect([...q.keys()].filter((k) => !["from", "to", "limit", "offset", "source", "platform", "sentiment", "intent", "converted"].includes(k))).toEqual([]);
      expect(q.get("source")).not.toBe("ai");
    }
  });
});

describe("bad values: a 400 naming the parameter, before any upstream call", () => {
  it.each([
    ["query=", "query"],
    ["query=%20%20%20", "query"],
    [`query=${"q".repeat(1001)}`, "query"],
    ["query=a&query=b", "query"],
    ["competitor=", "competitor"],
    [`competitor=${"c".repeat(201)}`, "competitor"],
    ["query=x&platform=bing", "platform"],
    ["query=x&from=2026-13-01", "from"],
    ["competitor=x&limit=0", "limit"],
  ])("/api/mentions?%s names %s", async (query, param) => {
    const res = await get<ErrorJson>(`/api/mentions?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_parameter", param });
    expect(upstreamQueries()).toEqual([]);
  });

  it.each([
    ["source=AI", "source"],
    ["source=ai&converted=yes", "converted"],
    ["source=ai&offset=-1", "offset"],
  ])("/api/visitors?%s names %s", async (query, param) => {
    const res = await get<ErrorJson>(`/api/visitors?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_parameter", param });
    expect(upstreamQueries()).toEqual([]);
  });
});

describe("bounded: never a partial list", () => {
  it("a range over the listing cap is a 422 listing_too_large after each list's first page, the product's words in the message", async () => {
    process.env.INSIGHTS_MAX_LISTED_ROWS = "300";
    const mentions = await get<ErrorJson>(`/api/mentions?${RANGE}&query=anything`);
    expect(mentions.status).toBe(422);
    expect(mentions.body.error.code).toBe("listing_too_large");
    expect(mentions.body.error.message).toMatch(
      /^The Data API has [\d,]+ mentions in this range for these filters, more than the 300 the dashboard reads to filter them by question or competitor\. Choose a shorter range\.$/,
    );
    expect(upstreamQueries().map((q) => q.get("offset"))).toEqual(["0"]);

    // The four AI platforms' visitors of all time: a cap each list is under, and all four together over.
    const perSource = await Promise.all(AI.map(async (source) => (await sandboxRows<Visitor>("/visitors", { source })).length));
    const cap = Math.max(100, ...perSource);
    expect(perSource.reduce((a, b) => a + b)).toBeGreaterThan(cap);
    process.env.INSIGHTS_MAX_LISTED_ROWS = String(cap);
    sandbox().reset();
    const visitors = await get<ErrorJson>("/api/visitors?source=ai");
    expect(visitors.status).toBe(422);
    expect(visitors.body.error.code).toBe("listing_too_large");
    expect(visitors.body.error.message).toContain("AI visitors in all for these filters");
    // Refused after the four first pages.
    expect(upstreamQueries().map((q) => q.get("offset"))).toEqual(["0", "0", "0", "0"]);
  });

  it("an upstream claiming 1e11 mentions costs one call", async () => {
    sandbox().setFaults({ metaTotal: 1e11, paths: ["/mentions"] });
    const res = await get<ErrorJson>(`/api/mentions?competitor=x`);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain("100,000,000,000 mentions in all");
    expect(upstreamQueries()).toHaveLength(1);
  });

  it("a list that moves while read is read once more from the Data API and answers exactly; one that keeps moving is a 503, never a partial list", async () => {
    const { question } = await frequent();
    const path = `/api/mentions?${RANGE}&query=${encodeURIComponent(question)}&limit=100`;
    const reference = await get<Page<Mention>>(path);
    // The second page starts one mention early (one seen twice, one never), as if a mention had been
    // inserted ahead of it: once, then on every read.
    for (const times of [1, Infinity]) {
      discardKey(KEY);
      sandbox().reset();
      const transport = serverContext().fetch;
      let shifted = 0;
      overrideContext({
        fetch: (url, init) => {
          const u = new URL(url);
          if (shifted < times && u.pathname.endsWith("/mentions") && u.searchParams.get("offset") === "100") {
            shifted++;
            u.searchParams.set("offset", "99");
          }
          return transport(u.toString(), init);
        },
      });
      const res = await get<Page<Mention> & ErrorJson>(path);
      if (times === 1) {
        expect(res.status).toBe(200);
        expect(res.body).toEqual(reference.body);
      } else {
        expect(res.status).toBe(503);
        expect(res.body.error.code).toBe("listing_changed");
        expect(res.headers.get("retry-after")).toBe("2");
      }
      // Read twice, the first page of each read asked of the Data API.
      expect(upstreamQueries().filter((q) => q.get("offset") === "0")).toHaveLength(2);
    }
  });

  it("mentions that cannot be read are counted as unchecked (whether they match is not known) on every page; the readable ones are filtered as ever", async () => {
    sandbox().setFaults({ oddRate: 0.2, paths: ["/mentions"] });
    const raw = await sandboxRows<unknown>("/mentions", { from: FROM, to: TO });
    const readable = raw.filter((m): m is Mention => typeof m === "object" && m !== null && typeof (m as { id?: unknown }).id === "string");
    const unreadable = raw.length - readable.length;
    expect(unreadable).toBeGreaterThan(0);
    const question = readable.find((m) => typeof m.query === "string" && readable.filter((o) => sameQuestion(o, m.query!)).length > 1)!.query!;
    const expected = readable.filter((m) => sameQuestion(m, question));
    const path = `/api/mentions?${RANGE}&query=${encodeURIComponent(question)}`;
    const { rows } = await allPages<Mention>(path, 1);
    expect(ids(rows)).toEqual(ids(expected));
    for (const offset of [0, 1]) {
      const res = await get<Page<Mention>>(`${path}&limit=1&offset=${offset}`);
      expect(res.body.unchecked).toEqual({ count: unreadable });
      expect(res.body.meta.total).toBe(expected.length);
    }
  });
});
