// The per-key caches in Redis, shared by every instance: the response cache of a key's upstream
// (lib/data-api/cache.ts) and the key's insights figures (lib/shared-state/insights.ts) are both
// `CacheStore`s, one namespace per key, named by a keyed hash of the key (never the key).
//
// Keys (P = REDIS_KEY_PREFIX, kind = res | ins, ns = keyed hash of the upstream and the API key):
//   P c:kind:ns:e:NAME      an entry: NAME is a keyed hash of its key, the value sealed (sealed.ts),
//                           expiring with its own TTL (PX)
//   P c:kind:ns:i           the namespace's index: a sorted set of its entries' NAMEs, scored by when
//                           each expires (Redis' own clock)
//   P c:kind:ns:lock:NAME   who is fetching that entry for every instance (RedisSharedFlight)
//
// A namespace holds at most `maxEntries` entries, as the in-process store does, so no caller can
// fill Redis through one key (an empty workspace's insights write ~730 day figures per upstream call,
// kept for hours). The bound is kept by the write itself, in one script: it drops the index's expired
// names, adds the new ones, and beyond the bound deletes the entries due to expire soonest (for one
// TTL, the oldest written), those of other writes before those being written. A listing's day
// figures are written in one such script and read with one MGET. Every key here carries a TTL, so a Redis
// that evicts among keys with a TTL (maxmemory-policy volatile-*) takes these before anything
// without one (the revoked sessions, revocations.ts).
// There is no way to empty a namespace: it is shared by everyone using the key (cache.ts).
// The scripts name entry keys from the index, so this needs one Redis, not a Redis Cluster.
import "server-only";
import { randomUUID } from "node:crypto";
import {
  MAX_CACHED_RESPONSES_PER_KEY,
  MemoryCacheStore,
  SingleFlight,
  type CacheEntry,
  type CacheStore,
  type RequestCache,
  type SharedFlight,
} from "@/lib/data-api/cache";
import { viaRedis, type RedisLink } from "./connection";
import { withDeadline } from "./deadline";
import { defineScript } from "./scripts";
import { sealerFor, type Sealer } from "./sealed";

/** KEYS: index. ARGV: entry prefix, maxEntries, then per entry: name, ttl (ms), sealed value. */
const SET_LUA = `
-- Milliseconds with their microseconds: entries written one after another keep their order.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local prefix, max = ARGV[1], tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local written, count, longest = {}, 0, 0
for i = 3, #ARGV, 3 do
  local name, ttl = ARGV[i], tonumber(ARGV[i + 1])
  redis.call('SET', prefix .. name, ARGV[i + 2], 'PX', ttl)
  redis.call('ZADD', KEYS[1], now + ttl, name)
  if not written[name] then count = count + 1 end
  written[name] = true
  longest = math.max(longest, ttl)
end
local over = redis.call('ZCARD', KEYS[1]) - max
if over > 0 then
  -- The soonest to expire, over + count of them: at least \`over\` are others' unless this write alone
  -- is over the bound; then its own soonest go too.
  local soonest = redis.call('ZRANGE', KEYS[1], 0, over + count - 1)
  for pass = 1, 2 do
    for _, name in ipairs(soonest) do
      if over > 0 and (pass == 2 or not written[name]) and redis.call('ZREM', KEYS[1], name) == 1 then
        redis.call('DEL', prefix .. name)
        over = over - 1
      end
    end
  end
end
if redis.call('PTTL', KEYS[1]) < longest then redis.call('PEXPIRE', KEYS[1], longest) end
return 1`;

/** KEYS: index, entry. ARGV: name. */
const DELETE_LUA = `
redis.call('DEL', KEYS[2])
redis.call('ZREM', KEYS[1], ARGV[1])
return 1`;

/** An entry and whether someone is fetching it, in one round trip. KEYS: entry, lock. */
const PEEK_LUA = `return {redis.call('GET', KEYS[1]), redis.call('EXISTS', KEYS[2])}`;

/** Renews or releases a lock only while it is still ours (its token). */
const RENEW_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export type CacheKind = "res" | "ins";

/** One key's namespace in Redis. Throws when Redis fails: ResilientCacheStore decides what then. */
export class RedisCacheStore implements CacheStore {
  private readonly base: string;
  private readonly setScript;
  private readonly deleteScript;
  private readonly peekScript;

