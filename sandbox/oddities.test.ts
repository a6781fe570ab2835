// The hostile-data switches over real HTTP: oddRate (odd fields and unreadable items, the same on
// every call), echoKey (the key in errors, X-Request-ID and 200 bodies) and metaTotal, each limited
// to the key scope and paths of its rule like every fault.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "./keys";
import { api, fileSandbox, type ErrorJson, type ListJson } from "./test-client";

type Item = Record<string, unknown>;

const sb = fileSandbox({ visitors: 800 });

const isObject = (v: unknown): v is Item => typeof v === "object" && v !== null && !Array.isArray(v);
/** Not an object, or an object without every one of its identity fields. */
const unreadable = (item: unknown, identity: string[]) => !isObject(item) || identity.every((k) => !(k in item));

const list = async (path: string, key: string = DEMO_KEYS.pro) => (await api<ListJson<unknown>>(sb(), path, key)).body;

describe("oddRate", () => {
  it("makes that share of list items odd, a fifth of those unreadable, and leaves the rest as they were", async () => {
    const clean = await list("/visitors?limit=100");
    sb().setFaults({ oddRate: 0.5 });
    const odd = await list("/visitors?limit=100");
    expect(odd.data).toHaveLength(100);
    let changed = 0;
    let lost = 0;
    odd.data.forEach((item, i) => {
      const before = clean.data[i] as Item;
      if (unreadable(item, ["id"])) lost++;
      else {
        // A readable odd item keeps its identity.
        expect((item as Item).id).toBe(before.id);
        if (JSON.stringify(item) !== JSON.stringify(before)) changed++;
      }
    });
    expect(changed + lost).toBeGreaterThan(30);
    expect(changed + lost).toBeLessThan(70);
    expect(lost).toBeGreaterThan(2);
    expect(lost).toBeLessThan(changed);
  });

  it("is deterministic per item: the same page twice, and an item on another page, has the same oddities", async () => {
    sb().setFaults({ oddRate: 0.6 });
    const a = await api(sb(), "/mentions?limit=20");
    const b = await api(sb(), "/mentions?limit=20");
    expect(a.text).toBe(b.text);
    const page = await list("/mentions?limit=10&offset=10");
    expect(page.data.filter(isObject)).toEqual((a.body as ListJson<unknown>).data.slice(10).filter(isObject));
  });

  it("sends the realistic oddities: nulls, missing fields, numeric strings, unknown enum values, bad dates, a string for an array", async () => {
    sb().setFaults({ oddRate: 1 });
    const visitors = (await list("/visitors?limit=100")).data.filter(isObject);
    const mentions = (await list("/mentions?limit=100")).data.filter(isObject);
    const all = [...visitors, ...mentions];
    const values = all.flatMap((v) => Object.values(v));
    expect(values).toContain(null);
    expect(visitors.some((v) => !("first_seen" in v) || !("source" in v) || !("pages_viewed" in v))).toBe(true);
    expect(visitors.some((v) => typeof v.pages_viewed === "string" && /^\s*\d+\s*$/.test(v.pages_viewed))).toBe(true);
    expect(visitors.some((v) => v.converted === "true" || v.converted === "false")).toBe(true);
    expect(values).toEqual(expect.arrayContaining(["bing", "newsletter", "copilot", "mixed"]));
    expect(values).toEqual(expect.arrayContaining([expect.stringMatching(/^(not a date|2026-02-31T10:00:00Z|2026-13-01T00:00:00Z|yesterday)$/)]));
    expect(mentions.some((m) => typeof m.competitors_mentioned === "string")).toBe(true);
    // Unreadable items of every kind.
    const raw = [...(await list("/visitors?limit=100")).data, ...(await list("/mentions?limit=100")).data];
    expect(raw).toContain(null);
    expect(raw.some((i) => typeof i === "string")).toBe(true);
    expect(raw.some((i) => isObject(i) && !("id" in i))).toBe(true);
  });

  it("reaches every endpoint: timeline events, the overview and score objects, traffic, funnel and ranking rows", async () => {
    const visitors = (await list("/visitors?limit=30")).data as Item[];
    const paths = ["/analytics/overview", "/analytics/traffic", "/analytics/funnel", "/intelligence/score", "/intelligence/ranking"];
    const clean = await Promise.all(paths.map(async (p) => (await api(sb(), p)).text));
    sb().setFaults({ oddRate: 1 });
    const timelines = await Promise.all(visitors.map(async (v) => (await api<{ data: unknown[] }>(sb(), `/visitors/${String(v.id)}/timeline`)).body.data));
    const events = timelines.flat();
    expect(events.filter(isObject).map((e) => e.type)).toContain("video_play");
    expect(events.some((e) => unreadable(e, ["type", "occurred_at"]))).toBe(true);
    // An odd event stays readable: it keeps its type or its time as sent.
    expect(
      events.every((e) => unreadable(e, ["type", "occurred_at"]) || (isObject(e) && (typeof e.type === "string" || typeof e.occurred_at === "string"))),
    ).toBe(true);
    sb().reset(); // real clock: stay under the Pro burst
    for (const [i, path] of paths.entries()) {
      const odd = await api(sb(), path);
      expect(odd.status).toBe(200);
      expect(odd.text, path).not.toBe(clean[i]);
    }
    // Single objects are never made unreadable as a whole: that would be a different body, not odd data.
    expect(isObject((await api(sb(), "/intelligence/score")).body)).toBe(true);
    expect(isObject((await api(sb(), `/visitors/${String(visitors[0]!.id)}`)).body)).toBe(true);
  });

  it("applies to the rule's key and paths only; 0 sends the clean body", async () => {
    const clean = await api(sb(), "/visitors?limit=50");
    sb().setFaults({ oddRate: 1, keys: [DEMO_KEYS.free], paths: ["/visitors"] });
    expect((await api(sb(), "/visitors?limit=50")).text).toBe(clean.text);
    expect((await api(sb(), "/visitors?limit=50", DEMO_KEYS.free)).text).not.toBe(clean.text);
    const mentions = await api(sb(), "/mentions?limit=50", DEMO_KEYS.pro);
    expect((await api(sb(), "/mentions?limit=50", DEMO_KEYS.free)).text).toBe(mentions.text);
    sb().setFaults({ oddRate: 0 });
    expect((await api(sb(), "/visitors?limit=50")).text).toBe(clean.text);
  });
});

