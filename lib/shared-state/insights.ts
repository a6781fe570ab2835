// The insights' long-lived figures (lib/insights): per-day summaries of listed rows and the
// counts of visitor queries, kept per API key for hours when their days are closed (they never
// change) and for seconds when they include today. Each key has its own namespace, named by a keyed
// hash (never the key), bounded in entries: an empty workspace's listing writes a figure for every day
// of both periods (~730 for a year) per upstream call, so a scripted caller must not be able to grow
// it without end. The figures are shared by everyone using the key and are never dropped on anyone's
// behalf (sign-out included); they expire. The namespaces are plain `CacheStore`s (get / set with TTL /
// delete) holding JSON values, so a shared store can back them when several instances run
// (lib/shared-state/redis/insights.ts, with the same bound).
import "server-only";
import { MemoryCacheStore, type CacheStore } from "@/lib/data-api/cache";

export interface InsightsStore {
  /**
   * The figures of one API key: `id` is a keyed hash of the key and upstream (what names the
   * namespace), `apiKey` what a shared store seals its values with (only that key reads them).
   */
  namespace(id: string, apiKey: string): CacheStore;
}

/** Figures kept per key (the oldest go first): a 366-day view in one time zone needs ~1,500. */
export const MAX_INSIGHTS_FIGURES_PER_KEY = 20_000;

export type MemoryInsightsOptions = {
  /** Figures kept per key; the oldest go first. */
  maxEntriesPerKey?: number;
  /** Keys kept; the least recently used key's figures go first. */
  maxKeys?: number;
  now?: () => number;
};

/** In-process namespaces, bounded in keys and in entries per key. */
export function createMemoryInsightsStore(options: MemoryInsightsOptions = {}): InsightsStore & { keys(): number } {
  const maxEntries = options.maxEntriesPerKey ?? MAX_INSIGHTS_FIGURES_PER_KEY;
  const maxKeys = options.maxKeys ?? 1_000;
  const now = options.now ?? (() => Date.now());
  const spaces = new Map<string, MemoryCacheStore>();
  return {
    namespace(id) {
      let space = spaces.get(id);
      if (space) spaces.delete(id);
      else space = new MemoryCacheStore(maxEntries, now);
      // Re-inserted last: Map order is the recency order the bound evicts by.
      spaces.set(id, space);
      while (spaces.size > maxKeys) spaces.delete(spaces.keys().next().value!);
      return space;
    },
    keys: () => spaces.size,
  };
}