  constructor(
    readonly link: RedisLink,
    private readonly kind: CacheKind,
    private readonly ns: string,
    private readonly sealer: Sealer,
    /** Entries kept in the namespace; beyond it the ones due to expire soonest are deleted. */
    private readonly maxEntries: number,
  ) {
    this.base = link.key("c", kind, ns);
    this.setScript = defineScript(link.client, "waCacheSet", 1, SET_LUA);
    this.deleteScript = defineScript(link.client, "waCacheDelete", 2, DELETE_LUA);
    this.peekScript = defineScript(link.client, "waCachePeek", 2, PEEK_LUA, { buffer: true });
  }

  private get indexKey(): string {
    return `${this.base}:i`;
  }

  private entryKey(name: string): string {
    return `${this.base}:e:${name}`;
  }

  /** What a sealed value is bound to: another entry's value, even of this key, does not open here. */
  private entry(name: string): string {
    return `${this.kind}:${this.ns}:${name}`;
  }

  private open(name: string, sealed: Buffer | null): unknown {
    return sealed ? this.sealer.open(this.entry(name), sealed) : undefined;
  }

  async get(key: string): Promise<unknown> {
    const name = this.sealer.name(key);
    return this.open(name, await this.link.client.getBuffer(this.entryKey(name)));
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    await this.setMany([{ key, value, ttlMs }]);
  }

  async getMany(keys: readonly string[]): Promise<unknown[]> {
    if (keys.length === 0) return [];
    const names = keys.map((key) => this.sealer.name(key));
    const sealed = await this.link.client.mgetBuffer(...names.map((name) => this.entryKey(name)));
    return names.map((name, i) => this.open(name, sealed[i] ?? null));
  }

  async setMany(entries: readonly CacheEntry[]): Promise<void> {
    const args = entries.flatMap(({ key, value, ttlMs }) => {
      if (value === undefined || ttlMs <= 0) return [];
      const name = this.sealer.name(key);
      return [name, Math.ceil(ttlMs), this.sealer.seal(this.entry(name), value)];
    });
    if (args.length > 0) await this.setScript(this.indexKey, `${this.base}:e:`, this.maxEntries, ...args);
  }

  async delete(key: string): Promise<void> {
    const name = this.sealer.name(key);
    await this.deleteScript(this.indexKey, this.entryKey(name), name);
  }

  /** The entry of `key` (undefined when none) and whether an instance holds its lock (is fetching it). */
  async peek(key: string): Promise<{ value: unknown; locked: boolean }> {
    const name = this.sealer.name(key);
    const [sealed, locked] = (await this.peekScript(this.entryKey(name), this.lockKey(key))) as [Buffer | null, number];
    return { value: this.open(name, sealed), locked: locked === 1 };
  }

  /** The lock of whoever fetches `key` for every instance. */
  lockKey(key: string): string {
    return `${this.base}:lock:${this.sealer.name(key)}`;
  }
}

/**
 * A namespace that keeps serving while Redis is away: from Redis when it is usable, else from an
 * in-process store of its own (entries written meanwhile stay in this process, and are left behind
 * when Redis is back).
 */
export class ResilientCacheStore implements CacheStore {
  constructor(
    readonly shared: RedisCacheStore,
    private readonly local: CacheStore,
  ) {}

  get(key: string): Promise<unknown> {
    return viaRedis(
      this.shared.link,
      () => this.shared.get(key),
      () => this.local.get(key),
    );
  }

  set(key: string, value: unknown, ttlMs: number): Promise<void> {
    return viaRedis(
      this.shared.link,
      () => this.shared.set(key, value, ttlMs),
      () => this.local.set(key, value, ttlMs),
    );
  }

  async delete(key: string): Promise<void> {
    await this.local.delete(key);
    await viaRedis(
      this.shared.link,
      () => this.shared.delete(key),
      async () => undefined,
    );
  }

  getMany(keys: readonly string[]): Promise<unknown[]> {
    return viaRedis(
      this.shared.link,
      () => this.shared.getMany(keys),
      () => this.local.getMany(keys),
    );
  }

  setMany(entries: readonly CacheEntry[]): Promise<void> {
    return viaRedis(
      this.shared.link,
      () => this.shared.setMany(entries),
      () => this.local.setMany(entries),
    );
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });

