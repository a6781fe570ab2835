import { describe, expect, it } from "vitest";
import { mentionPageParams, parseQuery, visitorListParams, visitorPageParams } from "@/lib/data-api/params";
import { insightsParams } from "@/lib/insights/schema";
import { ALERT_WRITE_LIMITS } from "@/lib/alerts/write-limit";
import { MAX_DESTINATIONS, MAX_RULES } from "@/lib/store/alerts";
import {
  ALERT_BOUNDS,
  alertErrorText,
  exportErrorText,
  filterProblemText,
  loadErrorText,
  noteErrorText,
  rangeProblemText,
  signInErrorText,
  thresholdBoundsText,
  tokenErrorText,
  type RangeField,
  type RangeProblem,
} from "./messages";

/** Words a developer would write and a marketer would not read: paths, status codes, API terms. */
const DEVELOPER_WORDS =
  /\/api|\/v1|\/visitors|\/intelligence|\bHTTP\b|\b[45]\d\d\b|ISO 8601|IANA|\bparam\b|must be|\bupstream\b|Data API|\bendpoint\b|\bquery\b|YYYY|\btz\b|\bnull\b|\bundefined\b/i;

const plain = (text: string) => {
  expect(text, text).not.toMatch(DEVELOPER_WORDS);
  expect(text.length).toBeGreaterThan(10);
  // A sentence people read starts with a capital and ends with a full stop.
  expect(text, text).toMatch(/^[A-Z“"].*\.$/s);
};

const FIELDS: RangeField[] = ["from", "to", "tz"];
const PROBLEMS: RangeProblem[] = ["missing", "not_a_date", "backwards", "too_long", "mixed", "unknown_zone"];

describe("range fields say what is wrong and what to do", () => {
  it.each(FIELDS.flatMap((f) => PROBLEMS.map((p) => [f, p] as const)))("%s, %s", (field, problem) => {
    plain(rangeProblemText(field, problem));
  });

  it("a date that is not one shows an example of the form to type, for its own end", () => {
    expect(rangeProblemText("from", "not_a_date")).toBe("This start date is not a date the dashboard can use. Type it as year-month-day, e.g. 2026-11-01.");
    expect(rangeProblemText("to", "not_a_date")).toContain("end date");
    expect(rangeProblemText("from", "backwards")).toBe("The start date is after the end date. Swap them, or pick another date.");
    expect(rangeProblemText("from", "too_long")).toContain("366 days");
  });

  it("the reasons the routes' schema gives are the ones worded here (an unworded reason would fall back to 'not a date')", () => {
    // The schema the API answers with: its messages stay precise for developers…
    const backwards = parseQuery(visitorListParams, { from: "2026-11-10", to: "2026-11-01" });
    expect(backwards).toMatchObject({ success: false, param: "to", message: "to must not be earlier than from" });
    const tooLong = parseQuery(insightsParams, { from: "2024-01-01", to: "2026-11-01" });
    expect(tooLong).toMatchObject({ success: false, param: "from" });
    // …and the UI never shows them.
    if (!backwards.success) expect(rangeProblemText("to", "backwards")).not.toContain(backwards.message);
  });
});

describe("filter fields refused by a route", () => {
  // The list pages' own parameters: the Data API's and the ones the dashboard filters by itself.
  const params = [...new Set([...Object.keys(visitorPageParams.shape), ...Object.keys(mentionPageParams.shape), "tz", "format", "something_new"])];
  it.each(params)("%s", (param) => {
    plain(filterProblemText(param));
  });

  it("never repeats the route's message", () => {
    const refused = parseQuery(visitorListParams, { source: "myspace" });
    expect(refused.success).toBe(false);
    if (!refused.success) {
      expect(refused.message).toMatch(/source must be one of/);
      expect(filterProblemText(refused.param)).toBe("This source is not one the dashboard knows. Choose one from the list.");
    }
  });
});

/** Every error a widget can get: the BFF's codes by status, and the browser's own (status 0). */
const ERRORS = [
  { status: 0, code: "network_error" },
  { status: 400, code: "invalid_parameter", param: "source" },
  { status: 400, code: "invalid_parameter", param: "from" },
  { status: 401, code: "session_expired" },
  { status: 404, code: "not_found" },
  { status: 499, code: "client_closed_request" },
  { status: 500, code: "internal_error" },
  { status: 502, code: "upstream_error" },
  { status: 502, code: "network_error" },
  { status: 502, code: "unexpected_response" },
  { status: 502, code: "redirect_rejected" },
  { status: 503, code: "rate_limited", retryAfter: 38 },
  { status: 503, code: "rate_limited" },
  { status: 503, code: "listing_changed" },
  { status: 422, code: "listing_too_large" },
  { status: 503, code: "not_configured" },
  { status: 504, code: "upstream_timeout" },
  { status: 418, code: "http_error" },
];

describe("widget errors", () => {
  it.each(ERRORS)("$status $code", (error) => {
    plain(loadErrorText(error, "the ranking"));
  });

  it("tells the causes apart", () => {
    expect(loadErrorText({ status: 503, code: "rate_limited", retryAfter: 38 }, "x")).toBe(
      "This workspace has used up its requests for the moment. Try again in 38 s.",
    );
    expect(loadErrorText({ status: 0, code: "network_error" }, "x")).toMatch(/dashboard's server could not be reached/);
    expect(loadErrorText({ status: 502, code: "network_error" }, "x")).toMatch(/Workspace Analytics could not be reached/);
    expect(loadErrorText({ status: 400, code: "invalid_parameter", param: "limit" }, "x")).toBe("Show between 1 and 100 rows per page.");
    // A list or an insight over the listing cap asks for what helps: a shorter range.
    expect(loadErrorText({ status: 422, code: "listing_too_large" }, "mentions")).toBe(
      "This range holds more data than the dashboard goes through at once. Choose a shorter range.",
    );
    expect(filterProblemText("query")).toMatch(/^Type the question .* 1 to 1,000 characters/);
  });
});

describe("access token failures", () => {
  it.each([
    { status: 400, code: "invalid_parameter", param: "name" },
    { status: 400, code: "invalid_parameter", param: "expires_at" },
    { status: 400, code: "invalid_parameter", param: "body" },
    { status: 409, code: "watching_required" },
    { status: 422, code: "limit_reached" },
    { status: 404, code: "not_found" },
    { status: 401, code: "unauthorized" },
    { status: 403, code: "csrf_rejected" },
    ...ERRORS,
  ])("$status $code $param", (error) => {
    plain(tokenErrorText(error));
  });
});

describe("sign-in failures", () => {
  it.each([
    { status: 400, code: "invalid_parameter" },
    { status: 401, code: "invalid_key" },
    { status: 403, code: "csrf_rejected" },
    { status: 404, code: "demo_unavailable" },
    { status: 413, code: "payload_too_large" },
    { status: 429, code: "too_many_attempts", retryAfter: 42 },
    { status: 502, code: "network_error" },
    { status: 502, code: "upstream_error" },
    { status: 503, code: "rate_limited" },
    { status: 504, code: "upstream_timeout" },
  ])("$status $code", (error) => {
    const { title, message } = signInErrorText(error);
    expect(title).not.toMatch(DEVELOPER_WORDS);
    plain(message);
  });

  it("puts a bad key's problem on the key field, and a wait in seconds", () => {
    expect(signInErrorText({ status: 401, code: "invalid_key" })).toMatchObject({ title: "Key rejected", field: true });
    expect(signInErrorText({ status: 503, code: "rate_limited" })).toMatchObject({ title: "Workspace Analytics is busy", field: false });
    expect(signInErrorText({ status: 429, code: "too_many_attempts", retryAfter: 42 }).message).toBe("Too many sign-ins failed from here. Try again in 42 s.");
  });
});

describe("export failures in the tray", () => {
  it.each([
    "export_too_large",
    "too_many_exports",
    "download_stopped",
    "download_idle",
    "export_lost",
    "export_failed",
    "upstream_error",
    "rate_limited",
    "unexpected_response",
    "session_expired",
    "whatever",
  ])("%s", (code) => {
    plain(exportErrorText({ code }));
  });

  it("says an upstream failure is the Data API's, and an idle download why it ended", () => {
    expect(exportErrorText({ code: "upstream_error" })).toBe("Workspace Analytics had a problem. Try again shortly.");
    expect(exportErrorText({ code: "download_idle" })).toMatch(/^The download stopped moving/);
  });
});

describe("a note that could not be saved", () => {
  it.each([
    [{ status: 400, code: "invalid_parameter", param: "date" }, /year-month-day/],
    [{ status: 400, code: "invalid_parameter", param: "end_date" }, /before the first day/],
    [{ status: 400, code: "invalid_parameter", param: "text" }, /1 to 280 characters/],
    [{ status: 400, code: "invalid_parameter", param: "author" }, /80 characters/],
    [{ status: 400, code: "invalid_parameter", param: "body" }, /Reload/],
    [{ status: 404, code: "not_found" }, /deleted meanwhile/],
    [{ status: 422, code: "limit_reached" }, /1,000 notes/],
    [{ status: 403, code: "csrf_rejected" }, /reload this page/],
    [{ status: 503, code: "store_unavailable" }, /right now/],
    [{ status: 0, code: "network_error" }, /could not be reached/],
  ])("%o is said in plain words", (facts, words) => {
    const text = noteErrorText(facts);
    plain(text);
    expect(text).toMatch(words);
  });
});

describe("alerts: a refused or failed write, said by field, code and status", () => {
  it.each([
    [{ status: 400, code: "invalid_parameter", param: "kind" }, "destination", /^Choose Slack, Webhook or E-mail\.$/],
    [{ status: 400, code: "invalid_parameter", param: "to" }, "destination", /^Type one e-mail address, such as maria@example\.com\.$/],
    [{ status: 409, code: "destination_unconfirmed" }, "test", /has not confirmed yet/],
    [{ status: 400, code: "invalid_parameter", param: "kind" }, "rule", /what the rule watches/],
    [{ status: 400, code: "invalid_parameter", param: "name" }, "destination", /1 to 80 characters/],
    [{ status: 400, code: "invalid_parameter", param: "url" }, "destination", /private network/],
    [{ status: 400, code: "invalid_parameter", param: "threshold" }, "rule", /Type a number/],
    [{ status: 400, code: "invalid_parameter", param: "destination_id" }, "rule", /Choose where the rule sends/],
    [{ status: 400, code: "invalid_parameter", param: "cooldown_minutes" }, "rule", /0 to 10,080/],
    [{ status: 400, code: "invalid_parameter", param: "body" }, "digest", /Reload/],
    [{ status: 422, code: "limit_reached" }, "destination", /20 destinations/],
    [{ status: 422, code: "limit_reached" }, "rule", /50 rules/],
    [{ status: 409, code: "not_retryable" }, "delivery", /cannot be sent again/],
    [{ status: 409, code: "queue_full" }, "delivery", /^This destination already has 100 deliveries waiting/],
    [
      { status: 429, code: "too_many_requests", retryAfter: 45 },
      "test",
      /^“Send a test”, “Retry” and the digest’s “Send now” can be used 10 times a minute in a workspace, together\. Try again in 45 s(econds)?\.$/,
    ],
    [{ status: 429, code: "too_many_requests" }, "digest", /10 times a minute.*Try again in a minute\.$/],
    [{ status: 409, code: "digest_off" }, "digest", /^The digest goes nowhere yet: choose where it goes and save, then send it\.$/],
    [{ status: 429, code: "too_many_requests" }, "delivery", /10 times a minute.*Try again in a minute\.$/],
    [{ status: 409, code: "destination_stopped" }, "test", /stopped/],
    [{ status: 404, code: "not_found", param: "destination_id" }, "rule", /Choose another/],
    [{ status: 404, code: "not_found" }, "rule", /rule was deleted meanwhile/],
    [{ status: 404, code: "not_found" }, "test", /destination was deleted meanwhile/],
    [{ status: 404, code: "not_found" }, "delivery", /no longer kept/],
    [{ status: 403, code: "csrf_rejected" }, "destination", /reload this page/],
    [{ status: 403, code: "forbidden" }, "preview", /no access to what this rule watches/],
    [{ status: 503, code: "store_unavailable" }, "rule", /right now/],
    [{ status: 401, code: "session_expired" }, "preview", /Sign in again/],
    [{ status: 0, code: "network_error" }, "digest", /could not be reached/],
  ] as const)("%o (%s) is said in plain words", (facts, subject, words) => {
    const text = alertErrorText(facts, subject);
    plain(text);
    expect(text).toMatch(words);
  });

  it("e-mail chosen without a mail server is said to need one, never as a bad choice", () => {
    const text = alertErrorText({ status: 400, code: "invalid_parameter", param: "kind" }, "destination", "email");
    plain(text);
    expect(text).toMatch(/^E-mail needs a mail server/);
    expect(text).toContain("SMTP_URL");
  });

  it("the bounds it names are the store's and the routes' own", () => {
    expect(ALERT_BOUNDS).toMatchObject({ destinations: MAX_DESTINATIONS, rules: MAX_RULES, destinationsPerMinute: ALERT_WRITE_LIMITS.destination.points });
    expect(ALERT_WRITE_LIMITS.destination.durationSec).toBe(60);
  });

  it("a refused address is said for the kind of destination being added; too many additions say when to try again", () => {
    const url = { status: 400, code: "invalid_parameter", param: "url" };
    const slack = alertErrorText(url, "destination", "slack");
    plain(slack);
    expect(slack).toMatch(/https:\/\/hooks\.slack\.com\/services\/\. For any other address, choose Webhook\.$/);
    expect(alertErrorText(url, "destination", "webhook")).toMatch(/private network/);
    const tooMany = alertErrorText({ status: 429, code: "too_many_requests", retryAfter: 42 }, "destination");
    plain(tooMany);
    expect(tooMany).toMatch(/^This workspace added 10 destinations in the last minute, the most it may\. Try again in 42 s/);
  });

  it("a refused threshold says the bounds of the rule's own kind, as its hint does", () => {
    const refused = { status: 400, code: "invalid_parameter", param: "threshold" };
    for (const kind of ["score_drop", "score_below", "negative_mentions", "ai_visitors_drop", "conversions_drop"] as const) {
      expect(alertErrorText(refused, "rule", kind)).toBe(thresholdBoundsText(kind));
      plain(thresholdBoundsText(kind));
    }
    expect(thresholdBoundsText("score_drop")).toBe("Points the score falls between two readings: 0.1 to 100.");
    expect(thresholdBoundsText("negative_mentions")).toBe("A whole number of negative mentions in one day, 1 to 1,000,000.");
    expect(thresholdBoundsText("conversions_drop")).toBe("A per cent from 1 to 100.");
  });
});
