// Revoked sessions in Redis, so a sign-out on one instance ends the cookie on all of them.
// Key: P revoked, one sorted set of session ids (random, not secrets: the cookie stays sealed), each
// scored by when its session would have expired anyway; every write drops the members past that.
//
// Why one set and no TTL on it: a Redis that runs out of memory evicts keys by its maxmemory-policy,
// and an evicted revocation would let a signed-out cookie work again. The volatile-* policies only
// evict keys that carry a TTL, and every other key this app writes carries one (caches, budgets,
// export progress, the sign-in throttle): under them the set is never evicted, the caches go first.
// Under allkeys-* nothing is safe, which the connection says in the log at connect (connection.ts);
// noeviction keeps everything and refuses writes when full. The set itself is bounded by count
// (MAX_SHARED_REVOCATIONS, the sessions due to end soonest go first, as in the in-process store), so
// sign-outs cannot fill Redis either.
//
// While Redis is away each instance keeps serving: every revocation made here is also kept in this
// process (so this instance refuses the cookie whatever happens to Redis), and when Redis comes back
// the live ones are written there again, which also restores them after a restart that lost its data.
// What is lost: a revocation made on another instance while this one could not read Redis is unknown
// here until Redis is back; and revocations beyond REPLAYED_REVOCATIONS per instance made before a
// Redis restart without persistence (run Redis with persistence where that matters).
import "server-only";
import { createMemoryRevocationStore, type RevocationStore } from "../stores/revocations";
import { viaRedis, type RedisLink } from "./connection";
import { defineScript } from "./scripts";

/** Revocations of this instance written to Redis again when it returns (the newest ones). */
const REPLAYED_REVOCATIONS = 10_000;

/**
 * Revocations Redis keeps for every instance together (~140 bytes each, measured: ~70 MB at most).
 * Each needs a successful sign-in, an upstream call, so one key (Pro: 1,000 calls a minute, 480,000 in
 * a session's 8 hours) cannot push out anyone else's.
 */
const MAX_SHARED_REVOCATIONS = 500_000;

/**
 * KEYS: the set. ARGV: now, maxEntries, then session id and expiry (epoch ms) pairs. A session revoked
 * twice keeps its later expiry (ZADD GT).
 */
const REVOKE_LUA = `
local now, max = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
for i = 3, #ARGV, 2 do
  if tonumber(ARGV[i + 1]) > now then redis.call('ZADD', KEYS[1], 'GT', ARGV[i + 1], ARGV[i]) end
end
local over = redis.call('ZCARD', KEYS[1]) - max
if over > 0 then redis.call('ZPOPMIN', KEYS[1], over) end
return 1`;

/**
 * KEYS: the set, and the key a version before the set kept this session under (P rev:ID, with a TTL),
 * still read so an upgrade forgets no sign-out: those expire within a session's lifetime.
 * Returns the session's expiry, or false.
 */
const REVOKED_UNTIL_LUA = `return redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('GET', KEYS[2])`;

/** The Redis side alone: throws when Redis fails. `now` is the server clock (the expiry is compared to it). */
export function createRedisRevocationStore(
  link: RedisLink,
  now: () => number,
  options: { maxEntries?: number } = {},
): RevocationStore & { revokeAll(entries: Iterable<[sessionId: string, expiresAt: number]>): Promise<void> } {
  const set = link.key("revoked");
  const maxEntries = options.maxEntries ?? MAX_SHARED_REVOCATIONS;
  const revokeScript = defineScript(link.client, "waRevoke", 1, REVOKE_LUA);
  const untilScript = defineScript(link.client, "waRevokedUntil", 2, REVOKED_UNTIL_LUA);
  async function revokeAll(entries: Iterable<[string, number]>) {
    const args = [...entries].flatMap(([sessionId, expiresAt]) => [sessionId, expiresAt]);
    if (args.length > 0) await revokeScript(set, now(), maxEntries, ...args);
  }
  return {
    revokeAll,
    async revoke(sessionId, expiresAt) {
      await revokeAll([[sessionId, expiresAt]]);
    },
    async isRevoked(sessionId) {
      const until = (await untilScript(set, link.key("rev", sessionId), sessionId)) as string | null;
      return until !== null && Number(until) > now();
    },
  };
}

/** Revocations shared through Redis, kept in this process too, that never fail because Redis is away. */
export function createResilientRevocationStore(link: RedisLink, now: () => number): RevocationStore {
  const shared = createRedisRevocationStore(link, now);
  const local = createMemoryRevocationStore({ now });
  /** This instance's revocations (session id -> expiry), oldest first, to write again on Redis' return. */
  const own = new Map<string, number>();

  async function replay() {
    const t = now();
    for (const [sessionId, expiresAt] of own) if (expiresAt <= t) own.delete(sessionId);
    await shared.revokeAll(own);
  }
  // On every (re)connection, an outage seen or not (a restart between two requests loses data too).
  link.client.on("ready", () => {
    replay().catch((error: unknown) => link.failed(error));
  });

  return {
    async revoke(sessionId, expiresAt) {
      await local.revoke(sessionId, expiresAt);
      own.delete(sessionId);
      own.set(sessionId, expiresAt);
      if (own.size > REPLAYED_REVOCATIONS) own.delete(own.keys().next().value!);
      // Not written (Redis away or failing): written with the others as soon as Redis is usable again.
      await viaRedis(link, () => shared.revoke(sessionId, expiresAt), async () => link.onReturn("revocations", replay));
    },
    async isRevoked(sessionId) {
      if (await local.isRevoked(sessionId)) return true;
      return viaRedis(link, () => shared.isRevoked(sessionId), async () => false);
    },
  };
}
