// The AI Positioning Score and the competitor ranking as they move over time. Both are recomputed once
// a day (at 00:00 UTC): the answer for an instant is that day's, a pure function of the seed and the
// day's index, computed in a bounded number of steps for any day (seeded value noise plus the few drop
// events that can still be recovering), so moving the sandbox's clock anywhere costs nothing.
import { BRAND, COMPETITORS } from "./catalog";
import type { TrendDirection } from "./contract";
import { hash32 } from "./prng";
import { DAY_MS } from "./visitors";

/** The score and ranking are recomputed once per interval; `updated_at` is the interval's start. */
export const SCORE_INTERVAL_MS = DAY_MS;

/**
 * The trend and the ranking's `change` compare with the values this many intervals earlier: 30 days,
 * the window over which the dashboard's /intelligence shows what moved alongside the score's change.
 */
export const TREND_INTERVALS = 30;

export type ScoreJson = {
  score: number;
  trend: { direction: TrendDirection; change: number };
  breakdown: { visibility: number; sentiment: number; authority: number; coverage: number };
  updated_at: string;
};

export type RankingRow = { rank: number; name: string; score: number; change: number; is_workspace: boolean };
export type RankingJson = { updated_at: string; data: RankingRow[] };

type Breakdown = ScoreJson["breakdown"];
const COMPONENTS = ["visibility", "sentiment", "authority", "coverage"] as const satisfies ReadonlyArray<keyof Breakdown>;

/** The interval an instant falls in (whole intervals since the epoch; negative before 1970). */
export const intervalOf = (ms: number): number => Math.floor(ms / SCORE_INTERVAL_MS);

/** A seeded value in [-1, 1]. */
const unit = (h: number): number => (h / 4294967295) * 2 - 1;

/**
 * Seeded value noise: a smooth wander of at most ±`amp` whose turning points lie about `wavelength`
 * intervals apart; each stream has its own phase so the lattice points of different series differ.
 */
function wander(seed: number, stream: number, i: number, wavelength: number, amp: number): number {
  const h = hash32(seed, stream);
  const x = i + (h % wavelength);
  const k = Math.floor(x / wavelength);
  const t = (x - k * wavelength) / wavelength;
  const a = unit(hash32(h, k));
  const b = unit(hash32(h, k + 1));
  return amp * (a + (b - a) * t * t * (3 - 2 * t));
}

/** Day-to-day noise: independent per interval, at most ±`amp`. */
const jitter = (seed: number, stream: number, i: number, amp: number): number => amp * unit(hash32(hash32(seed, stream), i));

// Drop events: one per block of DROP_BLOCK intervals (at a seeded interval inside the block), so every
// window of twice the block holds at least one. A drop takes DROP_MIN..DROP_MAX points off the score
// at once and wears off over DROP_RECOVERY intervals; it hits visibility and authority hardest, as
// when an AI platform stops citing the brand.
const DROP_BLOCK = 45;
const DROP_MIN = 9;
const DROP_MAX = 14;
const DROP_RECOVERY = 24;
const DROP_WEIGHTS: Breakdown = { visibility: 1.5, sentiment: 0.6, authority: 1.5, coverage: 0.4 };

/** What the drop events still active at interval `i` take off the score (before the weights). */
function dropAt(seed: number, i: number): number {
  const h = hash32(seed, 0x64726f70);
  const phase = h % DROP_BLOCK;
  const block = Math.floor((i + phase) / DROP_BLOCK);
  let total = 0;
  // DROP_RECOVERY < DROP_BLOCK: only this block's event and the previous one's can be active.
  for (const k of [block - 1, block]) {
    const e = hash32(h, k);
    const start = k * DROP_BLOCK - phase + 2 + (e % (DROP_BLOCK - 4));
    const age = i - start;
    if (age < 0 || age >= DROP_RECOVERY) continue;
    const size = DROP_MIN + (hash32(e, 1) % (DROP_MAX - DROP_MIN + 1));
    total += size * (1 - age / DROP_RECOVERY) ** 1.5;
  }
  return total;
}

const clampScore = (v: number): number => Math.max(0, Math.min(100, Math.round(v)));

/** Each component's long-run level for this seed. */
function levels(seed: number): Breakdown {
  const base: Breakdown = { visibility: 64, sentiment: 71, authority: 52, coverage: 58 };
  const out = { ...base };
  COMPONENTS.forEach((c, n) => (out[c] = base[c] + (hash32(seed, 0x6c766c + n) % 9) - 4));
  return out;
}

