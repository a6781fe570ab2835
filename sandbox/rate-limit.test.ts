// Rate limits over real HTTP with an injected clock (no waiting): per-key fixed windows of one
// second (burst) and one minute, Retry-After, X-RateLimit-* and what counts against the limit.
import { beforeEach, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "./keys";
import { api, fileSandbox, type ErrorJson } from "./test-client";

const MINUTE_START = Date.UTC(2026, 10, 20, 12, 0, 0);
let now = MINUTE_START;
// Before the sandbox's own reset: each test starts at the top of a minute.
beforeEach(() => {
  now = MINUTE_START;
});
const sb = fileSandbox({ visitors: 500, clock: () => now });

const rate = (h: Headers) => ({
  limit: Number(h.get("x-ratelimit-limit")),
  remaining: Number(h.get("x-ratelimit-remaining")),
  reset: Number(h.get("x-ratelimit-reset")),
  retryAfter: h.get("retry-after"),
});

async function burst(n: number, key: string, path = "/analytics/overview") {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await api(sb(), path, key));
  return out;
}

describe("burst limit (per second)", () => {
  it.each([
    ["Free", DEMO_KEYS.free, 10],
    ["Pro", DEMO_KEYS.pro, 50],
  ])("%s: %s... allows its burst within one second, then 429 with Retry-After until the next second", async (_plan, key, perSecond) => {
    now = MINUTE_START + 200;
    const ok = await burst(perSecond, key);
    expect(ok.every((r) => r.status === 200)).toBe(true);
    const limited = await api(sb(), "/analytics/overview", key);
    expect(limited.status).toBe(429);
    expect((limited.body as ErrorJson).error.code).toBe("rate_limit_exceeded");
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.headers.get("x-request-id")).toMatch(/^req_/);
    expect(rate(limited.headers).reset).toBe(MINUTE_START / 1000 + 60);
    now = MINUTE_START + 999;
    expect((await api(sb(), "/analytics/overview", key)).status).toBe(429);
    now = MINUTE_START + 1000; // a new second window
    expect((await api(sb(), "/analytics/overview", key)).status).toBe(200);
    expect(sb().stats().rateLimited).toBe(2);
  });
});

describe("per-minute limit", () => {
  it("Free: 100 per minute spread under the burst limit, then 429 with Retry-After to the minute's end", async () => {
    const responses = [];
    for (let i = 0; i < 100; i++) {
      now = MINUTE_START + Math.floor(i / 5) * 1000; // 5 per second: never a burst
      responses.push(await api(sb(), "/visitors?limit=1", DEMO_KEYS.free));
    }
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(responses.map((r) => rate(r.headers).remaining)).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
    expect(rate(responses[99]!.headers)).toMatchObject({ limit: 100, remaining: 0, reset: MINUTE_START / 1000 + 60 });

    now = MINUTE_START + 45_500;
    const limited = await api(sb(), "/visitors?limit=1", DEMO_KEYS.free);
    expect(limited.status).toBe(429);
    expect((limited.body as ErrorJson).error.code).toBe("rate_limit_exceeded");
    // 14.5 s left in the minute: whole seconds, rounded up.
    expect(rate(limited.headers)).toMatchObject({ limit: 100, remaining: 0, reset: MINUTE_START / 1000 + 60, retryAfter: "15" });

    now = MINUTE_START + 59_999;
    expect(rate((await api(sb(), "/visitors?limit=1", DEMO_KEYS.free)).headers).retryAfter).toBe("1");

    now = MINUTE_START + 60_000; // the next minute window
    const next = await api(sb(), "/visitors?limit=1", DEMO_KEYS.free);
    expect(next.status).toBe(200);
    expect(rate(next.headers)).toMatchObject({ remaining: 99, reset: MINUTE_START / 1000 + 120 });
  });

  it("Pro: 1000 per minute, then 429", async () => {
    for (let i = 0; i < 1000; i++) {
      now = MINUTE_START + Math.floor(i / 40) * 1000;
      const res = await api(sb(), "/analytics/funnel", DEMO_KEYS.pro);
      if (res.status !== 200) throw new Error(`request ${i}: ${res.status}`);
    }
    now = MINUTE_START + 30_000;
    const limited = await api(sb(), "/analytics/funnel", DEMO_KEYS.pro);
    expect(limited.status).toBe(429);
    expect(rate(limited.headers)).toMatchObject({ limit: 1000, remaining: 0, retryAfter: "30" });
  });
});

