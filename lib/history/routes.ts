// The history routes (mounted by app/api/history/*/route.ts, read in-process by server components
// through lib/queries/server-api.ts): the score and ranking snapshots of the session's workspace, and the
// daily figures kept for it, over a range of calendar days by the insights' rules (`from`..`to` in
// `tz`, both inclusive, default the 30 days to today; 400 naming `from` when backwards or over 366
// days). Only what was recorded is answered, oldest first: a day without a snapshot is absent, never
// filled in. `since` is where the workspace's history begins (its first snapshot ever), whatever the range.
// Each is declared in the store's scope with the upstream resource it was kept from (`store`, see
// lib/server/route-types.ts): a key the Data API refuses that resource is refused its history too,
// and a key it refuses altogether ends the session, as on every route of the store. The live score and
// ranking are here too: the Data API's answers as they are, each read kept as history (on-read.ts).
import "server-only";
import { PERIODS } from "@/lib/data-api/constants";
import { calendarDayNumber } from "@/lib/data-api/params";
import { historyParams, type HistoryParams } from "@/lib/history/schema";
import { insightsRangeProblem } from "@/lib/insights/schema";
import { dateOf, dayStart, todayIn } from "@/lib/range/calendar";
import { serverContext } from "@/lib/server/context";
import { invalidParameter } from "@/lib/server/http";
import { passThrough } from "@/lib/server/pass-through";
import { defineRoute, HEAD_COSTS_UPSTREAM, type SessionPart, type StoreScope } from "@/lib/server/route-types";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { demoHistoryOf, ensureDemoHistory, type DemoHistory } from "./demo-history";
import { recordingsSettled, recordOnRead } from "./on-read";
import { rankingHistorySummary, scoreHistorySummary } from "./summaries";

const DEFAULT_DAYS = 30;

/** A resolved history range: the dates as asked and the instants [startMs, endMs) they cover. */
export type HistoryRange = { from: string; to: string; tz: string; startMs: number; endMs: number };

