// The weekly digest: every Monday at 09:00 in the workspace's time zone, the week just ended
// (Monday to Sunday) against the one before, to the destination the workspace chose. Its figures are
// read once (readDigest) and said from them as the event (the webhook's JSON, Slack's message) and,
// beside this file, as HTML (digest-html.ts). It is read with the workspace's kept key (so only a
// watched workspace gets one on its own), at background priority:
// visitors, AI visitors and conversions with their change, the platforms' chain (mentions, the AI
// visitors they sent, their conversions), the score and rank a week apart from kept history, a few
// negative mentions, and the week's notes. A part the upstream cannot give now (a 403, a 429) says
// so in the digest instead of holding the rest back.
// Its links (with PUBLIC_URL) go to the dashboard's page of each figure for the week, or, when the
// workspace chose one of its share links for recipients without a key, to that link for the week,
// from the figures of the shared page only (another page would ask them for a key). A share link
// chosen that no longer opens (expired) leaves the digest without links: its recipients could open
// neither.
// The job runs hourly, one run per workspace whose digest is due (lib/store/scheduler.ts: each
// workspace's slot claimed by one instance, a few at once per instance, so one slow workspace's
// digest holds back no other's), and sends a workspace's digest within a day of its Monday 09:00;
// the event's dedupe key (workspace and week) makes it once, so a later slot, a takeover or another
// instance finds it made and builds nothing. Settings' "Preview" and "Send now" (routes.ts) read the
// latest full week with the signed-in key: a "Send now" is an event of its own, and the scheduled
// digest still goes.
import "server-only";
import { TZDate } from "@date-fns/tz";
import type { Mention } from "@/lib/data-api/schemas";
import { serverCollectContext, type CollectContext } from "@/lib/history/collect";
import { AI_SOURCES, sourceLabelOf } from "@/lib/data-api/constants";
import { formatDateRange } from "@/lib/format/format";
import { addDays, todayIn } from "@/lib/range/calendar";
import type { DateRange } from "@/lib/range/date-range";
import { RANGE_PARAMS } from "@/lib/ui/page-params";
import { getEnv } from "@/lib/server/env";
import { platformsInsight } from "@/lib/insights/platforms";
import { resolveRange } from "@/lib/insights/range";
import { sourcesInsight } from "@/lib/insights/sources";
import { hourlySlot, type JobDefinition } from "@/lib/store/scheduler";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Share } from "@/lib/store/shares";
import type { Store } from "@/lib/store/store";
import { alertsDeliverer } from "./runtime";
import { dashboardLink, type EventBody } from "./messages";
import { shareMark } from "./share-marks";
import { countsTest } from "@/lib/stats/exact-tests";

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

/** A count's change against the week before, and whether chance alone makes it ("+3.0%, within normal variation"). */
const pct = (now: number, before: number, judged = true): string => {
  if (before === 0) return now === 0 ? "no change" : "new";
  const change = ((now - before) / before) * 100;
  const noise = judged && now !== before && countsTest(now, before)?.significant === false ? ", within normal variation" : "";
  return `${change >= 0 ? "+" : "−"}${Math.abs(change).toFixed(1)}%${noise}`;
};
const count = (n: number) => n.toLocaleString("en-US");
const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));
const platformName = (platform: string) => sourceLabelOf(platform) ?? platform;

/** A figure of the week and of the week before. */
export type Pair = { now: number; before: number };
/** A part of the digest, or why the upstream could not give it this time (a 403, a 429). */
export type Part<T> = { ok: true; value: T } | { ok: false; unavailable: string };

/**
 * What a digest says, as figures (the text, the webhook's and Slack's bodies, and the e-mail's HTML
 * are each made from this): the week (Monday to Sunday in `tz`) against the one before.
 */
