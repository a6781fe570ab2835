// Derived demo keys over real HTTP: a demo key plus `_x_<label>` reads what the demo key reads, with a
// rate-limit budget and fault rules of its own (tests side by side each take one); a malformed label
// or a base that is no demo key is an unknown key.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, deriveDemoKey } from "./keys";
import { api, fileSandbox, type ErrorJson } from "./test-client";

const sb = fileSandbox({ visitors: 500 });

describe("derived keys", () => {
  it("read the base key's workspace and plan", async () => {
    const [base, derived, empty] = await Promise.all([
      api(sb(), "/visitors?limit=5"),
      api(sb(), "/visitors?limit=5", deriveDemoKey("pro", "w1")),
      api(sb(), "/visitors?limit=5", deriveDemoKey("empty", "w1")),
    ]);
    expect(derived.status).toBe(200);
    expect(derived.body).toEqual(base.body);
    expect(derived.headers.get("x-ratelimit-limit")).toBe("1000");
    expect((empty.body as { meta: { total: number } }).meta.total).toBe(0);
    expect((await api(sb(), "/intelligence/score", deriveDemoKey("limited", "a"))).status).toBe(403);
  });

  it("spend a budget of their own and meet only their own faults", async () => {
    const mine = deriveDemoKey("free", "mine");
    for (let i = 0; i < 5; i++) await api(sb(), "/analytics/overview", mine);
    const [spent, untouched] = await Promise.all([api(sb(), "/analytics/overview", mine), api(sb(), "/analytics/overview", DEMO_KEYS.free)]);
    expect(Number(spent.headers.get("x-ratelimit-remaining"))).toBe(94);
    expect(Number(untouched.headers.get("x-ratelimit-remaining"))).toBe(99);
    sb().setFaults({ errorRate: 1, keys: [mine] });
    expect((await api(sb(), "/analytics/overview", mine)).status).toBe(500);
    expect((await api(sb(), "/analytics/overview", DEMO_KEYS.free)).status).toBe(200);
    expect((await api(sb(), "/analytics/overview", deriveDemoKey("free", "other"))).status).toBe(200);
  });

  it("are unknown keys when the base is no demo key or the label is not letters and digits", async () => {
    for (const key of [
      `${DEMO_KEYS.pro}_x_`,
      `${DEMO_KEYS.pro}_x_${"a".repeat(41)}`,
      `${DEMO_KEYS.pro}_y_w1`,
      "svc_sk_test_demo_pro_000000000000_x_w1",
      `${DEMO_KEYS.pro}_x_w1_x_w2`,
    ]) {
      const res = await api(sb(), "/visitors", key);
      expect(res.status, key).toBe(401);
      expect((res.body as ErrorJson).error.message).not.toContain(key);
    }
    expect(() => deriveDemoKey("pro", "w-1")).toThrow(/letters or digits/);
  });
});
