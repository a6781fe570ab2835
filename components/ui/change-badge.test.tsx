// @vitest-environment jsdom
// The change badge as people get it: what it shows, what a screen reader hears (its accessible
// text), both with the number the change is compared with ("up 25.1% from 835"), and that it never
// says something misleading where there is nothing to compare with.
import { cleanup, screen } from "@testing-library/react";
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
  it("shows and says the relative change, the count it is compared with and the window", () => {
    const { el, spoken, shown } = badge({ current: 1045, previous: 835, unit: "count", window: WINDOW });
    expect(spoken).toBe("up 25.1% from 835 in 2 Oct – 31 Oct 2026");
    expect(shown).toBe("▲+25.1% from 835 in 2 Oct – 31 Oct 2026");
    expect(el.querySelector(".change")!.className).toContain("change-up");
    expect(el.getAttribute("title")).toBe(spoken);
  });

  it("says a fall with a true minus sign, from the larger count", () => {
    const { el, spoken, shown } = badge({ current: 875, previous: 1000, unit: "count", window: WINDOW });
    expect(spoken).toBe("down 12.5% from 1,000 in 2 Oct – 31 Oct 2026");
    expect(shown).toContain("\u221212.5% from 1,000");
    expect(el.querySelector(".change")!.className).toContain("change-down");
  });

  it("says 'no change' when equal, still with its base", () => {
    expect(badge({ current: 400, previous: 400, unit: "count", window: WINDOW }).spoken).toBe("no change from 400 in 2 Oct – 31 Oct 2026");
  });

  it("does not round a small real change to 'no change'", () => {
    expect(badge({ current: 10001, previous: 10000, unit: "count", window: WINDOW }).spoken).toBe("up less than 0.1% from 10,000 in 2 Oct – 31 Oct 2026");
  });

  it("growth from 0 is 'new' from 0, not +100% or infinity", () => {
    const { spoken, shown } = badge({ current: 7, previous: 0, unit: "count", window: WINDOW });
    expect(spoken).toBe("up from 0 in 2 Oct – 31 Oct 2026");
    expect(shown).toBe("▲new from 0 in 2 Oct – 31 Oct 2026");
    expect(shown).not.toMatch(/%|∞|Infinity|NaN/);
  });

  it("0 against 0 is no change from 0", () => {
    expect(badge({ current: 0, previous: 0, unit: "count", window: WINDOW }).spoken).toBe("no change from 0 in 2 Oct – 31 Oct 2026");
  });

  it("an unknown previous figure is '—' with no base and no window claimed, never 'no change'", () => {
    const { el, spoken, shown } = badge({ current: 12, previous: null, unit: "count", window: WINDOW });
    expect(spoken).toBe("no figure to compare in 2 Oct – 31 Oct 2026");
    expect(shown).toBe("▬—");
    expect(el.querySelector('[data-testid="change-base"]')).toBeNull();
    expect(el.querySelector(".change")!.className).toContain("change-flat");
  });

  it("an unknown current figure is 'change unknown'", () => {
    expect(badge({ current: undefined, previous: 5, unit: "count", window: WINDOW }).spoken).toBe("change unknown");
  });

  it("compact (a table whose caption names the window) keeps the base in sight and the window in words", () => {
    const { el, spoken, shown } = badge({ current: 1120, previous: 1000, unit: "count", window: WINDOW, compact: true });
    expect(shown).toBe("▲+12.0% from 1,000");
    expect(el.querySelector('[data-testid="change-base"]')!.textContent).toBe("from 1,000");
    expect(spoken).toBe("up 12.0% from 1,000 in 2 Oct – 31 Oct 2026");
  });
});

describe("ChangeBadge: a rate in points", () => {
  it("says 'up 1 point' in the singular, from the earlier rate", () => {
    const { spoken, shown } = badge({ current: 4.2, previous: 3.2, unit: "rate", window: WINDOW });
    expect(spoken).toBe("up 1.0 point from 3.2% in 2 Oct – 31 Oct 2026");
    expect(shown).toBe("▲+1.0 pt from 3.2% in 2 Oct – 31 Oct 2026");
  });

  it("the issue's example: 4.7% against 3.9% is up 0.8 pts from 3.9%", () => {
    const { spoken, shown } = badge({ current: 4.7, previous: 3.9, unit: "rate", window: WINDOW, compact: true });
    expect(shown).toBe("▲+0.8 pts from 3.9%");
    expect(spoken).toBe("up 0.8 points from 3.9% in 2 Oct – 31 Oct 2026");
  });

  it("says points in the plural otherwise", () => {
    expect(badge({ current: 2.4, previous: 3.9, unit: "rate", window: WINDOW }).spoken).toBe("down 1.5 points from 3.9% in 2 Oct – 31 Oct 2026");
  });

  it("a previous rate of null (no visitors then) is nothing to compare with, not a change", () => {
    const { spoken, shown } = badge({ current: 2.4, previous: null, unit: "rate", window: WINDOW });
    expect(spoken).toBe("no rate to compare in 2 Oct – 31 Oct 2026");
    expect(shown).not.toMatch(/pt|from/);
  });
});

