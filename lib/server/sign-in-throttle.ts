// Throttling of failed sign-in attempts, per client (client-address.ts: the socket address, or the
// client behind a trusted proxy; IPv6 by /64), with rate-limiter-flexible: its memory store in
// this process, and with REDIS_URL its Redis store (keys P sign-in:CLIENT), so the limit holds across
// instances, insured by the memory store: while Redis is away each instance counts on its own.
// Every attempt reserves a point before anything is checked, so a burst of parallel guesses cannot
// slip through before the first failure is recorded; a successful sign-in gives its point back, so
// only failures count (bad form or body, rejected key, upstream 5xx, timeouts, unreachable).
// There is no global cap: one client's failures never lock out a correct key from another.
import "server-only";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { RedisLink } from "@/lib/shared-state/redis/connection";

/** Failed attempts a client may make per window, and the window. */
export const FAILURES_PER_CLIENT = 10;
export const WINDOW_SECONDS = 60;
/** Clients tracked at once by the memory store; the least recently seen are forgotten beyond it. */
export const MAX_TRACKED_CLIENTS = 50_000;

export type SignInThrottle = {
  /** Reserves an attempt: 0 when `client` may go ahead, else the seconds it must wait. */
  begin(client: string): Promise<number>;
  /** The attempt succeeded: its reserved point is given back. */
  succeeded(client: string): Promise<void>;
};

export type ThrottleOptions = {
  points?: number;
  durationSec?: number;
  maxClients?: number;
  /** Counts in Redis, shared by every instance (REDIS_URL). */
  redis?: RedisLink;
};

export function createSignInThrottle(options: ThrottleOptions = {}): SignInThrottle & { trackedClients(): number } {
  const points = options.points ?? FAILURES_PER_CLIENT;
  const duration = options.durationSec ?? WINDOW_SECONDS;
  const maxClients = options.maxClients ?? MAX_TRACKED_CLIENTS;
  const memory = new RateLimiterMemory({ points, duration, keyPrefix: "sign-in" });
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({
        storeClient: options.redis.client,
        points,
        duration,
        keyPrefix: options.redis.key("sign-in"),
        // ioredis (not node-redis: no useRedisPackage). Not ready: straight to the insurance, no waiting.
        rejectIfRedisNotReady: true,
        insuranceLimiter: memory,
      })
    : memory;
  // The memory store keeps a record per key until its window ends, with no bound of its own: under
  // a spray of addresses this index (least recently seen first) caps how many are kept. Redis' records
  // expire by themselves; only the memory store (the insurance, with Redis) is trimmed.
  const seen = new Map<string, number>();

  function track(client: string) {
    const t = Date.now();
    seen.delete(client);
    seen.set(client, t + duration * 1000);
    for (const [key, until] of seen) {
      if (seen.size <= maxClients && until > t) break;
      seen.delete(key);
      void memory.delete(key);
    }
  }

  return {
    async begin(client) {
      try {
        await limiter.consume(client, 1);
        return 0;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        throw rejection;
      } finally {
        track(client);
      }
    },
    async succeeded(client) {
      // Not when the window already ended: the point would become a spare one in the next window.
      if ((await limiter.get(client)) !== null) await limiter.reward(client, 1);
    },
    trackedClients: () => seen.size,
  };
}
