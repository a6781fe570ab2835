// Small deterministic PRNG helpers: the sandbox's data depends only on the seed, never on Math.random.

/** mulberry32: a fast 32-bit generator, good enough for synthetic data. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes two 32-bit values into one (murmur3 finaliser); derives independent per-item seeds. */
export function hash32(a: number, b: number): number {
  let h = (Math.imul(a >>> 0, 0x9e3779b1) ^ (b >>> 0)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export type Rng = () => number;

export const randInt = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));

export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

/** Cumulative weights for `pickWeighted`. */
export function cumulative(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((w, i) => {
    sum += w;
    out[i] = sum;
  });
  for (let i = 0; i < out.length; i++) out[i]! /= sum;
  return out;
}

/** Index drawn with the probabilities given by `cumulative(weights)`. */
export function pickWeighted(rng: Rng, cum: Float64Array): number {
  const u = rng();
  for (let i = 0; i < cum.length; i++) if (u < cum[i]!) return i;
  return cum.length - 1;
}

/** Geometric count >= 0 with continuation probability p. */
export function geometric(rng: Rng, p: number, max: number): number {
  let n = 0;
  while (n < max && rng() < p) n++;
  return n;
}

/** FNV-1a over a string's UTF-16 units: a stable seed from an identity such as an item's id. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
