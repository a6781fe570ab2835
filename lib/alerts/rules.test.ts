// How each kind of rule judges kept history: the score's fall between two readings and its value
// against a line; a competitor passing us (and staying ahead) in the ranking; a day's negative
// mentions; a day's AI visitors or conversions against the average of the seven days before (not
// judged on fewer than three of them); thresholds checked per kind; the cooldown; and the preview,
// which replays the same judgements.
import { describe, expect, it } from "vitest";
import type { RankingEntry, RankingSnapshot, ScoreSnapshot } from "@/lib/store/snapshots";
import { checkThreshold, judgeDay, judgeRanking, judgeScore, previewFirings, replay, shouldNotify, type DayFigures } from "./rules";

const H = 3_600_000;
const T = Date.parse("2026-11-20T06:00:00Z");
const score = (at: number, value: number | null): ScoreSnapshot => ({
  at,
  recordedAt: at,
  score: value,
  direction: null,
  change: null,
  breakdown: { visibility: null, sentiment: null, authority: null, coverage: null },
});
const entry = (name: string, rank: number, us = false): RankingEntry => ({ name, rank, score: 80 - rank, change: null, is_workspace: us });
const ranking = (at: number, order: string[]): RankingSnapshot => ({ at, recordedAt: at, entries: order.map((n, i) => entry(n, i + 1, n === "Us")) });
const day = (date: string, f: Partial<DayFigures>): DayFigures => ({ date, aiVisitors: null, conversions: null, negativeMentions: null, ...f });

