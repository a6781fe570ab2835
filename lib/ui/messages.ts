// What the UI says when something is wrong, in the words of the people using the dashboard. The
// JSON API keeps its precise messages for developers (`{error:{code,message,param?}}`, e.g. "from
// must be an ISO 8601 date …"); the UI never shows those verbatim on a field or a widget: it maps
// an error by its `param`, `code` and status to a sentence here. A range field's problem comes with
// its reason (lib/range: not a date, backwards, too long…), so the sentence says what to do.
import { COMPETITOR_PARAM_MAX, INSIGHTS_MAX_DAYS, PAGE_SIZE_MAX, QUERY_PARAM_MAX } from "@/lib/data-api/constants";
import { ANNOTATION_AUTHOR_MAX, ANNOTATION_TEXT_MAX, ANNOTATIONS_PER_WORKSPACE } from "@/lib/annotations/limits";
import { THRESHOLDS, type RuleKind } from "@/lib/alerts/rules";
import type { DestinationKind } from "@/lib/queries/alerts";
import { formatDuration, formatNumber, formatThreshold } from "@/lib/format/format";

/** Why a range's end or zone cannot be used (lib/range names one per field). */
export type RangeProblem = "missing" | "not_a_date" | "backwards" | "too_long" | "mixed" | "unknown_zone" | "not_a_preset";

export type RangeField = "from" | "to" | "tz" | "range";

const EXAMPLE_DATE = { from: "2026-11-01", to: "2026-11-30" } as const;

/** The sentence the header's comparison shows for a comparison it cannot use (lib/range/comparison.ts). */
export function comparisonProblemText(problem: { param: "compare" | "compare_from" | "compare_to"; reason: "unknown_kind" | "not_a_date" | "length" }): string {
  if (problem.reason === "unknown_kind")
    return "The comparison in this link is not one the dashboard knows. Choose the previous period, the same days a year before, or a custom window.";
  if (problem.reason === "length") return "The comparison in this link does not have as many days as the range. Choose its first day again.";
  const end = problem.param === "compare_from" ? "first" : "last";
  return `The comparison's ${end} day is not a date the dashboard can use. Type it as year-month-day, e.g. 2026-10-01.`;
}

/** The sentence a range field shows for its problem. */
export function rangeProblemText(field: RangeField, problem: RangeProblem): string {
  // `range` is a relative range in a link (a saved view's "last 7 days"): only the presets are one.
  if (field === "range") return "The relative range in this link is not one the dashboard knows. Choose Today, 7 days, 30 days or 90 days.";
  if (field === "tz") {
    return problem === "missing"
      ? "Choose a time zone, e.g. Europe/Berlin."
      : "This time zone is not one the dashboard knows. Choose one from the list, e.g. Europe/Berlin or America/New_York.";
  }
  const end = field === "from" ? "start date" : "end date";
  switch (problem) {
    case "missing":
      return `Enter a ${end}, e.g. ${EXAMPLE_DATE[field]}.`;
    case "backwards":
      return field === "from"
        ? "The start date is after the end date. Swap them, or pick another date."
        : "The end date is before the start date. Swap them, or pick another date.";
    case "too_long":
      return `This range is longer than ${INSIGHTS_MAX_DAYS} days. Choose a later start date or an earlier end date.`;
    case "mixed":
      return "This link mixes a date with a date and time. Choose both dates again.";
    default:
      return `This ${end} is not a date the dashboard can use. Type it as year-month-day, e.g. ${EXAMPLE_DATE[field]}.`;
  }
}

/** A filter's name as its field is labelled, for sentences about a link's filters. */
const FILTER_NAMES: Record<string, string> = {
  source: "source",
  intent: "intent",
  converted: "converted filter",
  platform: "platform",
  sentiment: "sentiment",
  from: "start date",
  to: "end date",
  tz: "time zone",
  limit: "page size",
  offset: "page",
  format: "file format",
  period: "period",
  compare: "comparison",
  compare_from: "comparison's first day",
  compare_to: "comparison's last day",
  metric: "map's shading",
  country: "country",
  never_first: "“never first” filter",
  query: "question",
  competitor: "competitor",
};