describe("echoKey", () => {
  it("echoes the caller's key in error code, message and param, X-Request-ID, and extra and text fields of 200 bodies", async () => {
    const key = DEMO_KEYS.free;
    sb().setFaults({ echoKey: true, keys: [key] });
    const bad = await api<ErrorJson>(sb(), "/visitors?source=fax", key);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toContain(key);
    expect(bad.body.error.message).toContain(key);
    expect(bad.body.error.param).toContain(key);
    expect(bad.body.error.request_id).toContain(key);
    expect(bad.headers.get("x-request-id")).toContain(key);

    const ok = await api<ListJson<Item> & Item>(sb(), "/mentions?limit=3", key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toContain(key);
    expect(ok.body.debug_api_key).toBe(key);
    for (const m of ok.body.data) {
      expect(m.debug_api_key).toBe(key);
      expect(m.response_snippet).toContain(key);
    }
    // Another key is not echoed.
    expect((await api(sb(), "/mentions?limit=3", DEMO_KEYS.pro)).text).not.toContain(DEMO_KEYS.pro);
  });
});

describe("metaTotal", () => {
  it("replaces meta.total of list bodies only", async () => {
    sb().setFaults({ metaTotal: 1e11 });
    const visitors = await list("/visitors?limit=2");
    expect(visitors.meta).toEqual({ total: 1e11, limit: 2, offset: 0 });
    expect(visitors.data).toHaveLength(2);
    expect((await list("/mentions?limit=2")).meta.total).toBe(1e11);
    expect((await api(sb(), "/analytics/traffic")).body).not.toHaveProperty("meta");
    sb().setFaults({ metaTotal: -2.5, paths: ["/mentions"] });
    expect((await list("/mentions?limit=2")).meta.total).toBe(-2.5);
    expect((await list("/visitors?limit=2")).meta.total).toBe(800);
  });

  it("is validated like every fault: a number, no other type", () => {
    expect(() => sb().setFaults({ metaTotal: "12" as unknown as number })).toThrow();
    expect(() => sb().setFaults({ oddRate: 2 })).toThrow();
  });
});
