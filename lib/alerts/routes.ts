// Alerts over HTTP, for the session's workspace only (mounted by app/api/alerts/**/route.ts, which
// declare each body, query and id: schema.ts): destinations, rules with a preview from kept history
// (each rule checked at once when added or given a new threshold, and changed in place), deliveries
// (every attempt) with a retry of a failed one, and the weekly digest: its destination, its preview
// and "Send now". An id of another workspace is a 404 like an unknown one. A destination's URL is
// checked before it is kept (syntax, https, a Slack destination's being Slack's incoming webhook, and
// every address its name resolves to: no private, loopback or link-local ones unless
// WEBHOOK_ALLOW_PRIVATE=true); it is then sealed and only its hint is ever answered. A signed
// webhook's secret is answered once, on creation.
// Adding destinations is limited per workspace (write-limit.ts): each one costs a name lookup. A
// "Send a test", a "Retry" that would send and the digest's "Send now" count against the workspace's
// 10 a minute, counted in the store (which every instance shares, Redis or not, as it does the
// deliveries they make): past it, 429 with Retry-After in the shared error shape. Every change to
// destinations, rules and the digest is recorded in the workspace's activity list with the key hint
// that made it (who pointed the digest where); a rule's preview is refused to a key the Data API
// refuses what that kind replays, and the digest's preview leaves out the kept score and rank for one.
import "server-only";
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { getEnv } from "@/lib/server/env";
import { finalError, invalidParameter, json, noContent } from "@/lib/server/http";
import type { StoreResource, StoreScope } from "@/lib/server/route-types";
import { requireResource } from "@/lib/server/store-scope";
import { isDataApiError } from "@/lib/data-api/errors";
import type { CollectContext } from "@/lib/history/collect";
import { insightsContext } from "@/lib/insights/context";
import { serverContext, upstreamFor } from "@/lib/server/context";
import {
  MANUAL_SENDS_PER_WINDOW,
  MAX_WAITING_PER_DESTINATION,
  type Attempt,
  type Destination,
  type DigestSetting,
  type Rule,
  type RuleChanges,
} from "@/lib/store/alerts";
import type { ManualSendKind, WorkspaceId } from "@/lib/store/schema";
import type { Share } from "@/lib/store/shares";
import type { Store } from "@/lib/store/store";
import { nextCheckAt, previewRule } from "./check";
import { chosenShare, digestEvent, digestShare, digestSubject, lastFullWeek, nextDigestAt, readDigest, type DigestFigures } from "./digest";
import { digestHtml } from "./digest-html";
import { checkResolved, checkSlackWebhookUrl, isDestinationRefused, parseDestinationUrl, urlHint } from "./destination-url";
import { eventText, type EventBody } from "./messages";
import { addressHint, confirmationMail, confirmPath, unsubscribePath } from "./email";
import { alertsDeliverer, checkRuleNow, processMailer } from "./runtime";
import { ruleSentence } from "./rule-sentence";
import { checkThreshold, isRuleKind, THRESHOLDS, type RuleKind } from "./rules";
import {
  checkEmailAddress,
  type deliveriesQuery,
  type digestSetting,
  type newDestination,
  type newRule,
  type ruleChanges,
  type rulePreviewQuery,
} from "./schema";
import { limitAlertWrite } from "./write-limit";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const destinationJson = (d: Destination) => ({
  id: d.id,
  kind: d.kind,
  name: d.name,
  // An e-mail destination's hint is its address's ("m…@example.com"), answered as `to_hint`.
  url_hint: d.kind === "email" ? null : d.urlHint,
  to_hint: d.kind === "email" ? d.urlHint : null,
  status: d.status,
  stopped_reason: d.stoppedReason,
  resting_until: iso(d.restingUntil),
  created_at: iso(d.createdAt),
});

/** A rule as the routes answer it; `next_check_at` is when the dashboard next reads, on its own, what it is judged on (nextCheckAt). */
const ruleJson = (r: Rule, watched: boolean, now: number) => ({
  id: r.id,
  kind: r.kind,
  threshold: r.threshold,
  destination_id: r.destinationId,
  cooldown_minutes: Math.round(r.cooldownMs / 60_000),
  state: r.state,
  last_checked_at: iso(r.lastCheckedAt),
  last_changed_at: iso(r.lastChangedAt),
  next_check_at: isRuleKind(r.kind) ? iso(nextCheckAt(r.kind, watched, now)) : null,
  created_at: iso(r.createdAt),
});