export type DigestFigures = {
  week: { from: string; to: string };
  previous: { from: string; to: string };
  tz: string;
  totals: Part<{ visitors: Pair; aiVisitors: Pair; conversions: Pair }>;
  platforms: Part<{ platform: string; name: string; mentions: Pair; visitors: number; conversions: number }[]>;
  /** From kept history: the latest score and its change over the week, null when none is kept (or the key may not read it). */
  score: { now: number; change: number | null } | null;
  rank: { now: number; of: number; was: number | null } | null;
  negativeMentions: Part<{ platform: string; query: string; snippet: string }[]>;
  notes: { date: string; endDate: string | null; text: string }[];
  url?: string;
  /**
   * One link per figure, to the page that shows it for the week (with PUBLIC_URL only); through a
   * share link, only the figures of the shared page have one.
   */
  links?: DigestLinks;
};

/** The digest's figures, each with the page of the dashboard that shows it. */
export const DIGEST_FIGURE_PAGES = {
  visitors: "/",
  aiVisitors: "/platforms",
  conversions: "/",
  score: "/intelligence",
  rank: "/intelligence",
  platforms: "/platforms",
  notes: "/",
} as const;
export type DigestLinks = Partial<Record<keyof typeof DIGEST_FIGURE_PAGES, string>>;

/**
 * The share link a digest's links open instead of the dashboard's pages, for recipients without a
 * key: its token (the link is `/s/{token}`), its page and the query it was shared with.
 */
export type DigestShare = { token: string; path: string; query: Record<string, string> };

/**
 * What a shared page's query says about its range, dropped for the digest's week: the range itself
 * (lib/ui/page-params.ts, with the overview's older `period`) and a custom comparison window, which
 * is as long as the shared range and would not fit a week.
 */
const SHARE_RANGE_KEYS: readonly string[] = [...RANGE_PARAMS, "period", "compare_from", "compare_to"];

/** The shared page's query for the week `from`–`to` in `tz`: its own parameters (filters, order, comparison) but its range, then the week's. */
export function shareWeekQuery(query: Record<string, string>, from: string, to: string, tz: string): Record<string, string> {
  const kept = Object.entries(query).filter(([name, value]) => !SHARE_RANGE_KEYS.includes(name) && !(name === "compare" && value === "custom"));
  return { ...Object.fromEntries(kept), from, to, tz };
}

/**
 * The address of `page` for the week: the dashboard's page without a share link (`share`
 * undefined); through one, the link itself with the week's range, for its own page only (another
 * page would ask its recipient for a key); none when the share link chosen no longer opens (null).
 */
function weekLink(publicUrl: string | undefined, page: string, week: DateRange, share: DigestShare | null | undefined): string | undefined {
  if (share === undefined) return dashboardLink(publicUrl, page, { from: week.from, to: week.to, tz: week.tz });
  if (share === null || share.path !== page) return undefined;
  return dashboardLink(publicUrl, `/s/${share.token}`, shareWeekQuery(share.query, week.from, week.to, week.tz));
}

/**
 * The figures' links for the week `from`–`to` in `tz`, or undefined without PUBLIC_URL: each to its
 * dashboard page, or through `share` (the share link the digest is for) only those of its page;
 * undefined when none is left.
 */
export function digestLinks(publicUrl: string | undefined, from: string, to: string, tz: string, share?: DigestShare | null): DigestLinks | undefined {
  const entries = Object.entries(DIGEST_FIGURE_PAGES).flatMap(([figure, page]) => {
    const url = weekLink(publicUrl, page, { from, to, tz }, share);
    return url ? [[figure, url] as const] : [];
  });
  return entries.length > 0 ? (Object.fromEntries(entries) as DigestLinks) : undefined;
}

/** The digest's "open the dashboard" address: the overview of the week, or the share link's page (none when the one chosen no longer opens). */
export function digestUrl(publicUrl: string | undefined, from: string, to: string, tz: string, share?: DigestShare | null): string | undefined {
  return weekLink(publicUrl, share ? share.path : "/", { from, to, tz }, share);
}

/** The workspace's share link chosen for the digest while it opens (not expired; a revoked one is chosen no more), or undefined. */
export async function chosenShare(store: Store, workspace: WorkspaceId, shareId: string | null, now: number): Promise<Share | undefined> {
  if (shareId === null) return undefined;
  const share = await store.shares.share(workspace, shareId);
  return share && (share.expiresAt === null || share.expiresAt > now) ? share : undefined;
}

