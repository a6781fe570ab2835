// @vitest-environment jsdom
// The score card's change as people read it: from the kept history, the badge and its window in
// words (the history legend's figure and wording); without it, the upstream's trend named as
// Workspace Analytics' own; and the widget reading the history through the history cards' own query,
// so an answer already there for the window is the one it shows.
import { QueryClient } from "@tanstack/react-query";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import type { ScoreHistory } from "@/lib/history/routes";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { rangeParams } from "@/lib/range/date-range";
import { ScoreChange, ScoreChangeLine } from "./score-change";

const window = { from: "2026-10-31", to: "2026-11-29", tz: "UTC" };
const snap = (at: string, score: number) => ({
  at,
  score,
  direction: "down",
  change: 5,
  breakdown: { visibility: score, sentiment: score, authority: score, coverage: score },
});
const score = {
  score: 53,
  trend: { direction: "down", change: 5 },
  breakdown: { visibility: 53, sentiment: 53, authority: 53, coverage: 53 },
  updated_at: "2026-11-29T00:00:00.000Z",
};

/** The badge's visible text ("▼−4.0 pts") and what it says to screen readers. */
const badge = () => {
  const change = screen.getByTestId("change");
  return { shown: change.querySelector(".change")!.textContent, spoken: change.querySelector(".visually-hidden")!.textContent };
};

describe("ScoreChangeLine", () => {
  it("with kept history: the change over the window, the window and its two values beside it", () => {
    renderWithProviders(<ScoreChangeLine view={{ source: "kept", window, firstDay: window.from, first: 57, last: 53, change: -4 }} direction="down" />);
    expect(screen.getByTestId("score-change").dataset.source).toBe("kept");
    expect(badge()).toEqual({ shown: "▼−4.0 pts", spoken: "down 4.0 points" });
    expect(screen.getByTestId("score-change-words").textContent).toBe("31 Oct – 29 Nov 2026: 57 → 53");
    expect(screen.getByTestId("score-change").textContent).not.toMatch(/Workspace Analytics|trend/);
  });

  it("without it: the upstream's trend, signed by its direction and named as Workspace Analytics' own", () => {
    renderWithProviders(<ScoreChangeLine view={{ source: "upstream", window, why: "not-kept", change: 5, direction: "down" }} direction="down" />);
    expect(screen.getByTestId("score-change").dataset.source).toBe("upstream");
    expect(badge()).toEqual({ shown: "▼−5.0 pts", spoken: "down 5.0 points" });
    expect(screen.getByTestId("score-change-words").textContent).toBe("Workspace Analytics' own 30-day trend; no earlier score kept for 31 Oct – 29 Nov 2026");
  });

  it("says a direction it does not know as sent, beside the upstream's trend", () => {
    renderWithProviders(<ScoreChangeLine view={{ source: "upstream", window, why: "unavailable", change: 2, direction: "flat" }} direction="sideways" />);
    expect(screen.getByTestId("score-change-words").textContent).toBe(
      "Workspace Analytics' own 30-day trend; the kept history could not be read (direction sideways)",
    );
    expect(screen.getByTestId("unknown-value").textContent).toBe("sideways");
  });

  it("while the history is read, says so instead of showing either figure", () => {
    renderWithProviders(<ScoreChangeLine view={{ source: "pending", window }} />);
    expect(screen.getByTestId("loading").textContent).toContain("31 Oct – 29 Nov 2026: reading the kept history…");
    expect(screen.queryByTestId("change")).toBeNull();
  });
});

describe("ScoreChange", () => {
  const history = (data: ScoreHistory["data"]): ScoreHistory => ({ ...window, since: "2026-08-31T00:00:00.000Z", demo: null, data });
  const seeded = (answer: ScoreHistory) => {
    const queryClient = new QueryClient({
      defaultOptions: { queries: { retry: false, gcTime: Number.POSITIVE_INFINITY, staleTime: Number.POSITIVE_INFINITY } },
    });
    // The history card's own query of the header's last 30 days, in UTC: the score's window here.
    queryClient.setQueryData(apiQuery(browserApi, "/history/score", { query: rangeParams(window) }).queryKey, answer);
    return queryClient;
  };

  it("shows the change the history card's answer for the window gives", async () => {
    const queryClient = seeded(history([snap("2026-10-31T00:00:00.000Z", 57), snap("2026-11-29T00:00:00.000Z", 53)]));
    renderWithProviders(<ScoreChange score={score} />, { queryClient });
    expect((await screen.findByTestId("score-change-words")).textContent).toBe("31 Oct – 29 Nov 2026: 57 → 53");
    expect(badge().shown).toBe("▼−4.0 pts");
  });

  it("shows the upstream's trend, named, when that answer holds only the score's own day", async () => {
    const queryClient = seeded(history([snap("2026-11-29T00:00:00.000Z", 53)]));
    renderWithProviders(<ScoreChange score={score} />, { queryClient });
    expect((await screen.findByTestId("score-change-words")).textContent).toBe(
      "Workspace Analytics' own 30-day trend; no earlier score kept for 31 Oct – 29 Nov 2026",
    );
    expect(badge().shown).toBe("▼−5.0 pts");
  });
});
