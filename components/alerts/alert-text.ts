// What the alerts' cards say, as plain functions of the data (unit-tested beside): each rule kind's
// name, threshold field and sentence, a rule's state in words (never "OK" before its first check) and
// when one not checked yet will be, the preview's sentence, the digest's time in its zone and the
// reader's, a delivery's type and status in words, and which form field a failed write is about.
import { RULE_SENTENCES } from "@/lib/alerts/rule-sentence";
import { JUDGED_ON, RULE_KINDS as RULE_KIND_LIST, THRESHOLDS } from "@/lib/alerts/rules";
import { isDataApiError } from "@/lib/data-api/errors";
import { fieldsIn, formatCount, formatDate, formatDateTime, formatNumber, formatZone } from "@/lib/format/format";
import type { Delivery, Destination, DestinationKind, Rule, RuleKind, RulePreview } from "@/lib/queries/alerts";
import { alertErrorText, thresholdBoundsText, type AlertSubject } from "@/lib/ui/messages";

type ThresholdField = {
  /** The field's label. */
  label: string;
};

type KindText = {
  name: string;
  threshold: ThresholdField | null;
  /** The rule in one sentence, its threshold filled in. */
  sentence: (threshold: number | null) => string;
};

export const RULE_KINDS: Record<RuleKind, KindText> = {
  score_drop: {
    name: "Score falls",
    threshold: { label: "Fall of at least (points)" },
    sentence: RULE_SENTENCES.score_drop,
  },
  score_below: {
    name: "Score below a value",
    threshold: { label: "Score below" },
    sentence: RULE_SENTENCES.score_below,
  },
  rank_passed: {
    name: "A competitor passes us",
    threshold: null,
    sentence: RULE_SENTENCES.rank_passed,
  },
  negative_mentions: {
    name: "Negative mentions in a day",
    threshold: { label: "Negative mentions in a day, at least" },
    sentence: RULE_SENTENCES.negative_mentions,
  },
  ai_visitors_drop: {
    name: "AI visitors fall",
    threshold: { label: "Below the previous 7 days' average by (%)" },
    sentence: RULE_SENTENCES.ai_visitors_drop,
  },
  conversions_drop: {
    name: "Conversions fall",
    threshold: { label: "Below the previous 7 days' average by (%)" },
    sentence: RULE_SENTENCES.conversions_drop,
  },
};

/** The kinds in the routes' own order. */
export const RULE_KIND_ORDER: readonly RuleKind[] = RULE_KIND_LIST;

/** The threshold input's bounds: the routes' (they check them, and name the field when refused). */
export function thresholdInput(kind: RuleKind): { min: number; max: number; step: number | "any" } | null {
  const bounds = THRESHOLDS[kind];
  return bounds ? { min: bounds.min, max: bounds.max, step: bounds.integer ? 1 : "any" } : null;
}

export { ruleSentence } from "@/lib/alerts/rule-sentence";

/** "1 hour", "90 minutes", "1 day": how long a rule stays quiet after it notified. */
export function cooldownText(minutes: number): string {
  if (minutes === 0) return "no cooldown";
  if (minutes % 1440 === 0) return formatCount(minutes / 1440, "day");
  if (minutes % 60 === 0) return formatCount(minutes / 60, "hour");
  return formatCount(minutes, "minute");
}

/** A rule's state as Settings says it: not checked yet, OK (checked, never fired), firing, or resolved (it fired, and no more). */
export type RuleStateKey = "unchecked" | "ok" | "firing" | "resolved";

export const RULE_STATES: Record<RuleStateKey, { text: string; badge: string }> = {
  unchecked: { text: "Not checked yet", badge: "badge-neutral" },
  ok: { text: "OK", badge: "badge-success" },
  firing: { text: "Firing", badge: "badge-danger" },
  resolved: { text: "Resolved", badge: "badge-success" },
};

/** Which state a rule is in: a rule never checked is not OK, whatever its stored state. */
export function ruleState(rule: Pick<Rule, "state" | "last_checked_at" | "last_changed_at">): RuleStateKey {
  if (!rule.last_checked_at) return "unchecked";
  if (rule.state === "firing") return "firing";
  return rule.last_changed_at ? "resolved" : "ok";
}