/**
 * What the digest's links open, from the share link chosen (`shareId`): the dashboard's pages
 * (undefined: none chosen), the share link, or nothing at all (null: the one chosen expired, or its
 * sealed token opens with no secret this server has): its recipients have no key for the dashboard.
 * A digest to be kept and sent (`use: "send"`) carries the token's mark, which the sender replaces
 * (share-marks.ts: a token is never kept in clear); the preview, the token.
 */
export async function digestShare(
  store: Store,
  workspace: WorkspaceId,
  shareId: string | null,
  now: number,
  use: "send" | "preview",
): Promise<DigestShare | null | undefined> {
  if (shareId === null) return undefined;
  const share = await chosenShare(store, workspace, shareId, now);
  if (!share?.token) return null;
  return { token: use === "send" ? shareMark(share.id) : share.token, path: share.path, query: share.query };
}

export type DigestInput = {
  store: Store;
  ctx: CollectContext;
  workspace: WorkspaceId;
  apiKey: string;
  tz: string;
  /** The Monday after the week the digest is about. */
  monday: string;
  now: number;
  publicUrl?: string;
  /** The share link the links open (digestShare): left out, the dashboard's pages; null, no links. */
  share?: DigestShare | null;
  /** What the key may read of kept history (a key refused the score upstream is refused its history too); both by default. */
  kept?: { score: boolean; ranking: boolean };
};

async function part<T>(read: () => Promise<T>): Promise<Part<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    return { ok: false, unavailable: describeError(error) };
  }
}

/** The figures of the week before `monday`. */
export async function readDigest(input: DigestInput): Promise<DigestFigures> {
  const { store, ctx, workspace, apiKey, tz, monday, now } = input;
  const from = addDays(monday, -7);
  const to = addDays(monday, -1);
  const range = resolveRange({ from, to, tz, bucket: "day" }, now);
  const ictx = ctx.insights(apiKey);

  const totals = await part(async () => {
    const sources = await sourcesInsight(ictx, range);
    const total = (rows: typeof sources.data, pick: (r: (typeof sources.data)[number]) => number) => rows.reduce((n, r) => n + pick(r), 0);
    const ai = sources.data.filter((r) => (AI_SOURCES as readonly string[]).includes(r.source));
    const pair = (
      rows: typeof sources.data,
      pick: (r: (typeof sources.data)[number]) => number,
      before: (r: (typeof sources.data)[number]) => number,
    ): Pair => ({ now: total(rows, pick), before: total(rows, before) });
    return {
      visitors: pair(
        sources.data,
        (r) => r.visitors,
        (r) => r.previous.visitors,
      ),
      aiVisitors: pair(
        ai,
        (r) => r.visitors,
        (r) => r.previous.visitors,
      ),
      conversions: pair(
        sources.data,
        (r) => r.conversions,
        (r) => r.previous.conversions,
      ),
    };
  });

  const platforms = await part(async () =>
    (await platformsInsight(ictx, range)).data.map((p) => ({
      platform: p.platform,
      name: platformName(p.platform),
      mentions: { now: p.mentions, before: p.previous.mentions },
      visitors: p.visitors,
      conversions: p.conversions,
    })),
  );

  // Score and rank a week apart, from kept history (the upstream only knows now).
  const kept = input.kept ?? { score: true, ranking: true };
  const end = Date.parse(`${monday}T00:00:00Z`) + DAY;
  let score: DigestFigures["score"] = null;
  if (kept.score) {
    const scores = await store.snapshots.scoreHistory(workspace, { from: Math.max(0, end - 15 * DAY), to: now });
    const latestScore = [...scores].reverse().find((s) => s.score !== null);
    const weekBefore = [...scores].reverse().find((s) => s.score !== null && latestScore !== undefined && s.at <= latestScore.at - 6 * DAY);
    if (latestScore?.score != null) score = { now: latestScore.score, change: weekBefore?.score != null ? latestScore.score - weekBefore.score : null };
  }
  let rank: DigestFigures["rank"] = null;
  if (kept.ranking) {
    const rankings = await store.snapshots.rankingHistory(workspace, { from: Math.max(0, end - 15 * DAY), to: now });
    const rankIn = (entries: { is_workspace: boolean | null; rank: number | null }[]) => {
      const i = entries.findIndex((e) => e.is_workspace === true);
      return i < 0 ? undefined : (entries[i]!.rank ?? i + 1);
    };
    const latestRanking = rankings.at(-1);
    const rankBefore = latestRanking ? [...rankings].reverse().find((r) => r.at <= latestRanking.at - 6 * DAY) : undefined;
    const at = latestRanking ? rankIn(latestRanking.entries) : undefined;
    if (latestRanking && at !== undefined)
      rank = { now: at, of: latestRanking.entries.length, was: (rankBefore ? rankIn(rankBefore.entries) : undefined) ?? null };
  }

  const negativeMentions = await part(async () => {
    // At the context's priority: the background's for the job, the reader's for a preview.
    const page = await ctx.api(apiKey).get("/mentions", { query: { sentiment: "negative", from, to, limit: 3 } }, ctx.signal ? { signal: ctx.signal } : {});
    return ((page as { data?: Mention[] }).data ?? []).map((m) => ({
      platform: m.platform ? platformName(m.platform) : "An AI platform",
      query: (m.query ?? "").slice(0, 120),
      snippet: (m.response_snippet ?? "").slice(0, 200),
    }));
  });

  const notes = (await store.annotations.list(workspace, { from, to })).map((n) => ({ date: n.date, endDate: n.endDate, text: n.text }));
  const url = digestUrl(input.publicUrl, from, to, tz, input.share);
  const links = digestLinks(input.publicUrl, from, to, tz, input.share);
  return {
    week: { from, to },
    previous: { from: addDays(from, -7), to: addDays(from, -1) },
    tz,
    totals,
    platforms,
    score,
    rank,
    negativeMentions,
    notes,
    ...(url ? { url } : {}),
    ...(links ? { links } : {}),
  };
}

