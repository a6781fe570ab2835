// The keys' verdicts (lib/shared-state/key-verdicts.ts) in Redis, so a key checked upstream by one
// instance is not checked again by every other within the same few minutes. Key: P kv:NAME, NAME the
// keyed hash of the key (and a resource), never the key; the value is `verdict:until` (epoch ms on the
// server clock, compared at read like the revocations' expiries), with a Redis TTL a little past
// `until` only to clean up. While Redis is away each instance keeps and reads its own verdicts; what it
// wrote meanwhile stays in this process (a verdict lapses within minutes, nothing to write back).
import "server-only";
import { createMemoryKeyVerdictStore, type KeyVerdict, type KeyVerdictStore } from "../key-verdicts";
import { viaRedis, type RedisLink } from "./connection";

const VERDICTS: readonly KeyVerdict[] = ["ok", "refused", "unknown"];

/** Redis' clock and the server's may differ a little: the TTL only cleans up, `until` decides. */
const CLEANUP_MARGIN_MS = 60_000;

function parse(value: string | null, now: number): KeyVerdict | undefined {
  if (value === null) return undefined;
  const colon = value.indexOf(":");
  const verdict = value.slice(0, colon) as KeyVerdict;
  const until = Number(value.slice(colon + 1));
  return VERDICTS.includes(verdict) && until > now ? verdict : undefined;
}

/** The Redis side alone: throws when Redis fails. */
export function createRedisKeyVerdictStore(link: RedisLink, now: () => number): KeyVerdictStore {
  const keyOf = (name: string) => link.key("kv", name);
  return {
    async get(names) {
      if (names.length === 0) return [];
      const values = await link.client.mget(...names.map(keyOf));
      const t = now();
      return values.map((v) => parse(v, t));
    },
    async set(entries, ttlMs) {
      if (entries.length === 0 || ttlMs <= 0) return;
      const until = now() + ttlMs;
      const batch = link.client.multi();
      for (const { name, verdict } of entries) batch.set(keyOf(name), `${verdict}:${until}`, "PX", Math.ceil(ttlMs + CLEANUP_MARGIN_MS));
      await batch.exec();
    },
  };
}

/** Verdicts shared through Redis, and kept in this process too, that never fail because Redis is away. */
export function createResilientKeyVerdictStore(link: RedisLink, now: () => number): KeyVerdictStore {
  const shared = createRedisKeyVerdictStore(link, now);
  const local = createMemoryKeyVerdictStore({ now });
  return {
    async get(names) {
      const [fromRedis, own] = await Promise.all([
        viaRedis(
          link,
          () => shared.get(names),
          async () => names.map(() => undefined),
        ),
        local.get(names),
      ]);
      // Redis first (another instance's newer check); this process' own when Redis has none.
      return names.map((_, i) => fromRedis[i] ?? own[i]);
    },
    async set(entries, ttlMs) {
      await local.set(entries, ttlMs);
      await viaRedis(
        link,
        () => shared.set(entries, ttlMs),
        async () => undefined,
      );
    },
  };
}
