// What the alerts' cards say, from the data alone: the preview's sentence in each case the route can
// answer, a rule in words, its state (never "OK" before a check) and when one not checked yet will
// be, the digest's time in its zone and the reader's, a cooldown, a delivery's answer, what deleting
// a destination takes with it, when the deliveries are polled, and which form field a refusal is about.
import { describe, expect, it } from "vitest";
import { DataApiError } from "@/lib/data-api/errors";
import { deliveriesNeedPolling, previewUrl, type Delivery } from "@/lib/queries/alerts";
import {
  cooldownText,
  digestTimeText,
  fieldOf,
  previewSentence,
  problemText,
  responseText,
  RULE_STATES,
  ruleSentence,
  ruleState,
  uncheckedText,
} from "./alert-text";
import { deletionConsequences } from "./destinations-card";
import { parseThreshold } from "./rules-card";

describe("the preview's sentence", () => {
  const base = { days: 30, firings: [], history_since: "2026-10-01T00:00:00Z" };
  it("counts the firings in the window, with the checks it rests on", () => {
    expect(previewSentence({ ...base, fired: 3, checks: 30 }, "UTC")).toBe("Would have fired 3 times in the last 30 days (30 checks of the kept history).");
    expect(previewSentence({ ...base, fired: 1, checks: 1 }, "UTC")).toBe("Would have fired once in the last 30 days (1 check of the kept history).");
    expect(previewSentence({ ...base, fired: 0, checks: 12 }, "UTC")).toBe("Would not have fired in the last 30 days (12 checks of the kept history).");
  });
  it("counts the drops the test of chance held back, once there are any", () => {
    expect(previewSentence({ ...base, fired: 1, checks: 30, held_back: 3 }, "UTC")).toBe(
      "Would have fired once in the last 30 days (30 checks of the kept history). 3 more days fell past the threshold within normal variation, and were held back.",
    );
    expect(previewSentence({ ...base, fired: 0, checks: 30, held_back: 1 }, "UTC")).toBe(
      "Would not have fired in the last 30 days (30 checks of the kept history). One more day fell past the threshold within normal variation, and was held back.",
    );
    expect(previewSentence({ ...base, fired: 0, checks: 30, held_back: 0 }, "UTC")).toBe(
      "Would not have fired in the last 30 days (30 checks of the kept history).",
    );
  });
  it("says the history is too short when nothing could be checked, with its first day in the zone", () => {
    expect(previewSentence({ ...base, history_since: "2026-11-19T23:30:00Z", fired: 0, checks: 0 }, "Europe/Berlin")).toBe(
      "History begins on 20 Nov 2026, too short to say how often it would have fired.",
    );
    expect(previewSentence({ ...base, history_since: null, fired: 0, checks: 0 }, "UTC")).toBe(
      "No history is kept yet, too short to say how often it would have fired.",
    );
  });
});

