// The BFF over odd upstream data (the sandbox's oddRate), route handler by route handler: every
// readable item is passed on, in order; the unreadable ones are counted, with the upstream's request
// id; single objects with odd fields still answer 200; an invalid meta.total leaves the total unknown
// rather than failing the page. The expected counts come from the same request made directly to the
// sandbox, which answers with the same oddities every time (they are seeded by the item).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Unreadable } from "@/lib/data-api/schemas";
import { DEMO_KEYS } from "@/sandbox/keys";
import { apiRoute, call, sessionCookie, upstreamForFile } from "@/testing/in-process";

type Item = Record<string, unknown>;
type Body = { data: Item[]; meta?: Record<string, unknown>; unreadable?: Unreadable };

const KEY = DEMO_KEYS.pro;
const sandbox = upstreamForFile();
let cookie: string;
/** Unreadable items seen over the whole file, so the checks are shown not to be vacuous. */
let unreadableSeen = 0;

beforeAll(async () => {
  cookie = await sessionCookie(KEY);
  sandbox().setFaults({ oddRate: 0.4, keys: [KEY] });
});
afterAll(() => {
  expect(unreadableSeen).toBeGreaterThan(5);
});

const isObject = (v: unknown): v is Item => typeof v === "object" && v !== null && !Array.isArray(v);

/** The sandbox's own answer to the same request (same key, so the same oddities). */
async function direct(path: string): Promise<unknown> {
  sandbox().reset();
  const res = await fetch(`${sandbox().baseUrl}${path}`, { headers: { Authorization: `Bearer ${KEY}` } });
  expect(res.status).toBe(200);
  return res.json();
}

/**
 * Splits the sandbox's items by the rule of lib/data-api/README.md "Tolerance of real data", written
 * out here independently of the app: an
 * item is readable when it is an object with its identity (`identity` fields: any one of them).
 */
function split(items: unknown[], identity: string[]): { readable: Item[]; unreadable: number } {
  const readable = items.filter((i): i is Item => isObject(i) && identity.some((k) => typeof i[k] === "string" && i[k] !== ""));
  return { readable, unreadable: items.length - readable.length };
}

function expectPassedOn(body: Body, items: unknown[], identity: string[], idKey: string) {
  const { readable, unreadable } = split(items, identity);
  unreadableSeen += unreadable;
  expect(body.data.map((i) => i[idKey])).toEqual(readable.map((i) => i[idKey]));
  if (unreadable === 0) expect(body).not.toHaveProperty("unreadable");
  else expect(body.unreadable).toEqual({ count: unreadable, request_id: expect.stringMatching(/^req_[0-9a-f]+$/) });
}

describe("lists keep every readable item and count the unreadable ones", () => {
  it.each(["limit=100", "limit=100&offset=100", "limit=50&source=chatgpt", "limit=100&converted=true"])("GET /api/visitors?%s", async (query) => {
    const upstream = (await direct(`/visitors?${query}`)) as { data: unknown[] };
    sandbox().reset();
    const res = await call<Body>(apiRoute, `/api/visitors?${query}`, { cookie });
    expect(res.status).toBe(200);
    expectPassedOn(res.body, upstream.data, ["id"], "id");
    expect(res.body.meta?.total).toEqual(expect.any(Number));
  });

  it.each(["limit=100", "limit=100&offset=300", "limit=40&platform=claude"])("GET /api/mentions?%s", async (query) => {
    const upstream = (await direct(`/mentions?${query}`)) as { data: unknown[] };
    sandbox().reset();
    const res = await call<Body>(apiRoute, `/api/mentions?${query}`, { cookie });
    expect(res.status).toBe(200);
    expectPassedOn(res.body, upstream.data, ["id"], "id");
  });

  it("GET /api/visitors/{id}/timeline, for visitors with long timelines", async () => {
    sandbox().setFaults({ keys: [KEY] });
    const ids = ((await direct("/visitors?limit=12&converted=true")) as { data: Item[] }).data.map((v) => String(v.id));
    sandbox().setFaults({ oddRate: 0.4, keys: [KEY] });
    for (const id of ids) {
      const upstream = (await direct(`/visitors/${id}/timeline`)) as { data: unknown[] };
      const res = await call<Body>(apiRoute, `/api/visitors/${id}/timeline`, { cookie });
      expect(res.status).toBe(200);
      // An event is readable with its type or its time; ids are kept for the comparison.
      expectPassedOn(res.body, upstream.data, ["type", "occurred_at"], "id");
    }
  });

  it.each([
    ["traffic", apiRoute, "/analytics/traffic?period=90d", "source"],
    ["funnel", apiRoute, "/analytics/funnel?period=90d", "stage"],
    ["ranking", apiRoute, "/intelligence/ranking", "name"],
  ] as const)("GET /api/… %s rows", async (_name, handler, path, identity) => {
    // Every rate: small lists need a high one to hold an unreadable row at all.
    for (const oddRate of [0.4, 0.8, 1]) {
      sandbox().setFaults({ oddRate, keys: [KEY] });
      const upstream = (await direct(path)) as { data: unknown[] };
      const res = await call<Body>(handler, `/api${path}`, { cookie });
      expect(res.status).toBe(200);
      expectPassedOn(res.body, upstream.data, [identity], identity);
    }
    sandbox().setFaults({ oddRate: 0.4, keys: [KEY] });
  });
});

describe("single objects with odd fields", () => {
  it("the visitor, the overview and the score answer 200 with what could be read", async () => {
    sandbox().setFaults({ oddRate: 1, keys: [KEY] });
    sandbox().reset();
    const visitors = (await direct("/visitors?limit=10")) as { data: unknown[] };
    const ids = visitors.data
      .filter(isObject)
      .map((v) => v.id)
      .filter((id): id is string => typeof id === "string");
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids) {
      const res = await call<Item>(apiRoute, `/api/visitors/${id}`, { cookie });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(id);
    }
    for (const [handler, path] of [
      [apiRoute, "/api/analytics/overview?period=7d"],
      [apiRoute, "/api/intelligence/score"],
    ] as const) {
      const res = await call<Item>(handler, path, { cookie });
      expect(res.status, path).toBe(200);
    }
    sandbox().setFaults({ oddRate: 0.4, keys: [KEY] });
  });
});

describe("meta.total", () => {
  it.each([-1, 2.5, 1e16])("an invalid total (%s) leaves the total unknown and the rows shown", async (total) => {
    sandbox().setFaults({ metaTotal: total, keys: [KEY] });
    sandbox().reset();
    const res = await call<Body>(apiRoute, "/api/visitors?limit=5", { cookie });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ limit: 5, offset: 0 });
    expect(res.body.data).toHaveLength(5);
    sandbox().setFaults({ oddRate: 0.4, keys: [KEY] });
  });

  it("a huge but valid total is passed on as the number it is", async () => {
    sandbox().setFaults({ metaTotal: 1e11, keys: [KEY] });
    const res = await call<Body>(apiRoute, "/api/mentions?limit=5", { cookie });
    expect(res.body.meta).toEqual({ total: 1e11, limit: 5, offset: 0 });
    sandbox().setFaults({ oddRate: 0.4, keys: [KEY] });
  });
});
