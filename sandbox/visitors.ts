// The demo workspace's visitors, stored column by column in typed arrays (1,000,000 visitors are a
// few tens of MB, not a million objects). Row r is the visitor with the r-th most recent last_seen,
// so the list endpoint's order (last_seen descending) is the row order and needs no sort per query.
import { COUNTRIES, EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES } from "./catalog";
import { AI_SOURCES, KNOWN_INTENTS, SOURCES } from "./contract";
import { cumulative, geometric, hash32, mulberry32, pick, pickWeighted, randInt } from "./prng";

export const DAY_MS = 86_400_000;
/** Visitors are first seen within this many days before now (every period and its previous one has data). */
export const HISTORY_DAYS = 200;

export type VisitorColumns = {
  count: number;
  nowMs: number;
  seed: number;
  /** ms epoch, whole seconds. */
  firstSeen: Float64Array;
  lastSeen: Float64Array;
  source: Uint8Array;
  intent: Uint8Array;
  pages: Uint16Array;
  sessions: Uint8Array;
  /** 1 if the visitor submitted a form (a lead); every converted visitor is a lead. */
  lead: Uint8Array;
  converted: Uint8Array;
  country: Uint8Array;
  /** Index into the country's cities; 255 = anonymous (no email, no city). */
  city: Uint8Array;
};

export const ANONYMOUS = 255;
const AI_SOURCE_INDEX = new Set(AI_SOURCES.map((s) => SOURCES.indexOf(s)));
export const isAiSourceIndex = (i: number): boolean => AI_SOURCE_INDEX.has(i);

// chatgpt, perplexity, claude, gemini, organic, direct, paid, social, referral. AI platforms gain
// share over the history (weights scaled by recency below), ending near a quarter of all traffic.
const SOURCE_WEIGHTS = [11, 5, 4, 3, 30, 18, 9, 11, 9];
// problem_research, solution_comparison, brand_search, pricing_research, support, unknown
const INTENT_WEIGHTS_AI = [34, 30, 6, 14, 4, 12];
const INTENT_WEIGHTS_OTHER = [22, 16, 20, 12, 10, 20];
const LEAD_BY_INTENT = [0.1, 0.22, 0.18, 0.28, 0.04, 0.06];
const COUNTRY_CUM = cumulative(COUNTRIES.map((c) => c.weight));

/** Generates `count` visitors deterministically from `seed`, dated relative to `nowMs`. */
export function generateVisitors(seed: number, count: number, nowMs: number): VisitorColumns {
  const rng = mulberry32(hash32(seed, 0x76697369));
  const nowSec = Math.floor(nowMs / 1000);
  const spanSec = HISTORY_DAYS * 86_400;
  const startSec = nowSec - spanSec;

  // Pass 1: when each visitor came and went. Traffic grows over the history (density 1 + x).
  const first = new Uint32Array(count);
  const last = new Uint32Array(count);
  const sessions = new Uint8Array(count);
  const pages = new Uint16Array(count);
  const keys = new Float64Array(count);
  const g = 1;
  for (let i = 0; i < count; i++) {
    const u = rng();
    const x = (-1 + Math.sqrt(1 + 2 * g * u * (1 + g / 2))) / g;
    const f = Math.min(nowSec, startSec + Math.floor(x * spanSec));
    let s = rng() < 0.72 ? 1 : 2 + geometric(rng, 0.45, 8);
    const p = s + geometric(rng, 0.55, 40);
    const oneSession = () => f + (p === 1 ? 0 : p * randInt(rng, 25, 150));
    let l = s === 1 ? oneSession() : f + Math.floor(3600 + -Math.log(1 - rng()) * 5 * 86_400);
    if (l > nowSec) {
      // Visitors first seen shortly before now have not come back yet; older ones came back at some
      // point before now.
      if (s > 1 && nowSec - f < 6 * 3600) {
        s = 1;
        l = oneSession();
      }
      if (l > nowSec) l = f + Math.floor((nowSec - f) * (s > 1 ? 0.3 + 0.7 * rng() : rng()));
    }
    first[i] = f;
    last[i] = l;
    sessions[i] = s;
    pages[i] = p;
    // last_seen descending, ties by generation index: one numeric sort instead of a comparator.
    keys[i] = l * 2_097_152 + i;
  }
  keys.sort();

  const cols: VisitorColumns = {
    count,
    nowMs,
    seed,
    firstSeen: new Float64Array(count),
    lastSeen: new Float64Array(count),
    source: new Uint8Array(count),
    intent: new Uint8Array(count),
    pages: new Uint16Array(count),
    sessions: new Uint8Array(count),
    lead: new Uint8Array(count),
    converted: new Uint8Array(count),
    country: new Uint8Array(count),
    city: new Uint8Array(count),
  };

  // Pass 2: attributes, in row order (most recent first).
  const sourceWeights = SOURCE_WEIGHTS.slice();
  const aiCum = cumulative(INTENT_WEIGHTS_AI);
  const otherCum = cumulative(INTENT_WEIGHTS_OTHER);
  const sourceCums: Float64Array[] = [];
  for (let b = 0; b <= 10; b++) {
    // AI share grows with recency: x 0.55 at the start of the history, x 1.2 today.
    const k = 0.55 + 0.065 * b;
    sourceCums.push(cumulative(sourceWeights.map((w, i) => (AI_SOURCE_INDEX.has(i) ? w * k : w))));
  }
  for (let r = 0; r < count; r++) {
    const i = keys[count - 1 - r]! % 2_097_152;
    const f = first[i]!;
    const recency = Math.max(0, Math.min(10, Math.round(((f - startSec) / spanSec) * 10)));
    const src = pickWeighted(rng, sourceCums[recency]!);
    const ai = AI_SOURCE_INDEX.has(src);
    const intent = pickWeighted(rng, ai ? aiCum : otherCum);
    const p = pages[i]!;
    const anonymous = rng() < 0.36;
    const country = pickWeighted(rng, COUNTRY_CUM);
    const city = anonymous ? ANONYMOUS : Math.floor(rng() * COUNTRIES[country]!.cities.length);
    let lead = 0;
    let converted = 0;
    // Only identified visitors who read at least two pages submit a form; some leads convert.
    if (!anonymous && p >= 2) {
      const chance = LEAD_BY_INTENT[intent]! * (ai ? 1.35 : 1) * Math.min(2, 0.7 + p * 0.12);
      if (rng() < chance) {
        lead = 1;
        if (rng() < 0.36) converted = 1;
      }
    }
    cols.firstSeen[r] = f * 1000;
    cols.lastSeen[r] = last[i]! * 1000;
    cols.source[r] = src;
    cols.intent[r] = intent;
    cols.pages[r] = p;
    cols.sessions[r] = sessions[i]!;
    cols.lead[r] = lead;
    cols.converted[r] = converted;
    cols.country[r] = country;
    cols.city[r] = city;
  }
  return cols;
}

