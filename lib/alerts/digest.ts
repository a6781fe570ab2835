// The weekly digest: every Monday at 09:00 in the workspace's time zone, the week just ended
// (Monday to Sunday) against the one before, to the destination the workspace chose. It is read
// with the workspace's kept key (so only a watched workspace gets one), at background priority:
// visitors, AI visitors and conversions with their change, the platforms' chain (mentions, the AI
// visitors they sent, their conversions), the score and rank a week apart from kept history, a few
// negative mentions, and the week's notes. A part the upstream cannot give now (a 403, a 429) says
// so in the digest instead of holding the rest back.
// The job runs hourly, one run per workspace whose digest is due (lib/store/scheduler.ts: each
// workspace's slot claimed by one instance, a few at once per instance, so one slow workspace's
// digest holds back no other's), and sends a workspace's digest within a day of its Monday 09:00;
// the event's dedupe key (workspace and week) makes it once, so a later slot, a takeover or another
// instance finds it made and builds nothing.
import "server-only";
import { TZDate } from "@date-fns/tz";
import { AI_SOURCES } from "@/lib/data-api/constants";
import type { Mention } from "@/lib/data-api/schemas";
import { backgroundApi, serverCollectContext, type CollectContext } from "@/lib/history/collect";
import { addDays, todayIn } from "@/lib/range/calendar";
import { getEnv } from "@/lib/server/env";
import { platformsInsight } from "@/lib/server/insights/platforms";
import { resolveRange } from "@/lib/server/insights/range";
import { sourcesInsight } from "@/lib/server/insights/sources";
import { hourlySlot, type JobDefinition } from "@/lib/store/scheduler";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { alertsDeliverer } from "./runtime";
import { dashboardLink, type EventBody } from "./messages";

const DAY = 86_400_000;
/** How long after its Monday 09:00 a digest may still go out (after a downtime); later, that week is skipped. */
export const DIGEST_GRACE_MS = DAY;
export const DIGEST_JOB = "alerts.digest";

/** The instant of 09:00 on `date` (a Monday) in `tz`. */
function nineOn(date: string, tz: string): number {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new TZDate(y, m - 1, d, 9, 0, 0, tz).getTime();
}

/** The latest Monday 09:00 in `tz` at or before `now` (an instant), and that Monday's date. */
export function digestMoment(tz: string, now: number): { at: number; monday: string } {
  const today = todayIn(tz, now);
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay(); // 0 Sunday .. 6 Saturday
  let monday = addDays(today, -((weekday + 6) % 7));
  if (nineOn(monday, tz) > now) monday = addDays(monday, -7);
  return { at: nineOn(monday, tz), monday };
}

/** The next Monday 09:00 in `tz` after `now` (what Settings shows). */
export function nextDigestAt(tz: string, now: number): number {
  return nineOn(addDays(digestMoment(tz, now).monday, 7), tz);
}

const pct = (now: number, before: number): string => {
  if (before === 0) return now === 0 ? "no change" : "new";
  const change = ((now - before) / before) * 100;
  return `${change >= 0 ? "+" : "−"}${Math.abs(change).toFixed(1)}%`;
};
const count = (n: number) => n.toLocaleString("en-US");
const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

export type DigestInput = { store: Store; ctx: CollectContext; workspace: WorkspaceId; apiKey: string; tz: string; monday: string; now: number; publicUrl?: string };

