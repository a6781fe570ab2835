// @vitest-environment jsdom
// A platform's sentiment moves: the positive share, the negative share and the negative mentions
// themselves, each with its change and base (a share can hold while the count of negative mentions
// doubles, which the shares alone would hide).
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import type { PlatformRow } from "@/lib/insights/platforms";
import { PlatformChain } from "./platform-chain";

const figures = { mentions: 0, avg_position: 2.1, visitors: 100, conversions: 5, conversion_rate: 5 };
const row = {
  platform: "claude",
  ...figures,
  mentions: 100,
  sentiment: { positive: 50, neutral: 30, negative: 20 },
  previous: { ...figures, mentions: 50, sentiment: { positive: 25, neutral: 15, negative: 10 } },
} as unknown as PlatformRow;

describe("PlatformChain: the sentiment's moves", () => {
  it("says the positive and negative shares' changes and the negative mentions' change, with their bases", () => {
    renderWithProviders(<PlatformChain row={row} range={{ from: "2026-11-01", to: "2026-11-07", tz: "UTC" }} window="1 Nov – 7 Nov 2026" />);
    const lines = within(screen.getByTestId("sentiment-changes")).getAllByRole("listitem");
    expect(lines.map((l) => l.textContent?.replace(/\s+/g, " ").trim())).toEqual([
      expect.stringMatching(/^Positive share: /),
      expect.stringMatching(/^Negative share: /),
      expect.stringMatching(/^Negative mentions: .*from 10/),
    ]);
    // Doubling from 10 to 20 negative mentions is still within what chance makes (p = 0.099): said in words.
    expect(within(lines[2]!).getByTestId("change-noise").textContent).toBe("normal variation");
    expect(within(lines[2]!).getByTestId("change").dataset.significance).toBe("within");
    // The shares held (50% and 20% both times) while the negative mentions doubled.
    expect(lines[1]!.textContent).toMatch(/from 20\.0%/);
    expect(lines[2]!.textContent).toMatch(/\+100\.0%/);
  });
});
