// Sealing of what the store keeps: it opens under the secret it was sealed with, for the row it was
// sealed for, and under the previous secret during a rotation (saying so, so it is sealed again).
import { describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "./secrets";

const OLD = "the-old-session-secret-0123456789abcdefgh";
const NEW = "the-new-session-secret-0123456789abcdefgh";
const KEY = "svc_sk_live_0123456789abcdef0123456789";

describe("store secrets", () => {
  it("seals with a fresh IV each time; the text holds nothing of the value", () => {
    const one = sealSecret({ current: NEW }, "workspace:ws_1:watch-key", KEY);
    const two = sealSecret({ current: NEW }, "workspace:ws_1:watch-key", KEY);
    expect(one).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(one).not.toBe(two);
    expect(one).not.toContain("0123456789abcdef");
    expect(Buffer.from(one.slice(3), "base64url").includes(Buffer.from("0123456789abcdef"))).toBe(false);
  });

  it("opens only for the same associated data (a sealed value moved to another row stays shut)", () => {
    const sealed = sealSecret({ current: NEW }, "workspace:ws_1:watch-key", KEY);
    expect(openSecret({ current: NEW }, "workspace:ws_1:watch-key", sealed)).toEqual({ value: KEY, underPrevious: false });
    expect(openSecret({ current: NEW }, "workspace:ws_2:watch-key", sealed)).toBeUndefined();
  });

  it("a rotation: the previous secret still opens, and says so; without it, nothing opens", () => {
    const sealed = sealSecret({ current: OLD }, "a", KEY);
    expect(openSecret({ current: NEW }, "a", sealed)).toBeUndefined();
    expect(openSecret({ current: NEW, previous: OLD }, "a", sealed)).toEqual({ value: KEY, underPrevious: true });
    expect(openSecret({ current: OLD, previous: NEW }, "a", sealed)).toEqual({ value: KEY, underPrevious: false });
  });

  it("damaged or foreign text does not open", () => {
    const sealed = sealSecret({ current: NEW }, "a", KEY);
    const bytes = Buffer.from(sealed.slice(3), "base64url");
    bytes[bytes.length - 1]! ^= 1;
    expect(openSecret({ current: NEW }, "a", `v1.${bytes.toString("base64url")}`)).toBeUndefined();
    expect(openSecret({ current: NEW }, "a", "v1.")).toBeUndefined();
    expect(openSecret({ current: NEW }, "a", KEY)).toBeUndefined();
  });
});