describe("alert rules", () => {
  it("score_drop fires on a fall of at least N points since the reading before, and says from what to what", () => {
    const scores = [score(T, 70), score(T + 24 * H, 64.5), score(T + 48 * H, 66)];
    const rule = { kind: "score_drop" as const, threshold: 5 };
    expect(judgeScore(rule, scores, 0, "UTC")).toBeUndefined();
    const fell = judgeScore(rule, scores, 1, "UTC")!;
    expect(fell).toMatchObject({ state: "firing", value: 64.5, previous: 70, basis: `score:${T + 24 * H}` });
    expect(fell.message).toMatch(/fell 5\.5 points, from 70\.0 to 64\.5/);
    expect(fell.link).toEqual({ path: "/intelligence", query: { from: "2026-11-15", to: "2026-11-21", tz: "UTC" } });
    expect(judgeScore(rule, scores, 2, "UTC")).toMatchObject({ state: "ok", previous: 64.5 });
    // A fall of 4.9 is not 5.
    expect(judgeScore(rule, [score(T, 70), score(T + H, 65.1)], 1, "UTC")!.state).toBe("ok");
    // An unreadable reading is skipped, not taken for zero.
    expect(judgeScore(rule, [score(T, 70), score(T + H, null)], 1, "UTC")).toBeUndefined();
    expect(judgeScore(rule, [score(T, 70), score(T + H, null), score(T + 2 * H, 60)], 2, "UTC")).toMatchObject({ state: "firing", previous: 70 });
  });

  it("score_below fires below the line and resolves at or above it", () => {
    const rule = { kind: "score_below" as const, threshold: 60 };
    expect(judgeScore(rule, [score(T, 59.9)], 0, "UTC")).toMatchObject({ state: "firing", value: 59.9 });
    expect(judgeScore(rule, [score(T, 60)], 0, "UTC")).toMatchObject({ state: "ok" });
  });

  it("rank_passed fires when one behind us is now ahead, stays firing while they are, and resolves when we are ahead again", () => {
    const rankings = [
      ranking(T, ["A", "Us", "B", "C"]),
      ranking(T + H, ["A", "B", "Us", "C"]),
      ranking(T + 2 * H, ["B", "A", "Us", "C"]),
      ranking(T + 3 * H, ["A", "Us", "B", "C"]),
    ];
    const passed = judgeRanking(rankings, 1, "UTC", null)!;
    expect(passed).toMatchObject({ state: "firing", value: 3, previous: 2, detail: { passers: ["B"] } });
    expect(passed.message).toMatch(/^B \(2nd, score 78\.0\) passed us in the AI ranking: we are 3rd now, 2nd at the reading of 2026-11-20/);
    // A competitor that was already ahead moving around us is no passing; B is still ahead.
    const still = judgeRanking(rankings, 2, "UTC", passed.detail)!;
    expect(still).toMatchObject({ state: "firing", detail: { passers: ["B"] } });
    expect(still.message).toMatch(/Still behind B/);
    expect(judgeRanking(rankings, 3, "UTC", still.detail)).toMatchObject({ state: "ok", detail: null, value: 2 });
    // Without us in the ranking there is nothing to judge.
    expect(judgeRanking([ranking(T, ["A", "B"]), ranking(T + H, ["B", "A"])], 1, "UTC", null)).toBeUndefined();
  });

  it("negative_mentions fires on a day with N or more, linking to that day's negative mentions", () => {
    const rule = { kind: "negative_mentions" as const, threshold: 10 };
    const days = [day("2026-11-18", { negativeMentions: 9 }), day("2026-11-19", { negativeMentions: 10 })];
    expect(judgeDay(rule, days, 0, "Europe/Berlin", T)).toMatchObject({ state: "ok", value: 9 });
    const fired = judgeDay(rule, days, 1, "Europe/Berlin", T)!;
    expect(fired).toMatchObject({
      state: "firing",
      value: 10,
      basis: "day:2026-11-19",
      link: { path: "/mentions", query: { sentiment: "negative", from: "2026-11-19", to: "2026-11-19", tz: "Europe/Berlin" } },
    });
    expect(fired.message).toBe("10 negative mentions by AI platforms on 2026-11-19, at or above the 10 you set.");
  });

  it("ai_visitors_drop and conversions_drop compare a day with the average of the 7 days before that have figures (3 at least)", () => {
    const week = ["2026-11-12", "2026-11-13", "2026-11-14", "2026-11-15", "2026-11-16", "2026-11-17", "2026-11-18"].map((d) =>
      day(d, { aiVisitors: 100, conversions: 10 }),
    );
    const days = [day("2026-11-01", { aiVisitors: 1_000_000 }), ...week, day("2026-11-19", { aiVisitors: 60, conversions: 9 })];
    const drop = judgeDay({ kind: "ai_visitors_drop", threshold: 40 }, days, days.length - 1, "UTC", T)!;
    expect(drop).toMatchObject({ state: "firing", value: 60, previous: 100 });
    expect(drop.message).toMatch(/^AI visitors on 2026-11-19: 60, 40\.0% below the average of the 7 days before \(100\.0\)/);
    expect(judgeDay({ kind: "ai_visitors_drop", threshold: 41 }, days, days.length - 1, "UTC", T)!.state).toBe("ok");
    expect(drop.message).toMatch(/beyond normal variation \(one-sided binomial test, p < 0\.001\)\.$/);
    // 9 conversions against 10 a day is past a 10% threshold, but chance alone does that (p = 0.46): held back.
    const quiet = judgeDay({ kind: "conversions_drop", threshold: 10 }, days, days.length - 1, "UTC", T)!;
    expect(quiet).toMatchObject({ state: "ok", value: 9, heldBack: true, link: { path: "/visitors", query: { converted: "true" } } });
    expect(quiet.message).toMatch(/past the 10% you set, but within normal variation \(one-sided binomial test, p = 0\.4\d\), so it is held back\.$/);
    // 2 against 10 a day is beyond it: it fires.
    const fell = [...days.slice(0, -1), day("2026-11-19", { aiVisitors: 60, conversions: 2 })];
    expect(judgeDay({ kind: "conversions_drop", threshold: 10 }, fell, fell.length - 1, "UTC", T)).toMatchObject({ state: "firing", value: 2 });
    expect(judgeDay({ kind: "conversions_drop", threshold: 10 }, fell, fell.length - 1, "UTC", T)).not.toHaveProperty("heldBack");
    // Two days before with figures are too few to say what is normal.
    const sparse = [day("2026-11-17", { aiVisitors: 100 }), day("2026-11-18", { aiVisitors: 100 }), day("2026-11-19", { aiVisitors: 1 })];
    expect(judgeDay({ kind: "ai_visitors_drop", threshold: 10 }, sparse, 2, "UTC", T)).toBeUndefined();
  });

  it("thresholds are checked per kind", () => {
    expect(checkThreshold("score_drop", 5)).toEqual({ threshold: 5 });
    expect(checkThreshold("score_drop", 0)).toHaveProperty("error");
    expect(checkThreshold("score_below", "60")).toHaveProperty("error");
    expect(checkThreshold("negative_mentions", 2.5)).toEqual({ error: expect.stringMatching(/whole number/) });
    expect(checkThreshold("ai_visitors_drop", 101)).toHaveProperty("error");
    expect(checkThreshold("conversions_drop", Number.NaN)).toHaveProperty("error");
    expect(checkThreshold("rank_passed", "anything")).toEqual({ threshold: null });
  });

  it("a state is sent when it differs from the last one sent and the cooldown has passed", () => {
    expect(shouldNotify("ok", { state: null, at: null }, 0, T)).toBe(false);
    expect(shouldNotify("firing", { state: null, at: null }, H, T)).toBe(true);
    expect(shouldNotify("firing", { state: "firing", at: T }, 0, T + 10 * H)).toBe(false);
    expect(shouldNotify("ok", { state: "firing", at: T }, H, T + H - 1)).toBe(false);
    expect(shouldNotify("ok", { state: "firing", at: T }, H, T + H)).toBe(true);
  });

  it("the preview replays the judgements with the cooldown: a flapping score within it fires once", () => {
    const values = [70, 60, 70, 60, 70, 60];
    const scores = values.map((v, i) => score(T + i * 10 * 60_000, v));
    const rule = { kind: "score_below" as const, threshold: 65 };
    const judgements = replay(rule, { scores, rankings: [], days: [] }, "UTC", () => T);
    expect(judgements).toHaveLength(6);
    expect(previewFirings({ ...rule, cooldownMs: 0 }, judgements).fired).toHaveLength(3);
    expect(previewFirings({ ...rule, cooldownMs: H }, judgements).fired).toHaveLength(1);
  });
});