const pad = (n: number) => String(n).padStart(2, "0");
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** An instant's time in `timeZone`, "15:00", with its day ("21 Nov 2026, 02:00") unless it is `now`'s day there. */
function timeOrDateTime(iso: string, timeZone: string, now: Date): string {
  const at = fieldsIn(Date.parse(iso), timeZone);
  const today = fieldsIn(now.getTime(), timeZone);
  if (!at || !today) return formatDateTime(iso, timeZone);
  const sameDay = at.year === today.year && at.month === today.month && at.day === today.day;
  return sameDay ? `${pad(at.hour)}:${pad(at.minute)} today` : formatDateTime(iso, timeZone);
}

/**
 * When a rule not checked yet will be: what it is judged on (and what a judgement needs), and when
 * the dashboard next reads that on its own, in `timeZone`; without watching, only a page that shows
 * the score or ranking makes something new to check it against.
 */
export function uncheckedText(rule: Pick<Rule, "kind" | "next_check_at">, timeZone: string, now: Date): string {
  const on = JUDGED_ON[rule.kind];
  const needs: Record<RuleKind, string> = {
    score_drop: "each new score the dashboard keeps (a fall needs two)",
    score_below: "each new score the dashboard keeps",
    rank_passed: "each new ranking the dashboard keeps (a pass needs two)",
    negative_mentions: "each closed day's figures the dashboard keeps",
    ai_visitors_drop: "each closed day's figures the dashboard keeps (a fall needs 3 of the 7 days before)",
    conversions_drop: "each closed day's figures the dashboard keeps (a fall needs 3 of the 7 days before)",
  };
  const next = rule.next_check_at
    ? on === "day"
      ? `It keeps the day's figures next at ${timeOrDateTime(rule.next_check_at, timeZone, now)} (${formatZone(timeZone)}).`
      : `It reads the ${on} next at ${timeOrDateTime(rule.next_check_at, timeZone, now)} (${formatZone(timeZone)}).`
    : on === "day"
      ? "Until it watches this workspace, it keeps and checks a day's figures only when someone opens the dashboard."
      : `Until it watches this workspace, it reads the ${on} only when someone opens a page that shows it.`;
  return `It is checked against ${needs[rule.kind]}. ${next}`;
}

/**
 * When the next digest goes: in the digest's own zone (the workspace's), and also in the reader's
 * when that differs ("Monday 30 Nov 2026 at 09:00 UTC, 10:00 your time (Berlin time)"), with the
 * reader's day when it is another.
 */
export function digestTimeText(nextAt: string, digestZone: string, readerZone: string): string {
  const ms = Date.parse(nextAt);
  const there = fieldsIn(ms, digestZone);
  if (!there) return formatDateTime(nextAt, digestZone);
  const weekday = (f: { year: number; month: number; day: number }) => WEEKDAYS[new Date(Date.UTC(f.year, f.month - 1, f.day)).getUTCDay()]!;
  const clock = (f: { hour: number; minute: number }) => `${pad(f.hour)}:${pad(f.minute)}`;
  const when = `${weekday(there)} ${formatDate(nextAt, digestZone)} at ${clock(there)}`;
  const here = fieldsIn(ms, readerZone);
  const sameDay = here !== null && here.year === there.year && here.month === there.month && here.day === there.day;
  // The same clock in the reader's zone (the same zone, or one with the same offset then): said once.
  if (!here || (sameDay && here.hour === there.hour && here.minute === there.minute)) return `${when} (${formatZone(digestZone)})`;
  const yours = sameDay ? clock(here) : `${weekday(here)} ${formatDate(nextAt, readerZone)}, ${clock(here)}`;
  return `${when} ${formatZone(digestZone)}, ${yours} your time (${formatZone(readerZone)})`;
}

/** How often the rule would have fired, or why that cannot be said yet. */
export function previewSentence(preview: RulePreview, timeZone: string): string {
  if (preview.checks === 0) {
    return preview.history_since
      ? `History begins on ${formatDate(preview.history_since, timeZone)}, too short to say how often it would have fired.`
      : "No history is kept yet, too short to say how often it would have fired.";
  }
  const window = `in the last ${preview.days} days`;
  const checked = `(${formatCount(preview.checks, "check")} of the kept history)`;
  const held = typeof preview.held_back === "number" && preview.held_back > 0 ? preview.held_back : 0;
  // A drop rule's quiet days: past the threshold, but a drop chance alone makes with so few visitors.
  const heldText = held
    ? ` ${held === 1 ? "One more day" : `${formatNumber(held)} more days`} fell past the threshold within normal variation, and ${held === 1 ? "was" : "were"} held back.`
    : "";
  if (preview.fired === 0) return `Would not have fired ${window} ${checked}.${heldText}`;
  return `Would have fired ${preview.fired === 1 ? "once" : `${formatNumber(preview.fired)} times`} ${window} ${checked}.${heldText}`;
}

