// How often a workspace may make this server do work on its say-so through the alerts' routes.
// Adding a destination resolves a name someone typed (a lookup slot for up to 2 s, resolve-name.ts,
// shared by the whole process): unlimited, a loop of additions whose names never answer would keep
// every slot busy and every other workspace's destinations unresolved. Counted per workspace (its
// members share the allowance; another workspace is never held back), before the name is resolved, so
// an attempt refused by the lookup counts too. With rate-limiter-flexible: in this process, and with REDIS_URL in Redis
// shared by every instance (this process's count standing in while Redis is away), as the sign-in
// throttle does. Over the limit: 429 `too_many_requests` with Retry-After, in the shared error shape.
import "server-only";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { serverContext, type ServerContext } from "@/lib/server/context";
import { finalError } from "@/lib/server/http";
import type { WorkspaceId } from "@/lib/store/schema";

/** Each limited write: how many a workspace may make per window, and what the refusal says. */
export const ALERT_WRITE_LIMITS = {
  destination: { points: 10, durationSec: 60, refusal: (n: number) => `This workspace added ${n} destinations in the last minute, the most it may` },
} as const;

export type AlertWrite = keyof typeof ALERT_WRITE_LIMITS;

// One set of limiters per server context: a test's own context starts with nothing counted.
const limiters = new WeakMap<ServerContext, Map<AlertWrite, RateLimiterAbstract>>();

function limiterFor(write: AlertWrite): RateLimiterAbstract {
  const ctx = serverContext();
  let byWrite = limiters.get(ctx);
  if (!byWrite) limiters.set(ctx, (byWrite = new Map()));
  let limiter = byWrite.get(write);
  if (!limiter) {
    const { points, durationSec } = ALERT_WRITE_LIMITS[write];
    const memory = new RateLimiterMemory({ points, duration: durationSec, keyPrefix: `alerts-${write}` });
    limiter = ctx.redis
      ? new RateLimiterRedis({
          storeClient: ctx.redis.client,
          points,
          duration: durationSec,
          keyPrefix: ctx.redis.key("alerts-write", write),
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
      : memory;
    byWrite.set(write, limiter);
  }
  return limiter;
}

/** Counts one `write` of `workspace`; a 429 with Retry-After when its allowance is used up. */
export async function limitAlertWrite(workspace: WorkspaceId, write: AlertWrite): Promise<void> {
  try {
    await limiterFor(write).consume(workspace, 1);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    const { points, refusal } = ALERT_WRITE_LIMITS[write];
    throw finalError({ status: 429, code: "too_many_requests", message: `${refusal(points)}: try again in ${seconds} s.`, retryAfter: seconds });
  }
}