/** The sentence a filter field (or a list's invalid-filter notice) shows when the server refused its value. */
export function filterProblemText(param: string): string {
  switch (param) {
    case "source":
      return "This source is not one the dashboard knows. Choose one from the list.";
    case "intent":
      return "An intent is a word or words joined by underscores, e.g. pricing_research. Choose a suggestion or type one like it.";
    case "converted":
      return "Choose Converted, Not converted or Any.";
    case "platform":
      return "This platform is not one the dashboard knows. Choose one from the list.";
    case "sentiment":
      return "Choose Positive, Neutral, Negative or Any.";
    case "from":
    case "to":
      return rangeProblemText(param, "not_a_date");
    case "tz":
      return rangeProblemText("tz", "unknown_zone");
    case "limit":
      return `Show between 1 and ${PAGE_SIZE_MAX} rows per page.`;
    case "offset":
      return "This page is past the end of the list. Go back to the first page.";
    case "period":
      return "Choose 24 hours, 7 days, 30 days or 90 days.";
    case "compare":
    case "compare_from":
      return comparisonProblemText({ param: param, reason: param === "compare" ? "unknown_kind" : "not_a_date" });
    case "compare_to":
      return comparisonProblemText({ param: "compare_to", reason: "length" });
    case "country":
      return "This country is not one the dashboard can show. Choose one from the table.";
    case "never_first":
      return "Choose whether to keep only the questions where the brand is never named first.";
    case "query":
      return `Type the question to show the mentions of, in 1 to ${formatNumber(QUERY_PARAM_MAX)} characters, or leave it empty for every question.`;
    case "competitor":
      return `Type a competitor's name as the mentions give it, in 1 to ${formatNumber(COMPETITOR_PARAM_MAX)} characters, or leave it empty.`;
    default:
      return `The ${FILTER_NAMES[param] ?? "filter"} in this link cannot be used.`;
  }
}

/** "The source in this link" for the invalid-filter notice. */
export const filterName = (param: string): string => FILTER_NAMES[param] ?? "filter";

/** What a failed request reads as: enough of the error to choose the words (status, code, param, wait). */
export type ErrorFacts = { status?: number; code?: string; param?: string; retryAfter?: number };

/** The message of a widget that could not load `what` ("the ranking", "visitors"): what happened and what to do. */
export function loadErrorText(error: ErrorFacts, what: string): string {
  const { status, code } = error;
  if (status === 0) return "The dashboard's server could not be reached. Check your connection and try again.";
  if (status === 400 && error.param) return filterProblemText(error.param);
  if (status === 401 || code === "session_expired" || code === "unauthorized") return "Your session has ended. Sign in again to continue.";
  if (status === 404) return `The dashboard could not find ${what}.`;
  if (code === "rate_limited" || status === 429) {
    const wait = error.retryAfter ? ` Try again in ${formatDuration(error.retryAfter)}.` : " Try again in a few seconds.";
    return `This workspace has used up its requests for the moment.${wait}`;
  }
  if (code === "upstream_timeout" || status === 504) return "Workspace Analytics took too long to answer. Try again.";
  if (code === "network_error") return "Workspace Analytics could not be reached. Try again in a moment.";
  if (code === "unexpected_response" || code === "redirect_rejected")
    return "Workspace Analytics sent data the dashboard could not read. If it happens again, pass the request ID on to support.";
  if (code === "listing_changed") return "The data changed while it was being counted. Try again to get exact figures.";
  // A range whose rows are more than the dashboard goes through for one answer (INSIGHTS_MAX_LISTED_ROWS).
  if (code === "listing_too_large") return "This range holds more data than the dashboard goes through at once. Choose a shorter range.";
  if (code === "not_configured") return "The dashboard is not fully set up yet. Ask the person who runs it to check its settings.";
  // An upstream failure is named by its code where the status is not at hand (an export's recorded error).
  if ((status !== undefined && status >= 500) || code === "upstream_error") return "Workspace Analytics had a problem. Try again shortly.";
  return "Something went wrong. Try again.";
}

