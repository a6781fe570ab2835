// The insights' figures of each key in Redis (the layout, the bound and the sealing of
// lib/shared-state/redis/cache-store.ts, kind "ins"), so a day summary listed by one instance is not listed
// again by another. While Redis is away each namespace serves from this process' own bounded store.
import "server-only";
import { createMemoryInsightsStore, MAX_INSIGHTS_FIGURES_PER_KEY, type InsightsStore } from "../insights";
import { ResilientCacheStore, RedisCacheStore } from "./cache-store";
import type { RedisLink } from "./connection";
import { sealerFor } from "./sealed";

/**
 * `secret` is read at each use: the session secret, half of what each key's values are sealed with.
 * `maxEntriesPerKey`: figures kept per key, in Redis and in the in-process fallback alike.
 */
export function createResilientInsightsStore(link: RedisLink, options: { secret: () => string; now: () => number; maxEntriesPerKey?: number }): InsightsStore {
  const maxEntries = options.maxEntriesPerKey ?? MAX_INSIGHTS_FIGURES_PER_KEY;
  const local = createMemoryInsightsStore({ now: options.now, maxEntriesPerKey: maxEntries });
  return {
    namespace(id, apiKey) {
      const shared = new RedisCacheStore(link, "ins", id, sealerFor(apiKey, options.secret()), maxEntries);
      return new ResilientCacheStore(shared, local.namespace(id, apiKey));
    },
  };
}
