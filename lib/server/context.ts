// The server's dependencies in one place: the clock, the upstream retry policy, the transport, the
// stores (revoked sessions, export status, sign-in throttle, insights' figures, keys' verdicts), the insights
// planner's policy, the per-key upstream clients made from them, and the store (the database of
// workspaces, history and jobs, lib/store: opened on first use). Everything server-side reads
// them here instead of keeping its own module-level singleton, so a test replaces the whole set
// (`setServerContext`: a fake clock, a short retry policy, its own stores). With REDIS_URL the default
// context's stores and each key's response cache are the Redis-backed ones (lib/shared-state/redis), shared
// by every instance and served from this process while Redis is away; without it, no Redis client is
// even made.
// Kept on globalThis: the proxy, route handlers and server components are bundled separately but run
// in one process, and must share one context.
import "server-only";
import { createHash } from "node:crypto";
import type { DataApi } from "@/lib/data-api/api";
import { createRequestCache, MAX_CACHED_RESPONSES_PER_KEY, MemoryCacheStore, type RequestCache } from "@/lib/data-api/cache";
import { createDataApiClient, type DataApiClientOptions, type UpstreamLogEvent } from "@/lib/data-api/client";
import { createScheduler, type Scheduler, type SchedulerOptions } from "@/lib/data-api/scheduler";
import { getEnv } from "./env";
import { MemoryExportStatusStore, type ExportStatusStore } from "@/lib/shared-state/export-status";
import { keyId } from "./key-id";
import { createSharedRequestCache } from "@/lib/shared-state/redis/cache-store";
import { createSharedBudget } from "@/lib/shared-state/redis/budget";
import { sharedRedis, type RedisLink } from "@/lib/shared-state/redis/connection";
import { startInstanceHeartbeat, type InstanceHeartbeat } from "@/lib/shared-state/redis/instances";
import { ResilientExportStatusStore } from "@/lib/shared-state/redis/export-status";
import { createResilientInsightsStore } from "@/lib/shared-state/redis/insights";
import { createResilientKeyVerdictStore } from "@/lib/shared-state/redis/key-verdicts";
import { createResilientRevocationStore } from "@/lib/shared-state/redis/revocations";
import { upstreamFetch } from "./upstream-transport";
import { createSignInThrottle, type SignInThrottle } from "./sign-in-throttle";
import { createMemoryInsightsStore, type InsightsStore } from "@/lib/shared-state/insights";
import { createMemoryKeyVerdictStore, type KeyVerdictStore } from "@/lib/shared-state/key-verdicts";
import { createMemoryRevocationStore, type RevocationStore } from "@/lib/shared-state/revocations";
import { sharedStore } from "@/lib/store/shared";
import type { Store } from "@/lib/store/store";

/** How failed upstream attempts (429, 5xx, network) are retried. */
export type RetryPolicy = Pick<SchedulerOptions, "retries" | "minBackoffMs" | "maxBackoffMs" | "maxRetryTimeMs">;

/**
 * How the insights planner (lib/insights) gets visitor figures: `auto` chooses, per query,
 * counting or listing by the upstream calls each needs; `count` and `list` force one (tests, or an
 * upstream where one of them is known to be cheaper).
 */
export type InsightsPolicy = {
  strategy: "auto" | "count" | "list";
  /** How long routes asking for the same window are gathered into one plan (ms; see planner.ts). */
  gatherMs: number;
  /**
   * Whether the insights keep the figures of closed days in the store, per workspace
   * (lib/insights/kept.ts): on in the server; unit tests leave it off unless they test it, as a
   * worker's store outlives a test file while the files' sandboxes differ under the same keys.
   */
  keepDays?: boolean;
};

/** One key's view of the Data API: its client, and the scheduler (rate budget) and cache behind it. */
export type Upstream = { api: DataApi; scheduler: Scheduler; cache: RequestCache };

export type ServerContext = {
  /** Milliseconds since the epoch: every timing decision of the server reads this clock. */
  now: () => number;
  retry: RetryPolicy;
  /** The transport of every upstream request. */
  fetch: NonNullable<DataApiClientOptions["fetch"]>;
  stores: {
    revocations: RevocationStore;
    exportStatus: ExportStatusStore;
    signInThrottle: SignInThrottle;
    insights: InsightsStore;
    /** What the Data API last said about each key in use (key-standing.ts: the store's routes' recheck). */
    keyVerdicts: KeyVerdictStore;
  };
  insights: InsightsPolicy;
  /**
   * Exports streaming in this process, by key id and export id: what stops each at once when its
   * cancel arrives here (a cancel that reaches another instance goes through the store).
   */
  runningExports: Map<string, () => void>;
  /** The upstream clients made so far, one per base URL and key (a keyed hash, never the key). */
  upstreams: Map<string, Upstream>;
  /** The Redis the instances share (REDIS_URL): each key's response cache lives there. Null: in-process. */
  redis: RedisLink | null;
  /**
   * This process among the instances sharing Redis (a heartbeat): how many are alive, so while Redis
   * is away each keeps 1/N of every key's budget. Null without Redis.
   */
  instances: InstanceHeartbeat | null;
  /**
   * The store (lib/store), opened on first use: the process's one database handle by default, a
   * test's own store when injected. Rejects with StoreUnavailableError while it cannot be opened.
   */
  store: () => Promise<Store>;
};

/** Logs failed and slow upstream calls; the event carries only the masked key. */
function logUpstream(event: UpstreamLogEvent): void {
  if (event.status === 200 && event.ms < 2000) return;
  const detail = `${event.status}${event.code ? ` ${event.code}` : ""} ${Math.round(event.ms)}ms`;
  console.warn(`[data-api] ${event.key} GET ${event.path} -> ${detail}${event.requestId ? ` (request ${event.requestId})` : ""}`);
}

