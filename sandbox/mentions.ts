// The demo workspace's AI mentions (a few thousand over the last ~180 days), and the AI Positioning
// Score and competitor ranking derived from them.
import { BRAND, COMPETITORS, MENTION_QUERIES, SNIPPETS, SOLO_SNIPPETS } from "./catalog";
import { PLATFORMS, SENTIMENTS, type MentionListQuery, type TrendDirection } from "./contract";
import { cumulative, hash32, mulberry32, pick, pickWeighted, randInt, type Rng } from "./prng";
import { DAY_MS } from "./visitors";

export type MentionJson = {
  id: string;
  query: string;
  platform: string;
  response_snippet: string;
  position: number;
  sentiment: string;
  competitors_mentioned: string[];
  created_at: string;
};

type MentionRow = MentionJson & { createdMs: number };

export const MENTION_DAYS = 180;
const PLATFORM_CUM = cumulative([40, 15, 25, 20]); // chatgpt, claude, perplexity, gemini

function pickCompetitors(rng: Rng, n: number): string[] {
  const pool = [...COMPETITORS];
  const out: string[] = [];
  while (out.length < n && pool.length) out.push(pool.splice(Math.floor(rng() * pool.length), 1)[0]!);
  return out;
}

const joinNames = (names: string[]) => (names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`);

/** Mentions newest first. About 20 a day, slowly improving in position and sentiment (the trend is up). */
export function generateMentions(seed: number, nowMs: number, count = 3600): MentionRow[] {
  const rng = mulberry32(hash32(seed, 0x6d6e74));
  const rows: MentionRow[] = [];
  for (let i = 0; i < count; i++) {
    const age = rng() * MENTION_DAYS * DAY_MS;
    const createdMs = Math.floor((nowMs - age) / 1000) * 1000;
    const recency = 1 - age / (MENTION_DAYS * DAY_MS); // 0 oldest .. 1 newest
    const platform = PLATFORMS[pickWeighted(rng, PLATFORM_CUM)]!;
    const sentimentIdx = pickWeighted(rng, cumulative([42 + 18 * recency, 36, 16 - 8 * recency]));
    const sentiment = SENTIMENTS[sentimentIdx]!;
    const competitors = pickCompetitors(rng, randInt(rng, 0, 3));
    const position = Math.max(1, Math.min(10, Math.round(1 + -Math.log(1 - rng()) * (3.2 - 1.2 * recency))));
    const query = pick(rng, MENTION_QUERIES)
      .replace("{brand}", BRAND)
      .replace("{competitor}", competitors[0] ?? pick(rng, COMPETITORS));
    // The snippet names exactly the competitors listed in competitors_mentioned.
    const snippet = (competitors.length ? pick(rng, SNIPPETS[sentiment]) : pick(rng, SOLO_SNIPPETS[sentiment]))
      .replaceAll("{brand}", BRAND)
      .replaceAll("{competitors}", joinNames(competitors));
    rows.push({
      id: `mnt_${hash32(seed, i).toString(36).padStart(7, "0")}${i.toString(36)}`,
      query,
      platform,
      response_snippet: snippet,
      position,
      sentiment,
      competitors_mentioned: competitors,
      created_at: new Date(createdMs).toISOString(),
      createdMs,
    });
  }
  rows.sort((a, b) => b.createdMs - a.createdMs || (a.id < b.id ? -1 : 1));
  return rows;
}

export function mentionJson(row: MentionRow): MentionJson {
  const { createdMs: _ms, ...json } = row;
  return json;
}

export function queryMentions(rows: MentionRow[], query: MentionListQuery): { total: number; page: MentionRow[] } {
  const fromMs = query.from ?? -Infinity;
  const toMs = query.to ?? Infinity;
  const matches = rows.filter(
    (m) =>
      (!query.platform || m.platform === query.platform) &&
      (!query.sentiment || m.sentiment === query.sentiment) &&
      m.createdMs >= fromMs &&
      m.createdMs <= toMs,
  );
  return { total: matches.length, page: matches.slice(query.offset, query.offset + query.limit) };
}

// ---------------------------------------------------------------------------------------------
// AI Positioning Score (0-100): four components over the last 30 days of mentions; the trend
// compares with the 30 days before.

export type ScoreJson = {
  score: number;
  trend: { direction: TrendDirection; change: number };
  breakdown: { visibility: number; sentiment: number; authority: number; coverage: number };
  updated_at: string;
};

function components(rows: MentionRow[], fromMs: number, toMs: number) {
  const window = rows.filter((m) => m.createdMs >= fromMs && m.createdMs < toMs);
  const n = window.length;
  if (n === 0) return { visibility: 0, sentiment: 0, authority: 0, coverage: 0 };
  const visibility = Math.round((100 * window.reduce((s, m) => s + (11 - m.position) / 10, 0)) / n);
  const sentiment = Math.round((100 * window.reduce((s, m) => s + (m.sentiment === "positive" ? 1 : m.sentiment === "neutral" ? 0.5 : 0), 0)) / n);
  const authority = Math.round((100 * window.filter((m) => m.position <= 3).length) / n);
  const combos = new Set(window.map((m) => `${m.platform}|${m.query}`));
  const coverage = Math.round((100 * combos.size) / (PLATFORMS.length * MENTION_QUERIES.length * 2.2));
  return { visibility, sentiment, authority, coverage: Math.min(100, coverage) };
}

const scoreOf = (b: ScoreJson["breakdown"]) => Math.round((b.visibility + b.sentiment + b.authority + b.coverage) / 4);

export function scoreJson(rows: MentionRow[], nowMs: number): ScoreJson {
  const breakdown = components(rows, nowMs - 30 * DAY_MS, nowMs + 1);
  const previous = components(rows, nowMs - 60 * DAY_MS, nowMs - 30 * DAY_MS);
  const score = scoreOf(breakdown);
  const delta = rows.length === 0 ? 0 : score - scoreOf(previous);
  return {
    score,
    trend: { direction: delta > 0 ? "up" : delta < 0 ? "down" : "flat", change: Math.abs(delta) },
    breakdown,
    updated_at: new Date(Math.floor(nowMs / 3_600_000) * 3_600_000).toISOString(),
  };
}

/** The workspace among its tracked competitors, best score first. */
export function rankingJson(seed: number, score: ScoreJson | null, nowMs: number) {
  const updated_at = new Date(Math.floor(nowMs / 3_600_000) * 3_600_000).toISOString();
  if (!score) return { updated_at, data: [] };
  const rng = mulberry32(hash32(seed, 0x72616e6b));
  const rows: Array<{ name: string; score: number; change: number; is_workspace: boolean }> = COMPETITORS.map((name) => ({ name, score: randInt(rng, 38, 82), change: randInt(rng, -6, 6), is_workspace: false }));
  rows.push({ name: BRAND, score: score.score, change: score.trend.direction === "down" ? -score.trend.change : score.trend.change, is_workspace: true });
  rows.sort((a, b) => b.score - a.score || (a.is_workspace ? -1 : b.is_workspace ? 1 : a.name.localeCompare(b.name)));
  return { updated_at, data: rows.map((r, i) => ({ rank: i + 1, ...r })) };
}
