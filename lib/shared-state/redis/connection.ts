// The Redis that several instances share (REDIS_URL): one ioredis client per process, on globalThis
// like the server context (the proxy and the route handlers are bundled apart but share the process).
// It fails fast while Redis is away (no offline queue, a short bound on each store step that a busy
// event loop does not trip), so every store falls back to its in-process twin at once instead of
// holding requests, and reconnects by itself for ever
// with a capped backoff, so an instance rejoins without a restart. It says so in the log once when
// Redis goes away and once when it is back, never with the URL's password. At each connection it reads
// the server's maxmemory-policy and warns when the policy could evict revoked sessions (allkeys-*):
// a signed-out cookie would then work again (see revocations.ts).
import "server-only";
import { Redis } from "ioredis";
import { getEnv } from "@/lib/server/env";
import { withDeadline } from "./deadline";

export type RedisState = "off" | "connected" | "unavailable";

export type RedisLinkOptions = {
  /** Longest pause between reconnection attempts (ms). */
  maxBackoffMs?: number;
  /**
   * A store's Redis step not answered within this is failed (ms), and the store serves from memory.
   * Measured as withDeadline does (deadline.ts): a reply that waited in the socket while the event
   * loop was busy still counts. ioredis's own command timeout is only a backstop, well above it: its
   * timer fires before a stalled loop reads the reply, which made a busy instance fall back to a
   * local share of the rate budget while its peers went on sharing (the key then saw 429s).
   */
  commandTimeoutMs?: number;
  /** After a failed command Redis is left alone this long (ms), then tried again. */
  pauseAfterFailureMs?: number;
  log?: { warn(line: string): void; info(line: string): void };
};

/** One connection to Redis and what the stores need around it. */
export type RedisLink = {
  readonly client: Redis;
  /** A key of this deployment: REDIS_KEY_PREFIX followed by the parts joined with ":". */
  key(...parts: string[]): string;
  readonly state: "connected" | "unavailable";
  /** How long one store step may wait for Redis before the store serves from memory (ms). */
  readonly timeoutMs: number;
  /**
   * Resolves once the first connection attempt has an outcome (at most FIRST_CONNECTION_WAIT_MS), so
   * an instance's first requests are not served from memory only because Redis was still connecting
   * (a sign-out made on another instance would then be missed). Resolved for good after that.
   */
  readonly settled: Promise<void>;
  /** Whether to try Redis now: connected, and no command failed in the last moment (see `failed`). */
  usable(): boolean;
  /** A command failed: Redis is skipped for a moment (no 300 ms timeout on every request), logged once. */
  failed(error: unknown): void;
  /**
   * Runs `task` when Redis is usable again after an outage or a failed command (what could not be
   * written meanwhile); a task registered again under `id` replaces it.
   */
  onReturn(id: string, task: () => Promise<void>): void;
  close(): Promise<void>;
};

const DEFAULT_MAX_BACKOFF_MS = 2000;
const DEFAULT_COMMAND_TIMEOUT_MS = 300;
/** ioredis's own timeout: ends a command a hung Redis never answers, long after the stores moved on. */
const BACKSTOP_TIMEOUT_MS = 5000;
const DEFAULT_PAUSE_AFTER_FAILURE_MS = 1000;
const FIRST_CONNECTION_WAIT_MS = 1000;

/**
 * What the log says about a server's maxmemory-policy (from INFO memory), or null when it keeps the
 * revoked sessions: noeviction evicts nothing, volatile-* only keys with a TTL, which they have not.
 */
function evictionWarning(info: string, shownUrl: string): string | null {
  const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  if (!policy?.startsWith("allkeys-")) return null;
  return (
    `[redis] maxmemory-policy is ${policy} (${shownUrl}): when full, Redis may evict the revoked sessions, and a signed-out cookie ` +
    `would work again — set maxmemory-policy to volatile-lru (the caches, budgets and throttle carry a TTL and go first) or noeviction`
  );
}