/** The digest of the week before `monday`, as an event body. */
export async function buildDigest(input: DigestInput): Promise<EventBody> {
  const { store, ctx, workspace, apiKey, tz, monday, now } = input;
  const from = addDays(monday, -7);
  const to = addDays(monday, -1);
  const range = resolveRange({ from, to, tz, bucket: "day" }, now);
  const ictx = ctx.insights(apiKey);
  const sections: { title: string; lines: string[] }[] = [];
  const headline: string[] = [];

  try {
    const sources = await sourcesInsight(ictx, range);
    const total = (rows: typeof sources.data, pick: (r: (typeof sources.data)[number]) => number) => rows.reduce((n, r) => n + pick(r), 0);
    const ai = sources.data.filter((r) => (AI_SOURCES as readonly string[]).includes(r.source));
    const visitors = [total(sources.data, (r) => r.visitors), total(sources.data, (r) => r.previous.visitors)] as const;
    const aiVisitors = [total(ai, (r) => r.visitors), total(ai, (r) => r.previous.visitors)] as const;
    const conversions = [total(sources.data, (r) => r.conversions), total(sources.data, (r) => r.previous.conversions)] as const;
    headline.push(
      `${count(visitors[0])} visitors (${pct(...visitors)}), ${count(aiVisitors[0])} from AI platforms (${pct(...aiVisitors)}), ${count(conversions[0])} conversions (${pct(...conversions)})`,
    );
  } catch (error) {
    headline.push(`visitors could not be read this time (${describeError(error)})`);
  }

  try {
    const platforms = await platformsInsight(ictx, range);
    sections.push({
      title: "From mention to conversion, per platform",
      lines: platforms.data.map((p) => `${p.platform}: ${count(p.mentions)} mentions (${pct(p.mentions, p.previous.mentions)}) → ${count(p.visitors)} visitors → ${count(p.conversions)} conversions`),
    });
  } catch (error) {
    sections.push({ title: "From mention to conversion, per platform", lines: [`Not available this time (${describeError(error)}).`] });
  }

  // Score and rank a week apart, from kept history (the upstream only knows now).
  const end = Date.parse(`${monday}T00:00:00Z`) + DAY;
  const scores = await store.snapshots.scoreHistory(workspace, { from: Math.max(0, end - 15 * DAY), to: now });
  const latestScore = [...scores].reverse().find((s) => s.score !== null);
  const weekBefore = [...scores].reverse().find((s) => s.score !== null && latestScore !== undefined && s.at <= latestScore.at - 6 * DAY);
  if (latestScore?.score != null) {
    const change = weekBefore?.score != null ? `, ${latestScore.score - weekBefore.score >= 0 ? "+" : "−"}${Math.abs(latestScore.score - weekBefore.score).toFixed(1)} points on the week` : "";
    headline.push(`AI Positioning Score ${latestScore.score.toFixed(1)}${change}`);
  }
  const rankings = await store.snapshots.rankingHistory(workspace, { from: Math.max(0, end - 15 * DAY), to: now });
  const rankIn = (entries: { is_workspace: boolean | null; rank: number | null }[]) => {
    const i = entries.findIndex((e) => e.is_workspace === true);
    return i < 0 ? undefined : (entries[i]!.rank ?? i + 1);
  };
  const latestRanking = rankings.at(-1);
  const rankBefore = latestRanking ? [...rankings].reverse().find((r) => r.at <= latestRanking.at - 6 * DAY) : undefined;
  const rank = latestRanking ? rankIn(latestRanking.entries) : undefined;
  if (rank !== undefined) {
    const was = rankBefore ? rankIn(rankBefore.entries) : undefined;
    headline.push(`rank ${rank} of ${latestRanking!.entries.length}${was !== undefined && was !== rank ? ` (was ${was})` : ""}`);
  }

  try {
    const api = backgroundApi(ctx.api(apiKey));
    const page = await api.get("/mentions", { query: { sentiment: "negative", from, to, limit: 3 } }, ctx.signal ? { signal: ctx.signal } : {});
    const mentions = (page as { data?: Mention[] }).data ?? [];
    sections.push({
      title: "Negative mentions",
      lines: mentions.length === 0 ? ["None this week."] : mentions.map((m) => `${m.platform ?? "an AI platform"}, asked “${(m.query ?? "").slice(0, 120)}”: “${(m.response_snippet ?? "").slice(0, 200)}”`),
    });
  } catch (error) {
    sections.push({ title: "Negative mentions", lines: [`Not available this time (${describeError(error)}).`] });
  }

  const notes = await store.annotations.list(workspace, { from, to });
  if (notes.length > 0) sections.push({ title: "Notes of the week", lines: notes.map((n) => `${n.endDate && n.endDate !== n.date ? `${n.date} to ${n.endDate}` : n.date}: ${n.text}`) });

  const url = dashboardLink(input.publicUrl, "/", { from, to, tz });
  return {
    type: "digest.weekly",
    timestamp: new Date(now).toISOString(),
    data: { message: `The week of ${from} to ${to} against the week before: ${headline.join("; ")}.`, sections, ...(url ? { url } : {}) },
  };
}

