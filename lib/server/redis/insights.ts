// The insights' figures of each key in Redis (the layout and the sealing of lib/server/redis/cache-store.ts,
// kind "ins"), so a day summary listed by one instance is not listed again by another. While Redis is
// away each namespace serves from this process' own bounded store.
import "server-only";
import { createMemoryInsightsStore, type InsightsStore } from "../stores/insights";
import { ResilientCacheStore, RedisCacheStore } from "./cache-store";
import type { RedisLink } from "./connection";
import { sealerFor } from "./sealed";

/** `secret` is read at each use: the session secret, half of what each key's values are sealed with. */
export function createResilientInsightsStore(link: RedisLink, options: { secret: () => string; now: () => number }): InsightsStore {
  const local = createMemoryInsightsStore({ now: options.now });
  return {
    namespace(id, apiKey) {
      const shared = new RedisCacheStore(link, "ins", id, sealerFor(apiKey, options.secret()));
      return new ResilientCacheStore(shared, local.namespace(id, apiKey), `ins:${id}`);
    },
  };
}
