// Per-key response caching: identical concurrent requests are made once (single-flight) and
// successful responses are kept for a few seconds, so a dashboard's widgets, a React Query refetch
// and a server prefetch of the same view cost one upstream request. The store is an interface so a
// shared store (e.g. Redis, one namespace per key) can replace the in-process one across instances.
// There is no way to empty a key's namespace: what is cached under a key is shared by everyone using
// it (teammates, other instances), so no one's sign-out or sign-in may throw it away; entries expire.
import { TtlMap } from "@/lib/ttl-map";

/** One entry to write, for as long as its own TTL. */
export type CacheEntry = { key: string; value: unknown; ttlMs: number };

/** What a shared store must provide. Values are JSON-serialisable canonical resources. */
export interface CacheStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * The values of `keys` in their order (undefined where there is none), and the writing of many
   * entries: one round trip each for a shared store, where a listing's hundreds of day figures sent
   * as hundreds of commands at once would queue past the store's command timeout.
   */
  getMany(keys: readonly string[]): Promise<unknown[]>;
  setMany(entries: readonly CacheEntry[]): Promise<void>;
}

/** Cached answers kept per key, in-process and in a shared store alike. */
export const MAX_CACHED_RESPONSES_PER_KEY = 500;

/** In-process store with a TTL per entry and a bound on entries (oldest evicted first). */
export class MemoryCacheStore implements CacheStore {
  private readonly entries: TtlMap<unknown>;

  constructor(maxEntries = MAX_CACHED_RESPONSES_PER_KEY, now: () => number = Date.now) {
    this.entries = new TtlMap({ maxEntries, now });
  }

  async get(key: string): Promise<unknown> {
    return this.entries.get(key);
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.entries.set(key, value, ttlMs);
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async getMany(keys: readonly string[]): Promise<unknown[]> {
    return keys.map((key) => this.entries.get(key));
  }

  async setMany(entries: readonly CacheEntry[]): Promise<void> {
    for (const { key, value, ttlMs } of entries) this.entries.set(key, value, ttlMs);
  }

  get size(): number {
    return this.entries.size;
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException("The operation was aborted.", "AbortError");
}

/**
 * Single-flight: callers asking for the same key while a request is in flight share its result.
 * The shared request is aborted only when every caller waiting on it has aborted, so one closed
 * browser tab cannot fail another tab's identical request.
 */
export class SingleFlight {
  private readonly flights = new Map<string, { promise: Promise<unknown>; controller: AbortController; waiters: number }>();

  run<T>(key: string, work: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    let flight = this.flights.get(key);
    if (!flight) {
      const controller = new AbortController();
      const promise = work(controller.signal).finally(() => {
        if (this.flights.get(key) === entry) this.flights.delete(key);
      });
      const entry = { promise, controller, waiters: 0 };
      // The shared promise may reject after every waiter left; keep that from being "unhandled".
      promise.catch(() => undefined);
      this.flights.set(key, entry);
      flight = entry;
    }
    const current = flight;
    current.waiters++;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const leave = () => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        current.waiters--;
      };
      const onAbort = () => {
        leave();
        if (current.waiters === 0) {
          current.controller.abort(abortReason(signal!));
          if (this.flights.get(key) === current) this.flights.delete(key);
        }
        reject(abortReason(signal!));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      current.promise.then(
        (value) => {
          if (settled) return;
          leave();
          resolve(value as T);
        },
        (error: unknown) => {
          if (settled) return;
          leave();
          reject(error);
        },
      );
    });
  }

  get inFlight(): number {
    return this.flights.size;
  }
}

/**
 * Single-flight across instances (a shared store's lock, see lib/server/redis/cache-store.ts): `work`
 * fetches and writes the cache entry; an instance that finds another one fetching waits for its entry
 * instead. Only for requests that are cached, as the entry is what the others wait for.
 */
export interface SharedFlight {
  run<T>(key: string, work: () => Promise<T>, signal: AbortSignal): Promise<T>;
}

export type RequestCache = { store: CacheStore; flights: SingleFlight; ttlMs: number; shared?: SharedFlight };

export const DEFAULT_CACHE_TTL_MS = 5000;

export function createRequestCache(options: { ttlMs?: number; store?: CacheStore } = {}): RequestCache {
  return {
    store: options.store ?? new MemoryCacheStore(),
    flights: new SingleFlight(),
    ttlMs: options.ttlMs ?? DEFAULT_CACHE_TTL_MS,
  };
}
