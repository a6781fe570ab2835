// The score and ranking over time, read over real HTTP a day at a time through /sandbox/clock as a
// history collector would: consistent with each other every day, deterministic across restarts, and
// moving enough to matter (rank changes, a competitor passing us, a drop of 5+ points in a day).
// A sweep of the generator itself shows the last holds for every 90-day window, not only this one.
import { describe, expect, it } from "vitest";
import { BRAND } from "./catalog";
import type { ClockJson } from "./clock";
import { DEFAULT_SEED } from "./config";
import { rankingAt, scoreAt, TREND_INTERVALS, type RankingJson, type ScoreJson } from "./intelligence";
import { startSandbox } from "./server";
import { api, fileSandbox, TEST_NOW } from "./test-client";
import type { Sandbox } from "./types";

const DAY = 86_400_000;
const NOW_MS = Date.parse(TEST_NOW);
const sb = fileSandbox({ visitors: 500, clock: () => NOW_MS }); // the wall clock stands still

async function setClock(sandbox: Sandbox, body: Record<string, unknown>): Promise<ClockJson> {
  const res = await fetch(`${sandbox.url}/sandbox/clock`, { method: "POST", body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as ClockJson;
}

type Day = { score: ScoreJson; ranking: RankingJson; scoreText: string; rankingText: string };

async function readDay(sandbox: Sandbox): Promise<Day> {
  const [score, ranking] = await Promise.all([api<ScoreJson>(sandbox, "/intelligence/score"), api<RankingJson>(sandbox, "/intelligence/ranking")]);
  expect(score.status).toBe(200);
  expect(ranking.status).toBe(200);
  return { score: score.body, ranking: ranking.body, scoreText: score.text, rankingText: ranking.text };
}

/** Days on which our rank differs from the day before, and days a competitor below us the day before is above us. */
function rankMoves(rankings: RankingJson[]): { changes: number; passed: number } {
  let changes = 0;
  let passed = 0;
  rankings.forEach((r, d) => {
    if (d === 0) return;
    const prev = rankings[d - 1]!;
    const mine = r.data.find((e) => e.is_workspace)!;
    const prevMine = prev.data.find((e) => e.is_workspace)!;
    if (mine.rank !== prevMine.rank) changes++;
    const belowBefore = new Set(prev.data.filter((e) => e.rank > prevMine.rank).map((e) => e.name));
    if (r.data.some((e) => e.rank < mine.rank && belowBefore.has(e.name))) passed++;
  });
  return { changes, passed };
}

const largestDailyDrop = (scores: number[]) => Math.max(...scores.slice(1).map((s, d) => scores[d]! - s));

describe("the score and ranking over the 90 days up to now", () => {
  it("agree every day, change over 30 days as their trend and change say, and move: rank changes, a pass, a 5-point drop", async () => {
    await setClock(sb(), { advance_ms: -89 * DAY });
    const days: Day[] = [];
    for (let d = 0; d < 90; d++) {
      if (d % 20 === 0) sb().reset(); // the wall clock stands still: keep under the per-second burst
      if (d > 0) await setClock(sb(), { advance_ms: DAY });
      days.push(await readDay(sb()));
    }
    days.forEach(({ score, ranking }, d) => {
      const dayStart = new Date(Math.floor((NOW_MS - (89 - d) * DAY) / DAY) * DAY).toISOString();
      expect(score.updated_at).toBe(dayStart);
      expect(ranking.updated_at).toBe(dayStart);
      const parts = Object.values(score.breakdown);
      expect(parts).toHaveLength(4);
      for (const v of [score.score, ...parts]) expect(Number.isInteger(v) && v >= 0 && v <= 100, `${v}`).toBe(true);
      expect(score.score).toBe(Math.round(parts.reduce((a, b) => a + b, 0) / 4));

      expect(ranking.data.map((e) => e.rank)).toEqual(ranking.data.map((_, n) => n + 1));
      const scores = ranking.data.map((e) => e.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(new Set(ranking.data.map((e) => e.name)).size).toBe(ranking.data.length);
      const mine = ranking.data.filter((e) => e.is_workspace);
      expect(mine.map((e) => e.name)).toEqual([BRAND]);
      expect(mine[0]!.score).toBe(score.score);

      // The trend and each entry's change are against the values read 30 days earlier.
      if (d < TREND_INTERVALS) return;
      const prev = days[d - TREND_INTERVALS]!;
      const delta = score.score - prev.score.score;
      expect(score.trend).toEqual({ direction: delta > 0 ? "up" : delta < 0 ? "down" : "flat", change: Math.abs(delta) });
      const before = new Map(prev.ranking.data.map((e) => [e.name, e.score]));
      for (const e of ranking.data) expect(e.change, `${e.name} on ${ranking.updated_at}`).toBe(e.score - before.get(e.name)!);
    });
    // Over 60 days the trend is not always flat.
    expect(new Set(days.slice(TREND_INTERVALS).map((d) => d.score.trend.direction)).size).toBeGreaterThan(1);

    const moves = rankMoves(days.map((d) => d.ranking));
    expect(moves.changes).toBeGreaterThanOrEqual(2);
    expect(moves.passed).toBeGreaterThanOrEqual(1);
    expect(largestDailyDrop(days.map((d) => d.score.score))).toBeGreaterThanOrEqual(5);
    // Several values, not a constant or a two-state flip.
    expect(new Set(days.map((d) => d.score.score)).size).toBeGreaterThanOrEqual(6);

    // The same days again after a restart, on a sandbox of another size dated from another now: the
    // score and ranking depend on the seed and the instant only.
    const twin = await startSandbox({ port: 0, now: "2027-06-01T09:00:00Z", visitors: 1500, clock: () => NOW_MS });
    try {
      for (const d of [0, 41, 89]) {
        await setClock(twin, { now: new Date(NOW_MS - (89 - d) * DAY).toISOString() });
        const again = await readDay(twin);
        expect(again.scoreText).toBe(days[d]!.scoreText);
        expect(again.rankingText).toBe(days[d]!.rankingText);
      }
    } finally {
      await twin.close();
    }
  });

  it("another seed gives other scores at the same instants", async () => {
    const other = await startSandbox({ port: 0, now: TEST_NOW, visitors: 0, seed: 4242, clock: () => NOW_MS });
    try {
      const mine = await readDay(sb());
      const theirs = await readDay(other);
      expect(theirs.score.updated_at).toBe(mine.score.updated_at);
      expect(theirs.scoreText).not.toBe(mine.scoreText);
      expect(theirs.rankingText).not.toBe(mine.rankingText);
    } finally {
      await other.close();
    }
  });
});

describe("the generator over years (the default seed)", () => {
  it("every 90-day window from 2025 to 2030 has 2+ rank changes, a competitor passing us and a 5-point daily drop", () => {
    const first = Date.UTC(2024, 9, 1) / DAY;
    const last = Date.UTC(2031, 0, 1) / DAY;
    const rankings: RankingJson[] = [];
    const scores: number[] = [];
    for (let d = first; d < last; d++) {
      rankings.push(rankingAt(DEFAULT_SEED, d * DAY));
      scores.push(scoreAt(DEFAULT_SEED, d * DAY).score);
    }
    const weak: string[] = [];
    for (let w = 0; w + 90 <= scores.length; w++) {
      const moves = rankMoves(rankings.slice(w, w + 90));
      const drop = largestDailyDrop(scores.slice(w, w + 90));
      if (moves.changes < 2 || moves.passed < 1 || drop < 5) weak.push(`${rankings[w]!.updated_at}: ${JSON.stringify({ ...moves, drop })}`);
    }
    expect(weak).toEqual([]);
  });
});
