// @vitest-environment jsdom
// "What moved alongside the score" as people read it: the components with their value now, their
// change and the value it came from when the history kept them, and in plain words why not when it
// did not (never "not known"); the ranking's moves from the kept history (rank then and now, score
// change and its base), or the upstream's own change named as such.
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { componentMoves, keptChange } from "@/components/intelligence/score-change-data";
import { renderWithProviders } from "@/components/test-utils/render";
import type { ScoreHistory } from "@/lib/history/routes";
import { ComponentMoves, RankMoves } from "./score-movement";

const window = { from: "2026-10-31", to: "2026-11-29", tz: "UTC" };
const score = { score: 53, breakdown: { visibility: 48, sentiment: 68, authority: 49, coverage: 47 } };
const snap = (at: string, parts: [number, number, number, number]) => ({
  at,
  score: 0,
  direction: "down",
  change: 0,
  breakdown: { visibility: parts[0], sentiment: parts[1], authority: parts[2], coverage: parts[3] },
});
const history: ScoreHistory = {
  ...window,
  since: "2026-08-31T00:00:00.000Z",
  demo: null,
  data: [snap("2026-11-02T00:00:00.000Z", [59, 68, 50, 49]), snap("2026-11-29T00:00:00.000Z", [48, 68, 49, 47])],
};

const items = (testId: string) => within(screen.getByTestId(testId)).getAllByRole("listitem");
/** A row's visible text: the badges' spoken words left out (they repeat the figure for screen readers). */
const shown = (li: HTMLElement) => {
  const copy = li.cloneNode(true) as HTMLElement;
  copy.querySelectorAll(".visually-hidden").forEach((n) => n.remove());
  return copy.textContent;
};

describe("the components beside the score", () => {
  it("with kept history: value now, change and the value it came from, over the named window", () => {
    const kept = keptChange(history)!;
    renderWithProviders(<ComponentMoves moves={componentMoves(score, kept)} window={window} firstDay={kept.firstDay} missing={null} />);
    expect(items("movement-components").map(shown)).toEqual([
      "Visibility48 / 100▼−11.0 ptsfrom 59",
      "Sentiment68 / 100▬0.0 ptsfrom 68",
      "Authority49 / 100▼−1.0 ptfrom 50",
      "Coverage47 / 100▼−2.0 ptsfrom 49",
    ]);
    expect(screen.getByTestId("movement-components-note").textContent).toBe(
      "Change over 31 Oct – 29 Nov 2026 (kept from 2 Nov), from the first kept day to the latest.",
    );
  });

  it("without kept history: the values now and, in plain words, that their change was not kept for those days", () => {
    renderWithProviders(<ComponentMoves moves={componentMoves(score, null)} window={window} firstDay={null} missing="not-kept" />);
    expect(items("movement-components").map(shown)).toEqual(["Visibility48 / 100", "Sentiment68 / 100", "Authority49 / 100", "Coverage47 / 100"]);
    expect(screen.queryByTestId("change")).toBeNull();
    const note = screen.getByTestId("movement-components-note").textContent;
    expect(note).toBe("Values now. Their change is not kept for 31 Oct – 29 Nov 2026: the dashboard kept no earlier score in those days.");
    expect(note).not.toContain("not known");
  });

  it("when the history could not be read, says that rather than that the change is unknown", () => {
    renderWithProviders(<ComponentMoves moves={componentMoves(score, null)} window={window} firstDay={null} missing="unavailable" />);
    expect(screen.getByTestId("movement-components-note").textContent).toBe(
      "Values now. Their change over 31 Oct – 29 Nov 2026 could not be read from the kept history.",
    );
  });
});

describe("the ranking's moves beside the score", () => {
  const moves = [
    { name: "Acme", isWorkspace: false, rank: 1, previousRank: 1, score: 66, previousScore: 70, change: -4 },
    { name: "Bolt", isWorkspace: false, rank: 2, previousRank: 3, score: 58, previousScore: 55, change: 3 },
    { name: "Us", isWorkspace: true, rank: 3, previousRank: 2, score: 53, previousScore: 57, change: -4 },
    { name: "Crane", isWorkspace: false, rank: 4, previousRank: null, score: 40, previousScore: null, change: null },
  ];

  it("from the kept history: rank then and now, score change and the score it came from", () => {
    renderWithProviders(<RankMoves moves={moves} window={window} firstDay={window.from} missing={null} />);
    expect(items("movement-ranking").map(shown)).toEqual(["#1 Acme▼−4.0 ptsfrom 70", "#3 UsYou (was #2)▼−4.0 ptsfrom 57", "#2 Bolt (was #3)▲+3.0 ptsfrom 55"]);
    expect(screen.getByTestId("movement-ranking-note").textContent).toBe("Score change over 31 Oct – 29 Nov 2026; “was” is the rank on the first kept day.");
  });

  it("without it, the upstream's own change, named as Workspace Analytics'", () => {
    renderWithProviders(<RankMoves moves={moves} window={window} firstDay={null} missing="not-kept" />);
    expect(screen.getByTestId("movement-ranking-note").textContent).toBe(
      "Workspace Analytics' own 30-day change per competitor (no earlier ranking kept for 31 Oct – 29 Nov 2026); “was” is the rank by the scores before it.",
    );
  });
});
