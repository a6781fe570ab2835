// The history collector: reads a workspace's figures with one of its keys and keeps them in the store
// (lib/store/snapshots.ts), for the background jobs (jobs.ts) of watched workspaces.
// - hourly: the score and the ranking, each kept once per upstream `updated_at` (record.ts);
// - daily: the overview of each period (kind `overview:<period>`, dated the day it was read in the
//   workspace's time zone), and for each closed day not yet kept among the last few, the insights
//   figures of that day alone: per source (kind `sources`: visitors, conversions, rate) and per AI
//   platform (kind `platforms`: mentions, sentiment, average position, visitors, conversions); and
//   yesterday's days of every insights dimension kept (lib/insights/kept.ts) in the workspace's zone
//   and in each zone its members read the insights in lately.
// Every upstream call goes through the key's scheduler at background priority: after everything a
// person or an export asks for, within the bulk share of the key's budget, so collecting never
// causes a 429 and never makes anyone wait. A key the upstream refuses (401) pauses watching with
// the reason and nothing more is asked with it; a resource the key may not read (403) is skipped.
import "server-only";
import type { CallOptions, DataApi } from "@/lib/data-api/api";
import { PERIODS } from "@/lib/data-api/constants";
import { isDataApiError } from "@/lib/data-api/errors";
import { addDays, todayIn } from "@/lib/range/calendar";
import { serverContext, upstreamFor } from "@/lib/server/context";
import { insightsContext, type InsightsContext } from "@/lib/insights/context";
import { platformsInsight } from "@/lib/insights/platforms";
import { resolveRange } from "@/lib/insights/range";
import { sourcesInsight } from "@/lib/insights/sources";
import { countriesInsight } from "@/lib/insights/countries";
import { queriesInsight } from "@/lib/insights/queries";
import { insightsCountriesParams, insightsQueriesParams } from "@/lib/insights/schema";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { recordScoreAndRanking } from "./record";

export type CollectKind = "hourly" | "daily";

/** How many closed days back a daily run looks for days not kept yet (after a downtime). */
export const CLOSED_DAYS_CAUGHT_UP = 3;

/** The zones a daily run keeps yesterday's days in: the workspace's own and those its members read in lately, at most this many. */
const MAX_KEPT_ZONES = 5;
/** How recently a zone must have been read in to be kept (30 days). */
const KEPT_ZONES_SINCE_MS = 30 * 86_400_000;

export type CollectContext = {
  store: Store;
  now: () => number;
  /** The key's Data API, every call at background priority. */
  api: (apiKey: string) => DataApi;
  /** The key's insights computation, its calls at background priority too. */
  insights: (apiKey: string) => InsightsContext;
  signal?: AbortSignal;
};

export type CollectResult = {
  /** What was kept: `score`, `ranking`, `overview:30d`, `sources:2026-11-19`... */
  recorded: string[];
  /** Read, but already kept (the same `updated_at`). */
  known: string[];
  /** Refused to this key (403): skipped. */
  skipped: string[];
  /** Failed for another reason (rate limit, upstream down): tried again next run. */
  failed: string[];
  /** Set when the upstream refused the key (401): watching is now paused. */
  paused?: string;
};

/** A Data API whose every call goes at background priority (and never skips the budget's queue). */
export function backgroundApi(api: DataApi): DataApi {
  return { get: (path, input, options?: CallOptions) => api.get(path, input, { ...options, priority: "background" }) };
}

/** The collector's context in the running server: the server context's clients, clock and store. */
export function serverCollectContext(store: Store, signal?: AbortSignal): CollectContext {
  return {
    store,
    now: () => serverContext().now(),
    api: (apiKey) => backgroundApi(upstreamFor(apiKey).api),
    insights: (apiKey) => {
      const ictx = insightsContext(apiKey);
      return { ...ictx, api: backgroundApi(ictx.api), ...(signal ? { signal } : {}) };
    },
    ...(signal ? { signal } : {}),
  };
}

class KeyRefused extends Error {}

/** What the workspace's settings say when the upstream refused the kept key, at `now`. */
function refusedReason(now: number): string {
  const at = new Date(now).toISOString().slice(0, 16).replace("T", " ");
  return `The Data API refused the kept key on ${at} UTC (it was revoked or is no longer valid). Sign in with a working key and turn watching on again.`;
}

/**
 * Reads and keeps one round of `kind` for `workspaceId` with `apiKey` (a key of that workspace).
 * Never throws for an upstream failure: each resource's fate is in the result.
 */
export async function collectWorkspace(ctx: CollectContext, workspaceId: WorkspaceId, apiKey: string, kind: CollectKind): Promise<CollectResult> {
  const result: CollectResult = { recorded: [], known: [], skipped: [], failed: [] };

  /** Runs one read; a 401 stops the whole round, a 403 skips the resource, any other failure is noted. */
  async function attempt<T>(name: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      return await read();
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      if (isDataApiError(error) && error.status === 401) throw new KeyRefused();
      if (isDataApiError(error) && error.status === 403) result.skipped.push(name);
      else result.failed.push(name);
      return undefined;
    }
  }

  try {
    if (kind === "hourly") await hourly(ctx, workspaceId, apiKey, result, attempt);
    else await daily(ctx, workspaceId, apiKey, result, attempt);
  } catch (error) {
    if (!(error instanceof KeyRefused)) throw error;
    result.paused = refusedReason(ctx.now());
    await ctx.store.workspaces.pauseWatching(workspaceId, result.paused);
  }
  return result;
}

