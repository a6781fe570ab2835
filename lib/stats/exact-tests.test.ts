// The exact tests against values computed independently (exact rational arithmetic over every
// outcome, the same numbers R's binom.test and fisher.test give): small cases, large counts against
// the normal approximation they approach, zeros, equal counts, and what cannot be tested.
import { describe, expect, it } from "vitest";
import { binomialCdf, binomialTwoSided, countsTest, dropTest, logGamma, ratesTest, regularizedBeta } from "./exact-tests";

/** The two-sided normal tail, for large counts where the exact tests approach it. */
function normalTwoSided(z: number): number {
  // Abramowitz and Stegun 7.1.26 for erfc: enough for a check to three decimals.
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  return erfc;
}

describe("special functions", () => {
  it("ln Γ and the incomplete beta agree with known values", () => {
    expect(logGamma(1)).toBeCloseTo(0, 12);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 10);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
    expect(regularizedBeta(0.5, 2, 2)).toBeCloseTo(0.5, 12);
    expect(regularizedBeta(0.3, 1, 1)).toBeCloseTo(0.3, 12);
    expect(binomialCdf(3, 10, 0.5)).toBeCloseTo(0.171875, 12);
  });
});

describe("countsTest: two Poisson counts of equal windows", () => {
  it.each([
    [10, 20, 0.09873714670538902],
    [20, 10, 0.09873714670538902],
    [3, 7, 0.34375],
    [1045, 835, 1.400049545983504e-6],
  ])("%i against %i: p = %f", (a, b, p) => {
    const v = countsTest(a, b)!;
    expect(v.p).toBeCloseTo(p, 10);
    expect(v.p / p).toBeCloseTo(1, 7);
    expect(v.significant).toBe(p < 0.05);
    expect(v.test).toBe("poisson");
  });

  it("equal counts are no change (p = 1); a single event is not significant; zeros say nothing", () => {
    expect(countsTest(500, 500)).toEqual({ p: 1, significant: false, test: "poisson" });
    expect(countsTest(1, 0)!.significant).toBe(false);
    expect(countsTest(0, 5)!.p).toBeCloseTo(0.0625, 12);
    expect(countsTest(0, 6)!.significant).toBe(true);
    expect(countsTest(0, 0)).toBeNull();
  });

  it("large counts approach the normal approximation", () => {
    const v = countsTest(500_000, 501_000)!;
    expect(v.p).toBeCloseTo(normalTwoSided(999 / Math.sqrt(1_001_000)), 2);
    expect(v.significant).toBe(false);
    expect(countsTest(500_000, 505_000)!.significant).toBe(true);
  });

  it("windows of unequal length weigh the count by its share of the time", () => {
    expect(countsTest(7, 13, 0.3)!.p).toBeCloseTo(0.6294979666766777, 10);
    expect(countsTest(1, 19, 0.3)!.p).toBeCloseTo(0.012775421309321414, 10);
    expect(binomialTwoSided(29, 59, 29 / 59)).toBe(1);
  });

  it("is nothing for what is not a count", () => {
    for (const [a, b] of [
      [-1, 3],
      [1.5, 3],
      [Number.NaN, 3],
      [3, Number.POSITIVE_INFINITY],
    ] as const)
      expect(countsTest(a, b)).toBeNull();
  });
});

describe("ratesTest: Fisher's exact test of two conversion rates", () => {
  it.each([
    [{ conversions: 3, visitors: 4 }, { conversions: 1, visitors: 4 }, 0.4857142857142857],
    [{ conversions: 1, visitors: 10 }, { conversions: 11, visitors: 14 }, 0.0027594561852200836],
    [{ conversions: 23, visitors: 491 }, { conversions: 5, visitors: 197 }, 0.284983240609496],
    [{ conversions: 106, visitors: 3813 }, { conversions: 100, visitors: 3400 }, 0.7234191778074398],
  ])("%o against %o: p = %f", (a, b, p) => {
    const v = ratesTest(a, b)!;
    expect(v.p).toBeCloseTo(p, 10);
    expect(v.significant).toBe(p < 0.05);
    expect(v.test).toBe("fisher");
    // The windows' order does not matter.
    expect(ratesTest(b, a)!.p).toBeCloseTo(p, 10);
  });

  it("a million visitors a window: close to the two-proportion z-test, and fast", () => {
    const a = { conversions: 30_000, visitors: 1_000_000 };
    const b = { conversions: 30_500, visitors: 1_000_000 };
    const pooled = 60_500 / 2_000_000;
    const z = (0.0305 - 0.03) / Math.sqrt(pooled * (1 - pooled) * (2 / 1_000_000));
    expect(ratesTest(a, b)!.p).toBeCloseTo(normalTwoSided(z), 2);
  });

  it("the same rate is no change; no visitors, or more conversions than visitors, say nothing", () => {
    expect(ratesTest({ conversions: 5, visitors: 100 }, { conversions: 5, visitors: 100 })!.p).toBeCloseTo(1, 12);
    expect(ratesTest({ conversions: 0, visitors: 10 }, { conversions: 0, visitors: 12 })).toEqual({ p: 1, significant: false, test: "fisher" });
    expect(ratesTest({ conversions: 0, visitors: 0 }, { conversions: 3, visitors: 10 })).toBeNull();
    expect(ratesTest({ conversions: 3, visitors: 10 }, { conversions: 0, visitors: 0 })).toBeNull();
    expect(ratesTest({ conversions: 11, visitors: 10 }, { conversions: 3, visitors: 10 })).toBeNull();
  });
});

describe("dropTest: a day against the 7 before it, one-sided", () => {
  it.each([
    [2, 70, 0.004236473163163418],
    [10, 70, 0.5832257179524183],
  ])("%i against %i: p = %f", (day, before, p) => {
    expect(dropTest(day, before)!.p).toBeCloseTo(p, 10);
    expect(dropTest(day, before)!.test).toBe("binomial");
  });

  it("a day above its week is no drop; nothing at all says nothing", () => {
    expect(dropTest(40, 70)!.significant).toBe(false);
    expect(dropTest(0, 0)).toBeNull();
    expect(dropTest(0, 3)!.significant).toBe(false);
    expect(dropTest(0, 30)!.significant).toBe(true);
  });
});