/** Whether the workspace is watched now (its rules are then checked on the collector's schedule too). */
async function isWatched(store: Store, workspace: WorkspaceId): Promise<boolean> {
  return (await store.workspaces.workspace(workspace))?.watching === "on";
}

const attemptJson = (a: Attempt) => ({
  id: a.deliveryId,
  destination_id: a.destinationId,
  destination_name: a.destinationName,
  type: a.type,
  attempt: a.attempt,
  status: a.status,
  response_status: a.responseStatus,
  error: a.error,
  at: iso(a.at),
  next_attempt_at: iso(a.nextAttemptAt),
  retryable: a.retryable,
});

/** Counts a "Send a test", a "Retry" or the digest's "Send now" against the workspace's limit a minute, or answers 429 with Retry-After. */
async function takeManualSend(store: Store, workspace: WorkspaceId, kind: ManualSendKind): Promise<void> {
  const taken = await store.alerts.takeManualSend(workspace, kind);
  if (taken.allowed) return;
  const seconds = Math.ceil(taken.retryAfterMs / 1000);
  throw finalError({
    status: 429,
    code: "too_many_requests",
    message: `"Send a test", "Retry" and the digest's "Send now" can be used ${MANUAL_SENDS_PER_WINDOW} times a minute in a workspace together; try again in ${seconds} s.`,
    retryAfter: seconds,
  });
}

/** A destination as the activity list names it: its name and where it sends (the URL's hint, never the URL). */
const destinationSubject = (d: Destination) => (d.urlHint ? `${d.name} (${d.urlHint})` : d.name);

/** A rule as the activity list names it: its sentence and where it sends. */
async function ruleSubject(store: Store, workspace: WorkspaceId, rule: Rule): Promise<string> {
  const sentence = isRuleKind(rule.kind) ? ruleSentence({ kind: rule.kind, threshold: rule.threshold }) : rule.kind;
  const destination = await store.alerts.destination(workspace, rule.destinationId);
  return destination ? `${sentence} → ${destination.name}` : sentence;
}

const notFound = (what: string) => finalError({ status: 404, code: "not_found", message: `This workspace has no ${what} with that id (deleted meanwhile?).` });

/** What a handler of a route in the store's scope is given, with its checked input. */
type Scoped<Input = object> = { scope: StoreScope; signal?: AbortSignal } & Input;
type WithId = { params: { id: string } };

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
const newSigningSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

/** GET /api/alerts/destinations */
export async function listDestinations({ scope: { store, workspace } }: Scoped) {
  return { data: (await store.alerts.destinations(workspace)).map(destinationJson) };
}

/** POST /api/alerts/destinations {kind, name, url}: 201, with the signing secret of a webhook (once); 429 past 10 a minute. */
export async function createDestination({ scope, body }: Scoped<{ body: z.output<typeof newDestination> }>, req: Request): Promise<Response> {
  const { store, workspace, record } = scope;
  if (body.kind === "email") return createEmail(scope, { name: body.name, to: body.to }, req);
  if (body.url === undefined) throw invalidParameter("url", "url must be a string: the receiver's address.");
  const allowPrivate = getEnv().webhookAllowPrivate;
  let url: URL;
  try {
    url = parseDestinationUrl(body.url, allowPrivate);
    if (body.kind === "slack") checkSlackWebhookUrl(url);
    // Counted once the URL is worth resolving, refused or not after that.
    await limitAlertWrite(workspace, "destination");
    await checkResolved(url.hostname, allowPrivate);
  } catch (error) {
    if (isDestinationRefused(error)) throw invalidParameter("url", error.message);
    throw error;
  }
  const secret = body.kind === "webhook" ? newSigningSecret() : null;
  const destination = await store.alerts.createDestination(workspace, { kind: body.kind, name: body.name, url: url.toString(), urlHint: urlHint(url), secret });
  await record("destination.added", destinationSubject(destination));
  return json({ ...destinationJson(destination), ...(secret ? { secret } : {}) }, { status: 201 });
}