type Attempt = <T>(name: string, read: () => Promise<T>) => Promise<T | undefined>;

async function hourly(ctx: CollectContext, workspaceId: WorkspaceId, apiKey: string, result: CollectResult, attempt: Attempt): Promise<void> {
  const api = ctx.api(apiKey);
  const options = ctx.signal ? { signal: ctx.signal } : {};
  // One after the other: the second read is not made with a key the first found refused.
  const score = await attempt("score", () => api.get("/intelligence/score", {}, options));
  const ranking = await attempt("ranking", () => api.get("/intelligence/ranking", {}, options));
  const kept = await recordScoreAndRanking(ctx.store, workspaceId, score, ranking);
  for (const [name, read, wasKept] of [
    ["score", score, kept.score],
    ["ranking", ranking, kept.ranking],
  ] as const) {
    if (read === undefined) continue;
    (wasKept ? result.recorded : result.known).push(name);
  }
}

async function daily(ctx: CollectContext, workspaceId: WorkspaceId, apiKey: string, result: CollectResult, attempt: Attempt): Promise<void> {
  const workspace = await ctx.store.workspaces.workspace(workspaceId);
  if (!workspace) return;
  const tz = workspace.timeZone;
  const today = todayIn(tz, ctx.now());
  const api = ctx.api(apiKey);
  const options = ctx.signal ? { signal: ctx.signal } : {};

  const keptOn = async (kind: string, date: string) => (await ctx.store.snapshots.dailyFigures(workspaceId, { kind, tz, from: date, to: date })).length > 0;

  for (const period of PERIODS) {
    const kind = `overview:${period}`;
    if (await keptOn(kind, today)) {
      result.known.push(kind);
      continue;
    }
    const overview = await attempt(kind, () => api.get("/analytics/overview", { query: { period } }, options));
    if (overview === undefined) continue;
    await ctx.store.snapshots.putDailyFigures(workspaceId, { kind, date: today, tz, data: overview });
    result.recorded.push(kind);
  }

  // The closed days (yesterday first back to CLOSED_DAYS_CAUGHT_UP days ago) whose figures are not kept yet.
  const ictx = ctx.insights(apiKey);
  for (let back = CLOSED_DAYS_CAUGHT_UP; back >= 1; back--) {
    const date = addDays(today, -back);
    const range = resolveRange({ from: date, to: date, tz, bucket: "day" }, ctx.now());
    if (!(await keptOn("sources", date))) {
      const sources = await attempt(`sources:${date}`, () => sourcesInsight(ictx, range));
      if (sources) {
        const data = sources.data.map(({ previous: _previous, ...today }) => today);
        await ctx.store.snapshots.putDailyFigures(workspaceId, { kind: "sources", date, tz, data });
        result.recorded.push(`sources:${date}`);
      }
    }
    if (!(await keptOn("platforms", date))) {
      const platforms = await attempt(`platforms:${date}`, () => platformsInsight(ictx, range));
      if (platforms) {
        const data = {
          data: platforms.data.map(({ previous: _previous, ...today }) => today),
          ...(platforms.unreadable ? { unreadable: platforms.unreadable } : {}),
        };
        await ctx.store.snapshots.putDailyFigures(workspaceId, { kind: "platforms", date, tz, data });
        result.recorded.push(`platforms:${date}`);
      }
    }
  }

  // Yesterday's figures of every dimension kept (lib/insights/kept.ts) in the workspace's zone and in
  // every zone its members read the insights in lately, so the first visit of the day finds them in
  // the store: a listing keeps every dimension of its list, so the four reads cost one visitor and
  // one mention listing of the day (counts where the planner counts), nothing where it is kept.
  if (!ictx.kept) return;
  const zones = [...new Set([tz, ...(await ctx.store.keptDays.zones(workspaceId, ctx.now() - KEPT_ZONES_SINCE_MS, MAX_KEPT_ZONES))])];
  for (const zone of zones.slice(0, MAX_KEPT_ZONES)) {
    const yesterday = addDays(todayIn(zone, ctx.now()), -1);
    const query = { from: yesterday, to: yesterday, tz: zone };
    const range = resolveRange({ ...query, bucket: "day" }, ctx.now());
    const name = `days:${zone}:${yesterday}`;
    const kept = await attempt(name, async () => {
      await Promise.all([
        sourcesInsight(ictx, range),
        platformsInsight(ictx, range),
        countriesInsight(ictx, range, insightsCountriesParams.parse(query)),
        queriesInsight(ictx, range, insightsQueriesParams.parse(query)),
      ]);
      return true;
    });
    if (kept) result.recorded.push(name);
  }
}