/** What a note's form says when saving or deleting failed, by status, code and field (a 409 is said by the form itself, with the teammate's text). */
export function noteErrorText(error: ErrorFacts): string {
  const { status, code, param } = error;
  if (status === 400 || code === "invalid_parameter") {
    switch (param) {
      case "date":
        return "This date is not one the dashboard can use. Type it as year-month-day, e.g. 2026-11-03.";
      case "end_date":
        return "The end date cannot be before the first day. Leave it empty for a note on one day.";
      case "text":
        return `Write the note in 1 to ${formatNumber(ANNOTATION_TEXT_MAX)} characters.`;
      case "author":
        return `A name has at most ${formatNumber(ANNOTATION_AUTHOR_MAX)} characters.`;
      default:
        return "The note could not be read by the server. Reload the page and try again.";
    }
  }
  if (status === 413) return `The note is too long. Write it in at most ${formatNumber(ANNOTATION_TEXT_MAX)} characters.`;
  if (status === 404) return "This note was deleted meanwhile, perhaps by a teammate.";
  if (status === 422 || code === "limit_reached")
    return `This workspace already keeps ${formatNumber(ANNOTATIONS_PER_WORKSPACE)} notes. Delete one to add another.`;
  if (status === 403) return "The note was not saved: reload this page and try again.";
  if (code === "store_unavailable" || status === 503) return "Notes cannot be saved right now. Try again shortly.";
  return loadErrorText(error, "this note");
}

/** What Settings' access tokens card says when reading, making or revoking a token failed. */
export function tokenErrorText(error: ErrorFacts): string {
  const { status, code, param } = error;
  if (status === 400 || code === "invalid_parameter") {
    if (param === "name") return "Name the token in 1 to 80 characters on one line, e.g. Weekly report script.";
    if (param === "expires_at") return "Choose when the token expires: a day in the future, at most a year away.";
    return "The token could not be made: reload this page and try again.";
  }
  if (code === "watching_required") return "Tokens read with the key the dashboard keeps for this workspace: turn watching on first.";
  if (status === 422 || code === "limit_reached") return "This workspace already has 20 access tokens, the most it may. Revoke one to make another.";
  if (status === 404) return "This token was revoked meanwhile, perhaps by a teammate.";
  if (status === 401) return "Your session has ended. Sign in again to manage access tokens.";
  if (status === 403) return "The change was not made: reload this page and try again.";
  return loadErrorText(error, "the access tokens");
}

/** A failed sign-in: its title and what to do, by the server's status and code (never its developer message). */
export function signInErrorText(error: ErrorFacts): { title: string; message: string; field: boolean } {
  const { status, code } = error;
  if (status === 400 || status === 413 || code === "invalid_parameter") {
    return {
      title: "That is not an API key",
      message: "A workspace API key starts with svc_sk_live_ or svc_sk_test_. Copy it again from your workspace's settings.",
      field: true,
    };
  }
  if (status === 401)
    return {
      title: "Key rejected",
      message: "This key is not valid, or it was revoked. Check that you copied all of it, or create a new key in your workspace.",
      field: true,
    };
  if (status === 429 || code === "too_many_attempts") {
    const wait = error.retryAfter ? `in ${formatDuration(error.retryAfter)}` : "in a minute";
    return { title: "Too many attempts", message: `Too many sign-ins failed from here. Try again ${wait}.`, field: false };
  }
  if (code === "csrf_rejected" || status === 403) return { title: "Sign in from this page", message: "Reload this page and sign in again.", field: false };
  if (code === "demo_unavailable")
    return { title: "Demo workspaces are not available", message: "Sign in with your workspace's API key instead.", field: false };
  if (code === "rate_limited")
    return {
      title: "Workspace Analytics is busy",
      message: "Your key may be fine: too many requests are being made with it right now. Try again in a few seconds.",
      field: false,
    };
  if (code === "network_error")
    return { title: "Workspace Analytics could not be reached", message: "The key was not checked. Try again in a moment.", field: false };
  if (code === "upstream_timeout" || status === 504)
    return { title: "Workspace Analytics did not answer in time", message: "The key was not checked. Try again.", field: false };
  if (status !== undefined && status >= 500)
    return { title: "Workspace Analytics is having problems", message: "Your key may be fine. Try again shortly.", field: false };
  return { title: "Sign-in failed", message: "Try again.", field: false };
}