/**
 * POST /api/alerts/destinations {kind: "email", name, to}: 201, `unconfirmed`, its confirmation sent at
 * once (its links on PUBLIC_URL, else the origin the member's request came to). Without SMTP_URL a 400
 * naming `kind`; a bad address a 400 naming `to`. A confirmation the server could not take is logged
 * (the address masked) and tried no more: the member deletes it and adds it again; an address the
 * server refuses stops the destination, saying why.
 */
async function createEmail(scope: StoreScope, input: { name: string; to: string | undefined }, req: Request): Promise<Response> {
  const { store, workspace, record } = scope;
  const mailer = processMailer();
  if (!mailer) throw invalidParameter("kind", 'kind "email" needs a mail server: this dashboard has no SMTP_URL set.');
  if (input.to === undefined) throw invalidParameter("to", "to must be a string: the one e-mail address to send to.");
  const checked = checkEmailAddress(input.to);
  if ("error" in checked) throw invalidParameter("to", checked.error);
  await limitAlertWrite(workspace, "destination");
  const made = await store.alerts.createEmailDestination(workspace, { name: input.name, to: checked.to, toHint: addressHint(checked.to) });
  let destination = made.destination;
  await record("destination.added", destinationSubject(destination));
  const base = getEnv().publicUrl ?? new URL(req.url).origin;
  const unsubscribeUrl = `${base}${unsubscribePath(made.unsubscribeToken)}`;
  const content = confirmationMail({ destinationName: destination.name, confirmUrl: `${base}${confirmPath(made.confirmToken)}`, unsubscribeUrl });
  const sent = await mailer.send({ ...content, to: checked.to, unsubscribeUrl, id: `confirm.${destination.id}.${randomBytes(6).toString("hex")}` });
  if (!sent.ok) {
    console.warn(`[alerts] workspace ${workspace}: the confirmation of destination ${destination.id} was not sent: ${sent.error ?? "unknown error"}`);
    if (sent.addressRefused) {
      await store.alerts.stopDestination(destination.id, `The mail server refused the address: ${sent.error ?? ""}`.trim());
      destination = (await store.alerts.destination(workspace, destination.id)) ?? destination;
    }
  }
  // `confirmation_sent` (this answer only): whether the mail server took the confirmation, so the
  // member knows to delete and add again when it did not.
  return json({ ...destinationJson(destination), confirmation_sent: sent.ok }, { status: 201 });
}

/** DELETE /api/alerts/destinations/{id}: 204 (its rules, deliveries and the digest going there go too). */
export async function deleteDestination({ scope: { store, workspace, record }, params: { id } }: Scoped<WithId>): Promise<Response> {
  const destination = await store.alerts.destination(workspace, id);
  if (!destination || !(await store.alerts.removeDestination(workspace, id))) throw notFound("destination");
  await record("destination.deleted", destinationSubject(destination));
  return noContent();
}

/** POST /api/alerts/destinations/{id}/test: 202, one delivery of type `test`, sent at once; 429 past 10 a minute. */
export async function testDestination({ scope: { store, workspace }, params: { id } }: Scoped<WithId>): Promise<Response> {
  const destination = await store.alerts.destination(workspace, id);
  if (!destination) throw notFound("destination");
  if (destination.status === "stopped" || destination.status === "unsubscribed") {
    throw finalError({
      status: 409,
      code: "destination_stopped",
      message: destination.stoppedReason ?? "This destination is stopped: delete it and add it again.",
    });
  }
  if (destination.status === "unconfirmed") {
    throw finalError({
      status: 409,
      code: "destination_unconfirmed",
      message: "This address has not confirmed yet: nothing but the confirmation e-mail is sent to it until its recipient confirms.",
    });
  }
  await takeManualSend(store, workspace, "test");
  const now = serverContext().now();
  const publicUrl = getEnv().publicUrl;
  const body: EventBody = {
    type: "test",
    timestamp: new Date(now).toISOString(),
    data: {
      message: `A test from Workspace Analytics to “${destination.name}”: alerts and digests sent here will look like this.`,
      ...(publicUrl ? { url: `${publicUrl}/settings` } : {}),
    },
  };
  const made = await store.alerts.enqueue(workspace, { dedupeKey: `test:${id}:${randomBytes(8).toString("hex")}`, type: "test", body }, [id]);
  alertsDeliverer().kick();
  return json({ delivery_id: made?.[0]?.id ?? null }, { status: 202 });
}

