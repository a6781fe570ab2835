// Each token's requests a minute: TOKEN_REQUESTS_PER_MINUTE per token. Without Redis, a fixed window
// per token counted in this process (the clock injected, for tests), bounded: windows that ended are
// dropped when the map is full, and at worst the oldest entry goes. With REDIS_URL, the count is shared
// by every instance (rate-limiter-flexible's Redis store, keys P token-minute:ID, as the sign-in
// throttle keeps its), insured by its memory store: while Redis is away each instance counts on its own.
// Only tokens that exist are counted (the lookup comes first), so the count is bounded by the tokens.
import "server-only";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { RedisLink } from "@/lib/shared-state/redis/connection";

export const TOKEN_REQUESTS_PER_MINUTE = 120;
const WINDOW_MS = 60_000;
const MAX_TRACKED = 10_000;

export type TokenLimiter = {
  /** Counts one request of token `id`: null when it may go on, else the seconds until it may (Retry-After). */
  take(id: string): Promise<number | null>;
};

/** This process's count, on `now`. */
export function createTokenLimiter(options: { now: () => number; perMinute?: number }): TokenLimiter {
  const limit = options.perMinute ?? TOKEN_REQUESTS_PER_MINUTE;
  const windows = new Map<string, { start: number; count: number }>();
  return {
    async take(id) {
      const now = options.now();
      let window = windows.get(id);
      if (!window || now - window.start >= WINDOW_MS) {
        if (!window && windows.size >= MAX_TRACKED) {
          for (const [key, w] of windows) if (now - w.start >= WINDOW_MS) windows.delete(key);
          if (windows.size >= MAX_TRACKED) windows.delete(windows.keys().next().value!);
        }
        window = { start: now, count: 0 };
        windows.set(id, window);
      }
      if (window.count >= limit) return Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
      window.count += 1;
      return null;
    },
  };
}

/** The count every instance sharing `redis` shares, insured by this process's own. */
export function createSharedTokenLimiter(redis: RedisLink, perMinute = TOKEN_REQUESTS_PER_MINUTE): TokenLimiter {
  const duration = WINDOW_MS / 1000;
  const memory = new RateLimiterMemory({ points: perMinute, duration, keyPrefix: "token-minute" });
  const limiter = new RateLimiterRedis({
    storeClient: redis.client,
    points: perMinute,
    duration,
    keyPrefix: redis.key("token-minute"),
    // ioredis; not ready: straight to the insurance, no waiting.
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
  return {
    async take(id) {
      try {
        await limiter.consume(id, 1);
        return null;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        throw rejection;
      }
    },
  };
}
