// @vitest-environment jsdom
// The change badge as people get it: what it shows, what a screen reader hears (its accessible
// text), and that it never says something misleading where there is nothing to compare with.
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { ChangeBadge, type ChangeBadgeProps } from "./change-badge";

const WINDOW = "2 Oct – 31 Oct 2026";

/** Renders a badge; returns what is spoken (the visually hidden statement) and what is shown. */
function badge(props: ChangeBadgeProps) {
  renderWithProviders(<ChangeBadge {...props} />);
  const el = screen.getByTestId("change");
  const spoken = el.querySelector(".visually-hidden")!.textContent;
  const shown = [...el.querySelectorAll('[aria-hidden="true"]')].map((n) => n.textContent).join(" ");
  return { el, spoken, shown };
}

describe("ChangeBadge: a count against the previous period", () => {
  it("says the relative change and the window it compares with", () => {
    const { el, spoken, shown } = badge({ current: 1120, previous: 1000, unit: "count", window: WINDOW });
    expect(spoken).toBe("up 12.0% vs 2 Oct – 31 Oct 2026");
    expect(shown).toBe("▲+12.0% vs 2 Oct – 31 Oct 2026");
    expect(el.querySelector(".change")!.className).toContain("change-up");
    // The tooltip gives the earlier figure itself.
    expect(el.getAttribute("title")).toBe("up 12.0% vs 2 Oct – 31 Oct 2026; 1,000 then");
  });

  it("says a fall with a true minus sign", () => {
    const { el, spoken, shown } = badge({ current: 875, previous: 1000, unit: "count", window: WINDOW });
    expect(spoken).toBe("down 12.5% vs 2 Oct – 31 Oct 2026");
    expect(shown).toContain("\u221212.5%");
    expect(el.querySelector(".change")!.className).toContain("change-down");
  });

  it("says 'no change' when equal", () => {
    expect(badge({ current: 400, previous: 400, unit: "count", window: WINDOW }).spoken).toBe("no change vs 2 Oct – 31 Oct 2026");
  });

  it("does not round a small real change to 'no change'", () => {
    expect(badge({ current: 10001, previous: 10000, unit: "count", window: WINDOW }).spoken).toBe("up less than 0.1% vs 2 Oct – 31 Oct 2026");
  });

  it("growth from 0 is 'new', not +100% or infinity", () => {
    const { spoken, shown } = badge({ current: 7, previous: 0, unit: "count", window: WINDOW });
    expect(spoken).toBe("up from none in 2 Oct – 31 Oct 2026");
    expect(shown).toContain("new");
    expect(shown).not.toMatch(/%|∞|Infinity|NaN/);
  });

  it("0 against 0 is no change, said as such", () => {
    expect(badge({ current: 0, previous: 0, unit: "count", window: WINDOW }).spoken).toBe("no change vs 2 Oct – 31 Oct 2026 (none in either)");
  });

  it("an unknown previous figure is '—' with no window claimed, never 'no change'", () => {
    const { el, spoken, shown } = badge({ current: 12, previous: null, unit: "count", window: WINDOW });
    expect(spoken).toBe("no figure to compare in 2 Oct – 31 Oct 2026");
    expect(shown).toBe("▬—");
    expect(el.querySelector(".change")!.className).toContain("change-flat");
  });

  it("an unknown current figure is 'change unknown'", () => {
    expect(badge({ current: undefined, previous: 5, unit: "count", window: WINDOW }).spoken).toBe("change unknown");
  });

  it("can keep the window out of sight (a table caption names it) while still saying it", () => {
    const { spoken, shown } = badge({ current: 1120, previous: 1000, unit: "count", window: WINDOW, compact: true });
    expect(shown).toBe("▲+12.0%");
    expect(spoken).toBe("up 12.0% vs 2 Oct – 31 Oct 2026");
  });
});

describe("ChangeBadge: a rate in points", () => {
  it("says 'up 1 point' in the singular", () => {
    const { spoken, shown } = badge({ current: 4.2, previous: 3.2, unit: "points", window: WINDOW });
    expect(spoken).toBe("up 1.0 point vs 2 Oct – 31 Oct 2026");
    expect(shown).toBe("▲+1.0 pt vs 2 Oct – 31 Oct 2026");
  });

  it("says points in the plural otherwise, and the earlier rate in the tooltip", () => {
    const { el, spoken } = badge({ current: 2.4, previous: 3.9, unit: "points", window: WINDOW });
    expect(spoken).toBe("down 1.5 points vs 2 Oct – 31 Oct 2026");
    expect(el.getAttribute("title")).toContain("3.9% then");
  });

  it("a previous rate of null (no visitors then) is nothing to compare with, not a change", () => {
    const { spoken, shown } = badge({ current: 2.4, previous: null, unit: "points", window: WINDOW });
    expect(spoken).toBe("no rate to compare in 2 Oct – 31 Oct 2026");
    expect(shown).not.toMatch(/pt/);
  });
});

describe("ChangeBadge: a change the Data API reported", () => {
  it("a percent change with its window", () => {
    expect(badge({ change: 8.4, unit: "percent", window: "the previous 30 days" }).spoken).toBe("up 8.4% vs the previous 30 days");
  });

  it("points, singular, with the direction given (a score trend)", () => {
    const { el, spoken } = badge({ change: 1, unit: "points", direction: "up" });
    expect(spoken).toBe("up 1.0 point");
    expect(el.querySelector(".change")!.className).toContain("change-up");
  });

  it("a magnitude with its direction takes the direction's sign (never '▼ +3'), as a score trend may send it", () => {
    const down = badge({ change: 3, unit: "points", direction: "down" });
    expect(down.spoken).toBe("down 3.0 points");
    expect(down.el.querySelector(".change")!.className).toContain("change-down");
    expect(down.el.textContent).toContain("\u22123.0");
  });

  it("a negative change with direction up reads up", () => {
    expect(badge({ change: -2, unit: "points", direction: "up" }).spoken).toBe("up 2.0 points");
  });

  it("a missing change is 'change unknown'", () => {
    expect(badge({ change: undefined, unit: "percent", window: "the previous 30 days" }).spoken).toBe("change unknown");
  });
});
