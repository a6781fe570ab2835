// What the Data API last said about a key, for a few minutes: whether the key still works, and whether
// it may read a resource (lib/server/key-standing.ts asks, the store's routes act on it). Kept under a
// keyed hash of the key (never the key), so a shared store (Redis, lib/shared-state/redis/key-verdicts.ts)
// lets every instance reuse one instance's check instead of asking upstream again. The in-process
// store below is the default.
import "server-only";
import { TtlMap } from "@/lib/ttl-map";

/**
 * `ok`: the key works (or may read the resource); `refused`: the upstream refused it (401 for the key,
 * 403 for a resource); `unknown`: the check could not be made (429, 5xx, unreachable), and is not
 * made again before the verdict lapses.
 */
export type KeyVerdict = "ok" | "refused" | "unknown";

/** One verdict to write: `name` is the key's hash, or the hash and a resource (key-standing.ts). */
export type KeyVerdictEntry = { name: string; verdict: KeyVerdict };

export interface KeyVerdictStore {
  /** The live verdicts of `names`, in their order (undefined where none was recorded or it lapsed). */
  get(names: readonly string[]): Promise<(KeyVerdict | undefined)[]>;
  /** Records each verdict for `ttlMs`, replacing what was there. */
  set(entries: readonly KeyVerdictEntry[], ttlMs: number): Promise<void>;
}

/** Verdicts kept in one process: two per key in use is a handful each; the oldest go first beyond it. */
export const MAX_KEY_VERDICTS = 20_000;

export function createMemoryKeyVerdictStore(options: { now?: () => number; maxEntries?: number } = {}): KeyVerdictStore & { size(): number } {
  const verdicts = new TtlMap<KeyVerdict>({ maxEntries: options.maxEntries ?? MAX_KEY_VERDICTS, now: options.now ?? (() => Date.now()) });
  return {
    async get(names) {
      return names.map((name) => verdicts.get(name));
    },
    async set(entries, ttlMs) {
      for (const { name, verdict } of entries) verdicts.set(name, verdict, ttlMs);
    },
    size: () => verdicts.size,
  };
}