// ---------------------------------------------------------------------------------------------
// Visitor ids: `vis_` + an opaque 9-character code that encodes the row reversibly (a bijective
// scramble of the row number plus a 2-character check), so lookups need no million-entry map and
// ids of other seeds or sizes are 404s, not someone else's visitor.

const MUL = 0x2c1b3c6d;
const MUL_INV = modInverse32(MUL);

function modInverse32(a: number): number {
  // Newton iteration for the inverse of an odd number modulo 2^32.
  let x = a;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(a, x));
  return x >>> 0;
}

function scramble(row: number, seed: number): number {
  let x = (row ^ (seed & 0xffff)) >>> 0;
  x = Math.imul(x, MUL) >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  return x;
}

function unscramble(code: number, seed: number): number {
  let x = code >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, MUL_INV) >>> 0;
  return (x ^ (seed & 0xffff)) >>> 0;
}

const check = (row: number, seed: number, count: number) => hash32(hash32(seed, count), row) % 1296;

export function visitorId(cols: VisitorColumns, row: number): string {
  const code = scramble(row, cols.seed).toString(36).padStart(7, "0");
  return `vis_${code}${check(row, cols.seed, cols.count).toString(36).padStart(2, "0")}`;
}

/** Row of a visitor id, or -1 when no visitor of this workspace has it. */
export function visitorRow(cols: VisitorColumns, id: string): number {
  const m = /^vis_([0-9a-z]{7})([0-9a-z]{2})$/.exec(id);
  if (!m) return -1;
  const code = parseInt(m[1]!, 36);
  if (code > 0xffffffff) return -1;
  const row = unscramble(code, cols.seed);
  if (row >= cols.count) return -1;
  if (parseInt(m[2]!, 36) !== check(row, cols.seed, cols.count)) return -1;
  return row;
}

// ---------------------------------------------------------------------------------------------
// Rows as API objects.

export type VisitorJson = {
  id: string;
  first_seen: string;
  last_seen: string;
  source: string;
  intent: string;
  pages_viewed: number;
  converted: boolean;
  email?: string;
  country: string;
  city?: string;
};

/** Per-visitor seed: the visitor's e-mail and timeline are derived from it lazily. */
export const visitorSeed = (cols: VisitorColumns, row: number): number => hash32(hash32(cols.seed, 0x7469), row);

export function visitorEmail(cols: VisitorColumns, row: number): string {
  const rng = mulberry32(visitorSeed(cols, row) ^ 0x5bd1e995);
  const first = pick(rng, FIRST_NAMES);
  const last = pick(rng, LAST_NAMES);
  const style = rng();
  const local = style < 0.5 ? `${first}.${last}` : style < 0.8 ? `${first[0]}${last}` : `${first}${randInt(rng, 2, 99)}`;
  return `${local}@${pick(rng, EMAIL_DOMAINS)}`;
}

export function visitorJson(cols: VisitorColumns, row: number): VisitorJson {
  const country = COUNTRIES[cols.country[row]!]!;
  const cityIndex = cols.city[row]!;
  const v: VisitorJson = {
    id: visitorId(cols, row),
    first_seen: new Date(cols.firstSeen[row]!).toISOString(),
    last_seen: new Date(cols.lastSeen[row]!).toISOString(),
    source: SOURCES[cols.source[row]!]!,
    intent: KNOWN_INTENTS[cols.intent[row]!]!,
    pages_viewed: cols.pages[row]!,
    converted: cols.converted[row] === 1,
    // Anonymous visitors have no e-mail and no city: absent, not null (sandbox/README.md "Settled unknowns").
    ...(cityIndex === ANONYMOUS ? {} : { email: visitorEmail(cols, row) }),
    country: country.code,
    ...(cityIndex === ANONYMOUS ? {} : { city: country.cities[cityIndex]! }),
  };
  return v;
}
