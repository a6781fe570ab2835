// @vitest-environment jsdom
// Sentiment over time as people see it: stacked columns read against a count axis (0 to a round top
// at or above the busiest bucket, a label and gridline per tick), the columns scaled to that axis,
// and the axis following the platform chosen.
import { screen } from "@testing-library/react";
import type { UrlUpdateEvent } from "nuqs/adapters/testing";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import type { SentimentInsight } from "@/lib/insights/sentiment";
import { SentimentOverTime } from "./sentiment-over-time";

const none = { positive: 0, neutral: 0, negative: 0 };
const point = (start: string, positive: number, neutral: number, negative: number, claude = none) => ({
  start,
  positive,
  neutral,
  negative,
  platforms: { chatgpt: { positive, neutral, negative }, claude, perplexity: none, gemini: none },
});

const answer: SentimentInsight = {
  from: "2026-11-01",
  to: "2026-11-03",
  tz: "UTC",
  bucket: "day",
  data: [
    point("2026-11-01T00:00:00.000Z", 10, 5, 2),
    point("2026-11-02T00:00:00.000Z", 20, 10, 7, { positive: 1, neutral: 1, negative: 1 }),
    point("2026-11-03T00:00:00.000Z", 0, 0, 0),
  ],
};

const ticks = () => screen.getAllByTestId("sentiment-y-tick").map((t) => [t.textContent, t.style.bottom]);
const heights = () => [...screen.getByTestId("sentiment-columns").querySelectorAll<HTMLElement>("[title]")].map((c) => c.style.height);

describe("SentimentOverTime", () => {
  it("has a count axis from 0 to a round top above the busiest day, and scales the columns to it", () => {
    renderWithProviders(<SentimentOverTime answer={answer} />);
    const axis = screen.getByTestId("sentiment-y-axis");
    expect(axis.textContent).toContain("Mentions");
    // The busiest day has 37 mentions: the axis runs to 40 in steps of 10.
    expect(ticks()).toEqual([
      ["0", "0%"],
      ["10", "25%"],
      ["20", "50%"],
      ["30", "75%"],
      ["40", "100%"],
    ]);
    expect(heights()).toEqual(["42.5%", "92.5%", "0%"]);
  });

  it("re-scales its axis for the platform chosen, and keeps the choice in the URL", async () => {
    const onUrlUpdate = vi.fn<(event: UrlUpdateEvent) => void>();
    const { user } = renderWithProviders(<SentimentOverTime answer={answer} />, { onUrlUpdate });
    await user.selectOptions(screen.getByTestId("sentiment-platform"), "claude");
    expect(ticks().map((t) => t[0])).toEqual(["0", "1", "2", "3"]);
    expect(heights()).toEqual(["0%", "100%", "0%"]);
    expect(onUrlUpdate.mock.calls.at(-1)![0].queryString).toBe("?platform=claude");
    await user.selectOptions(screen.getByTestId("sentiment-platform"), "all");
    expect(onUrlUpdate.mock.calls.at(-1)![0].queryString).toBe("");
  });

  it("opens on the platform a link names", () => {
    renderWithProviders(<SentimentOverTime answer={answer} />, { searchParams: "?platform=claude" });
    expect((screen.getByTestId("sentiment-platform") as HTMLSelectElement).value).toBe("claude");
    expect(heights()).toEqual(["0%", "100%", "0%"]);
  });
});