export const DELIVERY_TYPES: Record<Delivery["type"], string> = {
  "alert.firing": "Alert firing",
  "alert.resolved": "Alert resolved",
  "digest.weekly": "Weekly digest",
  test: "Test",
};

export const DELIVERY_STATUS: Record<Delivery["status"], { text: string; badge: string }> = {
  delivered: { text: "Delivered", badge: "badge-success" },
  retrying: { text: "Retrying", badge: "badge-neutral" },
  failed: { text: "Failed", badge: "badge-danger" },
};

export const DESTINATION_KINDS: Record<DestinationKind, { name: string; urlHint: string; placeholder: string }> = {
  slack: {
    name: "Slack",
    urlHint: "The incoming webhook URL Slack gave you (https://hooks.slack.com/services/…).",
    placeholder: "https://hooks.slack.com/services/…",
  },
  webhook: {
    name: "Webhook",
    urlHint: "Any URL that receives JSON; each request is signed with a secret shown once, after adding it.",
    placeholder: "https://example.com/hooks/analytics",
  },
  email: {
    name: "E-mail",
    urlHint: "One address. It gets an e-mail asking to confirm first, and nothing else until its recipient confirms; every e-mail has an unsubscribe link.",
    placeholder: "maria@example.com",
  },
};

/** A listed destination's kind in words. */
export const destinationKindName = (kind: Destination["kind"]): string => DESTINATION_KINDS[kind].name;

const KIND_LABEL: Record<Destination["kind"], string> = { slack: "Slack", webhook: "webhook", email: "e-mail" };
const STATUS_LABEL: Record<Destination["status"], string> = {
  active: "",
  unconfirmed: ", waiting for confirmation",
  unsubscribed: ", unsubscribed",
  stopped: ", stopped",
};
/** "Ops (webhook)", "Maria (e-mail, waiting for confirmation)": a destination as the rule forms offer it. */
export const destinationLabel = (d: Destination) => `${d.name} (${KIND_LABEL[d.kind]}${STATUS_LABEL[d.status]})`;
/** "Ops", "Maria (waiting for confirmation)": a destination as the digest's choice offers it. */
export const digestDestinationLabel = (d: Destination) => (d.status === "active" ? d.name : `${d.name} (${STATUS_LABEL[d.status].slice(2)})`);

/** A destination's state as its badge says it, and the badge's colour. */
export function destinationState(d: Pick<Destination, "status" | "resting_until">): { text: string; badge: string } {
  switch (d.status) {
    case "stopped":
      return { text: "Stopped", badge: "badge-danger" };
    case "unsubscribed":
      return { text: "Unsubscribed", badge: "badge-danger" };
    case "unconfirmed":
      return { text: "Waiting for confirmation", badge: "badge-neutral" };
    default:
      return d.resting_until !== null ? { text: "Resting", badge: "badge-neutral" } : { text: "Active", badge: "badge-success" };
  }
}

/** What a delivery's answer was: "HTTP 200", "HTTP 503, Service Unavailable", or the error alone. */
export function responseText(delivery: Pick<Delivery, "response_status" | "error">): string {
  if (delivery.response_status !== null) return delivery.error ? `HTTP ${delivery.response_status}, ${delivery.error}` : `HTTP ${delivery.response_status}`;
  return delivery.error ?? "No answer";
}

/** The hint under a rule's threshold field (the same words as the route's refusal of it). */
export const thresholdHint = (kind: RuleKind): string => thresholdBoundsText(kind);

/** A failure in words a person can act on (lib/ui/messages.ts), never the route's own message. */
export function problemText(error: unknown, subject: AlertSubject, kind?: RuleKind | DestinationKind): string {
  return alertErrorText(isDataApiError(error) ? error : {}, subject, kind);
}

/** The field a failed write names, when it is one of the form's; else null (the form says it under the button). */
export function fieldOf<F extends string>(error: unknown, fields: readonly F[]): F | null {
  if (!isDataApiError(error) || !error.param) return null;
  return (fields as readonly string[]).includes(error.param) ? (error.param as F) : null;
}
