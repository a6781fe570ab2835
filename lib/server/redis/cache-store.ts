// The per-key caches in Redis, shared by every instance: the response cache of a key's upstream
// (lib/data-api/cache.ts) and the key's insights figures (lib/server/stores/insights.ts) are both
// `CacheStore`s, one namespace per key, named by a keyed hash of the key (never the key).
//
// Keys (P = REDIS_KEY_PREFIX, kind = res | ins, ns = keyed hash of the upstream and the API key):
//   P c:kind:ns:g               the namespace's generation (a random token)
//   P c:kind:ns:e:GEN:NAME      an entry: NAME is a keyed hash of its key, the value sealed (sealed.ts)
//   P c:kind:ns:lock:NAME       who is fetching that entry for every instance (RedisSharedFlight)
// `clear()` (sign-out) replaces the generation: one command, whatever the namespace holds, and every
// instance misses the old entries at once; they expire by their own TTL. A SCAN by prefix would walk
// the whole keyspace (hours of insights figures of every key) on every sign-out. The generation lives
// at least as long as the entries written under it, and if it is ever lost (eviction) the next write
// starts a new random one: older entries are then unreachable rather than back.
// The scripts build entry keys from the generation, so this needs one Redis, not a Redis Cluster.
import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { MemoryCacheStore, SingleFlight, type CacheStore, type RequestCache, type SharedFlight } from "@/lib/data-api/cache";
import { viaRedis, type RedisLink } from "./connection";
import { defineScript } from "./scripts";
import { sealerFor, type Sealer } from "./sealed";

const GET_LUA = `
local g = redis.call('GET', KEYS[1])
if not g then return false end
return redis.call('GET', ARGV[1] .. g .. ':' .. ARGV[2])`;

const SET_LUA = `
redis.call('SET', KEYS[1], ARGV[3], 'NX')
local g = redis.call('GET', KEYS[1])
local ttl = tonumber(ARGV[4])
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
redis.call('SET', ARGV[1] .. g .. ':' .. ARGV[2], ARGV[5], 'PX', ttl)
return 1`;

const DELETE_LUA = `
local g = redis.call('GET', KEYS[1])
if g then redis.call('DEL', ARGV[1] .. g .. ':' .. ARGV[2]) end
return 1`;

/** Renews or releases a lock only while it is still ours (its token). */
const RENEW_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

const newGeneration = () => randomBytes(9).toString("base64url");

export type CacheKind = "res" | "ins";

/** One key's namespace in Redis. Throws when Redis fails: ResilientCacheStore decides what then. */
export class RedisCacheStore implements CacheStore {
  private readonly base: string;
  private readonly getScript;
  private readonly setScript;
  private readonly deleteScript;

  constructor(
    readonly link: RedisLink,
    private readonly kind: CacheKind,
    private readonly ns: string,
    private readonly sealer: Sealer,
  ) {
    this.base = link.key("c", kind, ns);
    this.getScript = defineScript(link.client, "waCacheGet", 1, GET_LUA, { buffer: true });
    this.setScript = defineScript(link.client, "waCacheSet", 1, SET_LUA);
    this.deleteScript = defineScript(link.client, "waCacheDelete", 1, DELETE_LUA);
  }

  private get generationKey(): string {
    return `${this.base}:g`;
  }

  /** What a sealed value is bound to: another entry's value, even of this key, does not open here. */
  private entry(name: string): string {
    return `${this.kind}:${this.ns}:${name}`;
  }

  async get(key: string): Promise<unknown> {
    const name = this.sealer.name(key);
    const sealed = (await this.getScript(this.generationKey, `${this.base}:e:`, name)) as Buffer | null;
    return sealed ? this.sealer.open(this.entry(name), sealed) : undefined;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    if (value === undefined || ttlMs <= 0) return;
    const name = this.sealer.name(key);
    await this.setScript(this.generationKey, `${this.base}:e:`, name, newGeneration(), Math.ceil(ttlMs), this.sealer.seal(this.entry(name), value));
  }

  async delete(key: string): Promise<void> {
    await this.deleteScript(this.generationKey, `${this.base}:e:`, this.sealer.name(key));
  }

