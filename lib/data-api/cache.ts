// Per-key response caching: identical concurrent requests are made once (single-flight) and
// successful responses are kept for a few seconds, so a dashboard's widgets, a React Query refetch
// and a server prefetch of the same view cost one upstream request. The store is an interface so a
// shared store (e.g. Redis, one namespace per key) can replace the in-process one across instances.
// There is no way to empty a key's namespace: what is cached under a key is shared by everyone using
// it (teammates, other instances), so no one's sign-out or sign-in may throw it away; entries expire.
import { setMaxListeners } from "node:events";
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

/**
 * A shared computation's signal is heard by each of its calls in flight (an insights listing keeps
 * 16, each joining a single-flight and the scheduler): more than Node's default warning threshold of
 * 10 listeners, and not a leak. The bound still catches one.
 */
const SIGNAL_LISTENERS = 100;

function roomyController(): AbortController {
  const c = new AbortController();
  setMaxListeners(SIGNAL_LISTENERS, c.signal);
  return c;
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException("The operation was aborted.", "AbortError");
}

/**
 * One computation that several callers wait for. Each caller joins with its own abort signal; the
 * computation runs until it settles or until its LAST waiter leaves, and then its own signal aborts
 * (so its upstream calls stop). A caller leaving while others still wait changes nothing for them.
 * The signal also aborts once the work settles, so whatever the work left running (a call beside one
 * that failed) stops with it. A run nobody joined yet is not abandoned (whoever made it joins right
 * after); one whose first joiner arrives already aborted is.
 */
export class SharedRun<T> {
  private waiters = 0;
  private ended = false;
  private readonly controller = roomyController();
  private readonly promise: Promise<T>;

  /** `onEnd` runs once, when the work settles or is abandoned (a registry drops the run there). */
  constructor(
    work: (signal: AbortSignal) => Promise<T>,
    private readonly onEnd?: () => void,
  ) {
    this.promise = work(this.controller.signal);
    // The shared promise may reject after every waiter left; keep that from being "unhandled".
    this.promise.then(
      () => this.end(),
      () => this.end(),
    );
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.controller.signal.aborted) this.controller.abort(new DOMException("The shared work has ended.", "AbortError"));
    this.onEnd?.();
  }

  /** Waits for the result as one more waiter, until it settles or `signal` aborts. */
  join(signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) {
      if (this.waiters === 0) this.abandon(abortReason(signal));
      return Promise.reject(abortReason(signal));
    }
    this.waiters++;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const leave = () => {
        if (settled) return false;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        this.waiters--;
        return true;
      };
      const onAbort = () => {
        if (!leave()) return;
        if (this.waiters === 0) this.abandon(abortReason(signal!));
        reject(abortReason(signal!));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.promise.then(
        (value) => leave() && resolve(value),
        (error: unknown) => leave() && reject(error),
      );
    });
  }

  private abandon(reason: Error): void {
    if (this.ended) return;
    this.controller.abort(reason);
    this.end();
  }
}

/**
 * Single-flight: callers asking for the same key while a request is in flight share its result.
 * The shared request is aborted only when every caller waiting on it has aborted, so one closed
 * browser tab cannot fail another tab's identical request.
 */
export class SingleFlight {
  private readonly flights = new Map<string, SharedRun<unknown>>();

  run<T>(key: string, work: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    let flight = this.flights.get(key) as SharedRun<T> | undefined;
    if (!flight) {
      const entry: SharedRun<T> = new SharedRun(work, () => {
        if (this.flights.get(key) === entry) this.flights.delete(key);
      });
      this.flights.set(key, entry);
      flight = entry;
    }
    return flight.join(signal);
  }

  get inFlight(): number {
    return this.flights.size;
  }
}

/**
 * A signal that aborts when `parent` does or when `work` settles, for the joins and calls `work`
 * makes: whatever `work` left waiting (a join of a shared run beside one that failed) leaves then.
 */
export async function withScope<T>(parent: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const scope = roomyController();
  const onAbort = () => scope.abort(abortReason(parent!));
  if (parent?.aborted) onAbort();
  else parent?.addEventListener("abort", onAbort, { once: true });
  try {
    return await work(scope.signal);
  } finally {
    parent?.removeEventListener("abort", onAbort);
    if (!scope.signal.aborted) scope.abort(new DOMException("The work this was part of has ended.", "AbortError"));
  }
}

/**
 * Single-flight across instances (a shared store's lock, see lib/shared-state/redis/cache-store.ts): `work`
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
