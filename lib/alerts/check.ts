// Checking a workspace's alert rules against what the store keeps, after each snapshot (a score or
// ranking read with a new `updated_at`, by a page view or the hourly collector) and after the daily
// collector kept a closed day's figures. Each rule judges its latest point (rules.ts); the check is
// kept once per basis (the first instance to keep it acts on it), and when the state differs from
// the one last sent and the rule's cooldown has passed, an event is made (once per transition, by
// its dedupe key) with a delivery to the rule's destination. The same loading feeds the preview.
import "server-only";
import { nextCollectionAt } from "@/lib/history/jobs";
import { addDays, todayIn } from "@/lib/range/calendar";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Rule } from "@/lib/store/alerts";
import type { Store } from "@/lib/store/store";
import { dashboardLink, notesSentence, type EventBody } from "./messages";
import {
  isRuleKind,
  JUDGED_ON,
  judgeDay,
  judgeRanking,
  judgeScore,
  previewFirings,
  replay,
  shouldNotify,
  type DayFigures,
  type History,
  type Judgement,
  type RuleKind,
} from "./rules";

const DAY = 86_400_000;
/** How far back a live daily check looks for the latest closed day (older days are history, not news). */
const DAILY_RECENT_DAYS = 3;
export const PREVIEW_DAYS = 30;

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function sum(rows: unknown, pick: (row: Record<string, unknown>) => unknown): number | null {
  if (!Array.isArray(rows)) return null;
  let total = 0;
  let any = false;
  for (const row of rows) {
    if (typeof row !== "object" || row === null) continue;
    const v = num(pick(row as Record<string, unknown>));
    if (v === null) continue;
    total += v;
    any = true;
  }
  return any ? total : null;
}

