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
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
// Every day summariser registers with the registry as its module loads: all are loaded before any
// computation can start a listing, so every listing folds every dimension of its list.
import "./summarisers";
import { FINAL_AFTER_MS } from "./kept";
import type { InsightsContext, KeptAccess, KeyState } from "./types";

export type { InsightsContext } from "./types";

// Keyed by the upstream entry, so a replaced server context (tests) starts with no work in flight.
const states = new WeakMap<Upstream, KeyState>();

/** The store namespace of a key: a keyed hash of the upstream and the key, never the key itself. */
function insightsNamespace(apiKey: string): string {
  return keyId(`${getEnv().dataApiBaseUrl}\n${apiKey}`);
}

const said = new Set<string>();
/** When this process last noted each key's zone (keyed by the key's id and the zone). */
const zonesNoted = new Map<string, number>();
/** Says a store failure of the kept days once per message (never with the key: the store knows only its fingerprint). */
function warnOnce(what: string, error: unknown): void {
  const line = `[insights] ${what}: ${error instanceof Error ? error.message : String(error)}`;
  if (said.has(line)) return;
  if (said.size > 100) said.clear();
  said.add(line);
  console.warn(line);
}

/**
 * The kept days of the workspace `apiKey` opens, found on first use (one query), through the
 * server context's store. The store failing (unreachable, the workspace deleted meanwhile) reads as
 * nothing kept and keeps nothing: the answer comes from the upstream, as without a store.
 */
function keptAccess(apiKey: string, recheckMs: number): KeptAccess {
  let opened: Promise<{ store: Store; workspace: WorkspaceId } | undefined> | undefined;
  const open = () =>
    (opened ??= (async () => {
      const store = await serverContext().store();
      return { store, workspace: (await store.workspaces.workspaceForKey(apiKey)).id };
    })().catch((error: unknown) => {
      warnOnce("the kept days could not be reached; reading from the Data API", error);
      return undefined;
    }));
  return {
    recheckMs,
    async read(figures, spans) {
      const at = await open();
      if (!at) return new Map();
      return at.store.keptDays.read(at.workspace, figures, spans).catch((error: unknown) => {
        warnOnce("the kept days could not be read; reading from the Data API", error);
        return new Map();
      });
    },
    async keep(days) {
      const at = await open();
      await at?.store.keptDays.keep(at.workspace, days).catch((error: unknown) => warnOnce("days read could not be kept", error));
    },
    async confirm(figures, spans) {
      const at = await open();
      await at?.store.keptDays.confirm(at.workspace, figures, spans).catch((error: unknown) => warnOnce("checked days could not be marked", error));
    },
    async noteZone(tz) {
      // Once an hour per key and zone in this process: a write per day would do, one per request would not.
      const memo = `${keyId(apiKey)}\n${tz}`;
      const now = serverContext().now();
      if ((zonesNoted.get(memo) ?? -Infinity) > now - 3_600_000) return;
      if (zonesNoted.size > 10_000) zonesNoted.clear();
      zonesNoted.set(memo, now);
      const at = await open();
      await at?.store.keptDays.noteZone(at.workspace, tz).catch((error: unknown) => warnOnce("the zone read in could not be noted", error));
    },
  };
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
  const keep = server.insights.keepDays === true;
  return {
    api: upstream.api,
    store: server.stores.insights.namespace(insightsNamespace(apiKey), apiKey),
    state,
    policy: server.insights,
    now: server.now,
    ttl,
    maxListedRows: env.insightsMaxListedRows,
    // With kept days, a closed day younger than a week is held here no longer than it is trusted
    // without a check, so the check happens when it is due (kept.ts).
    ttlFor: (endMs) => {
      const now = server.now();
      if (endMs > now) return ttl.openMs;
      return keep && now - endMs < FINAL_AFTER_MS ? Math.min(ttl.closedMs, env.dayRecheckMs) : ttl.closedMs;
    },
    ...(keep ? { kept: keptAccess(apiKey, env.dayRecheckMs) } : {}),
  };
}
