// The mentions of one question, however it was written: the highlight on /mentions marks a mention
// when its question, trimmed and lower-cased, is the one a row of /queries opened.
import { describe, expect, it } from "vitest";
import { highlightHref } from "./queries-data";
import { questionKey, sameQuestion } from "./question-key";

describe("one question, however written", () => {
  it("trims and folds case; an empty or missing question is none", () => {
    expect(questionKey("  Best Analytics Tool for SaaS? ")).toBe("best analytics tool for saas?");
    expect(sameQuestion("best analytics tool for SaaS?", " Best Analytics Tool For SaaS?")).toBe(true);
    expect(sameQuestion("best analytics tools for SaaS?", "best analytics tool for SaaS?")).toBe(false);
    expect(sameQuestion(undefined, "x")).toBe(false);
    expect(sameQuestion("   ", "   ")).toBe(false);
  });

  it("a row opens the range's mentions (of the platform filtered on) with the question as written", () => {
    const range = { from: "2026-11-01", to: "2026-11-30", tz: "Europe/Berlin" };
    expect(highlightHref(range, "Best tool & more?", "claude")).toBe(
      "/mentions?from=2026-11-01&highlight=Best+tool+%26+more%3F&platform=claude&to=2026-11-30&tz=Europe%2FBerlin",
    );
    expect(highlightHref(range, "q", null)).toBe("/mentions?from=2026-11-01&highlight=q&to=2026-11-30&tz=Europe%2FBerlin");
  });
});
