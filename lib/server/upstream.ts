// The server's entry point to the Data API: one upstream client per API key, each with its own
// scheduler (rate budget) and cache, kept in a registry on globalThis so dev hot reloads and the
// separately bundled route handlers share them. Pages, route handlers and exports all use
// dataApiForKey(session.apiKey), so every request of a key counts against one budget.
import "server-only";
import { createHash } from "node:crypto";
import type { DataApi } from "@/lib/data-api/api";
import { createRequestCache, type RequestCache } from "@/lib/data-api/cache";
import { createDataApiClient, type UpstreamLogEvent } from "@/lib/data-api/client";
import { createScheduler, type Scheduler } from "@/lib/data-api/scheduler";
import { getEnv } from "./env";
import { upstreamFetch } from "./upstream-transport";

export { maskKey } from "@/lib/data-api/redact";

type Entry = { api: DataApi; scheduler: Scheduler; cache: RequestCache };

const g = globalThis as typeof globalThis & { __waUpstreams?: Map<string, Entry> };
const registry = (g.__waUpstreams ??= new Map<string, Entry>());

/** Registry key: the base URL and a hash of the key (the raw key is not kept as a map key). */
function registryKey(baseUrl: string, apiKey: string): string {
  return `${baseUrl}|${createHash("sha256").update(apiKey).digest("base64url")}`;
}

/** Logs failed and slow upstream calls; the event carries only the masked key. */
function logUpstream(event: UpstreamLogEvent): void {
  if (event.status === 200 && event.ms < 2000) return;
  const detail = `${event.status}${event.code ? ` ${event.code}` : ""} ${Math.round(event.ms)}ms`;
  console.warn(`[data-api] ${event.key} GET ${event.path} -> ${detail}${event.requestId ? ` (request ${event.requestId})` : ""}`);
}

function entryFor(apiKey: string): Entry {
  const env = getEnv();
  const id = registryKey(env.dataApiBaseUrl, apiKey);
  let entry = registry.get(id);
  if (!entry) {
    const scheduler = createScheduler(env.rateBudget ? { budget: env.rateBudget, fixed: true } : {});
    const cache = createRequestCache({ ttlMs: env.cacheTtlMs });
    const api = createDataApiClient({
      baseUrl: env.dataApiBaseUrl,
      apiKey,
      fetch: upstreamFetch,
      scheduler,
      cache,
      timeoutMs: env.timeoutMs,
      log: logUpstream,
    });
    entry = { api, scheduler, cache };
    registry.set(id, entry);
  }
  return entry;
}

/** The Data API as seen with this key (shared scheduler + cache per key). */
export function dataApiForKey(apiKey: string): DataApi {
  return entryFor(apiKey).api;
}

/** The key's learned plan and budget state, e.g. for an export's time estimate. */
export function rateBudgetForKey(apiKey: string): ReturnType<Scheduler["snapshot"]> {
  return entryFor(apiKey).scheduler.snapshot();
}

/**
 * Drops the key's cached responses (sign-out). The scheduler stays: the upstream keeps counting
 * the key's requests in its window whether or not someone is signed in with it.
 */
export async function forgetKey(apiKey: string): Promise<void> {
  const entry = registry.get(registryKey(getEnv().dataApiBaseUrl, apiKey));
  if (entry) await entry.cache.store.clear();
}

/** Removes everything held for a key that turned out not to work (a rejected sign-in). */
export function discardKey(apiKey: string): void {
  registry.delete(registryKey(getEnv().dataApiBaseUrl, apiKey));
}