describe("a rule's state in words", () => {
  const at = "2026-11-20T12:00:00.000Z";
  it("a rule never checked is not checked yet, never OK, whatever its stored state; after a check it is OK, firing or resolved", () => {
    const said = (rule: { state: "ok" | "firing"; last_checked_at: string | null; last_changed_at: string | null }) => RULE_STATES[ruleState(rule)].text;
    expect(said({ state: "ok", last_checked_at: null, last_changed_at: null })).toBe("Not checked yet");
    // Its threshold changed since it fired: not checked under the new one yet.
    expect(said({ state: "firing", last_checked_at: null, last_changed_at: at })).toBe("Not checked yet");
    expect(said({ state: "ok", last_checked_at: at, last_changed_at: null })).toBe("OK");
    expect(said({ state: "firing", last_checked_at: at, last_changed_at: at })).toBe("Firing");
    expect(said({ state: "ok", last_checked_at: at, last_changed_at: at })).toBe("Resolved");
  });

  it("one not checked yet says what it is checked against and when that is next read, in the reader's zone", () => {
    const now = new Date("2026-11-20T12:10:00Z");
    expect(uncheckedText({ kind: "score_below", next_check_at: "2026-11-20T13:00:00.000Z" }, "Europe/Berlin", now)).toBe(
      "It is checked against each new score the dashboard keeps. It reads the score next at 14:00 today (Berlin time).",
    );
    expect(uncheckedText({ kind: "score_drop", next_check_at: "2026-11-20T13:00:00.000Z" }, "UTC", now)).toBe(
      "It is checked against each new score the dashboard keeps (a fall needs two). It reads the score next at 13:00 today (UTC).",
    );
    expect(uncheckedText({ kind: "conversions_drop", next_check_at: "2026-11-21T01:00:00.000Z" }, "Europe/Berlin", now)).toBe(
      "It is checked against each closed day's figures the dashboard keeps (a fall needs 3 of the 7 days before). It keeps the day's figures next at 21 Nov 2026, 02:00 (Berlin time).",
    );
    // Not watched: nothing is read on a schedule.
    expect(uncheckedText({ kind: "rank_passed", next_check_at: null }, "UTC", now)).toBe(
      "It is checked against each new ranking the dashboard keeps (a pass needs two). Until it watches this workspace, it reads the ranking only when someone opens a page that shows it.",
    );
    expect(uncheckedText({ kind: "negative_mentions", next_check_at: null }, "UTC", now)).toBe(
      "It is checked against each closed day's figures the dashboard keeps. Until it watches this workspace, it keeps and checks a day's figures only when someone opens the dashboard.",
    );
  });
});

describe("the digest's time", () => {
  it("in the digest's zone, and in the reader's when another (with the reader's day when that differs)", () => {
    const next = "2026-11-30T09:00:00.000Z";
    expect(digestTimeText(next, "UTC", "UTC")).toBe("Monday 30 Nov 2026 at 09:00 (UTC)");
    expect(digestTimeText(next, "UTC", "Europe/Berlin")).toBe("Monday 30 Nov 2026 at 09:00 UTC, 10:00 your time (Berlin time)");
    // 09:00 in Berlin is 03:00 in Chicago, and Sunday evening in Honolulu.
    expect(digestTimeText("2026-11-30T08:00:00.000Z", "Europe/Berlin", "America/Chicago")).toBe(
      "Monday 30 Nov 2026 at 09:00 Berlin time, 02:00 your time (Chicago time)",
    );
    expect(digestTimeText("2026-11-30T08:00:00.000Z", "Europe/Berlin", "Pacific/Honolulu")).toBe(
      "Monday 30 Nov 2026 at 09:00 Berlin time, Sunday 29 Nov 2026, 22:00 your time (Honolulu time)",
    );
    // Another name for the same clock then is said once.
    expect(digestTimeText("2026-11-30T08:00:00.000Z", "Europe/Berlin", "Europe/Paris")).toBe("Monday 30 Nov 2026 at 09:00 (Berlin time)");
  });
});

describe("a rule in words", () => {
  it("fills the threshold as typed, and leaves it out where the kind ignores it", () => {
    expect(ruleSentence({ kind: "score_drop", threshold: 5 })).toBe("The score falls by 5 points or more since the previous snapshot");
    expect(ruleSentence({ kind: "ai_visitors_drop", threshold: 12.5 })).toBe(
      "AI visitors of a day fall 12.5% or more below the previous 7 days' average, beyond normal variation",
    );
    expect(ruleSentence({ kind: "rank_passed", threshold: null })).toBe("A competitor passes us in the ranking");
  });
  it("a cooldown in the largest whole unit", () => {
    expect([0, 45, 60, 90, 120, 1440, 10080].map(cooldownText)).toEqual(["no cooldown", "45 minutes", "1 hour", "90 minutes", "2 hours", "1 day", "7 days"]);
  });
  it("the threshold typed: nothing is null, what is not a number NaN (the route says why)", () => {
    expect(parseThreshold(" 7.5 ")).toBe(7.5);
    expect(parseThreshold("")).toBeNull();
    expect(parseThreshold("abc")).toBeNaN();
  });
  it("the preview asks without a threshold for a kind that ignores it, and with the cooldown when one is typed", () => {
    expect(previewUrl({ kind: "rank_passed", threshold: null, cooldown_minutes: null })).toBe("/api/alerts/rules/preview?kind=rank_passed");
    expect(previewUrl({ kind: "score_below", threshold: 40, cooldown_minutes: 0 })).toBe(
      "/api/alerts/rules/preview?kind=score_below&threshold=40&cooldown_minutes=0",
    );
  });
});

