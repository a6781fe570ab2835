// Revoked sessions in Redis, so a sign-out on one instance ends the cookie on all of them.
// Key: P rev:SESSION_ID (a random id, not a secret: the cookie stays sealed), holding the session's
// expiry, removed by Redis (PX) when the cookie would have stopped working anyway.
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

/** Revocations of this instance written to Redis again when it returns (the newest ones). */
const REPLAYED_REVOCATIONS = 10_000;

/** The Redis side alone: throws when Redis fails. `now` is the server clock (the expiry is compared to it). */
export function createRedisRevocationStore(link: RedisLink, now: () => number): RevocationStore {
  const key = (sessionId: string) => link.key("rev", sessionId);
  return {
    async revoke(sessionId, expiresAt) {
      const ttl = Math.ceil(expiresAt - now());
      if (ttl <= 0) return;
      await link.client.set(key(sessionId), String(expiresAt), "PX", ttl);
    },
    async isRevoked(sessionId) {
      const until = await link.client.get(key(sessionId));
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
    const pipeline = link.client.pipeline();
    for (const [sessionId, expiresAt] of own) {
      if (expiresAt <= t) own.delete(sessionId);
      else pipeline.set(link.key("rev", sessionId), String(expiresAt), "PX", Math.ceil(expiresAt - t));
    }
    await pipeline.exec();
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
