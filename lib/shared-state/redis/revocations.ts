// Revoked sessions in Redis, so a sign-out on one instance ends the cookie on all of them.
// Key: P revoked, one sorted set of session ids (random, not secrets: the cookie stays sealed), each
// scored by when its session would have expired anyway; every write drops the members past that.
// A key's revocation (every session of a key: stores/revocations.ts) is a member `key:<ref>` of the
// same set, scored by the latest expiry it covers; P revoked-keys-until holds the latest of those,
// so a session check reads the key's entry (a second round trip, after making the reference) only
// for a session that one could cover.
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
import { createMemoryRevocationStore, keyEntry, type RevocationStore } from "../revocations";
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
 * KEYS: the set, and the latest expiry a key's revocation covers. ARGV: now, maxEntries, then
 * member (session id or `key:<ref>`) and expiry (epoch ms) pairs. A member revoked twice keeps its
 * later expiry (ZADD GT). The second key has no TTL, like the set (see above): a number, never
 * more than one.
 */
const REVOKE_LUA = `
local now, max = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
for i = 3, #ARGV, 2 do
  local expires = tonumber(ARGV[i + 1])
  if expires > now then
    redis.call('ZADD', KEYS[1], 'GT', expires, ARGV[i])
    if string.sub(ARGV[i], 1, 4) == 'key:' and expires > tonumber(redis.call('GET', KEYS[2]) or '0') then redis.call('SET', KEYS[2], expires) end
  end
end
local over = redis.call('ZCARD', KEYS[1]) - max
if over > 0 then redis.call('ZPOPMIN', KEYS[1], over) end
return 1`;

/**
 * KEYS: the set, the key a version before the set kept this session under (P rev:ID, with a TTL,
 * still read so an upgrade forgets no sign-out: those expire within a session's lifetime), and the
 * latest expiry a key's revocation covers. Returns the session's expiry (or false), and that latest
 * expiry (or false).
 */
const REVOKED_UNTIL_LUA = `return {redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('GET', KEYS[2]), redis.call('GET', KEYS[3])}`;

/** The Redis side alone: throws when Redis fails. `now` is the server clock (the expiry is compared to it). */
export function createRedisRevocationStore(
  link: RedisLink,
  now: () => number,
  options: { maxEntries?: number } = {},
): RevocationStore & { revokeAll(entries: Iterable<[sessionId: string, expiresAt: number]>): Promise<void> } {
  const set = link.key("revoked");
  const keysUntil = link.key("revoked-keys-until");
  const maxEntries = options.maxEntries ?? MAX_SHARED_REVOCATIONS;
  // Named apart from the one-key versions an instance of an older release defines.
  const revokeScript = defineScript(link.client, "waRevokeWithKeys", 2, REVOKE_LUA);
  const untilScript = defineScript(link.client, "waRevokedUntilWithKeys", 3, REVOKED_UNTIL_LUA);
  async function revokeAll(entries: Iterable<[string, number]>) {
    const args = [...entries].flatMap(([sessionId, expiresAt]) => [sessionId, expiresAt]);
    if (args.length > 0) await revokeScript(set, keysUntil, now(), maxEntries, ...args);
  }
  async function revokedUntil(sessionId: string): Promise<{ session: number | null; keys: number | null }> {
    const [session, keys] = (await untilScript(set, link.key("rev", sessionId), keysUntil, sessionId)) as [string | null, string | null];
    return { session: session === null ? null : Number(session), keys: keys === null ? null : Number(keys) };
  }
  return {
    revokeAll,
    async revoke(sessionId, expiresAt) {
      await revokeAll([[sessionId, expiresAt]]);
    },
    async isRevoked(sessionId) {
      const { session } = await revokedUntil(sessionId);
      return session !== null && session > now();
    },
    async revokeKey(keyRef, until) {
      await revokeAll([[keyEntry(keyRef), until]]);
    },
    async isSessionRevoked(session, keyRef) {
      const until = await revokedUntil(session.sessionId);
      if (until.session !== null && until.session > now()) return true;
      if (until.keys === null || until.keys < session.expiresAt) return false;
      const ref = await keyRef();
      if (ref === undefined) return false;
      const keyUntil = await link.client.zscore(set, keyEntry(ref));
      return keyUntil !== null && Number(keyUntil) >= session.expiresAt && Number(keyUntil) > now();
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
      await viaRedis(
        link,
        () => shared.revoke(sessionId, expiresAt),
        async () => link.onReturn("revocations", replay),
      );
    },
    async isRevoked(sessionId) {
      if (await local.isRevoked(sessionId)) return true;
      return viaRedis(
        link,
        () => shared.isRevoked(sessionId),
        async () => false,
      );
    },
    async revokeKey(keyRef, until) {
      await local.revokeKey(keyRef, until);
      const entry = keyEntry(keyRef);
      own.delete(entry);
      own.set(entry, until);
      if (own.size > REPLAYED_REVOCATIONS) own.delete(own.keys().next().value!);
      await viaRedis(
        link,
        () => shared.revokeKey(keyRef, until),
        async () => link.onReturn("revocations", replay),
      );
    },
    async isSessionRevoked(session, keyRef) {
      // The reference is made once, whichever side asks for it.
      let ref: Promise<string | undefined> | undefined;
      const once = () => (ref ??= keyRef());
      if (await local.isSessionRevoked(session, once)) return true;
      return viaRedis(
        link,
        () => shared.isSessionRevoked(session, once),
        async () => false,
      );
    },
  };
}