export type DigestJobDeps = {
  store: () => Promise<Store>;
  context?: (store: Store, signal: AbortSignal) => CollectContext;
  publicUrl?: () => string | undefined;
  /** Told when a digest was made (the sender looks at once). */
  delivered?: () => void;
  log?: (line: string) => void;
};

/** Workspaces building their digest at once per instance. */
export const DIGEST_CONCURRENCY = 4;

const digestKey = (workspace: string, monday: string) => `digest:${workspace}:${monday}`;

/** The hourly job that sends each workspace's digest once, within a day of its Monday 09:00: a run per workspace whose digest is due and not made. */
export function digestJob(deps: DigestJobDeps): JobDefinition {
  const log = deps.log ?? ((line: string) => console.warn(line));
  return {
    name: DIGEST_JOB,
    slotOf: hourlySlot,
    catchUp: "latest",
    concurrency: DIGEST_CONCURRENCY,
    // Read in two queries whatever the number of workspaces: only those in their digest's day get a slot.
    async scopes(now) {
      const store = await deps.store();
      const due = (await store.alerts.digests()).flatMap(({ workspaceId, timeZone }) => {
        const moment = digestMoment(timeZone, now);
        return now - moment.at > DIGEST_GRACE_MS ? [] : [{ workspaceId, key: digestKey(workspaceId, moment.monday) }];
      });
      const made = await store.alerts.eventsMade(due.map((d) => d.key));
      return due.filter((d) => !made.has(d.key)).map((d) => d.workspaceId);
    },
    async run({ scope, now, signal }) {
      const store = await deps.store();
      // A scope is only ever what `scopes` listed: a workspace id the store made.
      const workspaceId = scope as WorkspaceId;
      const destinationId = await store.alerts.digest(workspaceId);
      const ws = await store.workspaces.workspace(workspaceId);
      if (destinationId === null || !ws) return "no digest any more";
      const timeZone = ws.timeZone;
      const moment = digestMoment(timeZone, now());
      if (now() - moment.at > DIGEST_GRACE_MS) return "not due";
      const dedupeKey = digestKey(workspaceId, moment.monday);
      if (await store.alerts.eventExists(dedupeKey)) return "made already";
      const apiKey = await store.workspaces.watchingKey(workspaceId);
      if (!apiKey) return "skipped (watching is off)";
      try {
        const ctx = (deps.context ?? serverCollectContext)(store, signal);
        const publicUrl = deps.publicUrl?.();
        const body = await buildDigest({ store, ctx, workspace: workspaceId, apiKey, tz: timeZone, monday: moment.monday, now: now(), ...(publicUrl ? { publicUrl } : {}) });
        const deliveries = await store.alerts.enqueue(workspaceId, { dedupeKey, type: body.type, body }, [destinationId]);
        if (!deliveries) return "made already";
        deps.delivered?.();
        return `digest of the week before ${moment.monday} made`;
      } catch (error) {
        if (!signal.aborted) log(`[alerts] workspace ${workspaceId}: the weekly digest failed: ${describeError(error)}`);
        throw error;
      }
    },
  };
}

/** The alerts' background jobs in the running server. */
export function alertJobs(deps: { store: () => Promise<Store> }): JobDefinition[] {
  return [digestJob({ store: deps.store, publicUrl: () => getEnv().publicUrl, delivered: () => alertsDeliverer().kick() })];
}