/** Why an export stopped, for the exports tray, by the server's code. */
export function exportErrorText(error: { code?: string }): string {
  switch (error.code) {
    case "export_too_large":
      return "Too many rows for one file. Narrow the filters (a shorter date range, one source) and export again.";
    case "too_many_exports":
      return "As many exports as this key may run at once are already running. Wait for one to finish, or cancel one, then export again.";
    case "download_stopped":
      return "The download was stopped in the browser, or the connection closed.";
    case "download_idle":
      return "The download stopped moving (paused in the browser, or the connection stalled), so it was ended. Export again.";
    case "export_lost":
      return "The server running this export stopped before it finished. Export again.";
    default:
      return loadErrorText({ code: error.code, status: error.code === "export_failed" ? 500 : undefined }, "the rows");
  }
}

/** What an alerts form or list was doing when it failed: the sentence names the thing. */
export type AlertSubject = "destination" | "rule" | "digest" | "test" | "delivery" | "preview";

/**
 * The alerts' bounds the sentences name: 20 destinations (10 added a minute) and 50 rules per workspace, names of 80
 * characters, a cooldown of at most a week, 100 deliveries waiting per destination, 10 tests and
 * retries a minute (the store's and the routes' own; a test holds them equal).
 */
export const ALERT_BOUNDS = {
  destinations: 20,
  destinationsPerMinute: 10,
  rules: 50,
  nameMax: 80,
  cooldownMax: 10_080,
  waitingPerDestination: 100,
  manualSendsPerMinute: 10,
} as const;

/** What a rule's threshold may be, by its kind (the routes' bounds): the form's hint, and the sentence when the route refuses it. */
export function thresholdBoundsText(kind: RuleKind): string {
  const bounds = THRESHOLDS[kind];
  if (!bounds) return "This rule has no threshold.";
  const span = `${formatThreshold(bounds.min)} to ${formatThreshold(bounds.max)}`;
  switch (kind) {
    case "score_drop":
      return `Points the score falls between two readings: ${span}.`;
    case "score_below":
      return `A score from ${span}.`;
    case "negative_mentions":
      return `A whole number of negative mentions in one day, ${span}.`;
    default:
      return `A per cent from ${span}.`;
  }
}

/**
 * What an alerts form or list says when a route refused or failed, by status, code and field (the
 * route's own message is for developers). `kind` is the rule's, for a refused threshold, or the
 * destination's, for a refused address.
 */