/** The range of a validated query at `nowMs`; a default that makes it backwards or too long is a 400 naming `from`. */
export function resolveHistoryRange(query: HistoryParams, nowMs: number): HistoryRange {
  const { tz } = query;
  const to = query.to ?? todayIn(tz, nowMs);
  const last = calendarDayNumber(to)!;
  const first = query.from ? calendarDayNumber(query.from)! : last - (DEFAULT_DAYS - 1);
  const problem = insightsRangeProblem(first, last);
  if (problem) throw invalidParameter("from", query.to ? problem : `${problem} (to defaults to today, ${to}, in ${tz})`);
  return { from: dateOf(first), to, tz, startMs: dayStart(first, tz), endMs: dayStart(last + 1, tz) };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

type Scope = { store: Store; workspace: WorkspaceId; since: string | null; demo: DemoHistory | null; range: HistoryRange };

/** What a history route's handler is given: the session's scope in the store, and its validated range. */
type HistoryContext = SessionPart & { scope: StoreScope; query: HistoryParams; signal?: AbortSignal };

/**
 * The session's workspace and the range, its history made current first: the current `latest` is
 * read (shared with the page's own read of it by the client's single flight and cache) and recorded,
 * this process's recordings settle, and a demo's past is in. A failed read of `latest` (the Data API
 * away) leaves the history as it is.
 */
async function scopeOf(ctx: HistoryContext, latest: "/intelligence/score" | "/intelligence/ranking"): Promise<Scope> {
  const range = resolveHistoryRange(ctx.query, serverContext().now());
  const { store, workspace: id } = ctx.scope;
  const read = ctx.api.get(latest, {}, { signal: ctx.signal }).then(
    (result) => recordOnRead(ctx.session.apiKey, latest, result),
    () => undefined,
  );
  await Promise.all([read, ensureDemoHistory(store, id, ctx.session.apiKey)]);
  await recordingsSettled();
  const workspace = await store.workspaces.workspace(id);
  return { store, workspace: id, since: iso(workspace?.historySince ?? null), demo: await demoHistoryOf(store, id), range };
}

const instants = (r: HistoryRange) => ({ from: r.startMs, to: r.endMs - 1 });
const windowOf = (r: HistoryRange) => ({ from: r.from, to: r.to, tz: r.tz });

const scoreHistoryRoute = defineRoute(
  {
    access: "session",
    store: "/intelligence/score",
    query: historyParams,
    subject: "the score's history",
    headRefused: HEAD_COSTS_UPSTREAM,
    tools: [
      {
        name: "score_history",
        description:
          "The brand's AI visibility score as the dashboard recorded it over the range (each snapshot with its direction, change and breakdown), oldest first; `since` is the first ever kept.",
        summary: scoreHistorySummary,
      },
    ],
  },
  async (ctx: HistoryContext) => {
    const { store, workspace, since, demo, range } = await scopeOf(ctx, "/intelligence/score");
    const rows = await store.snapshots.scoreHistory(workspace, instants(range));
    return {
      ...windowOf(range),
      since,
      demo,
      data: rows.map((r) => ({ at: iso(r.at)!, score: r.score, direction: r.direction, change: r.change, breakdown: r.breakdown })),
    };
  },
);

const rankingHistoryRoute = defineRoute(
  {
    access: "session",
    store: "/intelligence/ranking",
    query: historyParams,
    subject: "the ranking's history",
    headRefused: HEAD_COSTS_UPSTREAM,
    tools: [
      {
        name: "ranking_history",
        description:
          "The competitive ranking (rank, name, score, which entry is the brand) at each snapshot the dashboard recorded over the range, oldest first: who passed whom.",
        summary: rankingHistorySummary,
      },
    ],
  },
  async (ctx: HistoryContext) => {
    const { store, workspace, since, demo, range } = await scopeOf(ctx, "/intelligence/ranking");
    const rows = await store.snapshots.rankingHistory(workspace, instants(range));
    return {
      ...windowOf(range),
      since,
      demo,
      data: rows.map((r) => ({
        at: iso(r.at)!,
        entries: r.entries.map((e) => ({ rank: e.rank, name: e.name, score: e.score, is_workspace: e.is_workspace })),
      })),
    };
  },
);

/** The daily-figures kind of the overview of one of the Data API's periods, as the collector keeps it. */
export const overviewKind = (period: string) => `overview:${period}`;

const historyOverviewRoute = defineRoute(
  { access: "session", store: "/analytics/overview", query: historyParams, subject: "the overview's history", headRefused: HEAD_COSTS_UPSTREAM },
  async ({ scope: { store, workspace: id }, query }: { scope: StoreScope; query: HistoryParams }) => {
    const range = resolveHistoryRange(query, serverContext().now());
    const workspace = await store.workspaces.workspace(id);
    const byPeriod = await Promise.all(
      PERIODS.map((period) => store.snapshots.dailyFigures(id, { kind: overviewKind(period), tz: range.tz, from: range.from, to: range.to })),
    );
    const days = new Map<string, { date: string; recorded_at: string; periods: Record<string, unknown> }>();
    PERIODS.forEach((period, i) => {
      for (const row of byPeriod[i]!) {
        const day = days.get(row.date) ?? { date: row.date, recorded_at: iso(row.recordedAt)!, periods: {} };
        day.periods[period] = row.data;
        days.set(row.date, day);
      }
    });
    return { ...windowOf(range), since: iso(workspace?.historySince ?? null), data: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)) };
  },
);

/**
 * History's reads, by path: the live score and ranking (each read recorded for the session's
 * workspace, after the answer) and what was kept of them and of the overview.
 */
export const historyRoutes = {
  "/intelligence/score": passThrough("/intelligence/score", { afterRead: (apiKey, score) => recordOnRead(apiKey, "/intelligence/score", score) }),
  "/intelligence/ranking": passThrough("/intelligence/ranking", { afterRead: (apiKey, ranking) => recordOnRead(apiKey, "/intelligence/ranking", ranking) }),
  "/history/score": scoreHistoryRoute,
  "/history/ranking": rankingHistoryRoute,
  "/history/overview": historyOverviewRoute,
};

export type ScoreHistory = Awaited<ReturnType<(typeof scoreHistoryRoute)["handler"]>>;
export type RankingHistory = Awaited<ReturnType<(typeof rankingHistoryRoute)["handler"]>>;
