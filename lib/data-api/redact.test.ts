import { describe, expect, it } from "vitest";
import { cleanToken, jsonMayHoldKey, redactStrings, secretPart } from "./redact";

const KEY = "svc_sk_test_demo_pro_4e8b2a6c9d1f";
const SECRET = secretPart(KEY);

describe("cleanToken (X-Request-ID, error codes from the upstream)", () => {
  it.each([
    ["req_abc123", "req_abc123"],
    [`req_1-${KEY}`, "req_1-svc_sk_test_9d1f"],
    [`code_${SECRET}`, "code_"],
    // Pieces of the key joined only once the characters between them are dropped.
    [`req_${KEY.slice(0, 20)}\u0000${KEY.slice(20)}`, "req_svc_sk_test_9d1f"],
    [`req_${KEY.slice(0, 20)} ${KEY.slice(20)}`, "req_svc_sk_test_9d1f"],
    // The secret around the secret: dropping the mask's "…" must not rebuild it.
    [`${SECRET.slice(0, 9)}${SECRET}${SECRET.slice(9)}`, ""],
    ["<script>alert(1)</script>", "scriptalert1script"],
    ["", undefined],
    ["…", undefined],
  ])("%j -> %j", (raw, expected) => {
    const out = cleanToken(raw, KEY);
    expect(out ?? "").toBe(expected ?? "");
    if (expected === undefined) expect(out).toBeUndefined();
    expect(out ?? "").not.toContain(SECRET);
  });

  it("is bounded", () => {
    expect(cleanToken(`req_${"a".repeat(5000)}`, KEY)).toHaveLength(128);
    expect(cleanToken("x".repeat(100), KEY, 64)).toHaveLength(64);
    expect(cleanToken(undefined, KEY)).toBeUndefined();
    expect(cleanToken(null, KEY)).toBeUndefined();
  });
});

describe("redactStrings (every string of a normalised 200 body)", () => {
  it("redacts the key and its secret part at any depth, and leaves a body without them untouched", () => {
    const clean = { data: [{ id: "vis_a", city: "Berlin" }], meta: { total: 1 } };
    expect(redactStrings(clean, KEY)).toBe(clean);
    const dirty = {
      data: [{ id: "vis_a", city: `Berlin [${KEY}]`, tags: [`x ${SECRET}`] }],
      meta: { total: 1 },
      unreadable: { count: 1, request_id: "req_1" },
    };
    const out = redactStrings(dirty, KEY);
    expect(out).toEqual({
      data: [{ id: "vis_a", city: "Berlin [svc_sk_test_…9d1f]", tags: ["x …"] }],
      meta: { total: 1 },
      unreadable: { count: 1, request_id: "req_1" },
    });
    expect(JSON.stringify(out)).not.toContain(SECRET);
  });
});

describe("jsonMayHoldKey (skips the walk for the common body)", () => {
  it("is true when the text holds the key, its secret, or any \\u escape that could spell it", () => {
    expect(jsonMayHoldKey(JSON.stringify({ data: [{ id: "vis_a", city: "Berlin" }] }), KEY)).toBe(false);
    expect(jsonMayHoldKey(JSON.stringify({ note: `x${SECRET}` }), KEY)).toBe(true);
    const escaped = `{"note":"${[...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}"}`;
    expect((JSON.parse(escaped) as { note: string }).note).toBe(KEY);
    expect(jsonMayHoldKey(escaped, KEY)).toBe(true);
  });
});