const signedPoints = (n: number) => `${n >= 0 ? "+" : "−"}${Math.abs(n).toFixed(1)}`;

/** The digest's headline: the week's figures with their change, the score and the rank. */
function headline(d: DigestFigures): string[] {
  const lines: string[] = [];
  if (d.totals.ok) {
    const { visitors, aiVisitors, conversions } = d.totals.value;
    lines.push(
      `${count(visitors.now)} visitors (${pct(visitors.now, visitors.before)}), ${count(aiVisitors.now)} from AI platforms (${pct(aiVisitors.now, aiVisitors.before)}), ${count(conversions.now)} conversions (${pct(conversions.now, conversions.before)})`,
    );
  } else lines.push(`visitors could not be read this time (${d.totals.unavailable})`);
  if (d.score)
    lines.push(`AI Positioning Score ${d.score.now.toFixed(1)}${d.score.change !== null ? `, ${signedPoints(d.score.change)} points on the week` : ""}`);
  if (d.rank) lines.push(`rank ${d.rank.now} of ${d.rank.of}${d.rank.was !== null && d.rank.was !== d.rank.now ? ` (was ${d.rank.was})` : ""}`);
  return lines;
}

const DIGEST_SECTIONS = {
  week: "The week against the week before",
  platforms: "From mention to conversion, per platform",
  negative: "Negative mentions",
  notes: "Notes of the week",
} as const;

