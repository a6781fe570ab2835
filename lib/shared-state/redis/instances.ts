// Which instances of the app are alive, as Redis last saw them: each instance adds its id to one
// sorted set every few seconds (score = its clock), and counts the ids seen within `liveWithinMs`.
// The shared rate budget (budget.ts) divides the plan by that count when Redis goes away: each
// instance then keeps to its share on its own. One heartbeat per process, for all keys.
//
// Clocks: the scores are each instance's own clock. A skew of a few seconds between machines only
// widens or narrows "seen within 15 s" a little; an instance whose clock is off by more than that is
// counted wrongly, so keep the machines on NTP (the rate windows need that anyway, see budget.ts).
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { withDeadline } from "./deadline";

/** The ioredis client, or a getter returning it (null while there is none, e.g. REDIS_URL unset). */
export type RedisSource = Redis | (() => Redis | null);

/** The client when it is connected and ready, else null (then nothing is sent: no offline queue). */
export function readyClient(source: RedisSource): Redis | null {
  const redis = typeof source === "function" ? source() : source;
  return redis && redis.status === "ready" ? redis : null;
}

export type InstanceHeartbeat = {
  /** This instance's id (random per process). */
  readonly id: string;
  /** Instances seen alive at the last heartbeat that reached Redis (>= 1), or `assumedInstances` if none did yet. */
  liveInstances(): number;
  /** One heartbeat at `now` (the timer calls it; tests call it directly). Never throws. */
  beat(now: number): Promise<void>;
  /** Stops the timer and leaves the set (so the others' share grows at once). */
  stop(): Promise<void>;
};

export type InstanceHeartbeatOptions = {
  redis: RedisSource;
  /** Prefix of every key this app writes in Redis (REDIS_KEY_PREFIX). */
  prefix?: string;
  now: () => number;
  /** How often to beat (ms); 0 = no timer (tests beat by hand). */
  intervalMs?: number;
  /** An instance counts as alive while its last beat is at most this old (ms). */
  liveWithinMs?: number;
  /**
   * How many instances to assume before any heartbeat reached Redis (an instance that started while
   * Redis was away). 2: a deployment that sets REDIS_URL runs at least two, and assuming more than
   * run only leaves some of the budget unused while Redis is away.
   */
  assumedInstances?: number;
  commandTimeoutMs?: number;
};

export function startInstanceHeartbeat(options: InstanceHeartbeatOptions): InstanceHeartbeat {
  const id = randomBytes(6).toString("base64url");
  const key = `${options.prefix ?? "wa:"}instances`;
  const liveWithinMs = options.liveWithinMs ?? 15_000;
  const intervalMs = options.intervalMs ?? 5000;
  let seen: number | undefined;

  async function beat(now: number): Promise<void> {
    const redis = readyClient(options.redis);
    if (!redis) return;
    try {
      const replies = await withDeadline(
        redis
          .multi()
          .zadd(key, now, id)
          .zremrangebyscore(key, "-inf", now - liveWithinMs)
          .zcard(key)
          .pexpire(key, liveWithinMs * 4)
          .exec(),
        options.commandTimeoutMs ?? 250,
      );
      const count = replies?.[2]?.[1];
      if (typeof count === "number") seen = Math.max(1, count);
    } catch {
      // Redis is away: the count stays as last seen, which is what the budget's fallback needs.
    }
  }

  const timer = intervalMs > 0 ? setInterval(() => void beat(options.now()), intervalMs) : undefined;
  timer?.unref();
  if (timer) void beat(options.now());

  return {
    id,
    liveInstances: () => seen ?? Math.max(1, options.assumedInstances ?? 2),
    beat,
    async stop() {
      if (timer) clearInterval(timer);
      const redis = readyClient(options.redis);
      await redis?.zrem(key, id).catch(() => undefined);
    },
  };
}