  async clear(): Promise<void> {
    // XX: a namespace that never had a generation has nothing to clear. KEEPTTL: it still outlives its entries.
    await this.link.client.set(this.generationKey, newGeneration(), "KEEPTTL", "XX");
  }

  /** The lock of whoever fetches `key` for every instance. */
  lockKey(key: string): string {
    return `${this.base}:lock:${this.sealer.name(key)}`;
  }
}

/**
 * A namespace that keeps serving while Redis is away: from Redis when it is usable, else from an
 * in-process store of its own (entries written meanwhile stay in this process, and are left behind
 * when Redis is back). A clear made while Redis is away is made there too when it returns, so the
 * other instances do not keep serving what sign-out dropped.
 */
export class ResilientCacheStore implements CacheStore {
  constructor(
    readonly shared: RedisCacheStore,
    private readonly local: CacheStore,
    private readonly id: string,
  ) {}

  get(key: string): Promise<unknown> {
    return viaRedis(this.shared.link, () => this.shared.get(key), () => this.local.get(key));
  }

  set(key: string, value: unknown, ttlMs: number): Promise<void> {
    return viaRedis(this.shared.link, () => this.shared.set(key, value, ttlMs), () => this.local.set(key, value, ttlMs));
  }

  async delete(key: string): Promise<void> {
    await this.local.delete(key);
    await viaRedis(this.shared.link, () => this.shared.delete(key), async () => undefined);
  }

  async clear(): Promise<void> {
    await this.local.clear();
    await viaRedis(
      this.shared.link,
      () => this.shared.clear(),
      async () => this.shared.link.onReturn(`clear:${this.id}`, () => this.shared.clear()),
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
  /** How often a waiting instance looks for the entry. */
  pollMs?: number;
  /** A waiting instance gives up waiting after this, and fetches itself. */
  maxWaitMs?: number;
};

/**
 * Single-flight across instances. The first instance to ask takes the entry's lock (SET NX PX, renewed
 * while it fetches) and fetches; the others poll the cache entry every `pollMs` until it appears, and
 * fetch themselves only if the lock goes without an entry (the fetch failed or its instance died) or
 * Redis fails. Within one instance the in-process SingleFlight in front of this already shares.
 */
export class RedisSharedFlight implements SharedFlight {
  private readonly renewScript;
  private readonly releaseScript;
  private readonly lockMs: number;
  private readonly pollMs: number;
  private readonly maxWaitMs: number;

  constructor(
    private readonly store: RedisCacheStore,
    options: SharedFlightOptions = {},
  ) {
    this.lockMs = options.lockMs ?? 3000;
    this.pollMs = options.pollMs ?? 25;
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
      acquired = (await link.client.set(lock, token, "PX", this.lockMs, "NX")) === "OK";
    } catch (error) {
      link.failed(error);
      return work();
    }
    if (acquired) return this.lead(lock, token, work);

    const deadline = Date.now() + this.maxWaitMs;
    while (Date.now() < deadline) {
      await sleep(this.pollMs, signal);
      try {
        const [hit, locked] = await Promise.all([this.store.get(key), link.client.exists(lock)]);
        if (hit !== undefined) return hit as T;
        if (!locked) {
          // The entry may have been written between the two reads: one more look before fetching.
          const last = await this.store.get(key);
          return last !== undefined ? (last as T) : work();
        }
      } catch (error) {
        link.failed(error);
        return work();
      }
    }
    return work();
  }

  private async lead<T>(lock: string, token: string, work: () => Promise<T>): Promise<T> {
    const renew = setInterval(() => {
      this.renewScript(lock, token, this.lockMs).catch(() => undefined);
    }, Math.max(10, Math.floor(this.lockMs / 3)));
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
  const shared = new RedisCacheStore(link, "res", options.ns, sealerFor(options.apiKey, options.secret));
  return {
    store: new ResilientCacheStore(shared, new MemoryCacheStore(500, options.now), `res:${options.ns}`),
    flights: new SingleFlight(),
    shared: new RedisSharedFlight(shared, options.flight),
    ttlMs: options.ttlMs,
  };
}