export type SharedFlightOptions = {
  /** The lock's lifetime, renewed while the fetch goes on: how long an instance that died holds the others. */
  lockMs?: number;
  /** A waiting instance's first look for the entry, after this (ms); each wait after it is twice as long... */
  firstPollMs?: number;
  /** ...up to this (ms): at most this late in seeing the answer, and a few commands a second at most. */
  maxPollMs?: number;
  /** A waiting instance gives up waiting after this, and fetches itself. */
  maxWaitMs?: number;
};

/**
 * Single-flight across instances. The first instance to ask takes the entry's lock (SET NX PX, renewed
 * while it fetches) and fetches; the others look for the cache entry (and the lock, in one command)
 * after 5 ms, then at doubling intervals up to 200 ms, until it appears: a fast answer is seen within
 * milliseconds, and a slow one costs a waiter about five commands a second, not forty. They fetch
 * themselves only if the lock goes without an entry (the fetch failed or its instance died) or Redis
 * fails. Within one instance the in-process SingleFlight in front of this already shares.
 */
export class RedisSharedFlight implements SharedFlight {
  private readonly renewScript;
  private readonly releaseScript;
  private readonly lockMs: number;
  private readonly firstPollMs: number;
  private readonly maxPollMs: number;
  private readonly maxWaitMs: number;

  constructor(
    private readonly store: RedisCacheStore,
    options: SharedFlightOptions = {},
  ) {
    this.lockMs = options.lockMs ?? 3000;
    this.firstPollMs = options.firstPollMs ?? 5;
    this.maxPollMs = options.maxPollMs ?? 200;
    this.maxWaitMs = options.maxWaitMs ?? 60_000;
    this.renewScript = defineScript(store.link.client, "waLockRenew", 1, RENEW_LUA);
    this.releaseScript = defineScript(store.link.client, "waLockRelease", 1, RELEASE_LUA);
  }

  async run<T>(key: string, work: () => Promise<T>, signal: AbortSignal): Promise<T> {
    const link = this.store.link;
    if (!link.usable()) return work();
    const lock = this.store.lockKey(key);
    const token = randomUUID();
    let acquired: boolean;
    try {
      // A lock granted after the deadline is given back at once: this instance fetches on its own.
      const granted = link.client.set(lock, token, "PX", this.lockMs, "NX");
      acquired =
        (await withDeadline(granted, link.timeoutMs, (late) => void (late === "OK" && this.releaseScript(lock, token).catch(() => undefined)))) === "OK";
    } catch (error) {
      link.failed(error);
      return work();
    }
    if (acquired) return this.lead(lock, token, work);

    const deadline = Date.now() + this.maxWaitMs;
    let pollMs = this.firstPollMs;
    while (Date.now() < deadline) {
      await sleep(pollMs, signal);
      pollMs = Math.min(pollMs * 2, this.maxPollMs);
      try {
        const { value, locked } = await withDeadline(this.store.peek(key), link.timeoutMs);
        if (value !== undefined) return value as T;
        // The fetching instance writes the entry before it releases the lock, and one script reads both
        // at one moment: neither means its fetch ended without an entry.
        if (!locked) return work();
      } catch (error) {
        link.failed(error);
        return work();
      }
    }
    return work();
  }

  private async lead<T>(lock: string, token: string, work: () => Promise<T>): Promise<T> {
    const renew = setInterval(
      () => {
        this.renewScript(lock, token, this.lockMs).catch(() => undefined);
      },
      Math.max(10, Math.floor(this.lockMs / 3)),
    );
    renew.unref();
    try {
      return await work();
    } finally {
      clearInterval(renew);
      // Left to expire if this fails: the others then fetch themselves after at most lockMs.
      await this.releaseScript(lock, token).catch(() => undefined);
    }
  }
}

/**
 * The request cache of one key's upstream with REDIS_URL: entries and single-flight shared by every
 * instance, an in-process store while Redis is away. `ns` is a keyed hash of the upstream and the key.
 */
export function createSharedRequestCache(
  link: RedisLink,
  options: { ns: string; apiKey: string; secret: string; ttlMs: number; now: () => number; flight?: SharedFlightOptions },
): RequestCache {
  const shared = new RedisCacheStore(link, "res", options.ns, sealerFor(options.apiKey, options.secret), MAX_CACHED_RESPONSES_PER_KEY);
  return {
    store: new ResilientCacheStore(shared, new MemoryCacheStore(MAX_CACHED_RESPONSES_PER_KEY, options.now)),
    flights: new SingleFlight(),
    shared: new RedisSharedFlight(shared, options.flight),
    ttlMs: options.ttlMs,
  };
}