/** The workspace's components at interval `i`. */
function breakdownAt(seed: number, i: number): Breakdown {
  const level = levels(seed);
  // A market-wide wander moves every component together; each also wanders on its own.
  const shared = wander(seed, 0x6d6b74, i, 37, 5) + wander(seed, 0x6d6b75, i, 11, 2.5);
  const drop = dropAt(seed, i);
  const out = { ...level };
  COMPONENTS.forEach((c, n) => {
    const own = wander(seed, 0x636d70 + n, i, 23, 4) + jitter(seed, 0x6a7472 + n, i, 0.8);
    out[c] = clampScore(level[c] + shared + own - drop * DROP_WEIGHTS[c]);
  });
  return out;
}

/** The score is the rounded mean of its four components. */
const scoreOf = (b: Breakdown): number => Math.round((b.visibility + b.sentiment + b.authority + b.coverage) / 4);

// Competitors sit at these distances from the workspace's level (in a seeded order), so the two or
// three nearest cross it from time to time while the leader and the laggards mostly stay put.
const COMPETITOR_OFFSETS = [16, 8, 4, -4, -9, -14, -21] as const;

function competitorScores(seed: number, i: number): number[] {
  const level = levels(seed);
  const ours = (level.visibility + level.sentiment + level.authority + level.coverage) / 4;
  const order = COMPETITORS.map((_, j) => j).sort((a, b) => hash32(seed, 0x6f7264 + a) - hash32(seed, 0x6f7264 + b));
  return COMPETITORS.map((_, j) => {
    const offset = COMPETITOR_OFFSETS[order.indexOf(j) % COMPETITOR_OFFSETS.length]!;
    const stream = 0x636f6d00 + j * 4;
    return clampScore(ours + offset + wander(seed, stream, i, 29, 6) + wander(seed, stream + 1, i, 9, 1.5) + jitter(seed, stream + 2, i, 0.5));
  });
}

const intervalStart = (i: number): string => new Date(i * SCORE_INTERVAL_MS).toISOString();

/** The score at instant `nowMs`; the trend compares it with the score TREND_INTERVALS earlier. */
export function scoreAt(seed: number, nowMs: number): ScoreJson {
  const i = intervalOf(nowMs);
  const breakdown = breakdownAt(seed, i);
  const score = scoreOf(breakdown);
  const delta = score - scoreOf(breakdownAt(seed, i - TREND_INTERVALS));
  return {
    score,
    trend: { direction: delta > 0 ? "up" : delta < 0 ? "down" : "flat", change: Math.abs(delta) },
    breakdown,
    updated_at: intervalStart(i),
  };
}

/**
 * The workspace among its tracked competitors at instant `nowMs`, best score first (a tie puts the
 * workspace first, then names in order). `change` is each entry's score change over TREND_INTERVALS,
 * so the workspace's equals its score's signed trend.
 */
export function rankingAt(seed: number, nowMs: number): RankingJson {
  const i = intervalOf(nowMs);
  const now = competitorScores(seed, i);
  const before = competitorScores(seed, i - TREND_INTERVALS);
  const rows: Array<Omit<RankingRow, "rank">> = COMPETITORS.map((name, j) => ({ name, score: now[j]!, change: now[j]! - before[j]!, is_workspace: false }));
  const score = scoreOf(breakdownAt(seed, i));
  rows.push({ name: BRAND, score, change: score - scoreOf(breakdownAt(seed, i - TREND_INTERVALS)), is_workspace: true });
  rows.sort((a, b) => b.score - a.score || (a.is_workspace ? -1 : b.is_workspace ? 1 : a.name.localeCompare(b.name)));
  return { updated_at: intervalStart(i), data: rows.map((r, n) => ({ rank: n + 1, ...r })) };
}

/** The empty workspace: nothing measured yet, so a zero score and no ranking, still dated by interval. */
export function emptyScoreAt(nowMs: number): ScoreJson {
  return {
    score: 0,
    trend: { direction: "flat", change: 0 },
    breakdown: { visibility: 0, sentiment: 0, authority: 0, coverage: 0 },
    updated_at: intervalStart(intervalOf(nowMs)),
  };
}

export const emptyRankingAt = (nowMs: number): RankingJson => ({ updated_at: intervalStart(intervalOf(nowMs)), data: [] });