export function alertErrorText(error: ErrorFacts, subject: AlertSubject, kind?: RuleKind | DestinationKind): string {
  const { status, code, param } = error;
  if (status === 400 || code === "invalid_parameter") {
    switch (param) {
      case "kind":
        if (subject !== "destination") return "Choose what the rule watches from the list.";
        return kind === "email"
          ? "E-mail needs a mail server, and this dashboard has none set up (SMTP_URL). Choose Slack or Webhook, or ask whoever runs the dashboard to set one."
          : "Choose Slack, Webhook or E-mail.";
      case "name":
        return `Name the destination in 1 to ${formatNumber(ALERT_BOUNDS.nameMax)} characters.`;
      case "url":
        if (kind === "slack")
          return "Paste the address Slack gave for the channel's incoming webhook: it starts with https://hooks.slack.com/services/. For any other address, choose Webhook.";
        return "This address cannot receive alerts. Use a full web address, such as https://example.com/hooks; addresses on a private network or on the dashboard's own machine are refused.";
      case "to":
        return "Type one e-mail address, such as maria@example.com.";
      case "threshold":
        return kind && kind !== "slack" && kind !== "webhook" && kind !== "email" ? thresholdBoundsText(kind) : "Type a number for the threshold.";
      case "destination_id":
        return "Choose where the rule sends to. Add a destination first if there is none.";
      case "share_id":
        return "That share link no longer opens (it was revoked or has expired). Choose another one, or the dashboard pages.";
      case "cooldown_minutes":
        return `The cooldown is a whole number of minutes from 0 to ${formatNumber(ALERT_BOUNDS.cooldownMax)} (a week).`;
      default:
        return "The server could not read this form. Reload the page and try again.";
    }
  }
  if (code === "destination_unconfirmed")
    return "This address has not confirmed yet: nothing but the confirmation e-mail goes there until its recipient presses Confirm in it.";
  if (code === "destination_stopped") return "This destination is stopped, so nothing is sent there. Delete it and add it again to send there.";
  if (code === "digest_off") return "The digest goes nowhere yet: choose where it goes and save, then send it.";
  if (code === "limit_reached" || code === "too_many" || status === 422) {
    if (subject === "destination")
      return `This workspace already has ${formatNumber(ALERT_BOUNDS.destinations)} destinations, the most it may. Delete one to add another.`;
    if (subject === "rule") return `This workspace already has ${formatNumber(ALERT_BOUNDS.rules)} rules, the most it may. Delete one to add another.`;
  }
  if (status === 429 && subject === "destination") {
    const wait = error.retryAfter ? `in ${formatDuration(error.retryAfter)}` : "in a minute";
    return `This workspace added ${formatNumber(ALERT_BOUNDS.destinationsPerMinute)} destinations in the last minute, the most it may. Try again ${wait}.`;
  }
  if (code === "not_retryable") return "This delivery cannot be sent again: it was delivered, it is being tried again already, or its destination is stopped.";
  if (code === "queue_full")
    return `This destination already has ${formatNumber(ALERT_BOUNDS.waitingPerDestination)} deliveries waiting, the most it may. Retry when some have gone out.`;
  if ((subject === "test" || subject === "delivery" || subject === "digest") && (status === 429 || code === "too_many_requests")) {
    const wait = error.retryAfter ? `in ${formatDuration(error.retryAfter)}` : "in a minute";
    return `“Send a test”, “Retry” and the digest’s “Send now” can be used ${formatNumber(ALERT_BOUNDS.manualSendsPerMinute)} times a minute in a workspace, together. Try again ${wait}.`;
  }
  if (status === 404) {
    if (param === "destination_id") return "That destination was deleted meanwhile, perhaps by a teammate. Choose another.";
    if (subject === "rule") return "This rule was deleted meanwhile, perhaps by a teammate.";
    if (subject === "delivery") return "This delivery is no longer kept.";
    if (subject === "destination" || subject === "test") return "This destination was deleted meanwhile, perhaps by a teammate.";
  }
  // A key refused what the rule watches (the score, the ranking) is refused its kept history too.
  if (subject === "preview" && code === "forbidden")
    return "The key you signed in with has no access to what this rule watches, so its history is not shown either.";
  if (status === 403) return "Nothing was changed: reload this page and try again.";
  if (code === "store_unavailable" || status === 503) return "Alerts cannot be read or changed right now. Try again shortly.";
  return loadErrorText(error, subject === "preview" ? "the history for the preview" : "the alerts");
}