function defaultContext(): ServerContext {
  // The stores read the context's clock when they run, so a replaced clock reaches them too.
  const now = () => serverContext().now();
  const redis = sharedRedis();
  return {
    instances: redis ? heartbeatOf(redis) : null,
    now: () => Date.now(),
    retry: {},
    fetch: upstreamFetch,
    stores: redis
      ? {
          revocations: createResilientRevocationStore(redis, now),
          exportStatus: new ResilientExportStatusStore(redis, now),
          signInThrottle: createSignInThrottle({ redis }),
          insights: createResilientInsightsStore(redis, { secret: () => getEnv().sessionSecret, now }),
          keyVerdicts: createResilientKeyVerdictStore(redis, now),
        }
      : {
          revocations: createMemoryRevocationStore({ now }),
          exportStatus: new MemoryExportStatusStore(undefined, now),
          signInThrottle: createSignInThrottle(),
          insights: createMemoryInsightsStore({ now }),
          keyVerdicts: createMemoryKeyVerdictStore({ now }),
        },
    insights: { strategy: "auto", gatherMs: 25, keepDays: true },
    runningExports: new Map(),
    upstreams: new Map(),
    redis,
    store: () => sharedStore({ now }),
  };
}

/** One heartbeat per Redis link (a context made again in tests, or a bundle's copy, reuses it). */
const heartbeats = new WeakMap<RedisLink, InstanceHeartbeat>();
function heartbeatOf(link: RedisLink): InstanceHeartbeat {
  let beat = heartbeats.get(link);
  if (!beat) {
    beat = startInstanceHeartbeat({ redis: () => link.client, prefix: getEnv().redis?.keyPrefix, now: () => Date.now() });
    heartbeats.set(link, beat);
  }
  return beat;
}

const g = globalThis as typeof globalThis & { __waServerContext?: ServerContext; __waContextDefaults?: ContextDefaults };

/** What a test process sets over every fresh default context (resetServerContext). */
type ContextDefaults = { insights?: Partial<InsightsPolicy> };

export function serverContext(): ServerContext {
  if (!g.__waServerContext) {
    const made = defaultContext();
    const defaults = g.__waContextDefaults;
    g.__waServerContext = defaults?.insights ? { ...made, insights: { ...made.insights, ...defaults.insights } } : made;
  }
  return g.__waServerContext;
}

/**
 * Replaces parts of the context (tests; a shared store at start-up), with a fresh set of upstream
 * clients so none made under the old clock or transport lingers. Returns what puts the old one back.
 */
export function setServerContext(overrides: Partial<Omit<ServerContext, "upstreams">>): () => void {
  const previous = serverContext();
  g.__waServerContext = { ...previous, ...overrides, stores: { ...previous.stores, ...overrides.stores }, upstreams: new Map() };
  return () => {
    g.__waServerContext = previous;
  };
}

/**
 * Drops the whole context, so the next use makes a fresh default one (with `defaults` over it, from
 * then on). For test files that share a process (vitest.setup.ts): each starts without the clients,
 * budgets and stores of the one before.
 */
export function resetServerContext(defaults?: ContextDefaults): void {
  g.__waServerContext = undefined;
  if (defaults) g.__waContextDefaults = defaults;
}

/** Registry key: the base URL and a hash of the key (the raw key is not kept as a map key). */
function upstreamId(baseUrl: string, apiKey: string): string {
  return `${baseUrl}|${createHash("sha256").update(apiKey).digest("base64url")}`;
}

/**
 * The upstream of a key (created on first use): pages, route handlers and exports all go through it,
 * so every request of a key counts against one budget and shares one cache.
 */
export function upstreamFor(apiKey: string): Upstream {
  const ctx = serverContext();
  const env = getEnv();
  const id = upstreamId(env.dataApiBaseUrl, apiKey);
  let entry = ctx.upstreams.get(id);
  if (!entry) {
    const ns = keyId(`${env.dataApiBaseUrl}\n${apiKey}`);
    const plan = env.rateBudget ? { budget: env.rateBudget, fixed: true } : {};
    // With Redis, the key's budget is shared by every instance (each keeps 1/N of it while Redis is away).
    const keyBudget =
      ctx.redis && ctx.instances
        ? createSharedBudget({
            redis: () => ctx.redis!.client,
            connected: ctx.redis.settled,
            keyId: ns,
            prefix: env.redis?.keyPrefix,
            instances: ctx.instances,
            // An answer not reported within this (its instance died) stops holding a place in flight.
            inFlightLeaseMs: env.timeoutMs + 15_000,
            ...plan,
          })
        : undefined;
    const scheduler = createScheduler({ ...ctx.retry, now: ctx.now, ...plan, ...(keyBudget ? { keyBudget } : {}) });
    const cache = ctx.redis
      ? createSharedRequestCache(ctx.redis, {
          ns,
          apiKey,
          secret: env.sessionSecret,
          ttlMs: env.cacheTtlMs,
          now: ctx.now,
        })
      : createRequestCache({ ttlMs: env.cacheTtlMs, store: new MemoryCacheStore(MAX_CACHED_RESPONSES_PER_KEY, ctx.now) });
    const api = createDataApiClient({ baseUrl: env.dataApiBaseUrl, apiKey, fetch: ctx.fetch, scheduler, cache, timeoutMs: env.timeoutMs, log: logUpstream });
    entry = { api, scheduler, cache };
    ctx.upstreams.set(id, entry);
  }
  return entry;
}

/** Removes everything held for a key that turned out not to work (a rejected sign-in). */
export function discardUpstream(apiKey: string): void {
  serverContext().upstreams.delete(upstreamId(getEnv().dataApiBaseUrl, apiKey));
}