describe("what counts", () => {
  it("limits are per key: one key's exhaustion does not touch another's", async () => {
    await burst(11, DEMO_KEYS.free);
    expect((await api(sb(), "/analytics/overview", DEMO_KEYS.free)).status).toBe(429);
    const pro = await api(sb(), "/analytics/overview", DEMO_KEYS.pro);
    expect(pro.status).toBe(200);
    expect(rate(pro.headers).remaining).toBe(999);
    expect((await api(sb(), "/analytics/overview", DEMO_KEYS.limited)).status).toBe(200);
  });

  it("authenticated 4xx requests count; unauthenticated ones do not", async () => {
    const bad = await burst(10, DEMO_KEYS.free, "/visitors?limit=0");
    expect(bad.every((r) => r.status === 400)).toBe(true);
    expect((await api(sb(), "/visitors", DEMO_KEYS.free)).status).toBe(429);
    now += 1000;
    for (let i = 0; i < 20; i++) expect((await api(sb(), "/visitors", "svc_sk_test_unknown_key_0000")).status).toBe(401);
    const ok = await api(sb(), "/visitors", DEMO_KEYS.free);
    expect(ok.status).toBe(200);
    expect(rate(ok.headers).remaining).toBe(100 - 12);
  });

  it("auth is checked before the limit: an exhausted key's bad sibling still gets 401", async () => {
    await burst(11, DEMO_KEYS.free);
    const res = await api(sb(), "/visitors", "svc_sk_live_whatever_000000");
    expect(res.status).toBe(401);
  });

  it("reset() clears the counters", async () => {
    await burst(11, DEMO_KEYS.free);
    expect((await api(sb(), "/visitors", DEMO_KEYS.free)).status).toBe(429);
    sb().reset();
    expect((await api(sb(), "/visitors", DEMO_KEYS.free)).status).toBe(200);
  });

  it("POST /sandbox/reset clears them too (for tests in other processes)", async () => {
    await burst(11, DEMO_KEYS.free);
    await fetch(`${sb().url}/sandbox/reset`, { method: "POST" });
    expect((await api(sb(), "/visitors", DEMO_KEYS.free)).status).toBe(200);
  });
});

describe("hideRateLimitHeaders: an upstream that never says its limits", () => {
  it("enforces them just the same, without X-RateLimit-*; a 429 keeps its Retry-After; other keys keep their headers", async () => {
    sb().setFaults({ hideRateLimitHeaders: true, keys: [DEMO_KEYS.free] });
    now = MINUTE_START + 200;
    const answers = await burst(11, DEMO_KEYS.free);
    expect(answers.map((r) => r.status)).toEqual([...Array<number>(10).fill(200), 429]);
    for (const r of answers) {
      expect([r.headers.get("x-ratelimit-limit"), r.headers.get("x-ratelimit-remaining"), r.headers.get("x-ratelimit-reset")]).toEqual([null, null, null]);
    }
    expect(answers[10]!.headers.get("retry-after")).toBe("1");
    expect(rate((await api(sb(), "/analytics/overview", DEMO_KEYS.pro)).headers)).toMatchObject({ limit: 1000, remaining: 999 });
    sb().setFaults({});
    now = MINUTE_START + 1200;
    expect(rate((await api(sb(), "/analytics/overview", DEMO_KEYS.free)).headers)).toMatchObject({ limit: 100, remaining: 88 });
  });
});
