// Holds (POST /sandbox/holds): a key's matching requests wait until the test releases them, some at a
// time (the longest waiting first, then the next to come) or all by ending the hold; others go on; a
// caller that leaves while held gets no answer and no log entry; a hold goes on by itself after its
// maxMs; bad bodies are 400s naming the field.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, deriveDemoKey } from "./keys";
import { api, fileSandbox, type ErrorJson } from "./test-client";

const sb = fileSandbox({ visitors: 500 });

type HoldsJson = { holds: Array<{ key: string; paths: string[]; query: Record<string, string>; waiting: number; passed: number; allowance: number }> };

const control = async (body: unknown) => {
  const res = await fetch(`${sb().url}/sandbox/holds`, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as HoldsJson & Partial<ErrorJson> };
};
const holds = async () => ((await (await fetch(`${sb().url}/sandbox/holds`)).json()) as HoldsJson).holds;

/** Polls the control until `key`'s hold has `waiting` requests waiting (a request takes a moment to arrive). */
async function untilWaiting(masked: string, waiting: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((await holds()).find((h) => h.key === masked)?.waiting === waiting) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`${masked} never had ${waiting} waiting`);
}

/** Whether a promise has settled by the time the event loop has turned a few times. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  return done;
}

describe("holding a key's requests", () => {
  it("matching requests wait until released, one at a time, longest first; others, other keys and other paths go on", async () => {
    const key = deriveDemoKey("pro", "held1");
    expect((await control({ key, paths: ["/visitors"], query: { limit: "100" } })).status).toBe(200);
    const first = api<{ meta: { offset: number } }>(sb(), "/visitors?limit=100&offset=0", key);
    await untilWaiting("…eld1", 1);
    const second = api<{ meta: { offset: number } }>(sb(), "/visitors?limit=100&offset=100", key);
    await untilWaiting("…eld1", 2);
    // Not held: another limit, another path, another key.
    expect((await api(sb(), "/visitors?limit=20", key)).status).toBe(200);
    expect((await api(sb(), "/mentions?limit=100", key)).status).toBe(200);
    expect((await api(sb(), "/visitors?limit=100", DEMO_KEYS.pro)).status).toBe(200);
    expect(await settled(first)).toBe(false);

    await control({ key, release: 1 });
    expect((await first).body.meta.offset).toBe(0);
    expect(await settled(second)).toBe(false);
    expect((await holds()).find((h) => h.key === "…eld1")).toMatchObject({ waiting: 1, passed: 1, allowance: 0 });

    await control({ key, end: true });
    expect((await second).status).toBe(200);
    expect(await holds()).toEqual([]);
    // Ending again is no error (a test's cleanup).
    expect((await control({ key, end: true })).status).toBe(200);
  });

  it("a release before the requests come lets that many through at once; the next one waits", async () => {
    const key = deriveDemoKey("pro", "held2");
    await control({ key, paths: ["/mentions"] });
    await control({ key, release: 2 });
    expect((await api(sb(), "/mentions?limit=5", key)).status).toBe(200);
    expect((await api(sb(), "/mentions?limit=5&offset=5", key)).status).toBe(200);
    const third = api(sb(), "/mentions?limit=5&offset=10", key);
    await untilWaiting("…eld2", 1);
    await control({ key, end: true });
    expect((await third).status).toBe(200);
  });

  it("a caller that leaves while held gets no answer and leaves no log entry", async () => {
    const key = deriveDemoKey("pro", "held3");
    await control({ key, paths: ["/visitors"] });
    const aborted = new AbortController();
    const left = fetch(`${sb().baseUrl}/visitors?limit=7`, { headers: { Authorization: `Bearer ${key}` }, signal: aborted.signal }).catch((e: Error) => e.name);
    await untilWaiting("…eld3", 1);
    aborted.abort();
    expect(await left).toBe("AbortError");
    await untilWaiting("…eld3", 0);
    await control({ key, end: true });
    expect(
      sb()
        .stats()
        .log.filter((e) => e.key === "…eld3" && e.query === "limit=7"),
    ).toEqual([]);
  });

  it("a held request goes on by itself after the hold's maxMs", async () => {
    const key = deriveDemoKey("pro", "held4");
    await control({ key, paths: ["/visitors"], maxMs: 0 });
    expect((await api(sb(), "/visitors?limit=1", key)).status).toBe(200);
    expect((await holds()).find((h) => h.key === "…eld4")).toMatchObject({ waiting: 0, passed: 1 });
    await control({ key, end: true });
  });

  it.each([
    ["a body that is not JSON", "{", "body"],
    ["an unknown key", { key: "svc_sk_test_nope", paths: ["/visitors"] }, "key"],
    ["a release without a hold", { key: DEMO_KEYS.free, release: 1 }, "key"],
    ["no paths", { key: DEMO_KEYS.free, paths: [] }, "paths"],
    ["an unknown field", { key: DEMO_KEYS.free, paths: ["/visitors"], latencyMs: 5 }, "body"],
  ])("%s is a 400 naming the field", async (_, body, param) => {
    const res = await control(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_parameter", param });
    expect(await holds()).toEqual([]);
  });
});