/** The closed days' figures the daily rules read, from the kept `platforms` and `sources` figures. */
export async function keptDays(store: Store, workspace: WorkspaceId, tz: string, from: string, to: string): Promise<DayFigures[]> {
  const [platforms, sources] = await Promise.all([
    store.snapshots.dailyFigures(workspace, { kind: "platforms", tz, from, to }),
    store.snapshots.dailyFigures(workspace, { kind: "sources", tz, from, to }),
  ]);
  const byDate = new Map<string, DayFigures>();
  const day = (date: string) => byDate.get(date) ?? byDate.set(date, { date, aiVisitors: null, conversions: null, negativeMentions: null }).get(date)!;
  for (const p of platforms) {
    const rows = (p.data as { data?: unknown } | null)?.data;
    day(p.date).aiVisitors = sum(rows, (r) => r.visitors);
    day(p.date).negativeMentions = sum(rows, (r) => (r.sentiment as Record<string, unknown> | undefined)?.negative);
  }
  for (const s of sources) day(s.date).conversions = sum(s.data, (r) => r.conversions);
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** What the rules of `workspace` may read, over the `days` before `now`. */
export async function loadHistory(store: Store, workspace: WorkspaceId, tz: string, now: number, days: number): Promise<History> {
  // One more reading before the window, so the window's first reading has one to be compared with.
  const range = { from: Math.max(0, now - (days + 1) * DAY), to: now };
  const today = todayIn(tz, now);
  const [scores, rankings, kept] = await Promise.all([
    store.snapshots.scoreHistory(workspace, range),
    store.snapshots.rankingHistory(workspace, range),
    keptDays(store, workspace, tz, addDays(today, -(days + 8)), today),
  ]);
  return { scores, rankings, days: kept };
}

/** The latest judgement of `rule` over `history`, or undefined when there is nothing (new) to judge. */
function latest(rule: Rule & { kind: RuleKind }, history: History, tz: string, now: number): Judgement | undefined {
  if (rule.kind === "score_drop" || rule.kind === "score_below") return judgeScore(rule, history.scores, history.scores.length - 1, tz);
  if (rule.kind === "rank_passed") return judgeRanking(history.rankings, history.rankings.length - 1, tz, rule.detail);
  const i = history.days.length - 1;
  const day = history.days[i];
  if (!day || day.date < addDays(todayIn(tz, now), -DAILY_RECENT_DAYS)) return undefined;
  return judgeDay(rule, history.days, i, tz, now);
}

/**
 * When the dashboard next reads, on its own, what a rule of `kind` is judged on: a watched
 * workspace's score and ranking every hour, its closed days' figures once a day (the collector's
 * slots). A rule is checked then if that reading is new. Null when the workspace is not watched:
 * then only someone opening a page that reads the score or ranking makes a snapshot to check.
 */
export function nextCheckAt(kind: RuleKind, watched: boolean, now: number): number | null {
  if (!watched) return null;
  return nextCollectionAt(JUDGED_ON[kind] === "day" ? "daily" : "hourly", now);
}

export type CheckDeps = {
  store: Store;
  now: () => number;
  publicUrl?: string;
  /** Told when deliveries were made (the sender looks at once). */
  delivered?: () => void;
};

export type CheckOutcome = { checked: number; sent: number };

/** The event a judgement makes. */
async function eventFor(deps: CheckDeps, workspace: WorkspaceId, rule: Rule, j: Judgement): Promise<EventBody> {
  const notes = await deps.store.annotations.list(workspace, j.days);
  const url = dashboardLink(deps.publicUrl, j.link.path, j.link.query);
  const lead = j.state === "firing" ? "" : "Resolved: ";
  return {
    type: j.state === "firing" ? "alert.firing" : "alert.resolved",
    timestamp: new Date(deps.now()).toISOString(),
    data: {
      rule: { id: rule.id, kind: rule.kind, threshold: rule.threshold },
      value: j.value,
      previous: j.previous,
      message: `${lead}${j.message}${notesSentence(notes)}`,
      ...(url ? { url } : {}),
    },
  };
}

/** Checks every rule of `workspace` against what is kept now. Never throws for one rule's failure. */
export async function checkRules(deps: CheckDeps, workspace: WorkspaceId, log: (line: string) => void = (l) => console.warn(l)): Promise<CheckOutcome> {
  return checkEach(deps, workspace, await deps.store.alerts.rules(workspace), log);
}

/**
 * Checks one rule of `workspace` now, against the latest snapshot or day kept: a rule just added or
 * given a new threshold is judged at once when there is something to judge it on, rather than at
 * the next snapshot (which may be a day away). As after a snapshot: kept once per basis, notified
 * on a change of state.
 */
export async function checkRule(
  deps: CheckDeps,
  workspace: WorkspaceId,
  ruleId: string,
  log: (line: string) => void = (l) => console.warn(l),
): Promise<CheckOutcome> {
  const rule = await deps.store.alerts.rule(workspace, ruleId);
  return checkEach(deps, workspace, rule ? [rule] : [], log);
}

async function checkEach(deps: CheckDeps, workspace: WorkspaceId, rules: Rule[], log: (line: string) => void): Promise<CheckOutcome> {
  const { store } = deps;
  if (rules.length === 0) return { checked: 0, sent: 0 };
  const ws = await store.workspaces.workspace(workspace);
  if (!ws) return { checked: 0, sent: 0 };
  const now = deps.now();
  const history = await loadHistory(store, workspace, ws.timeZone, now, 8);
  let checked = 0;
  let sent = 0;
  for (const rule of rules) {
    if (!isRuleKind(rule.kind)) continue;
    try {
      const j = latest(rule as Rule & { kind: RuleKind }, history, ws.timeZone, now);
      if (!j) continue;
      if (!(await store.alerts.recordCheck(rule, j, j.detail))) continue;
      checked++;
      if (!shouldNotify(j.state, { state: rule.notifiedState, at: rule.notifiedAt }, rule.cooldownMs, now)) continue;
      const body = await eventFor(deps, workspace, rule, j);
      // One event per transition: two instances that saw the same last sending make the same key.
      const made = await store.alerts.enqueue(workspace, { dedupeKey: `rule:${rule.id}:${j.state}:after:${rule.notifiedAt ?? 0}`, type: body.type, body }, [
        rule.destinationId,
      ]);
      if (made === null) continue;
      await store.alerts.markNotified(rule.id, j.state, now);
      sent += made.length;
    } catch (error) {
      log(`[alerts] workspace ${workspace}: rule ${rule.id} could not be checked: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (sent > 0) deps.delivered?.();
  return { checked, sent };
}

export type Preview = {
  days: number;
  fired: number;
  checks: number;
  /** Drops past the threshold that the test of chance held back (drop rules; 0 for the others). */
  held_back: number;
  history_since: string | null;
  firings: { at: string; message: string }[];
};

/** How often a rule of `kind` and `threshold` would have been sent as firing over the last 30 days. */
export async function previewRule(
  store: Store,
  workspace: WorkspaceId,
  rule: { kind: RuleKind; threshold: number | null; cooldownMs: number },
  now: number,
): Promise<Preview> {
  const ws = await store.workspaces.workspace(workspace);
  const tz = ws?.timeZone ?? "UTC";
  const history = await loadHistory(store, workspace, tz, now, PREVIEW_DAYS);
  const windowStart = now - PREVIEW_DAYS * DAY;
  const firstDay = todayIn(tz, windowStart);
  const judgements = replay(rule, history, tz, (d) => Date.parse(`${d.date}T12:00:00Z`)).filter((j) =>
    j.basis.startsWith("day:") ? j.basis.slice(4) >= firstDay : j.at >= windowStart,
  );
  const { fired, checks, heldBack } = previewFirings(rule, judgements);
  return {
    days: PREVIEW_DAYS,
    fired: fired.length,
    checks,
    held_back: heldBack,
    history_since: ws?.historySince ? new Date(ws.historySince).toISOString() : null,
    firings: fired.slice(-10).map((f) => ({ at: new Date(f.at).toISOString(), message: f.message })),
  };
}

/**
 * Says once, to every active destination of `workspace`, that watching paused (the upstream refused
 * the kept key): until a person turns it on again nothing is collected, so no rule can fire.
 */
export async function notifyPaused(deps: CheckDeps, workspace: WorkspaceId, reason: string): Promise<number> {
  const destinations = (await deps.store.alerts.destinations(workspace)).filter((d) => d.status === "active");
  if (destinations.length === 0) return 0;
  const now = deps.now();
  const url = dashboardLink(deps.publicUrl, "/settings");
  const body: EventBody = {
    type: "alert.firing",
    timestamp: new Date(now).toISOString(),
    data: { message: `Watching paused, so no alert or digest can be sent: ${reason}`, ...(url ? { url } : {}) },
  };
  const made = await deps.store.alerts.enqueue(
    workspace,
    { dedupeKey: `paused:${workspace}:${Math.floor(now / 60_000)}`, type: body.type, body },
    destinations.map((d) => d.id),
  );
  if (made && made.length > 0) deps.delivered?.();
  return made?.length ?? 0;
}
