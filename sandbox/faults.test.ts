// Fault injection over real HTTP: injected 500s, 429 storms, malformed bodies and latency, limited
// by path and key, switched programmatically and through the admin endpoint.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "./keys";
import { api, fileSandbox, type ErrorJson } from "./test-client";

const sb = fileSandbox({ visitors: 500 });

describe("faults", () => {
  it("errorCount: the next N matching requests get 500 internal_error, then normal service", async () => {
    sb().setFaults({ errorCount: 2, paths: ["/visitors"] });
    const a = await api(sb(), "/visitors");
    const other = await api(sb(), "/mentions");
    const b = await api(sb(), "/visitors/vis_000000000");
    const c = await api(sb(), "/visitors");
    expect([a.status, other.status, b.status, c.status]).toEqual([500, 200, 500, 200]);
    expect((a.body as ErrorJson).error.code).toBe("internal_error");
    expect(a.headers.get("x-request-id")).toMatch(/^req_/);
    expect(a.headers.get("x-ratelimit-limit")).toBe("1000");
  });

  it("errorRate: a share of requests fail (1 = all, 0.5 = some), and only for the given keys", async () => {
    sb().setFaults({ errorRate: 1, keys: [DEMO_KEYS.free] });
    expect((await api(sb(), "/analytics/overview", DEMO_KEYS.free)).status).toBe(500);
    expect((await api(sb(), "/analytics/overview", DEMO_KEYS.pro)).status).toBe(200);
    sb().setFaults({ errorRate: 0.5 });
    const statuses = [];
    for (let i = 0; i < 40; i++) statuses.push((await api(sb(), "/analytics/traffic")).status);
    const failed = statuses.filter((s) => s === 500).length;
    expect(failed).toBeGreaterThan(5);
    expect(failed).toBeLessThan(35);
    expect(statuses.every((s) => s === 200 || s === 500)).toBe(true);
  });

  it("rateLimitStorm: the next N get 429 rate_limit_exceeded with Retry-After: 1, counted in stats", async () => {
    sb().setFaults({ rateLimitStorm: 3 });
    const res = [];
    for (let i = 0; i < 4; i++) res.push(await api(sb(), "/intelligence/score"));
    expect(res.map((r) => r.status)).toEqual([429, 429, 429, 200]);
    expect(res[0]!.headers.get("retry-after")).toBe("1");
    expect((res[0]!.body as ErrorJson).error.code).toBe("rate_limit_exceeded");
    expect(sb().stats().rateLimited).toBe(3);
  });

  it("malformedCount / malformedRate: 200 responses whose body is not valid JSON", async () => {
    sb().setFaults({ malformedCount: 1, paths: ["/intelligence/"] });
    const bad = await api(sb(), "/intelligence/ranking");
    expect(bad.status).toBe(200);
    expect(bad.headers.get("content-type")).toMatch(/^application\/json/);
    expect(() => JSON.parse(bad.text)).toThrow();
    expect(bad.text.length).toBeGreaterThan(0);
    const good = await api(sb(), "/intelligence/ranking");
    expect(() => JSON.parse(good.text)).not.toThrow();

    sb().setFaults({ malformedRate: 1 });
    const all = await api(sb(), "/visitors");
    expect(() => JSON.parse(all.text)).toThrow();
    // Errors keep their shape: only successful bodies are malformed.
    const err = await api(sb(), "/visitors?limit=0");
    expect((err.body as ErrorJson).error.code).toBe("invalid_parameter");
  });

  it("latencyMs delays matching responses only", async () => {
    sb().setFaults({ latencyMs: 300, paths: ["/mentions"] });
    let started = performance.now();
    expect((await api(sb(), "/mentions")).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(280);
    started = performance.now();
    await api(sb(), "/visitors");
    expect(performance.now() - started).toBeLessThan(280);
  });

  it("faults never apply to unauthenticated requests (401 stays 401)", async () => {
    sb().setFaults({ errorRate: 1 });
    expect((await api(sb(), "/visitors", null)).status).toBe(401);
  });

  it("can be switched through POST /sandbox/faults and read back; {} clears", async () => {
    const set = await fetch(`${sb().url}/sandbox/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ errorCount: 1, paths: ["/mentions"] }),
    });
    expect(set.status).toBe(200);
    expect(await (await fetch(`${sb().url}/sandbox/faults`)).json()).toEqual({ rules: [{ errorCount: 1, paths: ["/mentions"] }] });
    expect((await api(sb(), "/mentions")).status).toBe(500);
    // The counter is spent.
    expect(await (await fetch(`${sb().url}/sandbox/faults`)).json()).toEqual({ rules: [{ errorCount: 0, paths: ["/mentions"] }] });

    await fetch(`${sb().url}/sandbox/faults`, { method: "POST", body: JSON.stringify({ errorRate: 1 }) });
    expect((await api(sb(), "/visitors")).status).toBe(500);
    await fetch(`${sb().url}/sandbox/faults`, { method: "POST", body: "{}" });
    expect(await (await fetch(`${sb().url}/sandbox/faults`)).json()).toEqual({ rules: [] });
    expect((await api(sb(), "/visitors")).status).toBe(200);
  });

  it("keeps one rule per key scope, so parallel tests can each fault their own key", async () => {
    sb().setFaults({ errorRate: 1, paths: ["/analytics/traffic"], keys: [DEMO_KEYS.free] });
    sb().setFaults({ errorCount: 100, paths: ["/visitors"], keys: [DEMO_KEYS.limited] });
    expect((await api(sb(), "/analytics/traffic", DEMO_KEYS.free)).status).toBe(500);
    expect((await api(sb(), "/visitors", DEMO_KEYS.limited)).status).toBe(500);
    expect((await api(sb(), "/visitors", DEMO_KEYS.free)).status).toBe(200);
    // Clearing one key's rule (a body with only `keys`) leaves the other's in force.
    sb().setFaults({ keys: [DEMO_KEYS.free] });
    expect((await api(sb(), "/analytics/traffic", DEMO_KEYS.free)).status).toBe(200);
    expect((await api(sb(), "/visitors", DEMO_KEYS.limited)).status).toBe(500);
    // A key-scoped rule wins over the rule for every key; {} clears them all.
    sb().setFaults({ latencyMs: 1 });
    expect((await api(sb(), "/visitors", DEMO_KEYS.limited)).status).toBe(500);
    expect((await api(sb(), "/visitors", DEMO_KEYS.pro)).status).toBe(200);
    sb().setFaults({});
    expect((await api(sb(), "/visitors", DEMO_KEYS.limited)).status).toBe(200);
  });

  it("setFaults rejects invalid values", () => {
    expect(() => sb().setFaults({ errorRate: 1.5 })).toThrow();
    expect(() => sb().setFaults({ latencyMs: -1 })).toThrow();
  });
});
