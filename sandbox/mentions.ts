// The demo workspace's AI mentions: a few thousand over the ~180 days before the start instant.
import { BRAND, COMPETITORS, MENTION_QUERIES, SNIPPETS, SOLO_SNIPPETS } from "./catalog";
import { PLATFORMS, SENTIMENTS, type MentionListQuery } from "./contract";
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
    const drawn = Math.max(1, Math.min(10, Math.round(1 + -Math.log(1 - rng()) * (3.2 - 1.2 * recency))));
    const template = pick(rng, MENTION_QUERIES);
    // Asked for alternatives to a competitor, an answer names that competitor's closest rivals
    // first: the brand is never first there (the queries page's "never first").
    const position = template.startsWith("alternatives to") ? Math.max(2, drawn) : drawn;
    // People type the same question in their own way: now and then capitalised, or with a space
    // left at the end (the same query once trimmed and case-folded). Derived from the index, so the
    // draws of every other field stay as they were.
    const variant = hash32(seed, i ^ 0x71) % 12;
    const text = template.replace("{brand}", BRAND).replace("{competitor}", competitors[0] ?? pick(rng, COMPETITORS));
    const query = variant === 0 ? text[0]!.toUpperCase() + text.slice(1) : variant === 1 ? `${text} ` : text;
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