/** The threshold of `kind`, or a 400 naming `threshold`. */
function threshold(kind: RuleKind, value: unknown): number | null {
  const checked = checkThreshold(kind, value);
  if ("error" in checked) throw invalidParameter("threshold", checked.error);
  return checked.threshold;
}

/** GET /api/alerts/rules */
export async function listRules({ scope: { store, workspace } }: Scoped) {
  const [rules, watched] = await Promise.all([store.alerts.rules(workspace), isWatched(store, workspace)]);
  const now = serverContext().now();
  return { data: rules.map((r) => ruleJson(r, watched, now)) };
}

/**
 * Checks a rule just added, or given a new threshold, against the latest snapshot or day kept (so it
 * does not wait for the next one, which may be a day away), and answers it as it then is. A failed
 * check leaves it not checked yet (said, and logged): the write itself was made.
 */
async function checkedAtOnce(store: Store, workspace: WorkspaceId, rule: Rule): Promise<Rule> {
  try {
    await checkRuleNow(store, workspace, rule.id);
  } catch (error) {
    console.warn(`[alerts] workspace ${workspace}: rule ${rule.id} could not be checked at once: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (await store.alerts.rule(workspace, rule.id)) ?? rule;
}

/** POST /api/alerts/rules {kind, threshold, destination_id, cooldown_minutes?}: 201 the rule, checked at once against what is kept. */
export async function createRule({ scope: { store, workspace, record }, body }: Scoped<{ body: z.output<typeof newRule> }>): Promise<Response> {
  const kind = body.kind;
  const rule = await store.alerts.createRule(workspace, {
    kind,
    threshold: threshold(kind, body.threshold),
    destinationId: body.destination_id,
    cooldownMs: (body.cooldown_minutes ?? 60) * 60_000,
  });
  if (!rule)
    throw finalError({ status: 404, code: "not_found", message: "This workspace has no destination with that id: add one first.", param: "destination_id" });
  await record("rule.added", await ruleSubject(store, workspace, rule));
  const checked = await checkedAtOnce(store, workspace, rule);
  return json(ruleJson(checked, await isWatched(store, workspace), serverContext().now()), { status: 201 });
}

/** What changed, in the activity list's words: "threshold 60 → 40; cooldown 1 hour → 90 minutes; sent to Ops → Team". */
function changesSubject(before: Rule, after: Rule, destinationName: (id: string) => string): string {
  const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`;
  const changes: string[] = [];
  if (before.threshold !== after.threshold) changes.push(`threshold ${before.threshold ?? "none"} → ${after.threshold ?? "none"}`);
  if (before.cooldownMs !== after.cooldownMs) changes.push(`cooldown ${minutes(before.cooldownMs)} → ${minutes(after.cooldownMs)}`);
  if (before.destinationId !== after.destinationId) changes.push(`sent to ${destinationName(before.destinationId)} → ${destinationName(after.destinationId)}`);
  return changes.join("; ");
}

/**
 * PATCH /api/alerts/rules/{id} {threshold?, destination_id?, cooldown_minutes?}: 200 the rule. What is
 * not given stays; a bad field is a 400 naming it (a threshold by the rule's own kind; the kind itself
 * cannot change); an unknown rule or destination a 404. A new threshold is judged at once against the
 * latest kept snapshot or day, as a new rule is. Recorded in the activity list, with what changed.
 */
export async function updateRule({ scope: { store, workspace, record }, params: { id }, body }: Scoped<WithId & { body: z.output<typeof ruleChanges> }>) {
  const current = await store.alerts.rule(workspace, id);
  if (!current || !isRuleKind(current.kind)) throw notFound("rule");
  const kind = current.kind;
  if (body.kind !== undefined && body.kind !== kind)
    throw invalidParameter("kind", `kind cannot be changed: this rule is a ${kind} rule (add a rule of the other kind, and delete this one).`);
  const changes: RuleChanges = {};
  // A kind without a threshold keeps none, whatever is sent (as when it is added).
  if (body.threshold !== undefined && THRESHOLDS[kind] !== null) changes.threshold = threshold(kind, body.threshold);
  if (body.destination_id !== undefined) changes.destinationId = body.destination_id;
  if (body.cooldown_minutes !== undefined) changes.cooldownMs = body.cooldown_minutes * 60_000;
  const updated = await store.alerts.updateRule(workspace, id, changes);
  if (updated === undefined) throw notFound("rule");
  if (updated === "destination")
    throw finalError({ status: 404, code: "not_found", message: "This workspace has no destination with that id.", param: "destination_id" });
  const { before, after } = updated;
  const names = new Map((await store.alerts.destinations(workspace)).map((d) => [d.id, d.name]));
  const what = changesSubject(before, after, (destinationId) => names.get(destinationId) ?? "a deleted destination");
  let rule = after;
  // Nothing changed (the same values sent again): nothing to record or check.
  if (what !== "") {
    await record("rule.changed", `${await ruleSubject(store, workspace, after)} (${what})`);
    if (after.revision !== before.revision) rule = await checkedAtOnce(store, workspace, after);
  }
  return ruleJson(rule, await isWatched(store, workspace), serverContext().now());
}

/** DELETE /api/alerts/rules/{id}: 204. */
export async function deleteRule({ scope: { store, workspace, record }, params: { id } }: Scoped<WithId>): Promise<Response> {
  const rule = await store.alerts.rule(workspace, id);
  // Said before it goes: the sentence names its destination, read while the rule still points there.
  const subject = rule ? await ruleSubject(store, workspace, rule) : "";
  if (!rule || !(await store.alerts.removeRule(workspace, id))) throw notFound("rule");
  await record("rule.deleted", subject);
  return noContent();
}

/**
 * What each kind's preview replays from the kept history, and so the resource a key must be allowed
 * upstream to see it: the firings name the score, the ranking, or the days' figures.
 */
const PREVIEW_DERIVES_FROM: Record<RuleKind, StoreResource> = {
  score_drop: "/intelligence/score",
  score_below: "/intelligence/score",
  rank_passed: "/intelligence/ranking",
  negative_mentions: "/mentions",
  ai_visitors_drop: "/visitors",
  conversions_drop: "/visitors",
};

/** GET /api/alerts/rules/preview?kind&threshold&cooldown_minutes: how often it would have fired in 30 days. */
export async function previewRuleRoute({ scope: { store, workspace, apiKey }, query }: Scoped<{ query: z.output<typeof rulePreviewQuery> }>) {
  const { kind } = query;
  const rule = { kind, threshold: threshold(kind, query.threshold), cooldownMs: query.cooldown_minutes * 60_000 };
  // A question answered as asked (bad input is a 400 whoever asks), then only to a key allowed what it replays.
  await requireResource(apiKey, PREVIEW_DERIVES_FROM[kind]);
  return previewRule(store, workspace, rule, serverContext().now());
}

/** GET /api/alerts/deliveries?limit: every attempt, newest first. */
export async function listDeliveries({ scope: { store, workspace }, query }: Scoped<{ query: z.output<typeof deliveriesQuery> }>) {
  return { data: (await store.alerts.attempts(workspace, query.limit)).map(attemptJson) };
}

/** POST /api/alerts/deliveries/{id}/retry: 202, the failed delivery due again now; 429 past 10 a minute. */
export async function retryDelivery({ scope: { store, workspace }, params: { id } }: Scoped<WithId>): Promise<Response> {
  const notRetryable = () =>
    finalError({
      status: 409,
      code: "not_retryable",
      message:
        "Only a delivery that failed for good, to a destination still active, can be retried (this one is delivered, still retrying, or its destination is stopped).",
    });
  // Judged before it is counted: only a retry that would send counts against the limit.
  const retryable = await store.alerts.retryable(workspace, id);
  if (retryable === "unknown") throw notFound("delivery");
  if (retryable === "not_retryable") throw notRetryable();
  await takeManualSend(store, workspace, "retry");
  const outcome = await store.alerts.retry(workspace, id);
  if (outcome === "unknown") throw notFound("delivery");
  if (outcome === "queue_full") {
    throw finalError({
      status: 409,
      code: "queue_full",
      message: `${MAX_WAITING_PER_DESTINATION} deliveries are already waiting for this destination, the most that may: retry when some have gone out.`,
    });
  }
  if (outcome === "not_retryable") throw notRetryable();
  alertsDeliverer().kick();
  return json({ id, status: "retrying" }, { status: 202 });
}

/** The digest's reading for a signed-in reader: the session's key at the reader's priority (not the background's), ended with the request. */
function readerContext(store: Store, signal: AbortSignal | undefined): CollectContext {
  const signalPart = signal ? { signal } : {};
  return {
    store,
    now: () => serverContext().now(),
    api: (apiKey) => upstreamFor(apiKey).api,
    insights: (apiKey) => ({ ...insightsContext(apiKey), ...signalPart }),
    ...signalPart,
  };
}

/** Whether the key may read what the store keeps of `resource` (a key refused it upstream may not). */
async function mayRead(apiKey: string, resource: StoreResource): Promise<boolean> {
  try {
    await requireResource(apiKey, resource);
    return true;
  } catch (error) {
    if (isDataApiError(error) && error.status === 403) return false;
    throw error;
  }
}

/**
 * The figures of the latest full week in the workspace's zone, read with the session's key: what
 * "Preview" shows and "Send now" sends, its links through the share link chosen for it as the
 * scheduled digest's are.
 */
async function latestDigest(
  scope: StoreScope,
  digest: DigestSetting | null,
  signal: AbortSignal | undefined,
  use: "send" | "preview",
): Promise<{ figures: DigestFigures; tz: string; now: number }> {
  const { store, workspace, apiKey } = scope;
  const tz = (await store.workspaces.workspace(workspace))?.timeZone ?? "UTC";
  const now = serverContext().now();
  // The score and rank come from kept history: shown only to a key the Data API lets read them.
  const [score, ranking] = await Promise.all([mayRead(apiKey, "/intelligence/score"), mayRead(apiKey, "/intelligence/ranking")]);
  const publicUrl = getEnv().publicUrl;
  const share = await digestShare(store, workspace, digest?.shareId ?? null, now, use);
  const figures = await readDigest({
    store,
    ctx: readerContext(store, signal),
    workspace,
    apiKey,
    tz,
    monday: lastFullWeek(tz, now),
    now,
    kept: { score, ranking },
    ...(publicUrl ? { publicUrl } : {}),
    ...(share !== undefined ? { share } : {}),
  });
  return { figures, tz, now };
}

/**
 * GET /api/alerts/digest/preview: the digest as it is sent now ("Send now"): the latest full week
 * against the one before, `{subject, text, html, week: {from, to}, time_zone, sends_at}`; `text` is
 * what its receivers read (Slack's message, the webhook's `message` and `sections`), `html` the same
 * as a self-contained e-mail; `sends_at` when the scheduled one goes next (null while it is off).
 */
export async function previewDigest({ scope, signal }: Scoped) {
  const digest = await scope.store.alerts.digest(scope.workspace);
  const { figures, tz, now } = await latestDigest(scope, digest, signal, "preview");
  const subject = digestSubject(figures);
  return {
    subject,
    text: eventText(digestEvent(figures, now)),
    html: digestHtml(figures, subject),
    week: figures.week,
    time_zone: tz,
    sends_at: digest === null ? null : iso(nextDigestAt(tz, now)),
  };
}

/**
 * POST /api/alerts/digest/send: 202 `{delivery_id, week}`, one delivery of type `digest.weekly` (the
 * preview's week) to the digest's destination, sent at once; the scheduled digest still goes. 409
 * `digest_off` when it goes nowhere, `destination_stopped`; 429 past the workspace's 10 sends by hand
 * a minute (with "Send a test" and "Retry").
 */
export async function sendDigest({ scope, signal }: Scoped): Promise<Response> {
  const { store, workspace } = scope;
  const digest = await store.alerts.digest(workspace);
  const destination = digest === null ? undefined : await store.alerts.destination(workspace, digest.destinationId);
  if (!destination)
    throw finalError({ status: 409, code: "digest_off", message: "The weekly digest goes nowhere: choose where it goes first (PUT /api/alerts/digest)." });
  if (destination.status === "stopped" || destination.status === "unsubscribed") {
    throw finalError({
      status: 409,
      code: "destination_stopped",
      message: destination.stoppedReason ?? "The digest's destination is stopped: delete it and add it again.",
    });
  }
  if (destination.status === "unconfirmed") {
    throw finalError({
      status: 409,
      code: "destination_unconfirmed",
      message: "The digest's destination is an address that has not confirmed yet: nothing but the confirmation e-mail goes there until it does.",
    });
  }
  // Counted before the week is read: reading it costs upstream calls.
  await takeManualSend(store, workspace, "digest");
  const { figures, now } = await latestDigest(scope, digest, signal, "send");
  const body = digestEvent(figures, now);
  const made = await store.alerts.enqueue(workspace, { dedupeKey: `digest-now:${workspace}:${randomBytes(8).toString("hex")}`, type: body.type, body }, [
    destination.id,
  ]);
  alertsDeliverer().kick();
  return json({ delivery_id: made?.[0]?.id ?? null, week: figures.week }, { status: 202 });
}

/** The digest as GET answers it; `share_id` null for none, and for a share link chosen that expired (its figures then have no links). */
async function digestJson(scope: StoreScope) {
  const now = serverContext().now();
  const digest = await scope.store.alerts.digest(scope.workspace);
  const share = digest === null ? undefined : await chosenShare(scope.store, scope.workspace, digest.shareId, now);
  const ws = await scope.store.workspaces.workspace(scope.workspace);
  const tz = ws?.timeZone ?? "UTC";
  return {
    destination_id: digest?.destinationId ?? null,
    share_id: share?.id ?? null,
    next_at: digest === null ? null : iso(nextDigestAt(tz, now)),
    time_zone: tz,
  };
}

/** GET /api/alerts/digest */
export const getDigest = ({ scope }: Scoped) => digestJson(scope);

/** What the digest's links open, as the activity list says it. */
const shareSubject = (share: Share | undefined) => (share ? `Share link: ${share.name} (${share.path})` : "Dashboard pages");

/**
 * PUT /api/alerts/digest {destination_id: string | null, share_id?: string | null, time_zone?}: where
 * the digest goes, or never; `share_id` the share link its links open, for recipients without a key
 * (only the figures of the shared page then have a link, to the shared page for the digest's week),
 * null for the dashboard's pages, left out as it was; one that is not this workspace's, or no longer
 * opens, is a 400 naming it. `time_zone` (an IANA name) is the workspace's zone, whose Monday 09:00 it
 * is sent at (Settings sends the zone of the member who sets it up; left out, the zone stays as it was).
 * Each change is a line of the activity list: where it goes (or that it stopped), and what its links open.
 */
export async function putDigest({ scope, body }: Scoped<{ body: z.output<typeof digestSetting> }>) {
  const { store, workspace } = scope;
  const before = await store.alerts.digest(workspace);
  const set = await store.alerts.setDigest(workspace, body.destination_id, body.share_id);
  if (set === "unknown_destination") {
    throw finalError({ status: 404, code: "not_found", message: "This workspace has no destination with that id.", param: "destination_id" });
  }
  if (set === "unknown_share") {
    throw invalidParameter(
      "share_id",
      "share_id must be the id of one of this workspace's share links that has not expired (GET /api/shares), or null for links to the dashboard's pages.",
    );
  }
  if (body.time_zone !== undefined) await store.workspaces.setTimeZone(workspace, body.time_zone);
  const destination = body.destination_id === null ? undefined : await store.alerts.destination(workspace, body.destination_id);
  await (destination ? scope.record("digest.set", destinationSubject(destination)) : scope.record("digest.stopped", ""));
  const after = await store.alerts.digest(workspace);
  if (after !== null && after.shareId !== (before?.shareId ?? null)) {
    const share = after.shareId === null ? undefined : await store.shares.share(workspace, after.shareId);
    await scope.record("digest.links", shareSubject(share));
  }
  return digestJson(scope);
}
