// Whether each change an answer carries is beyond chance. Every object of an insights answer that
// compares with an earlier window (`previous: {…}`) also gets `significant: {…}` with the same keys,
// each true, false or null (nothing can be said), and `p_values: {…}` with the same keys, each the
// test and its p-value, or null: a count by the exact test of two Poisson rates, a rate by Fisher's
// exact test on its counts, two-sided at 5% (exact-tests.ts). A key that is neither (an average
// position, a score) is null: there is no count behind it to test. Windows compared are of equal
// length (the previous period, or the same days a year before), so a count's share is one half.
import { countsTest, ratesTest, type Verdict } from "./exact-tests";

/** Figures that count something (visitors, mentions, …): tested as two Poisson counts. */
const COUNT_KEYS = new Set([
  "visitors",
  "ai_visitors",
  "human_visitors",
  "conversions",
  "mentions",
  "pageviews",
  "sessions",
  "positive",
  "neutral",
  "negative",
  "total",
]);

/** Figures that are rates: the counts they are made of, [numerator, denominator], tested by Fisher's test. */
const RATE_KEYS: Record<string, readonly [string, string]> = { conversion_rate: ["conversions", "visitors"] };

export type Significant = boolean | null | { [key: string]: Significant };
export type PValue = { p: number; test: Verdict["test"] } | null | { [key: string]: PValue };

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === "object" && v !== null && !Array.isArray(v);
const count = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : null);

/** The verdict of one figure of `current` against `previous`, or null where nothing can be said. */
export function figureTest(key: string, current: Plain, previous: Plain): Verdict | null {
  if (COUNT_KEYS.has(key)) {
    const [a, b] = [count(current[key]), count(previous[key])];
    return a === null || b === null ? null : countsTest(a, b);
  }
  const parts = RATE_KEYS[key];
  if (parts) {
    const [num, den] = parts;
    const [c1, v1, c2, v2] = [count(current[num]), count(current[den]), count(previous[num]), count(previous[den])];
    if (c1 === null || v1 === null || c2 === null || v2 === null) return null;
    return ratesTest({ conversions: c1, visitors: v1 }, { conversions: c2, visitors: v2 });
  }
  return null;
}

/** `significant` and `p_values` for one object against its `previous`, key by key (nested objects too). */
export function compareFigures(current: Plain, previous: Plain): { significant: Record<string, Significant>; p_values: Record<string, PValue> } {
  const significant: Record<string, Significant> = {};
  const p_values: Record<string, PValue> = {};
  for (const [key, before] of Object.entries(previous)) {
    const now = current[key];
    if (isPlain(before) && isPlain(now)) {
      const inner = compareFigures(now, before);
      significant[key] = inner.significant;
      p_values[key] = inner.p_values;
      continue;
    }
    const verdict = typeof before === "number" ? figureTest(key, current, previous) : null;
    significant[key] = verdict ? verdict.significant : null;
    p_values[key] = verdict ? { p: verdict.p, test: verdict.test } : null;
  }
  return { significant, p_values };
}

/**
 * The answer with `significant` and `p_values` beside every `previous` object, at any depth (a row of
 * a table, a total, the overview's figures). A `previous` that is not an object of figures (a list of
 * points, a span of dates) is left alone. Returns a new value; the answer is not changed.
 */
export function withSignificance<T>(answer: T): T {
  return walk(answer) as T;
}

function walk(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(walk);
  if (!isPlain(value)) return value;
  const out: Plain = {};
  for (const [key, v] of Object.entries(value)) out[key] = key === "previous" ? v : walk(v);
  const previous = value.previous;
  const figures = (p: Plain) =>
    Object.entries(p).some(([k, v]) => (typeof v === "number" && typeof value[k] === "number") || (isPlain(v) && isPlain(value[k])));
  if (isPlain(previous) && figures(previous)) Object.assign(out, compareFigures(value, previous));
  return out;
}

/**
 * What an answer says of one figure's change, for the badge: the verdict, null when the answer says
 * nothing can be said, or undefined when the answer does not say (an upstream without the field).
 * `path` names a nested figure: ["sentiment", "negative"].
 */
export function verdictOf(row: unknown, ...path: string[]): Verdict | null | undefined {
  if (!isPlain(row)) return undefined;
  let significant: unknown = row.significant;
  let pValue: unknown = row.p_values;
  for (const key of path) {
    significant = isPlain(significant) ? significant[key] : undefined;
    pValue = isPlain(pValue) ? pValue[key] : undefined;
  }
  if (significant === undefined) return undefined;
  if (significant === null || typeof significant !== "boolean") return null;
  if (!isPlain(pValue) || typeof pValue.p !== "number" || !Number.isFinite(pValue.p)) return null;
  const test = pValue.test === "fisher" || pValue.test === "binomial" ? pValue.test : "poisson";
  return { significant, p: pValue.p, test };
}

/**
 * A figure's verdict for a badge: the answer's own when it carries one (`significant`/`p_values`),
 * else worked out here from the row's figures and its `previous` by the same tests (a total the page
 * sums itself, an upstream answer without the field). `path` names a nested figure.
 */
export function judge(row: unknown, ...path: string[]): Verdict | null {
  const said = verdictOf(row, ...path);
  if (said !== undefined) return said;
  if (!isPlain(row) || !isPlain(row.previous) || path.length === 0) return null;
  let now: unknown = row;
  let before: unknown = row.previous;
  for (const key of path.slice(0, -1)) {
    now = isPlain(now) ? now[key] : undefined;
    before = isPlain(before) ? before[key] : undefined;
  }
  return isPlain(now) && isPlain(before) ? figureTest(path[path.length - 1]!, now, before) : null;
}

/** A share of a whole (`part` of `whole` now, against before) by Fisher's test: a sentiment's share of the mentions. */
export function shareTest(part: number, whole: number, partBefore: number, wholeBefore: number): Verdict | null {
  return ratesTest({ conversions: part, visitors: whole }, { conversions: partBefore, visitors: wholeBefore });
}

/** Each test by name, as the badge's hover text and the alerts' messages say it. */
export const TEST_NAMES: Record<Verdict["test"], string> = {
  poisson: "exact test of two Poisson counts",
  fisher: "Fisher's exact test",
  binomial: "one-sided binomial test",
};

/** "p = 0.41", "p = 0.003", "p < 0.001": two significant digits, never a false zero. */
export function formatP(p: number): string {
  if (p < 0.001) return "p < 0.001";
  if (p >= 0.995) return "p = 1";
  return `p = ${Number(p.toPrecision(2))}`;
}
