// Where a row of /queries leads: the question's mentions over the range, filtered on /mentions by
// `query` as written (the route matches it trimmed and case-folded), with the platform filtered on.
import { describe, expect, it } from "vitest";
import { questionMentionsHref } from "./queries-data";

describe("a question's link", () => {
  it("opens the question's mentions of the range (and of the platform filtered on), the question as written", () => {
    const range = { from: "2026-11-01", to: "2026-11-30", tz: "Europe/Berlin" };
    expect(questionMentionsHref(range, "Best tool & more?", "claude")).toBe(
      "/mentions?from=2026-11-01&platform=claude&query=Best+tool+%26+more%3F&to=2026-11-30&tz=Europe%2FBerlin",
    );
    expect(questionMentionsHref(range, "q", null)).toBe("/mentions?from=2026-11-01&query=q&to=2026-11-30&tz=Europe%2FBerlin");
  });
});