describe("deleting a destination says what goes with it", () => {
  it("its rules and the digest, asked before and said after", () => {
    expect(deletionConsequences(2, true)).toBe("Its 2 rules are deleted too, and the weekly digest is turned off.");
    expect(deletionConsequences(1, false)).toBe("Its rule is deleted too.");
    expect(deletionConsequences(0, true, true)).toBe("The weekly digest went there: it was turned off.");
    expect(deletionConsequences(3, false, true)).toBe("Its 3 rules were deleted too.");
    expect(deletionConsequences(0, false)).toBe("No rule and no digest sends to it.");
    expect(deletionConsequences(0, false, true)).toBe("");
  });
});

const delivery = (over: Partial<Delivery>): Delivery => ({
  id: "del_1",
  destination_id: "dst_1",
  destination_name: "Ops",
  type: "test",
  attempt: 1,
  status: "delivered",
  response_status: 200,
  error: null,
  at: "2026-11-20T12:00:00Z",
  next_attempt_at: null,
  retryable: false,
  ...over,
});

describe("deliveries", () => {
  it("are polled while one is being retried, or a test sent from this tab is not listed yet, and not otherwise", () => {
    const done = [delivery({}), delivery({ id: "del_2", status: "failed", response_status: 500 })];
    expect(deliveriesNeedPolling(undefined, new Set(["del_9"]))).toBe(false);
    expect(deliveriesNeedPolling(done, new Set())).toBe(false);
    expect(deliveriesNeedPolling(done, new Set(["del_2"]))).toBe(false);
    expect(deliveriesNeedPolling(done, new Set(["del_9"]))).toBe(true);
    expect(deliveriesNeedPolling([...done, delivery({ id: "del_3", status: "retrying" })], new Set())).toBe(true);
    // An earlier attempt of a delivery whose latest attempt was delivered keeps no polling going.
    expect(
      deliveriesNeedPolling(
        [delivery({ id: "del_4", attempt: 2 }), delivery({ id: "del_4", attempt: 1, status: "retrying", response_status: 503 })],
        new Set(),
      ),
    ).toBe(false);
  });
  it("an answer reads as its code, with the error when there is one", () => {
    expect(responseText(delivery({}))).toBe("HTTP 200");
    expect(responseText(delivery({ response_status: 503, error: "Service Unavailable" }))).toBe("HTTP 503, Service Unavailable");
    expect(responseText(delivery({ response_status: null, error: "timed out after 10 s" }))).toBe("timed out after 10 s");
    expect(responseText(delivery({ response_status: null, error: null }))).toBe("No answer");
  });
});

describe("refusals", () => {
  const refused = new DataApiError({ status: 400, code: "invalid_parameter", message: "Private addresses are refused.", param: "url" });
  it("name the form's field when it is one of its own, else none", () => {
    expect(fieldOf(refused, ["kind", "name", "url"] as const)).toBe("url");
    expect(fieldOf(refused, ["threshold"] as const)).toBeNull();
    expect(fieldOf(new Error("x"), ["url"] as const)).toBeNull();
  });
  it("read in the dashboard's own words (lib/ui/messages.ts), never the route's message", () => {
    expect(problemText(refused, "destination")).toBe(
      "This address cannot receive alerts. Use a full web address, such as https://example.com/hooks; addresses on a private network or on the dashboard's own machine are refused.",
    );
    const threshold = new DataApiError({ status: 400, code: "invalid_parameter", message: "threshold must be > 0", param: "threshold" });
    expect(problemText(threshold, "rule", "score_drop")).toBe("Points the score falls between two readings: 0.1 to 100.");
    expect(problemText(new TypeError("x"), "rule")).toBe("Something went wrong. Try again.");
  });
});