/** The URL as it may be logged: any password replaced. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "redis://(unparseable URL)";
  }
}

function describe(error: unknown, password: string): string {
  const message = error instanceof Error ? error.message || error.name : String(error);
  return password ? message.split(password).join("***") : message;
}

export function connectRedis(url: string, keyPrefix: string, options: RedisLinkOptions = {}): RedisLink {
  const log = options.log ?? { warn: (line: string) => console.warn(line), info: (line: string) => console.info(line) };
  const maxBackoffMs = options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
  const pauseMs = options.pauseAfterFailureMs ?? DEFAULT_PAUSE_AFTER_FAILURE_MS;
  const shown = redactRedisUrl(url);
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const password = (() => {
    try {
      return decodeURIComponent(new URL(url).password);
    } catch {
      return "";
    }
  })();
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: Math.max(BACKSTOP_TIMEOUT_MS, 4 * timeoutMs),
    connectTimeout: 2000,
    // Never gives up: 50 ms, 100 ms, ... up to maxBackoffMs between attempts, for as long as it takes.
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times - 1, 10), maxBackoffMs),
  });

  let state: "connected" | "unavailable" = "unavailable";
  /** What the log last said, so each change is said once: nothing yet, away, or there. */
  let said: "connected" | "unavailable" | undefined;
  let everConnected = false;
  let pausedUntil = 0;
  let commandFailureSaid = false;
  let evictionSaid = false;
  let closed = false;
  const returnTasks = new Map<string, () => Promise<void>>();
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  setTimeout(() => settle(), FIRST_CONNECTION_WAIT_MS).unref();

  const lost = (reason: string) => {
    state = "unavailable";
    settle();
    if (closed || said === "unavailable") return;
    said = "unavailable";
    log.warn(`[redis] unavailable (${shown}): ${reason} — serving with in-process stores and a conservative share of the rate budget until it returns`);
  };

  const catchUp = () => {
    for (const [id, task] of returnTasks) {
      returnTasks.delete(id);
      task().catch((error: unknown) => log.warn(`[redis] could not catch up after the outage (${id}): ${describe(error, password)}`));
    }
  };
  const usable = () => {
    if (state !== "connected" || Date.now() < pausedUntil) return false;
    if (returnTasks.size > 0) catchUp();
    return true;
  };

  client.on("ready", () => {
    state = "connected";
    settle();
    pausedUntil = 0;
    commandFailureSaid = false;
    if (said !== "connected") {
      log.info(everConnected ? `[redis] connected again (${shown}): sharing with the other instances again` : `[redis] connected (${shown})`);
    }
    said = "connected";
    everConnected = true;
    catchUp();
    // Said once per process; INFO may be renamed or refused on a managed Redis: then nothing is said.
    client.info("memory").then(
      (info) => {
        const warning = evictionWarning(info, shown);
        if (warning && !evictionSaid) {
          evictionSaid = true;
          log.warn(warning);
        }
      },
      () => undefined,
    );
  });
  // ioredis reports every failed attempt as an "error" event: without a listener it would print them all.
  client.on("error", (error: unknown) => {
    if (client.status !== "ready") lost(describe(error, password));
  });
  client.on("close", () => lost("connection closed"));

  return {
    client,
    key: (...parts) => `${keyPrefix}${parts.join(":")}`,
    get state() {
      return state;
    },
    timeoutMs,
    settled,
    usable,
    failed(error) {
      pausedUntil = Date.now() + pauseMs;
      // A dropped connection is said by `lost`; a failing command on a live one (timeout, OOM) here, once.
      if (state === "connected" && !commandFailureSaid) {
        commandFailureSaid = true;
        log.warn(`[redis] a command failed (${shown}): ${describe(error, password)} — serving from in-process stores meanwhile`);
      }
    },
    onReturn(id, task) {
      returnTasks.set(id, task);
    },
    async close() {
      closed = true;
      returnTasks.clear();
      client.disconnect();
    },
  };
}

type Shared = { url: string; keyPrefix: string; link: RedisLink };
const g = globalThis as typeof globalThis & { __waRedis?: Shared };

/**
 * The process's Redis link when REDIS_URL is set (made on first use), else null: without REDIS_URL no
 * client is ever created. A changed REDIS_URL (tests) closes the old link and makes a new one.
 */
export function sharedRedis(): RedisLink | null {
  // Read before getEnv(): a process without REDIS_URL never depends on the rest of its configuration here.
  if (!process.env.REDIS_URL) return null;
  const config = getEnv().redis;
  if (!config) return null;
  const current = g.__waRedis;
  if (current && current.url === config.url && current.keyPrefix === config.keyPrefix) return current.link;
  void current?.link.close();
  const link = connectRedis(config.url, config.keyPrefix);
  g.__waRedis = { ...config, link };
  return link;
}

/** What /api/health says about Redis: off (no REDIS_URL), connected, or unavailable (serving alone). */
export async function redisState(): Promise<RedisState> {
  const link = sharedRedis();
  if (!link) return "off";
  await link.settled;
  return link.state;
}

/** Closes the process's link (tests; a later sharedRedis() makes a new one). */
export async function closeSharedRedis(): Promise<void> {
  const current = g.__waRedis;
  g.__waRedis = undefined;
  await current?.link.close();
}

/**
 * Runs `shared` against Redis when it is usable, else (or when it fails) `local`, the in-process twin:
 * how every store keeps serving while Redis is away and goes back to it by itself when it returns.
 */
export async function viaRedis<T>(link: RedisLink, shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
  await link.settled;
  if (link.usable()) {
    try {
      return await withDeadline(shared(), link.timeoutMs);
    } catch (error) {
      link.failed(error);
    }
  }
  return local();
}
