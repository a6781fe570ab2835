import { describe, expect, it } from "vitest";
import { countsTest, ratesTest } from "./exact-tests";
import { compareFigures, judge, shareTest, verdictOf, withSignificance } from "./significance";

describe("compareFigures", () => {
  it("tests counts as two Poisson counts and the conversion rate by Fisher's test on its counts", () => {
    const now = { visitors: 1051, ai_visitors: 300, conversions: 30, conversion_rate: 2.85 };
    const before = { visitors: 833, ai_visitors: 290, conversions: 22, conversion_rate: 2.64 };
    const { significant, p_values } = compareFigures(now, before);
    expect(p_values.visitors).toEqual({ p: countsTest(1051, 833)!.p, test: "poisson" });
    expect(significant.visitors).toBe(true); // 1,051 against 833 is far beyond chance
    expect(significant.ai_visitors).toBe(false); // 300 against 290 is noise
    expect(p_values.conversion_rate).toEqual({ p: ratesTest({ conversions: 30, visitors: 1051 }, { conversions: 22, visitors: 833 })!.p, test: "fisher" });
    expect(significant.conversion_rate).toBe(false);
  });

  it("says nothing (null) where nothing can be said: no counts, a figure that is not a count, no visitors", () => {
    const { significant, p_values } = compareFigures(
      { visitors: 0, conversions: 0, mentions: 2.5, avg_position: 2.1, conversion_rate: null, score: 61 },
      { visitors: 0, conversions: 0, mentions: 3, avg_position: 2.4, conversion_rate: 0, score: 55 },
    );
    expect(significant).toEqual({ visitors: null, conversions: null, mentions: null, avg_position: null, conversion_rate: null, score: null });
    expect(p_values.visitors).toBeNull();
  });

  it("goes into nested figures (a platform's sentiment counts)", () => {
    const { significant } = compareFigures(
      { sentiment: { positive: 120, neutral: 40, negative: 2 } },
      { sentiment: { positive: 60, neutral: 41, negative: 3 } },
    );
    expect(significant.sentiment).toEqual({ positive: true, neutral: false, negative: false });
  });

  it("a rate whose counts are missing or odd is null, never a guess", () => {
    expect(compareFigures({ conversion_rate: 5 }, { conversion_rate: 4 }).significant.conversion_rate).toBeNull();
    expect(
      compareFigures({ conversion_rate: 5, conversions: 5, visitors: 3 }, { conversion_rate: 4, conversions: 1, visitors: 10 }).significant.conversion_rate,
    ).toBeNull();
    expect(
      compareFigures({ conversion_rate: 5, conversions: "5", visitors: 100 }, { conversion_rate: 4, conversions: 4, visitors: 100 }).significant
        .conversion_rate,
    ).toBeNull();
  });
});

describe("withSignificance", () => {
  it("adds significant and p_values beside every previous object of figures, at any depth, and nowhere else", () => {
    const answer = {
      from: "2026-10-31",
      previous: { from: "2026-10-01", to: "2026-10-30" }, // a span of dates, not figures
      totals: { visitors: 100, conversions: 10, previous: { visitors: 50, conversions: 12 } },
      data: [
        { source: "chatgpt", visitors: 40, previous: { visitors: 40 } },
        { source: "claude", visitors: 7 },
      ],
      trend: { data: [{ visitors: 3 }], previous: [{ visitors: 4 }] }, // a list of points
    };
    const out = withSignificance(answer);
    expect(out.previous).toEqual({ from: "2026-10-01", to: "2026-10-30" });
    expect(out).not.toHaveProperty("significant");
    expect(out.totals).toMatchObject({ significant: { visitors: true, conversions: false } });
    expect(out.data[0]).toMatchObject({ significant: { visitors: false }, p_values: { visitors: { p: 1, test: "poisson" } } });
    expect(out.data[1]).not.toHaveProperty("significant");
    expect(out.trend).not.toHaveProperty("significant");
    // The answer itself is not changed.
    expect(answer.totals).not.toHaveProperty("significant");
  });
});

describe("verdictOf", () => {
  it("reads a figure's verdict from an answer's row, nested too; null when the answer says nothing can be said", () => {
    const row = withSignificance({ visitors: 10, sentiment: { negative: 30 }, previous: { visitors: 40, sentiment: { negative: 10 } } });
    expect(verdictOf(row, "visitors")).toEqual({ significant: true, p: countsTest(10, 40)!.p, test: "poisson" });
    expect(verdictOf(row, "sentiment", "negative")?.significant).toBe(true);
    expect(verdictOf({ significant: { visitors: null }, p_values: { visitors: null } }, "visitors")).toBeNull();
  });

  it("is undefined when the answer does not say (an upstream without the field), and null for odd values", () => {
    expect(verdictOf({ visitors: 10, previous: { visitors: 9 } }, "visitors")).toBeUndefined();
    expect(verdictOf(null, "visitors")).toBeUndefined();
    expect(verdictOf({ significant: { visitors: "yes" } }, "visitors")).toBeNull();
    expect(verdictOf({ significant: { visitors: true }, p_values: { visitors: { p: "0.01" } } }, "visitors")).toBeNull();
  });
});

describe("judge", () => {
  it("takes the answer's verdict when it carries one, even where the figures would say otherwise", () => {
    const said = { visitors: 10, previous: { visitors: 40 }, significant: { visitors: false }, p_values: { visitors: { p: 0.2, test: "poisson" } } };
    expect(judge(said, "visitors")).toEqual({ significant: false, p: 0.2, test: "poisson" });
  });

  it("works it out from the row's own figures when the answer does not say (a total the page sums), nested too", () => {
    expect(judge({ visitors: 10, previous: { visitors: 40 } }, "visitors")).toEqual(countsTest(10, 40));
    expect(judge({ sentiment: { negative: 30 }, previous: { sentiment: { negative: 10 } } }, "sentiment", "negative")).toEqual(countsTest(30, 10));
    expect(judge({ visitors: 10 }, "visitors")).toBeNull();
    expect(judge({ score: 61, previous: { score: 40 } }, "score")).toBeNull();
  });

  it("shareTest is Fisher's test of a part of a whole", () => {
    expect(shareTest(60, 100, 30, 100)).toEqual(ratesTest({ conversions: 60, visitors: 100 }, { conversions: 30, visitors: 100 }));
    expect(shareTest(1, 0, 1, 10)).toBeNull();
  });
});
