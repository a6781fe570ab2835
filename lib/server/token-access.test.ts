// The pure parts of token access: what an Authorization header carries (a well-formed bearer token,
// nothing, or something refused as a bad token), what a new token is and shows, and each token's
// requests a minute on an injected clock (a fixed window: the 121st of a minute waits for the next).
import { describe, expect, it } from "vitest";
import { makeToken, tokenHint } from "@/lib/tokens/token";
import { bearerToken, TOKEN_PATTERN } from "./token-access";
import { redisForFile } from "@/testing/redis-links";
import { createSharedTokenLimiter, createTokenLimiter, TOKEN_REQUESTS_PER_MINUTE } from "./token-rate-limit";

describe("tokens", () => {
  it("are wa_ and 32 random bytes, shown after as their last 4 characters", () => {
    const tokens = new Set(Array.from({ length: 200 }, () => makeToken()));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(TOKEN_PATTERN);
      expect(Buffer.from(token.slice(3), "base64url")).toHaveLength(32);
      expect(tokenHint(token)).toBe(`wa_…${token.slice(-4)}`);
    }
  });

  it("are read from a Bearer header only when well formed", () => {
    const token = makeToken();
    expect(bearerToken(null)).toBeUndefined();
    expect(bearerToken(`Bearer ${token}`)).toBe(token);
    expect(bearerToken(`bearer  ${token} `)).toBe(token);
    for (const header of [
      "",
      "Bearer",
      `Basic ${token}`,
      `Bearer ${token}x`,
      `Bearer ${token} extra`,
      "Bearer svc_sk_test_abcdefgh12345678",
      `Bearer ${token.slice(0, -1)}`,
    ]) {
      expect(bearerToken(header)).toBeNull();
    }
  });
});

const redis = redisForFile();

describe("each token's requests a minute", () => {
  it(`lets ${TOKEN_REQUESTS_PER_MINUTE} through in a minute, then says how long to wait; another token counts apart`, async () => {
    let t = 1_000_000;
    const limiter = createTokenLimiter({ now: () => t });
    for (let n = 0; n < TOKEN_REQUESTS_PER_MINUTE; n++) expect(await limiter.take("a")).toBeNull();
    expect(await limiter.take("a")).toBe(60);
    expect(await limiter.take("b")).toBeNull();
    t += 59_001;
    expect(await limiter.take("a")).toBe(1);
    t += 999;
    expect(await limiter.take("a")).toBeNull();
  });

  it("stays bounded with many tokens, dropping ended windows first", async () => {
    let t = 0;
    const limiter = createTokenLimiter({ now: () => t, perMinute: 1 });
    for (let n = 0; n < 10_000; n++) await limiter.take(`old${n}`);
    t += 60_000;
    expect(await limiter.take("new")).toBeNull();
    expect(await limiter.take("new")).toBe(60);
  });

  it("with Redis, counts across instances: two of them together let 120 through, then both refuse", async () => {
    const [a, b] = [createSharedTokenLimiter(await redis.link()), createSharedTokenLimiter(await redis.link())];
    const id = `tok_${Date.now()}`;
    const answers = await Promise.all(Array.from({ length: TOKEN_REQUESTS_PER_MINUTE + 6 }, (_, i) => (i % 2 === 0 ? a : b).take(id)));
    expect(answers.filter((w) => w === null)).toHaveLength(TOKEN_REQUESTS_PER_MINUTE);
    for (const wait of answers.filter((w) => w !== null)) expect(wait).toBeGreaterThanOrEqual(1);
    expect(await a.take("another")).toBeNull();
  });
});