/** The digest as the event a webhook receives (and Slack's message is made from), made at `now`. */
export function digestEvent(d: DigestFigures, now: number): EventBody {
  const sections: NonNullable<EventBody["data"]["sections"]> = [];
  // The week's figures one per line, each with its change and whether chance alone makes it, and its page.
  const week: string[] = [];
  const weekLinks: { label: string; url: string }[] = [];
  const figure = (label: string, line: string, url: string | undefined) => {
    week.push(`${label}: ${line}`);
    if (url) weekLinks.push({ label, url });
  };
  if (d.totals.ok) {
    const { visitors, aiVisitors, conversions } = d.totals.value;
    const said = (p: Pair) => `${count(p.now)} against ${count(p.before)} (${pct(p.now, p.before)})`;
    figure("Visitors", said(visitors), d.links?.visitors);
    figure("From AI platforms", said(aiVisitors), d.links?.aiVisitors);
    figure("Conversions", said(conversions), d.links?.conversions);
  } else week.push(`Visitors could not be read this time (${d.totals.unavailable}).`);
  if (d.score)
    figure(
      "AI Positioning Score",
      `${d.score.now.toFixed(1)}${d.score.change !== null ? `, ${signedPoints(d.score.change)} points on the week` : ", no reading a week before"}`,
      d.links?.score,
    );
  if (d.rank)
    figure(
      "Rank",
      `${d.rank.now} of ${d.rank.of}${d.rank.was === null ? ", no ranking a week before" : d.rank.was !== d.rank.now ? ` (was ${d.rank.was})` : ", unchanged"}`,
      d.links?.rank,
    );
  sections.push({ title: DIGEST_SECTIONS.week, lines: week, ...(weekLinks.length > 0 ? { links: weekLinks } : {}) });
  sections.push({
    ...(d.links?.platforms ? { links: [{ label: "AI platforms", url: d.links.platforms }] } : {}),
    title: DIGEST_SECTIONS.platforms,
    lines: d.platforms.ok
      ? d.platforms.value.map(
          (p) =>
            `${p.name}: ${count(p.mentions.now)} mentions (${pct(p.mentions.now, p.mentions.before)}) → ${count(p.visitors)} visitors → ${count(p.conversions)} conversions`,
        )
      : [`Not available this time (${d.platforms.unavailable}).`],
  });
  sections.push({
    title: DIGEST_SECTIONS.negative,
    lines: !d.negativeMentions.ok
      ? [`Not available this time (${d.negativeMentions.unavailable}).`]
      : d.negativeMentions.value.length === 0
        ? ["None this week."]
        : d.negativeMentions.value.map((m) => `${m.platform}, asked “${m.query}”: “${m.snippet}”`),
  });
  if (d.notes.length > 0)
    sections.push({
      ...(d.links?.notes ? { links: [{ label: "Notes", url: d.links.notes }] } : {}),
      title: DIGEST_SECTIONS.notes,
      lines: d.notes.map((n) => `${n.endDate && n.endDate !== n.date ? `${n.date} to ${n.endDate}` : n.date}: ${n.text}`),
    });
  return {
    type: "digest.weekly",
    timestamp: new Date(now).toISOString(),
    data: {
      message: `The week of ${d.week.from} to ${d.week.to} against the week before: ${headline(d).join("; ")}.`,
      sections,
      ...(d.url ? { url: d.url } : {}),
      // For the e-mail's tables only: bodyFor() leaves it out of what webhooks and Slack receive.
      figures: d,
    },
  };
}

/** The digest's subject line (an e-mail's, a preview's title): the week, and its visitors when known. */
export function digestSubject(d: DigestFigures): string {
  const week = formatDateRange(d.week);
  if (!d.totals.ok) return `Weekly digest, ${week}`;
  const { visitors } = d.totals.value;
  return `Weekly digest, ${week}: ${count(visitors.now)} visitors (${pct(visitors.now, visitors.before, false)})`;
}

/** The digest of the week before `monday`, as an event body. */
export async function buildDigest(input: DigestInput): Promise<EventBody> {
  return digestEvent(await readDigest(input), input.now);
}

/** The Monday after the latest full week (Monday to Sunday) in `tz` at `now`: the week "Send now" sends. */
export function lastFullWeek(tz: string, now: number): string {
  const today = todayIn(tz, now);
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay(); // 0 Sunday .. 6 Saturday
  return addDays(today, -((weekday + 6) % 7));
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
      const digest = await store.alerts.digest(workspaceId);
      const ws = await store.workspaces.workspace(workspaceId);
      if (digest === null || !ws) return "no digest any more";
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
        const share = await digestShare(store, workspaceId, digest.shareId, now(), "send");
        const body = await buildDigest({
          store,
          ctx,
          workspace: workspaceId,
          apiKey,
          tz: timeZone,
          monday: moment.monday,
          now: now(),
          ...(publicUrl ? { publicUrl } : {}),
          ...(share !== undefined ? { share } : {}),
        });
        const deliveries = await store.alerts.enqueue(workspaceId, { dedupeKey, type: body.type, body }, [digest.destinationId]);
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
