// Revoking a demo key at run time (POST /sandbox/revoked, or `revokeKey` in code): from the next
// request on it gets the 401 of a revoked key on every /v1 path and on /sandbox/history, other keys
// are untouched, giving it back restores it, reset() does not, and bad bodies are 400s naming the field.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, deriveDemoKey } from "./keys";
import { api, fileSandbox, type ErrorJson } from "./test-client";

const sb = fileSandbox({ visitors: 200 });

const control = async (body: unknown) => {
  const res = await fetch(`${sb().url}/sandbox/revoked`, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { revoked: string[] } & Partial<ErrorJson> };
};

describe("revoking a key at run time", () => {
  it("a revoked key gets 401 everywhere until it is given back; other keys and reset() leave it revoked", async () => {
    expect((await api(sb(), "/intelligence/score", DEMO_KEYS.free)).status).toBe(200);
    const revoked = await control({ key: DEMO_KEYS.free, revoked: true });
    expect(revoked).toEqual({ status: 200, body: { revoked: ["…5b2d"] } });
    expect(JSON.stringify(revoked.body)).not.toContain(DEMO_KEYS.free);

    for (const path of ["/visitors?limit=1", "/intelligence/score", "/analytics/overview"]) {
      const res = await api<ErrorJson>(sb(), path, DEMO_KEYS.free);
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: "unauthorized", message: "This API key has been revoked" });
    }
    const history = await fetch(`${sb().url}/sandbox/history?days=2`, { headers: { authorization: `Bearer ${DEMO_KEYS.free}` } });
    expect(history.status).toBe(401);
    expect((await api(sb(), "/intelligence/score", DEMO_KEYS.pro)).status).toBe(200);

    sb().reset();
    expect((await api(sb(), "/visitors?limit=1", DEMO_KEYS.free)).status).toBe(401);
    expect(await (await fetch(`${sb().url}/sandbox/revoked`)).json()).toEqual({ revoked: ["…5b2d"] });

    expect(await control({ key: DEMO_KEYS.free, revoked: false })).toEqual({ status: 200, body: { revoked: [] } });
    expect((await api(sb(), "/visitors?limit=1", DEMO_KEYS.free)).status).toBe(200);
  });

  it("in code: revokeKey(key) and revokeKey(key, false), a derived key too", async () => {
    sb().revokeKey(DEMO_KEYS.limited);
    expect((await api(sb(), "/visitors?limit=1", DEMO_KEYS.limited)).status).toBe(401);
    sb().revokeKey(DEMO_KEYS.limited, false);
    expect((await api(sb(), "/visitors?limit=1", DEMO_KEYS.limited)).status).toBe(200);
    expect(() => sb().revokeKey("svc_sk_test_not_a_sandbox_key_1234")).toThrow(/demo keys/);
    // A key derived from a demo key is revoked alone: the demo key it reads for goes on working.
    const derived = deriveDemoKey("pro", "revokedOne");
    sb().revokeKey(derived);
    expect((await api(sb(), "/visitors?limit=1", derived)).status).toBe(401);
    expect((await api(sb(), "/visitors?limit=1", DEMO_KEYS.pro)).status).toBe(200);
    sb().revokeKey(derived, false);
    expect((await api(sb(), "/visitors?limit=1", derived)).status).toBe(200);
  });

  it.each([
    ["not JSON", "{", "body"],
    ["an array", "[]", "body"],
    ["no key", { revoked: true }, "key"],
    ["a key the sandbox does not have", { key: "svc_sk_test_unknown_0000000000", revoked: true }, "key"],
    ["no revoked", { key: DEMO_KEYS.free }, "revoked"],
    ["revoked as a string", { key: DEMO_KEYS.free, revoked: "yes" }, "revoked"],
    ["an unknown field", { key: DEMO_KEYS.free, revoked: true, until: 5 }, "until"],
  ])("POST /sandbox/revoked with %s: 400 naming %s, nothing revoked", async (_label, body, param) => {
    const res = await control(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_parameter", param });
    expect((await api(sb(), "/visitors?limit=1", DEMO_KEYS.free)).status).toBe(200);
  });
});