describe("ChangeBadge: a score in points", () => {
  it("its base is a score, not a per cent", () => {
    const { spoken, shown } = badge({ current: 63, previous: 61, unit: "score", window: "the previous period", compact: true });
    expect(shown).toBe("▲+2.0 pts from 61");
    expect(spoken).toBe("up 2.0 points from 61 in the previous period");
  });
});

describe("ChangeBadge: a change Workspace Analytics reported", () => {
  it("a count's per cent change with the figure now: the base worked back, said to be about", () => {
    // 12,345 after +8.4%: 12,345 / 1.084 = 11,388.4.
    const { spoken, shown } = badge({ change: 8.4, current: 12345, unit: "count", window: "the 30 days before" });
    expect(spoken).toBe("up 8.4% from about 11,388 in the 30 days before");
    expect(shown).toBe("▲+8.4% from about 11,388 in the 30 days before");
  });

  it("without the figure now there is no base to say, and none is made up", () => {
    const { el, spoken } = badge({ change: 8.4, unit: "count", window: "the 30 days before" });
    expect(spoken).toBe("up 8.4% vs the 30 days before");
    expect(el.querySelector('[data-testid="change-base"]')).toBeNull();
  });

  it("a fall of 100% has no base to work back", () => {
    expect(badge({ change: -100, current: 0, unit: "count", window: "the 30 days before" }).spoken).toBe("down 100.0% vs the 30 days before");
  });

  it("a score's change in points, singular, with the direction given (a score trend): the base is exact", () => {
    const { el, spoken, shown } = badge({ change: 1, current: 57, unit: "score", direction: "up" });
    expect(spoken).toBe("up 1.0 point from 56");
    expect(shown).toBe("▲+1.0 pt from 56");
    expect(el.querySelector(".change")!.className).toContain("change-up");
  });

  it("a magnitude with its direction takes the direction's sign (never '▼ +3'), and the base follows it", () => {
    const down = badge({ change: 3, current: 53, unit: "score", direction: "down" });
    expect(down.spoken).toBe("down 3.0 points from 56");
    expect(down.el.querySelector(".change")!.className).toContain("change-down");
    expect(down.el.textContent).toContain("\u22123.0");
  });

  it("a negative change with direction up reads up", () => {
    expect(badge({ change: -2, current: 50, unit: "score", direction: "up" }).spoken).toBe("up 2.0 points from 48");
  });

  it("a missing change is 'change unknown'", () => {
    expect(badge({ change: undefined, current: 5, unit: "count", window: "the 30 days before" }).spoken).toBe("change unknown");
  });
});

describe("ChangeBadge: whether the change is beyond chance", () => {
  const within = { significant: false, p: 0.4123, test: "poisson" } as const;
  const beyond = { significant: true, p: 0.0004, test: "fisher" } as const;

  it("a change within normal variation is muted and says so, with the test and p-value spoken and on focus", () => {
    const { el, spoken, shown } = badge({ current: 300, previous: 290, unit: "count", window: WINDOW, significance: within });
    expect(el.querySelector(".change")!.className).toContain("change-muted");
    expect(el.querySelector(".change")!.className).not.toContain("change-up");
    expect(shown).toContain("within normal variation");
    expect(spoken).toBe("up 3.4% from 290 in 2 Oct – 31 Oct 2026, within normal variation (exact test of two Poisson counts, p = 0.41)");
    // Focusable, described by its tooltip: the words and what they mean.
    expect(el.getAttribute("tabindex")).toBe("0");
    const tip = screen.getByRole("tooltip", { hidden: true });
    expect(el.getAttribute("aria-describedby")).toBe(tip.id);
    expect(tip.textContent).toBe("Within normal variation: a change this large can come by chance alone (exact test of two Poisson counts, p = 0.41).");
    expect(el.dataset.significance).toBe("within");
  });

  it("a change beyond chance keeps its colour and says so only in the spoken text and the tooltip", () => {
    const { el, spoken, shown } = badge({ current: 4.7, previous: 2.5, unit: "rate", window: WINDOW, significance: beyond, compact: true });
    expect(el.querySelector(".change")!.className).toContain("change-up");
    expect(shown).not.toContain("variation");
    expect(spoken).toBe("up 2.2 points from 2.5% in 2 Oct – 31 Oct 2026, beyond normal variation (Fisher's exact test, p < 0.001)");
    expect(screen.getByRole("tooltip", { hidden: true }).textContent).toContain("less than 1 time in 20");
  });

  it("in a table (compact) the words are shorter; they still say it", () => {
    const { shown } = badge({ current: 23, previous: 20, unit: "count", window: WINDOW, significance: within, compact: true });
    expect(shown).toContain("normal variation");
    expect(shown).not.toContain("within normal variation");
  });

  it("says nothing of chance where the answer cannot (null), does not say (undefined), or there is no change to judge", () => {
    for (const significance of [null, undefined]) {
      const { el, spoken } = badge({ current: 10, previous: 5, unit: "count", window: WINDOW, significance });
      expect(spoken).toBe("up 100.0% from 5 in 2 Oct – 31 Oct 2026");
      expect(el.getAttribute("tabindex")).toBeNull();
      cleanup();
    }
    const { el } = badge({ current: 5, previous: 5, unit: "count", window: WINDOW, significance: within });
    expect(el.querySelector("[data-testid=change-noise]")).toBeNull();
  });
});
