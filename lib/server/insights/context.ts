// What an insight computation works with, for one API key: the key's Data API client (its scheduler
// paces every call, interactive priority), its namespace of the insights store (day summaries and
// counts, kept for hours once their days are closed), the planner's policy and the server clock
// (all from the server context), and the in-process coordination of the key's concurrent
// computations: plans being gathered, listings in flight, shared counts and answers. A computation
// carries its caller's abort signal: every upstream call it makes, and every shared run it joins,
// ends with it.
import "server-only";
import type { DataApi } from "@/lib/data-api/api";
import { SingleFlight, type CacheStore, type SharedRun } from "@/lib/data-api/cache";
import { serverContext, upstreamFor, type InsightsPolicy, type Upstream } from "../context";
import { getEnv } from "../env";
import { keyId } from "../key-id";
import type { ListingOutcome } from "./listing";
import type { PendingPlan } from "./visitors";

/** Work in progress for one key; promises cannot live in a shared store, so this stays in-process. */
export type KeyState = {
  /** Plans being gathered, by the span they would list (see visitors.ts). */
  plans: Map<string, PendingPlan>;
  /**
   * Listings in flight, by list and each day they cover (`visitors:<day>`), so a later request for
   * any of those days joins; each ends when it settles or when the last computation waiting for it
   * has gone.
   */
  listings: Map<string, SharedRun<ListingOutcome>>;
  /** Counts and whole answers being computed, shared by identical concurrent requests (ended likewise). */
  flights: SingleFlight;
};

export type InsightsContext = {
  api: DataApi;
  store: CacheStore;
  state: KeyState;
  policy: InsightsPolicy;
  now: () => number;
  ttl: { closedMs: number; openMs: number };
  /** The most rows one listing may read (INSIGHTS_MAX_LISTED_ROWS). */
  maxListedRows: number;
  /**
   * Aborts when nobody waits for this computation any more (its requests went away) or when the
   * part of it this context was handed to has ended: passed to every upstream call and every join.
   */
  signal?: AbortSignal;
  /** How long to keep a figure whose days end at `endMs`: hours once closed, seconds while open. */
  ttlFor: (endMs: number) => number;
};

// Keyed by the upstream entry, so a replaced server context (tests) starts with no work in flight.
const states = new WeakMap<Upstream, KeyState>();

/** The store namespace of a key: a keyed hash of the upstream and the key, never the key itself. */
function insightsNamespace(apiKey: string): string {
  return keyId(`${getEnv().dataApiBaseUrl}\n${apiKey}`);
}

export function insightsContext(apiKey: string): InsightsContext {
  const server = serverContext();
  const upstream = upstreamFor(apiKey);
  let state = states.get(upstream);
  if (!state) {
    state = { plans: new Map(), listings: new Map(), flights: new SingleFlight() };
    states.set(upstream, state);
  }
  const env = getEnv();
  const ttl = env.insightsTtl;
  return {
    api: upstream.api,
    store: server.stores.insights.namespace(insightsNamespace(apiKey), apiKey),
    state,
    policy: server.insights,
    now: server.now,
    ttl,
    maxListedRows: env.insightsMaxListedRows,
    ttlFor: (endMs) => (endMs <= server.now() ? ttl.closedMs : ttl.openMs),
  };
}
