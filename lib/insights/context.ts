// What an insight computation works with, for one API key: the key's Data API client (its scheduler
// paces every call, interactive priority), its namespace of the insights store (day summaries and
// counts, kept for hours once their days are closed), the planner's policy and the server clock
// (all from the server context), and the in-process coordination of the key's concurrent
// computations: plans being gathered, listings in flight, shared counts and answers. A computation
// carries its caller's abort signal: every upstream call it makes, and every shared run it joins,
// ends with it.
import "server-only";
import { SingleFlight } from "@/lib/data-api/cache";
import { serverContext, upstreamFor, type Upstream } from "@/lib/server/context";
import { getEnv } from "@/lib/server/env";
import { keyId } from "@/lib/server/key-id";
// Every day summariser registers with the registry as its module loads: all are loaded before any
// computation can start a listing, so every listing folds every dimension of its list.
import "./summarisers";
import type { InsightsContext, KeyState } from "./types";

export type { InsightsContext } from "./types";

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
